"""mkdocs' build, rendering again only the pages whose inputs changed since the last build.

A page of the site is made from its own Markdown, the part of the navigation it shows (with
`navigation.prune`: the top level, the open sections on its way down, its neighbours in the footer), and what
is the same for every page (config, theme, templates, kodeks itself: the `key` the caller passes). The last
build left, in its site, a record of each page's digests (RECORD). A page whose digests are the same is
linked from the last site, not rendered; the others go through mkdocs as in `mkdocs build`.

What a page shows of other pages (their titles and addresses in its navigation, their anchors its links
point to) is taken from mkdocs' own navigation and, for a page not rendered this time, from the record, so
a kept page looks to its neighbours exactly as it would after rendering. The anchor check runs over every
page, kept ones included, as in a full build.

The new site is written into an empty folder; kept pages are hard links to the last site's files (copies
where links are not possible), so the last site is never written to and stays whole until it is swapped out.

Imported by the mkdocs worker process; it imports nothing else of kodeks.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import time

RECORD = ".kodeks-record.json"  # in each language's site root
FORMAT = 2
log = logging.getLogger("mkdocs.commands.build")


def _digest(*parts) -> str:
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False, separators=(",", ":")).encode("utf-8")).hexdigest()[:32]


def read_record(site_dir: str | None, key: str) -> dict:
    """The last build's record of each page ({} when there is none, or it was made with other settings or
    another kodeks: then every page is rendered)."""
    if not site_dir:
        return {}
    try:
        with open(os.path.join(site_dir, RECORD), encoding="utf-8") as fh:
            record = json.load(fh)
    except (OSError, ValueError):
        return {}
    if not isinstance(record, dict) or record.get("format") != FORMAT or record.get("key") != key:
        return {}
    pages = record.get("pages")
    return pages if isinstance(pages, dict) else {}


def made_from(site_dir: str) -> tuple[str, dict[str, str]]:
    """(the key, {dest_uri: digest of what the page was made from}) of the pages the record in `site_dir`
    holds: a page's file is a function of these, so they stand for its bytes (the service worker's version)."""
    try:
        with open(os.path.join(site_dir, RECORD), encoding="utf-8") as fh:
            record = json.load(fh)
    except (OSError, ValueError):
        return "", {}
    if not isinstance(record, dict) or record.get("format") != FORMAT or not isinstance(record.get("pages"), dict):
        return "", {}
    return str(record.get("key")), {p[5]: f"{p[0]}:{p[1]}" for p in record["pages"].values()}


def forget(site_dir: str, src_uris: list[str]) -> None:
    """Strike pages from the record before they are changed in place (`kodeks serve`): the next build
    renders them again, even if it is killed halfway or the content goes back to what it was."""
    path = os.path.join(site_dir, RECORD)
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return
    pages = data.get("pages") if isinstance(data, dict) else None
    if not isinstance(pages, dict) or not any(uri in pages for uri in src_uris):
        return
    for uri in src_uris:
        pages.pop(uri, None)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, separators=(",", ":"))
    os.replace(tmp, path)


def _item(item) -> tuple:
    """What the theme prints of a nav item that is not open: its title and where it leads."""
    if item.is_section:
        first = item
        while first.children and first.children[0].is_section:
            first = first.children[0]
        leaf = first.children[0] if first.children else None
        # The theme prints a closed section as its title, a link to its first page and, if it has any
        # children, an arrow: not how many (its loop over them leaves blank lines, which site/tidy.py takes
        # out), so a new entry in one kind leaves the other kinds' pages as they were.
        return ("S", item.title, getattr(leaf, "url", None), bool(item.children))
    if item.is_page:
        meta = item.meta or {}
        return ("P", item.title, item.url, item.is_index, meta.get("icon"), meta.get("subtitle"), meta.get("status"))
    return ("L", item.title, item.url)


def nav_digests(nav) -> dict[str, str]:
    """{src_uri: digest of the navigation that page shows}, from mkdocs' navigation with every title known.

    With `navigation.prune` the theme prints the top level and, down the way to the page, each open section's
    items (closed sections as their title and first page); `navigation.footer` adds the previous and next
    page. Each list is digested once: a page then costs its depth, not the length of its section."""
    lists: dict[int, str] = {}

    def digest_of(items) -> str:
        k = id(items)
        if k not in lists:
            lists[k] = _digest([_item(i) for i in items])
        return lists[k]

    def position(items, item) -> int:
        return next(i for i, x in enumerate(items) if x is item)

    out: dict[str, str] = {}
    for page in nav.pages:
        ancestors = []  # from the top level down to the page's own section
        node = page.parent
        while node is not None:
            ancestors.insert(0, node)
            node = node.parent
        way = []
        for items, item in zip([nav.items] + [a.children for a in ancestors], ancestors + [page]):
            way += [digest_of(items), position(items, item)]
        for near in (page.previous_page, page.next_page):
            way.append(None if near is None else (near.title, near.url))
        out[page.file.src_uri] = _digest(way)
    return out


def build(config, old_site: str | None, key: str) -> dict:
    """Build the site of `config` into its (empty) site_dir, taking unchanged pages from `old_site`; returns
    {"rendered": n, "kept": n, "phases": {step: seconds}}."""
    from mkdocs.commands.build import _build_extra_template, _build_page, _build_theme_template, _populate_page
    from mkdocs.structure.files import InclusionLevel, get_files, set_exclusions
    from mkdocs.structure.nav import get_navigation
    from mkdocs.structure.pages import Page
    from mkdocs import utils

    clock = [time.perf_counter()]
    phases: dict[str, float] = {}

    def lap(name: str) -> None:
        now = time.perf_counter()
        phases[name] = round(now - clock[0], 3)
        clock[0] = now

    config = config.plugins.on_config(config)
    config.plugins.on_pre_build(config=config)
    utils.clean_directory(config.site_dir)
    files = get_files(config)
    env = config.theme.get_env()
    files.add_files_from_theme(env, config)
    files = config.plugins.on_files(files, config=config)
    set_exclusions(files, config)
    nav = get_navigation(files, config)
    nav = config.plugins.on_nav(nav, config=config, files=files)
    inclusion = InclusionLevel.is_included
    doc_files = files.documentation_pages(inclusion=inclusion)
    old = read_record(old_site, key)
    lap("navigation")

    source: dict[str, str] = {}
    for file in doc_files:
        if file.page is None:
            Page(None, file, config)
        source[file.src_uri] = hashlib.sha256(file.content_string.encode("utf-8")).hexdigest()[:32]

    def linkable(file) -> bool:
        return old_site is not None and os.path.isfile(os.path.join(old_site, file.dest_uri))

    # Pages linking to a page that is gone: mkdocs warns of such links, so they are rendered again.
    gone = [os.path.basename(uri) for uri in old if uri not in source]
    rendered: set[str] = set()

    def populate(file) -> None:
        _populate_page(file.page, config, files)
        rendered.add(file.src_uri)

    for file in doc_files:
        was = old.get(file.src_uri)
        if was is None or was[0] != source[file.src_uri] or not linkable(file) \
                or any(name in file.content_string for name in gone):
            populate(file)
        else:
            # What other pages show of it (title, front matter) as recorded: parsing ten thousand front
            # matters again cost a third of a small rebuild. Its Markdown is not read: it is not rendered.
            page = file.page
            page.markdown, page.meta = "", dict(was[6])
            page._title_from_render = was[2]
    lap("changed pages")
    navs = nav_digests(nav)
    outside = _digest([_item(i) for i in nav.items])  # a page not in the nav shows its top level only
    for file in doc_files:
        navs.setdefault(file.src_uri, outside)
        if file.src_uri not in rendered and old[file.src_uri][1] != navs[file.src_uri]:
            populate(file)

    lap("navigation digests")
    env = config.plugins.on_env(env, config=config, files=files)
    files.copy_static_files(inclusion=inclusion)
    for template in config.theme.static_templates:
        _build_theme_template(template, env, files, config, nav)
    for template in config.extra_templates:
        _build_extra_template(template, files, config, nav)

    folders: set[str] = set()
    for file in doc_files:
        if file.src_uri in rendered:
            _build_page(file.page, config, doc_files, nav, env)
        else:
            was = old[file.src_uri]
            file.page.present_anchor_ids = set(was[3])
            file.page.links_to_anchors = {}
            for uri, links in was[4].items():
                target = files.get_file_from_path(uri)
                if target is not None:
                    file.page.links_to_anchors[target] = links
                else:  # a page it links into is gone: mkdocs would have said so when rendering it
                    log.warning(f"Doc file '{file.src_uri}' contains a link to '{uri}', which is not found "
                                f"in the documentation files.")
            _link(os.path.join(old_site, file.dest_uri), file.abs_dest_path, folders)
    lap("pages written")
    log_level = config.validation.links.anchors
    for file in doc_files:
        file.page.validate_anchor_links(files=files, log_level=log_level)
    config.plugins.on_post_build(config=config)

    pages = {}
    for file in doc_files:
        page = file.page
        links = {target.src_uri: dict(anchors) for target, anchors in (page.links_to_anchors or {}).items()}
        pages[file.src_uri] = [source[file.src_uri], navs[file.src_uri], page._title_from_render,
                               sorted(page.present_anchor_ids or ()), links, file.dest_uri, page.meta or {}]
    tmp = os.path.join(config.site_dir, RECORD + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump({"format": FORMAT, "key": key, "pages": pages}, fh, ensure_ascii=False, separators=(",", ":"), default=str)
    os.replace(tmp, os.path.join(config.site_dir, RECORD))
    lap("record")
    return {"rendered": len(rendered), "kept": len(doc_files) - len(rendered), "phases": phases}


def _link(old: str, new: str, folders: set[str]) -> None:
    """The last site's file at `new`: a hard link (the last site is never written to), else a copy.
    `folders`: those made so far."""
    folder = os.path.dirname(new)
    if folder not in folders:
        os.makedirs(folder, exist_ok=True)
        folders.add(folder)
    try:
        os.link(old, new)
    except OSError:
        shutil.copy2(old, new)
