"""Where things are: the project root, content/, build/, and how a run loads and checks content."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import checks
from .content.loader import Loaded, load
from .problems import Problems


def find_root(start: Path | None = None) -> Path:
    """The nearest folder upwards that has content/ or mkdocs.yml; else the current folder."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "mkdocs.yml").is_file() and (folder / "content").is_dir():
            return folder
    return here


@dataclass
class Checked:
    loaded: Loaded
    problems: Problems

    @property
    def kb(self):
        return self.loaded.kb

    @property
    def ok(self) -> bool:
        return not self.problems.errors


def load_and_check(content: Path, root: Path | None = None, extra: list[Path] | None = None) -> Checked:
    """Load content/ and run every check; the model is usable only when `ok`."""
    problems = Problems(root=root or content.parent)
    loaded = load(content, problems)
    checks.run(loaded, problems)
    return Checked(loaded, problems)
