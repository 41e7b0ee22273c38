"""The live preview of `kodeks serve`: after a save, rebuild only what the change touches.

A full build of a large game takes minutes; an author who fixes a typo wants the page back in a second or
two. The live site keeps, between saves, the parsed files (only changed files are read again), what the
checks found per entry (only changed entries, and those that refer to entries that appeared or vanished, are
checked again), the Markdown of every page (only the pages that show a changed entry are rendered again)
and, in a process per language, mkdocs' navigation and templates (only those pages go through mkdocs again,
both languages at once). The pages that show the changed entry come first; the long pages that list a whole
kind, print pages and the search index follow. Whatever changes the navigation or the glossary (a new entry,
a renamed one, a term) leads to an incremental build of the site (site/build.py: only pages whose Markdown or
navigation changed are rendered), as does a change of game.yaml, mkdocs.yml or the templates.

The site is the one `kodeks build` makes, in out/site: serving starts from the last build, and a page changed
in place is first struck from that build's record, so the next build renders it again whatever happens.
"""
from __future__ import annotations

import gc
import os
import shutil
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Callable

import jinja2

from .. import checks
from ..content.loader import FileCache, load
from ..content.parsecache import ParseCache
from ..model.ids import Key
from ..model.kb import KnowledgeBase
from ..problems import Problems
from ..project import gc_paused
from . import pages, partial, record, urls
from .render import Page
from ..outdir import claim, make
from .build import LANGS, BuildError, build_site, page_store, parse_cache, reported, swap_in, write_language
from .escape import sanitizer
from .tidy import tidier
from .mkdocs_worker import die_with_parent, mkdocs_warnings


@dataclass
class Update:
    """What one update did: `problems` when the content has errors (the site is left as it was)."""

    problems: Problems
    full: bool = False
    changed: list[Key] = field(default_factory=list)
    pages: int = 0  # pages rebuilt, per language
    seconds: float = 0.0  # from the start of the update to the changed pages written
    index_seconds: float = 0.0  # then index and print pages, and the browser search index of both languages
    warnings: list[str] = field(default_factory=list)
    phases: dict[str, float] = field(default_factory=dict)  # seconds of each step of an update
    rendered: int = 0  # pages mkdocs rendered in a build (both languages)

    @property
    def ok(self) -> bool:
        return not self.problems.errors


class _Mkdocs:
    """One language's mkdocs site held in memory (config, files, navigation, templates) so that single
    pages can be built again without reading or rendering the others."""

    def __init__(self, config_file: Path, docs_dir: Path, site_dir: Path):
        from mkdocs.config import load_config
        from mkdocs.structure.files import get_files
        from mkdocs.structure.nav import get_navigation
        from mkdocs.structure.pages import Page

        # The config was written for the folder the site was built in, before it was swapped in here.
        self.config = load_config(str(config_file), docs_dir=str(docs_dir), site_dir=str(site_dir))
        self.config.plugins["kodeks-sanitizer"] = sanitizer()
        self.config.plugins["kodeks-tidy"] = tidier()
        self.files = get_files(self.config)
        self.env = self.config.theme.get_env()
        self.files.add_files_from_theme(self.env, self.config)
        self.nav = get_navigation(self.files, self.config)
        self.doc_files = self.files.documentation_pages()
        for file in self.doc_files:
            if file.page is None:
                Page(None, file, self.config)
            if file.page.title is None:
                # Pages the nav lists without a title take it from their Markdown: read it, nothing more.
                file.page.read_source(self.config)

    def rebuild(self, paths: list[str]) -> list[str]:
        from mkdocs.commands.build import _build_page, _populate_page

        with mkdocs_warnings() as warnings:
            for path in paths:
                file = self.files.get_file_from_path(path)
                # A new file, not the old one written over: a page kept by a build is a hard link.
                try:
                    os.unlink(file.abs_dest_path)
                except FileNotFoundError:
                    pass
                _populate_page(file.page, self.config, self.files)
                _build_page(file.page, self.config, self.doc_files, self.nav, self.env)
                file.page.validate_anchor_links(files=self.files, log_level=self.config.validation.links.anchors)
        return warnings


_worker_site: _Mkdocs | None = None


def _worker_start(config_file: str, docs_dir: str, site_dir: str) -> None:
    global _worker_site
    die_with_parent()
    _worker_site = _Mkdocs(Path(config_file), Path(docs_dir), Path(site_dir))


def _worker_rebuild(paths: list[str]) -> list[str]:
    return _worker_site.rebuild(paths) if paths else []


class _Renderers:
    """A process per language that holds its mkdocs site, so that the pages of both languages go through
    mkdocs at once (on two cores, a save's pages are back in half the time)."""

    def __init__(self, sites: dict[str, tuple[Path, Path, Path]]):
        spawn = get_context("spawn")
        self.pools = {lang: ProcessPoolExecutor(1, mp_context=spawn, initializer=_worker_start,
                                                initargs=tuple(str(p) for p in where))
                      for lang, where in sites.items()}
        self.futures: dict = {}
        try:
            for lang in sites:  # start and load both now, not at the first save
                self.submit(lang, [])
            self.wait()
        except BaseException:
            self.close()  # a failed start or a stop (SIGTERM) meanwhile leaves no process behind
            raise

    def submit(self, lang: str, paths: list[str]) -> None:
        self.futures[lang] = self.pools[lang].submit(_worker_rebuild, list(paths))

    def wait(self) -> dict[str, list[str]]:
        """The warnings of each language submitted. BuildError if a process failed."""
        futures, self.futures = self.futures, {}
        try:
            return {lang: f.result() for lang, f in futures.items()}
        except Exception as exc:  # noqa: BLE001 - mkdocs raises many kinds; the author needs the message
            raise BuildError(f"mkdocs failed: {type(exc).__name__}: {exc}".strip()) from exc

    def close(self) -> None:
        for pool in self.pools.values():
            pool.shutdown(wait=False, cancel_futures=True)


class LiveSite:
    """The site of `kodeks serve`: the site `kodeks build` makes, in `out/site`, brought up to date by an
    incremental build when serving starts (nothing to do when the last build is current) and by `update()`
    after each save. The pages and configs the renderers hold are kept beside it, in `out/live`."""

    def __init__(self, content: Path, root: Path, out: Path, template_dir: Path | None = None):
        self.content, self.root, self.template_dir = content, root, template_dir
        self.out = out.absolute()  # mkdocs reads the paths in a config relative to its folder
        self.site = self.out / "site"
        self.base = self.out / "live"
        self.work = self.base / "current"
        self.cache = FileCache()
        self.memo = checks.Memo()
        self.kb: KnowledgeBase | None = None
        self.md: dict[str, dict[str, str]] = {}
        self.env: jinja2.Environment | None = None
        self.renderers: _Renderers | None = None
        self._kb: KnowledgeBase | None = None  # the model of the site as last built

    # -- loading -------------------------------------------------------------------------------------------

    def _load(self) -> tuple[KnowledgeBase, Problems]:
        problems = Problems(root=self.root)
        # The first load takes what the last build read from its parse cache; later ones, from self.cache.
        parsed = None if self.cache.files else ParseCache(parse_cache(self.out))
        loaded = load(self.content, problems, self.cache, parsed=parsed)
        checks.run(loaded, problems, self.memo)
        if parsed is not None:
            parsed.save()
        if problems.items:
            # A file with a problem is read and checked again next time, whatever else changes.
            bad = {(self.root / p.path).resolve() for p in problems.items}
            for path in [p for p in self.cache.files if p.resolve() in bad]:
                self.cache.drop(path)
        return loaded.kb, problems

    # -- building ------------------------------------------------------------------------------------------

    def build(self, kb: KnowledgeBase | None = None) -> Update:
        """Bring out/site up to date with an incremental build (site/build.py): nothing is done when the last
        build is current. The renderers are not started (`prepare`). BuildError if mkdocs fails, a write
        fails (disk full...) or out/site is a folder kodeks did not make."""
        start = time.perf_counter()
        problems = Problems(root=self.root)
        if kb is None:
            kb, problems = self._load()
            if problems.errors:
                return Update(problems)
        self.close()
        self.kb = None  # the renderers hold the pages of the site before this build
        # The card PDFs as the last build had them: a preview after `kodeks build` finds the site current.
        pdf = bool(record.read(self.site).get("options", {}).get("pdf", False))
        done = build_site(kb, self.root, self.out, self.template_dir, pdf=pdf, content=self.content)
        self._kb = kb
        return Update(problems, full=True, changed=list(kb.entries), pages=done.pages.get("pl", 0),
                      seconds=time.perf_counter() - start, rendered=sum(done.rendered.values()))

    def prepare(self) -> None:
        """Start the renderers that rebuild single pages after a save, holding the pages of the site just
        built. BuildError if they cannot start."""
        with reported():
            self._prepare()

    def _prepare(self) -> None:
        kb = self._kb
        claim(self.base)
        make(self.base)
        for stale in self.base.glob(".next-*"):
            shutil.rmtree(stale, ignore_errors=True)
        tmp = Path(tempfile.mkdtemp(prefix=".next-", dir=self.base))
        try:
            for lang in LANGS:
                # The build just made these pages: taken from its store, not rendered again.
                write_language(kb, lang, tmp, self.root, self.template_dir, page_store=page_store(self.out, lang))
            swap_in(tmp, self.work)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        # Kept between saves: a new environment would compile every template again on the next save.
        self.env = pages.templates(self.template_dir)
        for lang in LANGS:
            docs = self.work / lang / "docs"
            self.md[lang] = {rel: (docs / rel).read_text(encoding="utf-8") for rel in pages.makers(kb, lang, self.env)}
        self.close()
        self.renderers = _Renderers({lang: (self.work / lang / "mkdocs.yml", self.work / lang / "docs",
                                            self.site if lang == "pl" else self.site / "en") for lang in LANGS})
        self.kb = kb
        _settle()

    def full(self, kb: KnowledgeBase | None = None, ready: Callable[[], None] | None = None) -> Update:
        """`build`, then `prepare`; `ready` is called between the two, once the site is up to date."""
        result = self.build(kb)
        if result.ok:
            if ready is not None:
                ready()
            self.prepare()
        return result

    def update(self, ready: Callable[[], None] | None = None) -> Update:
        """Bring the site up to date with content/ after files were saved; `ready` is called as soon as the
        pages that show the changed entries are written (before index pages, print pages and the search
        index)."""
        # No cycle collection while the saved entry's pages are made: at 10,000 entries one full collection
        # took longer than the pages (1.5 of 1.7 s); _settle collects once the update is done.
        with gc_paused(), reported():
            return self._update(ready)

    def _update(self, ready: Callable[[], None] | None) -> Update:
        start = time.perf_counter()
        if self.kb is None or self.renderers is None:
            return self.full(ready=ready)
        old = self.kb
        phases: dict[str, float] = {}
        t = time.perf_counter()
        kb, problems = self._load()
        phases["load and check"] = time.perf_counter() - t
        if problems.errors:
            return Update(problems)
        changed = [k for k, e in kb.entries.items() if old.entries.get(k) is not e]
        changed += [k for k in old.entries if k not in kb.entries]
        if not changed and kb.games == old.games:
            self.kb = kb
            return Update(problems, seconds=time.perf_counter() - start)
        t = time.perf_counter()
        if (kb.games != old.games or any(k.kind == "term" for k in changed) or kb.redirects != old.redirects
                or not _same_nav(old, kb, changed)):
            # The navigation or the glossary changed: an incremental build finds the pages whose
            # navigation or links changed, and the renderers start again on the new site.
            result = self.full(kb, ready=ready)
            result.changed = changed
            return result
        paths = affected(old, kb, changed, self.md)
        # The pages that show the entry first; the long pages that list a whole kind or print every card of
        # a game (a glossary of thousands of terms takes mkdocs more than a second) and the search index
        # follow once those are served.
        later = {p for p in paths if p.split("/")[1:2] == ["cards"] or p.endswith("/index.md")}
        makers = {lang: pages.makers(kb, lang, self.env) for lang in LANGS}
        phases["plan"] = time.perf_counter() - t
        self.kb = kb
        warnings, counts = self._rebuild(makers, paths - later, phases)
        result = Update(problems, changed=changed, pages=counts, seconds=time.perf_counter() - start,
                        warnings=warnings, phases=phases)
        if ready is not None:
            ready()
        t = time.perf_counter()
        result.warnings += self._rebuild(makers, later, {})[0]
        self.write_search_index()
        result.index_seconds = time.perf_counter() - t
        _settle()
        return result

    def _rebuild(self, makers: dict, paths: set[str], phases: dict) -> tuple[list[str], int]:
        """Render `paths` in both languages; those whose Markdown changed go through mkdocs again, each
        language as soon as its pages are written (English pages are made while mkdocs renders Polish)."""
        t = time.perf_counter()
        written: dict[str, list[str]] = {}
        for lang in LANGS:
            make = makers[lang]
            docs = self.work / lang / "docs"
            written[lang] = []
            for path in sorted(paths & make.keys()):
                text = make[path]()
                if self.md[lang].get(path) != text:
                    self.md[lang][path] = text
                    (docs / path).write_text(text, encoding="utf-8")
                    written[lang].append(path)
            # Before the site changes in place: the next build renders these pages again, whatever happens.
            partial.forget(str(self.site if lang == "pl" else self.site / "en"), written[lang])
            record.forget(self.site)
            self.renderers.submit(lang, written[lang])
        phases["pages"] = time.perf_counter() - t
        t = time.perf_counter()
        try:
            done = self.renderers.wait()
        except BuildError:
            self.kb = None  # pages written but not rendered: the next save builds everything again
            raise
        warnings = [f"[{lang}] {w}" for lang in LANGS for w in done[lang]]
        phases["mkdocs"] = time.perf_counter() - t  # what is left of it once the pages are written
        return warnings, max(len(w) for w in written.values())

    def close(self) -> None:
        """Stop the processes that hold each language's mkdocs site."""
        if self.renderers is not None:
            self.renderers.close()
            self.renderers = None

    def write_search_index(self) -> None:
        """The data the browser reads besides the pages: the search index and the odds calculator's prefills
        (a saved unit's stats change what its chances panel starts from)."""
        from ..search import browser, index
        from . import odds_pages
        for lang in LANGS:
            assets = (self.site if lang == "pl" else self.site / "en") / "assets"
            browser.write(assets, index.build(self.kb, lang))
            odds_pages.write(self.kb, lang, assets)


def _nav_facts(entry) -> tuple:
    """What of an entry the navigation shows or orders by (`pages.nav`): its titles, place and faction."""
    return (entry.name.plain("pl"), entry.name.plain("en"), entry.number, entry.category, entry.sort, entry.order,
            entry.parent.key if entry.parent else None, entry.faction.key if entry.faction else None)


def _same_nav(old: KnowledgeBase, new: KnowledgeBase, changed: list[Key]) -> bool:
    """Whether the navigation stays as it was: no entry came or went, and no changed entry moved or was
    renamed. Answered from the changed entries alone; building both navigations at 10,000 entries takes a
    third of a second."""
    for key in changed:
        before, after = old.entries.get(key), new.entries.get(key)
        if before is None or after is None or _nav_facts(before) != _nav_facts(after):
            return False
    return True


def _settle() -> None:
    """Move what the site holds between saves out of the garbage collector's sight: a full collection
    walks every object alive, and at 10,000 entries the parsed files alone are millions of them."""
    gc.collect()
    gc.freeze()


def affected(old: KnowledgeBase, new: KnowledgeBase, changed: list[Key],
             md: dict[str, dict[str, str]] | None = None) -> set[str]:
    """The pages whose Markdown may differ after `changed` entries changed (not terms: their forms link
    text on any page). A page shows, of other entries: the names and summaries of what it links to and
    uses (with weapons' profiles and their traits' reminders on unit cards), what links to it or uses it,
    a rule's parent, children and ancestors. An index page shows its kind's entries, each row with the
    links of its summary (`pages.row_refers`). `md` ({language: {path: Markdown}} as last rendered) finds
    the pages where a glossary form linked to a changed entry, which no back-reference records."""
    keys: set[Key] = set(changed)
    for kb in (old, new):
        for key in changed:
            entry = kb.entries.get(key)
            if entry is None:
                continue
            users = {ref.source.key for ref in kb.backrefs.get(key, ())}
            keys |= users
            for user in users:  # a weapon's trait is reminded on the cards of units with the weapon
                keys |= {ref.source.key for ref in kb.backrefs.get(user, ())}
            keys |= checks.refers_to(entry)
            if entry.kind == "rule":
                if entry.parent is not None:
                    keys.add(entry.parent.key)
                stack = list(kb.children(entry))
                while stack:
                    child = stack.pop()
                    keys.add(child.key)
                    stack += kb.children(child)
    out = {urls.entry_path(new.entries[k]) for k in keys if k in new.entries}
    # The home and game pages count entries, which only an added or removed entry changes (a full build).
    out |= {urls.kind_index(k.game, k.kind) for k in changed}
    shown = set(changed)
    for kb in (old, new):
        for key in keys - shown:
            entry = kb.entries.get(key)
            if entry is not None and not pages.row_refers(entry).isdisjoint(shown):
                out.add(urls.kind_index(key.game, key.kind))
        for gid in {k.game for k in changed}:
            game = kb.games.get(gid)
            if game is not None and any(key in keys for key, _ in game.quick_reference):
                out.add(pages.quick_path(gid))
    if md is not None:
        out |= _autolinked(old, new, changed, md)
    # Print pages hold cards: only a changed card (a unit, or what its card shows) touches them.
    for kb in (old, new):
        for key in keys:
            unit = kb.entries.get(key)
            if unit is not None and unit.kind == "unit":
                out.add(pages.cards_path(unit.game))
                if unit.faction is not None:
                    out.add(pages.cards_path(unit.game, unit.faction.key.id))
    return out


def _autolinked(old: KnowledgeBase, new: KnowledgeBase, changed: list[Key], md: dict[str, dict[str, str]]) -> set[str]:
    """Pages whose glossary forms link to a changed entry (a term's target) whose link preview changed: they
    carry its old preview, so a search of their Markdown for it finds them."""
    targets = {e.target.key for e in old.entries.values() if e.kind == "term" and e.target is not None}
    out: set[str] = set()
    for key in changed:
        before, after = old.entries.get(key), new.entries.get(key)
        if key not in targets or before is None or after is None:
            continue
        for lang, texts in md.items():
            needle = _link_tail(old, before, lang)
            if needle == _link_tail(new, after, lang):
                continue
            out |= {path for path, text in texts.items() if needle in text}
    return out


def _link_tail(kb: KnowledgeBase, entry, lang: str) -> str:
    """What every link to `entry` carries after its address (preview and attributes, before any level)."""
    link = Page(kb, lang, "index.md").link_md("", entry)  # <a href="..." title="..." data-...></a>
    return link[link.index(' title="'):-len("></a>")]
