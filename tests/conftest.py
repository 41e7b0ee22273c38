import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MINI = ROOT / "tests" / "fixtures" / "mini"
CONTENT = ROOT / "content"


# Only a hang should stop a test, never a slow machine: the limit is far above any build seen here (a full
# build of the shipped content took 20 s on an idle machine and 960 s on a busy one).
HANG = 3 * 3600


def run_kodeks(*args, cwd=ROOT, check=False):
    """Run the real CLI in a subprocess; returns CompletedProcess with text output."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "tools"), COLUMNS="200", NO_COLOR="1")
    started = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, "-m", "kodeks", *map(str, args)], cwd=cwd, env=env,
                              capture_output=True, text=True, timeout=HANG)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"kodeks {' '.join(map(str, args))} still ran after {time.monotonic() - started:.0f} s: "
                             f"a hang, or a machine {os.cpu_count()} cores and {_load()} busy") from None
    if check and proc.returncode != 0:
        raise AssertionError(f"kodeks {' '.join(map(str, args))} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc


def _load() -> str:
    try:
        return f"load {os.getloadavg()[0]:.1f}"
    except OSError:
        return "load unknown"


@pytest.fixture
def mini(tmp_path):
    """A writable copy of the mini fixture content (one game, a few entries of each kind)."""
    dest = tmp_path / "content"
    shutil.copytree(MINI, dest)
    return dest


@pytest.fixture(scope="session")
def real_build(tmp_path_factory):
    """The shipped content, validated and built once for the whole session (both languages), into
    build/test: the build remembers, so a second run with nothing changed takes seconds, and a change renders
    only the pages it touches (tests/test_incremental.py shows such a site equals a clean build).
    KODEKS_TEST_SITE=path/to/site reuses a site built by hand (while working on tests of the built site)."""
    if os.environ.get("KODEKS_TEST_SITE"):
        return Path(os.environ["KODEKS_TEST_SITE"]).resolve()
    out = ROOT / "build" / "test"
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
