import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MINI = ROOT / "tests" / "fixtures" / "mini"
CONTENT = ROOT / "content"


def run_kodeks(*args, cwd=ROOT, check=False):
    """Run the real CLI in a subprocess; returns CompletedProcess with text output."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "tools"), COLUMNS="200", NO_COLOR="1")
    proc = subprocess.run([sys.executable, "-m", "kodeks", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=900)
    if check and proc.returncode != 0:
        raise AssertionError(f"kodeks {' '.join(map(str, args))} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc


@pytest.fixture
def mini(tmp_path):
    """A writable copy of the mini fixture content (one game, a few entries of each kind)."""
    dest = tmp_path / "content"
    shutil.copytree(MINI, dest)
    return dest


@pytest.fixture(scope="session")
def real_build(tmp_path_factory):
    """The shipped content, validated and built once for the whole session (both languages)."""
    out = tmp_path_factory.mktemp("real")
    run_kodeks("build", "--out", out, check=True)
    return out / "site"


CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright, shared by every test that needs a real browser."""
    pw = pytest.importorskip("playwright.sync_api")
    if not os.path.exists("/usr/bin/chromium"):
        pytest.skip("Debian's chromium is not installed")
    with pw.sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        yield b
        b.close()
