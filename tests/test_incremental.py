"""A build that remembers (issue 25): after any sequence of edits, the site an incremental build leaves is,
file by file, the site a clean full build makes from the same content; a killed build leaves the last
complete site and the next build is right; a build with nothing changed does nothing.

The content is Warzone 4.1 as shipped (every kind, chapters, a glossary with forms) and the small test game
(a second game in the games menu), edited at random with a fixed seed: an entry's text or name, a
glossary term's forms, game.yaml, the project's mkdocs.yml, a template override; an entry added, removed or
renamed.
"""
from __future__ import annotations

import gzip
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from conftest import CONTENT, MINI, ROOT

from kodeks.project import load_and_check
from kodeks.site.build import build_site, parse_cache

GAMES = ("warzone-4-1", "ciernie-i-gwiazdy")  # the second is the small test fixture's, not the shipped one
STEPS = int(os.environ.get("KODEKS_INCREMENTAL_STEPS", "10"))
TEMPLATES = ROOT / "tools" / "kodeks" / "templates"


def _yaml() -> YAML:
    y = YAML()
    y.preserve_quotes = True
    y.width = 4096
    return y


def _tree(site: Path) -> dict[str, bytes]:
    """Every file of a site by its path, with the build date of the sitemap taken out (mkdocs writes the day
    of the build there, the one thing a later build may change without any input changing)."""
    out = {}
    for folder, _, names in os.walk(site):
        for name in names:
            path = Path(folder, name)
            data = path.read_bytes()
            if name == "sitemap.xml.gz":
                data = gzip.decompress(data)
            if name.startswith("sitemap.xml"):
                data = re.sub(rb"<lastmod>[^<]*</lastmod>", b"", data)
            out[path.relative_to(site).as_posix()] = data
    return out


def _same_site(a: Path, b: Path) -> None:
    ta, tb = _tree(a), _tree(b)
    only_a, only_b = sorted(ta.keys() - tb.keys()), sorted(tb.keys() - ta.keys())
    differ = sorted(k for k in ta.keys() & tb.keys() if ta[k] != tb[k])
    assert not (only_a or only_b or differ), (
        f"incremental site differs from the full build: only incremental {only_a[:10]}, only full {only_b[:10]}, "
        f"different {differ[:10]} ({len(differ)} files)")


class Project:
    """A project folder (content of GAMES, mkdocs.yml, a templates folder) that the test edits."""

    def __init__(self, root: Path):
        self.root = root
        self.content = root / "content"
        shutil.copytree(CONTENT / GAMES[0], self.content / GAMES[0])
        shutil.copytree(MINI / GAMES[1], self.content / GAMES[1])
        shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")
        self.templates = root / "templates"
        self.templates.mkdir()
        self.n = 0

    def check(self):
        return load_and_check(self.content, self.root)

    def files(self) -> list[Path]:
        return sorted(p for p in self.content.rglob("*.yaml") if p.name != "game.yaml")

    def entries(self, path: Path):
        data = _yaml().load(path.read_text(encoding="utf-8"))
        return data, (data if isinstance(data, list) else [data])

    def save(self, path: Path, data) -> None:
        with path.open("w", encoding="utf-8") as fh:
            _yaml().dump(data, fh)


OPS = ["text", "name", "term", "game", "mkdocs", "template", "add", "remove", "rename"]


def _edit(p: Project, rng: random.Random, kb, op: str) -> str:
    """One edit of the kind `op`, at a random place; returns what it did."""
    p.n += 1
    if op == "game":
        path = p.content / rng.choice(GAMES) / "game.yaml"
        data = _yaml().load(path.read_text(encoding="utf-8"))
        data["name"]["en"] = f"{data['name']['en']} {p.n}"
        p.save(path, data)
        return f"game.yaml name of {path.parent.name}"
    if op == "mkdocs":
        path = p.root / "mkdocs.yml"
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"^site_description: .*$", f"site_description: Opis {p.n} / Description {p.n}", text,
                               count=1, flags=re.M), encoding="utf-8")
        return "mkdocs.yml site_description"
    if op == "template":
        name = rng.choice(["entry.md.j2", "kind.md.j2"])
        (p.templates / name).write_text((TEMPLATES / name).read_text(encoding="utf-8")
                                        + f"\n\nSzablon {p.n}.\n", encoding="utf-8")
        return f"template override {name}"
    path = rng.choice([f for f in p.files() if op != "term" or f.parent.name == "term"])
    data, items = p.entries(path)
    item = rng.choice(items)
    key = next((k for k in kb.entries if k.id == item["id"] and k.game == path.parts[-3]
                and k.kind == path.parent.name), None)
    if op == "text":
        field = "summary" if "summary" in item else "name"
        item[field]["pl"] = f"{item[field]['pl']} (zmiana {p.n})"
    elif op == "name":
        item["name"]["pl"] = f"{item['name']['pl']} {p.n}"
    elif op == "term":
        # A word some page shows becomes one of the term's forms: the glossary links it wherever it stands.
        words = re.findall(r"\b[a-ząćęłńóśźż]{7,}\b", (p.content / GAMES[0] / "rule").joinpath(
            rng.choice(sorted(os.listdir(p.content / GAMES[0] / "rule")))).read_text(encoding="utf-8"))
        item.setdefault("forms", {}).setdefault("pl", []).append(rng.choice(words))
    elif op == "add":
        new = _yaml().load(_dump(item))
        new["id"] = f"{item['id']}-kopia-{p.n}"
        new["name"]["pl"] = f"{new['name']['pl']} (kopia {p.n})"
        new["name"]["en"] = f"{new['name']['en']} (copy {p.n})"
        for field in ("number", "aliases", "former_ids", "forms", "abbreviations", "synonyms"):
            new.pop(field, None)
        if not isinstance(data, list):
            return _edit(p, rng, kb, op)
        data.append(new)
    elif op in ("remove", "rename"):
        if key is None or kb.backrefs.get(key) or kb.children(kb.entries[key]) or not isinstance(data, list) \
                or len(data) < 2:
            return _edit(p, rng, kb, op)  # another entry: this one is linked to, or alone in its file
        if op == "remove":
            data.remove(item)
        else:
            item["id"] = f"{item['id']}-nowe"
    p.save(path, data)
    return f"{op} {path.relative_to(p.content)} {item['id']}"


def _valid_edit(p: Project, rng: random.Random, op: str) -> str:
    """`_edit`, again elsewhere while the validator refuses the result (a dangling link, a clash of forms):
    a refused edit is undone first."""
    snapshot = {f: f.read_bytes() for f in [*p.content.rglob("*.yaml"), p.root / "mkdocs.yml"]}
    kb = p.check().kb
    for _ in range(20):
        what = _edit(p, rng, kb, op)
        if p.check().ok:
            break
        for f in p.content.rglob("*.yaml"):
            if f not in snapshot:
                f.unlink()
        for f, data in snapshot.items():
            f.write_bytes(data)
    return what


def _dump(item) -> str:
    import io
    buf = io.StringIO()
    _yaml().dump(item, buf)
    return buf.getvalue()


def _build(p: Project, out: Path, clean: bool = False):
    # As `kodeks build` does: the content read with the parse cache of the builds into `out`, unless clean.
    checked = load_and_check(p.content, p.root, parse_cache=None if clean else parse_cache(out))
    assert checked.ok, [x.format() for x in checked.problems.errors]
    return build_site(checked.kb, p.root, out, p.templates, pdf=False, content=p.content, clean=clean)


def test_incremental_builds_equal_full_builds_after_random_edits(tmp_path):
    p = Project(tmp_path / "project")
    rng = random.Random(25)
    inc = tmp_path / "inc"
    first = _build(p, inc)
    assert first.rendered == first.pages  # nothing to take from: every page is rendered
    again = _build(p, inc)
    assert again.unchanged and again.rendered == {"pl": 0, "en": 0}
    done = []
    ops = OPS[:]
    rng.shuffle(ops)  # every kind of edit once, in a random order; then random ones
    ops += [rng.choice(OPS) for _ in range(max(0, STEPS - len(ops)))]
    for step, op in enumerate(ops[:STEPS]):
        done.append(_valid_edit(p, rng, op))
        result = _build(p, inc)
        full = tmp_path / f"full-{step}"
        reference = _build(p, full, clean=True)
        assert sum(result.rendered.values()) <= sum(reference.rendered.values())
        try:
            _same_site(inc / "site", full / "site")
        except AssertionError as exc:
            raise AssertionError(f"after {done}: {exc}") from None
        shutil.rmtree(full)
        print(f"{done[-1]}: rendered {result.rendered} of {result.pages}")
    assert len(done) == STEPS


def test_a_build_with_nothing_changed_does_nothing(tmp_path):
    p = Project(tmp_path / "project")
    out = tmp_path / "out"
    _build(p, out)
    page = next((out / "site").rglob("*.html"))
    stamp = page.stat().st_mtime_ns
    result = _build(p, out)
    assert result.unchanged
    assert page.stat().st_mtime_ns == stamp
    # One entry's text: only the pages that show it are rendered; the rest are the last build's files.
    path = p.content / "warzone-4-1" / "skill"
    target = sorted(path.glob("*.yaml"))[0]
    data, items = p.entries(target)
    items[0]["summary"]["en"] = items[0]["summary"]["en"] + " Changed."
    p.save(target, data)
    result = _build(p, out)
    assert 0 < result.rendered["en"] < result.pages["en"] / 10
    assert result.rendered["pl"] == 0  # the Polish pages do not show the English summary


def test_clean_renders_every_page(tmp_path):
    p = Project(tmp_path / "project")
    out = tmp_path / "out"
    _build(p, out)
    result = _build(p, out, clean=True)
    assert result.rendered == result.pages


@pytest.mark.parametrize("delay", [1.0, 3.0, 6.0])
def test_a_killed_build_leaves_the_last_site_and_the_next_build_is_right(tmp_path, delay):
    p = Project(tmp_path / "project")
    out = tmp_path / "out"
    _build(p, out)
    before = _tree(out / "site")
    target = sorted((p.content / "warzone-4-1" / "rule").glob("*.yaml"))[0]
    data, items = p.entries(target)
    items[0]["name"]["pl"] = items[0]["name"]["pl"] + " (nowa)"
    p.save(target, data)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "tools"))
    proc = subprocess.Popen([sys.executable, "-m", "kodeks", "build", "--no-pdf", "--out", str(out),
                             "--content", str(p.content), "--templates", str(p.templates)],
                            cwd=p.root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    if proc.poll() is None:
        proc.send_signal(signal.SIGKILL)
    proc.wait()
    after = _tree(out / "site")
    full = tmp_path / "full"
    _build(p, full, clean=True)
    if after != before:  # it finished: the new site, whole
        _same_site(out / "site", full / "site")
    _build(p, out)
    _same_site(out / "site", full / "site")
    assert not list(out.glob(".work-*")) and not list(out.glob(".site-old-*"))


def test_stored_pages_equal_rendered_pages_after_random_edits(tmp_path):
    """The page store (site/pagecache.py) at the level of the Markdown, where many edits cost little: after
    each edit, every page taken from the store is the page rendering gives, in both languages, and a small
    edit renders few pages."""
    from kodeks.site import pagecache, pages, record
    p = Project(tmp_path / "project")
    rng = random.Random(2501)
    ops = [op for op in OPS if op != "mkdocs"] * 3  # mkdocs.yml is not read by the Markdown
    rng.shuffle(ops)
    counts: dict[str, list[int]] = {}
    for step, op in enumerate(["start"] + ops):
        what = _valid_edit(p, rng, op) if op != "start" else "first build"
        checked = p.check()
        assert checked.ok
        kb = checked.kb
        for lang in ("pl", "en"):
            env = pages.templates(p.templates)
            store = pagecache.Store(tmp_path / f"{lang}.pickle",
                                    pagecache.key(kb, lang, record.engine(), p.templates))
            stored, rendered = store.render(kb, pages.makers(kb, lang, env))
            fresh = {path: make() for path, make in pages.makers(kb, lang, pages.templates(p.templates)).items()}
            differ = sorted(path for path in fresh if stored.get(path) != fresh[path])
            assert stored.keys() == fresh.keys() and not differ, f"step {step} ({what}), {lang}: {differ[:10]}"
            counts.setdefault(op, []).append(rendered)
    n = len(fresh)
    assert counts["start"][0] == n
    # An entry's text touches the pages that show it, not the game. (A name shows in more places: a chapter's
    # name in the path above each of its sections; a glossary term's, in the links of every text.)
    assert 0 < max(counts["text"]) < n / 10, counts
    again = pagecache.Store(tmp_path / "en.pickle", pagecache.key(kb, "en", record.engine(), p.templates))
    assert again.render(kb, pages.makers(kb, "en", pages.templates(p.templates)))[1] == 0
