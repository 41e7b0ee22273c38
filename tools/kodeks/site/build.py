"""Build the site: write each language's pages, run mkdocs for PL and EN in parallel, swap the result in.

The site in build/site is replaced only by a complete, successful build: everything is built in a fresh
folder under build/ and exchanged with the old site in one atomic rename. A failed or killed build leaves
the previous site as it was.
"""
from __future__ import annotations

import ctypes
import html
import json
import os
import pickle
import posixpath
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import yaml as pyyaml  # mkdocs' own dependency; writes the generated mkdocs config

from ..model.kb import KnowledgeBase
from ..outdir import OutputError, claim, disk_full, explain, make, mark, ours
from ..project import gc_paused
from . import escape, pages, record, urls
from .mkdocs_worker import NAV, PAGES

LANGS = ("pl", "en")
HERE = Path(__file__).resolve().parent


@dataclass
class BuildResult:
    site: Path
    pages: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0
    redirects: int = 0
    search_docs: dict[str, int] = field(default_factory=dict)
    rendered: dict[str, int] = field(default_factory=dict)  # pages that went through mkdocs, per language
    unchanged: bool = False  # nothing the site is made from changed since the last build: nothing was done


class BuildError(Exception):
    def __init__(self, message: str, details: list[str] | None = None):
        super().__init__(message)
        self.details = details or []


@contextmanager
def reported():
    """A refused output folder or a failed write (disk full, read-only...) as a BuildError: one line that
    says what to do, instead of a traceback."""
    try:
        yield
    except OutputError as exc:
        raise BuildError(str(exc)) from exc
    except OSError as exc:
        raise BuildError(explain(exc)) from exc


def _alternate(lang: str) -> list[dict]:
    # Links are prefixes from this language's site root to the other language's root; the overridden
    # partials/alternate.html appends the current page, so the switch lands on the same entry.
    if lang == "pl":
        return [{"name": "Polski", "lang": "pl", "link": ""}, {"name": "English", "lang": "en", "link": "en/"}]
    return [{"name": "Polski", "lang": "pl", "link": "../"}, {"name": "English", "lang": "en", "link": ""}]


ODDS_PREFIX = "\0odds/"  # the calculators' scripts among the pages of the store: no page's path starts so


def base_config(root: Path) -> Path:
    """The project's mkdocs.yml, or kodeks' own when the project has none."""
    own = root / "mkdocs.yml"
    if own.is_file():
        return own
    from ..content.schemas import schema_dir
    return schema_dir().parent / "mkdocs.yml"


def write_language(kb: KnowledgeBase, lang: str, work: Path, root: Path, template_dir: Path | None,
                   pdf_cache: Path | None = None,
                   search=None, pages_file: bool = False, page_store: Path | None = None,
                   clean: bool = False) -> tuple[Path, int]:
    """Write one language's docs folder and mkdocs config; returns (config path, page count). With
    `pages_file`, the pages go into one file beside the config, for `Mkdocs.submit`, instead of the folder.
    `page_store`: the pages of the last build and what they were made from (`pages.all_pages`); `clean`: not
    taken from it."""
    docs = work / lang / "docs"
    docs.mkdir(parents=True)
    from . import odds_pages
    # The calculators' data scripts are made from the model as pages are, and kept with them.
    scripts = odds_pages.scripts(kb, lang)
    md = pages.all_pages(kb, lang, template_dir, store=page_store, fresh=clean,
                         extra={ODDS_PREFIX + name: make for name, make in scripts.items()})
    made = {name[len(ODDS_PREFIX):]: md.pop(name) for name in [n for n in md if n.startswith(ODDS_PREFIX)]}
    if pages_file:
        with open(work / lang / PAGES, "wb") as fh:
            pickle.dump(md, fh, protocol=pickle.HIGHEST_PROTOCOL)
    else:
        for rel, text in md.items():
            target = docs / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
    shutil.copytree(HERE / "assets", docs / "assets")
    from ..search import browser, index
    browser.write(docs / "assets", search or index.build(kb, lang))
    odds_pages.write(kb, lang, docs / "assets", made)
    if pdf_cache is not None:
        from ..cards.publish import publish
        publish(kb, lang, docs, pdf_cache)
    config = {
        "INHERIT": str(base_config(root)),
        "docs_dir": str(docs),
        "site_dir": str(work / lang / "site"),
        "theme": {"language": lang, "custom_dir": str(HERE / "overrides")},
        "nav": pages.nav(kb, lang),
        "extra": {"alternate": _alternate(lang), "kodeks_lang": lang,
                  "kodeks_games_label": "Gry" if lang == "pl" else "Games",
                  "kodeks_games": [{"name": escape.title(g.name.plain(lang)), "link": urls.html_path(urls.game_index(gid))}
                                   for gid, g in sorted(kb.games.items(), key=lambda kv: kv[1].name.plain(lang))]},
    }
    path = work / lang / "mkdocs.yml"
    (work / lang / "key.txt").write_text(record.language_key(config, base_config(root)), encoding="utf-8")
    if pages_file:
        # The worker reads the navigation from JSON: mkdocs' own YAML loader takes 0.8 s on a 10,000-entry nav.
        with open(work / lang / NAV, "w", encoding="utf-8") as fh:
            json.dump(config.pop("nav"), fh, ensure_ascii=False)
    # libyaml's emitter: the nav of a large game is thousands of items (10k entries: 1 s -> 0.1 s).
    dumper = getattr(pyyaml, "CSafeDumper", pyyaml.SafeDumper)
    path.write_text(pyyaml.dump(config, Dumper=dumper, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path, len(md)


class Mkdocs:
    """mkdocs for each language, each run in a fresh process started for it (kodeks.site.mkdocs_worker).

    A fresh interpreter renders as fast as `mkdocs build` run on its own: it does not carry the model's
    million objects, and nothing of the parent is copied page by page as it would be after a fork. With
    `parallel`, two languages render at once and `submit` returns at once, so the caller can write the
    next language's pages meanwhile; otherwise each `submit` waits for its language to finish.
    """

    def __init__(self, parallel: bool = True):
        self.parallel = parallel
        self.procs: dict[str, tuple[subprocess.Popen, Path, Path]] = {}
        self.outcomes: dict[str, dict] = {}
        # The worker is found where this kodeks is, installed or not.
        path = os.environ.get("PYTHONPATH")
        self.env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parents[1])] + ([path] if path else []))}

    def submit(self, lang: str, config: Path, old_site: Path | None = None) -> None:
        """Build the site of `config`, with the pages write_language put beside it; pages made from the same
        inputs as in `old_site` are taken from it (site/partial.py)."""
        result, errors = config.with_name("mkdocs-result.json"), config.with_name("mkdocs-stderr.txt")
        for stale in (result, errors):
            stale.unlink(missing_ok=True)
        pages_file = config.with_name(PAGES)
        with errors.open("wb") as err:
            extra = ([str(pages_file)] if pages_file.exists() else [])
            extra += ["--key", config.with_name("key.txt").read_text(encoding="utf-8")]
            if old_site is not None:
                extra += ["--old", str(old_site)]
            proc = subprocess.Popen([sys.executable, "-m", "kodeks.site.mkdocs_worker", str(config), str(result),
                                     str(os.getpid())] + extra,
                                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, env=self.env)
        self.procs[lang] = (proc, result, errors)
        self.outcomes.pop(lang, None)
        if not self.parallel:
            self._result(lang)

    def _result(self, lang: str) -> list[str]:
        if lang not in self.outcomes:
            proc, result, errors = self.procs[lang]
            proc.wait()
            try:
                self.outcomes[lang] = json.loads(result.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                try:
                    tail = errors.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-5:]
                except OSError:
                    tail = []
                self.outcomes[lang] = {"error": f"the process stopped (exit status {proc.returncode})",
                                       "details": tail}
            result.unlink(missing_ok=True)
            errors.unlink(missing_ok=True)
        outcome = self.outcomes[lang]
        if "error" in outcome:
            error, details = outcome["error"], outcome.get("details") or []
            # mkdocs' process that hits a full disk often cannot even write why it stopped.
            if disk_full(text="\n".join([error, *details]), folder=result.parent):
                raise BuildError(f"mkdocs failed: disk full; {error} (fix: free some space, or build elsewhere "
                                 f"with --out DIR)", details)
            raise BuildError(f"mkdocs failed: {error}", details)
        return outcome["warnings"]

    def warnings(self) -> dict[str, list[str]]:
        """Wait for every language; its warnings (a broken link is one), or BuildError if mkdocs failed."""
        return {lang: self._result(lang) for lang in self.procs}

    def rendered(self, lang: str) -> int | None:
        """How many pages of `lang` went through mkdocs (None: not counted)."""
        return self.outcomes.get(lang, {}).get("rendered")

    def __enter__(self) -> "Mkdocs":
        return self

    def __exit__(self, *exc) -> None:
        # On the way out with an error, a language still rendering is of no use.
        for proc, _, _ in self.procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def _redirect_html(target: str, lang: str = "pl") -> str:
    t = html.escape(target, quote=True)
    words = "Przeniesiono" if lang == "pl" else "Moved"
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>{words}</title>'
            f'<meta http-equiv="refresh" content="0; url={t}"><link rel="canonical" href="{t}"></head>'
            f'<body><a href="{t}">{t}</a></body></html>\n')


def write_redirects(kb: KnowledgeBase, site: Path) -> int:
    """Old addresses (former ids, rule addresses without their number) lead to the current page."""
    n = 0
    for entry in kb.entries.values():
        new = urls.html_path(urls.entry_path(entry))
        for old_md in urls.redirect_paths(entry):
            old = urls.html_path(old_md)
            if old == new:
                continue
            for prefix in ("", "en/"):
                target = site / prefix / old
                if target.exists():
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                rel = posixpath.relpath(new, posixpath.dirname(old) or ".")
                target.write_text(_redirect_html(rel, "en" if prefix else "pl"), encoding="utf-8")
                n += 1
    return n


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths (Linux renameat2 RENAME_EXCHANGE); False if unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):
        return False
    AT_FDCWD, RENAME_EXCHANGE = -100, 2
    res = fn(AT_FDCWD, os.fsencode(str(a)), AT_FDCWD, os.fsencode(str(b)), RENAME_EXCHANGE)
    return res == 0


def swap_in(new_site: Path, final: Path) -> None:
    """Put `new_site` at `final`, replacing what was there without a moment with no site."""
    if not final.exists():
        os.rename(new_site, final)
        return
    if _exchange(new_site, final):
        shutil.rmtree(new_site, ignore_errors=True)  # it now holds the old site
        return
    old = final.with_name(f".site-old-{os.getpid()}")
    os.rename(final, old)
    os.rename(new_site, final)
    shutil.rmtree(old, ignore_errors=True)


def _alive(work_name: str) -> bool:
    """Is the build that owns .work-<pid>-... still running (another build in the same folder)?"""
    try:
        pid = int(work_name.split("-")[1])
        os.kill(pid, 0)
    except (ValueError, IndexError, ProcessLookupError):
        return False
    except PermissionError:
        return True
    return pid != os.getpid()


def _work_folder(folder: Path) -> bool:
    """Whether `folder` (.work-*) is a build's work folder: marked, or killed before it was marked (then it
    holds nothing but what a build writes first)."""
    if ours(folder):
        return True
    try:
        return folder.is_dir() and not folder.is_symlink() and all(
            c.name in ("pl", "en", "search") for c in folder.iterdir())
    except OSError:
        return False


def recover(out: Path) -> None:
    """If a build died between the two renames of the fallback swap, put the old site back."""
    final = out / "site"
    if final.exists():
        return
    olds = [old for old in sorted(out.glob(".site-old-*")) if ours(old)]
    if olds:
        os.rename(olds[-1], final)


def build_site(kb: KnowledgeBase, root: Path, out: Path, template_dir: Path | None = None,
               progress=None, parallel: bool = True, pdf: bool = True, content: Path | None = None,
               clean: bool = False) -> BuildResult:
    """Build both languages into out/site (and the command line's index into out/search). Raises BuildError
    (old site untouched) on failure, also when out/site or out/search is a folder kodeks did not make.

    The build remembers (site/record.py): with `content` (the folder `kb` was read from) and nothing it
    reads changed since the last build, nothing is done; otherwise only pages whose inputs changed are
    rendered, the others are taken from the last site. `clean` renders every page."""
    with reported():
        return _build_site(kb, root, out, template_dir, progress, parallel, pdf, content, clean)


def _last_site(out: Path, clean: bool) -> Path | None:
    """The last complete site, if a build may take pages from it."""
    site = out / "site"
    if clean or not site.is_dir() or site.is_symlink() or not ours(site):
        return None
    return site


def _build_site(kb: KnowledgeBase, root: Path, out: Path, template_dir: Path | None, progress, parallel: bool,
                pdf: bool, content: Path | None, clean: bool) -> BuildResult:
    start = time.perf_counter()
    out = out.absolute()  # mkdocs reads the paths in the generated config relative to the config's folder
    for made in ("site", "search"):  # before any work: a folder of the user's stops the build at once
        claim(out / made)
    out.mkdir(parents=True, exist_ok=True)
    recover(out)
    last = _last_site(out, clean)
    before = record.read(last) if last is not None else {}
    sources = None
    if content is not None:
        sources = record.sources(content, base_config(root), template_dir, {"pdf": pdf})
        if before.get("sources") == sources and all(_search_made(out / "search" / lang) == before.get("search", {}).get(lang)
                                                   for lang in LANGS):
            return BuildResult(site=out / "site", pages=dict(before.get("pages", {})), unchanged=True,
                               rendered={lang: 0 for lang in LANGS}, redirects=before.get("redirects", 0),
                               search_docs=dict(before.get("search_docs", {})),
                               seconds=time.perf_counter() - start)
    for stale in out.glob(".work-*"):
        if _work_folder(stale) and not _alive(stale.name):
            shutil.rmtree(stale, ignore_errors=True)  # left by a killed build
    try:
        work = Path(tempfile.mkdtemp(prefix=f".work-{os.getpid()}-", dir=out))
    except OSError as exc:  # named after the folder the author gave, not the random name that failed
        raise BuildError(explain(exc, out)) from exc
    try:
        mark(work)
        result = BuildResult(site=out / "site")
        pdf_cache = out / ".cache" / "pdf" if pdf else None
        with Mkdocs(parallel) as mkdocs:
            # Each language's pages, browser and command-line search indexes. With `parallel`, English is
            # made in a forked copy of this process while Polish is made here (and then rendered by mkdocs):
            # after a small edit mkdocs has little to do, and the pages are most of the build.
            child = _fork_language(kb, "en", work, root, template_dir, pdf_cache, out, clean) if parallel else None
            engines, searches = {}, {}
            try:
                for lang in LANGS:
                    if progress:
                        progress(f"pages ({lang.upper()})")
                    if child is not None and lang == child[1]:
                        result.pages[lang] = _wait_child(child, work, "pages")["pages"]
                    else:
                        result.pages[lang], searches[lang] = _pages(kb, lang, work, root, template_dir, pdf_cache, out, clean)
                    if progress:
                        progress(f"mkdocs ({lang.upper()})")
                    old = None if last is None else (last if lang == "pl" else last / "en")
                    mkdocs.submit(lang, work / lang / "mkdocs.yml", old_site=old)
                if progress:
                    progress("search index")
                # While mkdocs renders.
                for lang, search in searches.items():
                    engines[lang] = _engine(kb, lang, search, work, out)
                if child is not None:
                    engines[child[1]] = _wait_child(child, work, "made")
                    os.waitpid(child[0], 0)
                    child = None
            finally:
                if child is not None:  # stopped by an error here: the other language is of no use
                    os.kill(child[0], signal.SIGKILL)
                    os.waitpid(child[0], 0)
            for lang in LANGS:
                result.search_docs[lang] = engines[lang]["search_docs"]
            search_digests = {lang: engines[lang]["search"] for lang in LANGS}
            if progress:
                progress("mkdocs")
            warnings = mkdocs.warnings()
            result.rendered = {lang: mkdocs.rendered(lang) for lang in LANGS}
        for lang, ws in warnings.items():
            result.warnings += [f"[{lang}] {w}" for w in ws]
        if result.warnings:
            raise BuildError("mkdocs reported problems; the previous site was kept", result.warnings)
        if progress:
            progress("offline app")
        site = work / "pl" / "site"
        from . import pwa, themefiles
        for lang_site in (site, work / "en" / "site"):
            themefiles.remove(lang_site)  # before the worker's precache list and version are made
        pwa.write(site, kb, "pl")
        pwa.write(work / "en" / "site", kb, "en")
        os.rename(work / "en" / "site", site / "en")
        result.redirects = write_redirects(kb, site)
        mark(site)
        record.write(site, {"sources": sources, "options": {"pdf": pdf}, "pages": result.pages, "redirects": result.redirects,
                            "search": search_digests, "search_docs": result.search_docs})
        claim(out / "search")  # again: it may have appeared while mkdocs ran
        make(out / "search")
        for lang in LANGS:
            if not (work / "search" / lang).exists():
                continue  # kept
            final = out / "search" / lang
            shutil.rmtree(final, ignore_errors=True)
            os.rename(work / "search" / lang, final)
        if progress:
            progress("swap")
        claim(out / "site")
        swap_in(site, out / "site")
        result.seconds = time.perf_counter() - start
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)


def parse_cache(out: Path) -> Path:
    """Where the data of the content's YAML files is kept between builds into `out` (content/parsecache.py)."""
    return out / ".cache" / "yaml.pickle"


def page_store(out: Path, lang: str) -> Path:
    """Where the pages of `lang` are kept between builds (site/pagecache.py)."""
    return out / ".cache" / "pages" / f"{lang}.pickle"


def _pages(kb: KnowledgeBase, lang: str, work: Path, root: Path, template_dir: Path | None,
           pdf_cache: Path | None, out: Path, clean: bool = False):
    """One language's pages (beside its mkdocs config) and assets, in `work`; (page count, search index)."""
    from ..search.index import build as build_search
    with gc_paused():
        search = build_search(kb, lang)
        _, n = write_language(kb, lang, work, root, template_dir, pdf_cache, search=search, pages_file=True,
                              page_store=page_store(out, lang), clean=clean)
    return n, search


def _engine(kb: KnowledgeBase, lang: str, search, work: Path, out: Path) -> dict:
    """The command-line search index, into work/search/<lang>, to replace the old one with the site; an index
    made from the same documents as the one in out/search is not made again."""
    from ..search.engine import build as build_engine
    digest = _search_digest(search)
    if _search_made(out / "search" / lang) == digest:
        return {"search_docs": len(search.docs), "search": digest}
    with gc_paused():
        docs = build_engine(kb, lang, work / "search" / lang, search)
    (work / "search" / lang / SEARCH_DIGEST).write_text(digest, encoding="utf-8")
    return {"search_docs": docs, "search": digest}


def _fork_language(kb: KnowledgeBase, lang: str, work: Path, root: Path, template_dir: Path | None,
                   pdf_cache: Path | None, out: Path, clean: bool) -> tuple[int, str] | None:
    """`_pages`, then `_engine`, in a forked copy of this process (the model is shared, not rebuilt); (pid,
    lang), or None where fork is not available. It says when its pages are written (<lang>-pages.json in
    `work`, so that mkdocs can start on them) and when it is done (<lang>-made.json)."""
    if not hasattr(os, "fork"):
        return None
    pid = os.fork()
    if pid:
        return pid, lang
    code = 1
    try:
        from .mkdocs_worker import die_with_parent
        die_with_parent()
        data: dict = {}
        try:
            n, search = _pages(kb, lang, work, root, template_dir, pdf_cache, out, clean)
            _say(work / f"{lang}-pages.json", {"pages": n})
            data = {"pages": n, **_engine(kb, lang, search, work, out)}
            code = 0
        except OSError as exc:
            data = {"error": explain(exc)}
        except BaseException as exc:  # noqa: BLE001 - the parent reports it
            data = {"error": f"{type(exc).__name__}: {exc}"}
        _say(work / f"{lang}-made.json", data)
    finally:
        os._exit(code)


def _say(path: Path, data: dict) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, path)


def _wait_child(child: tuple[int, str], work: Path, what: str) -> dict:
    """What the forked language process said in <lang>-<what>.json, once it has; BuildError if it failed."""
    pid, lang = child
    path = work / f"{lang}-{what}.json"
    done = work / f"{lang}-made.json"
    delay = 0.005
    while not path.exists() and not done.exists():
        ended, _ = os.waitpid(pid, os.WNOHANG)
        if ended and not path.exists() and not done.exists():
            raise BuildError(f"making the {lang.upper()} pages failed: the process stopped")
        time.sleep(delay)
        delay = min(delay * 2, 0.1)
    if not path.exists():  # it failed before writing its pages
        path = done
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise BuildError(f"making the {lang.upper()} pages failed: the process stopped") from None
    if "error" in data:
        raise BuildError(f"making the {lang.upper()} pages failed: {data['error']}")
    return data


SEARCH_DIGEST = "made-from.txt"  # in each language's command-line index: the digest of what it was made from


def _search_made(folder: Path) -> str | None:
    try:
        return (folder / SEARCH_DIGEST).read_text(encoding="utf-8") if (folder / "index.json").is_file() else None
    except OSError:
        return None


def _search_digest(built) -> str:
    """The command line's search index is made from these alone (search/engine.py)."""
    import hashlib
    h = hashlib.sha256(json.dumps(built.index, ensure_ascii=False, sort_keys=True).encode())
    for d in built.docs:
        h.update(json.dumps([d.key, d.game, d.kind, d.url, d.title, d.game_name, d.kind_label, d.snippet[:4000]],
                            ensure_ascii=False).encode())
    return h.hexdigest()[:32]
