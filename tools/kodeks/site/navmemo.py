"""Each navigation item rendered once per folder of pages, not once per page (overrides/partials/nav-item.html).

An item that is not on the way to the page being rendered (not `active`) prints the same for every page
whose address is in the same folder: its title, its meta, its place in the navigation (`path`, `level`),
its links (relative, so the folder counts) and whether its parent is open (Material's tabs and sections
features look at that) are all that its template reads. On a page of a large game nearly all of the
navigation is such items, and rendering them was most of the time mkdocs spent on the page.

The memo lives as long as one build's Jinja environment: titles and meta are set before the first page is
rendered and do not change until the build is over.
"""
from __future__ import annotations

import posixpath

from jinja2 import Undefined
from markupsafe import Markup


def nav_memo():
    """The mkdocs plugin that gives the theme's templates `kodeks_nav_memo`."""
    from mkdocs.plugins import BasePlugin

    class NavMemo(BasePlugin):
        def on_env(self, env, config, files):
            env.globals["kodeks_nav_memo"] = Memo()
            return env

    return NavMemo()


class Memo:
    def __init__(self) -> None:
        self.html: dict[tuple, Markup] = {}
        self.page = self.folder = None  # the page being rendered, and the folder of its address

    def __call__(self, render, item, path, level, parent, page) -> Markup:
        """`render(item, path, level, parent)` as it was for an earlier page in the same folder."""
        if page is None or isinstance(page, Undefined):  # a theme template (404.html): links from the base URL
            return render(item, path, level, parent)
        if page is not self.page:
            self.page, self.folder = page, posixpath.dirname(page.url)
        parent_open = parent is not None and not isinstance(parent, Undefined) and bool(parent.active)
        key = (id(item), path, level, parent_open, self.folder)
        html = self.html.get(key)
        if html is None:
            html = self.html[key] = Markup(render(item, path, level, parent))
        return html
