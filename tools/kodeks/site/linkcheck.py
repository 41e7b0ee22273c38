"""Check every internal link and anchor of a built site (both languages), offline."""
from __future__ import annotations

import html.parser
import posixpath
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _Collector(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[tuple[str, str]] = []  # (tag, url)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a and a["id"]:
            self.ids.add(a["id"])
        if tag == "a" and "name" in a and a["name"]:
            self.ids.add(a["name"])
        for name in ("href", "src"):
            if a.get(name) and tag in ("a", "link", "script", "img", "source", "iframe"):
                self.links.append((tag, a[name]))


@dataclass
class LinkReport:
    pages: int = 0
    links: int = 0
    broken: list[str] = field(default_factory=list)


def _parse(path: Path) -> _Collector:
    c = _Collector()
    c.feed(path.read_text(encoding="utf-8", errors="replace"))
    return c


def check_site(site: Path) -> LinkReport:
    report = LinkReport()
    cache: dict[Path, _Collector] = {}

    def parsed(p: Path) -> _Collector:
        if p not in cache:
            cache[p] = _parse(p)
        return cache[p]

    for page in sorted(site.rglob("*.html")):
        report.pages += 1
        rel_page = page.relative_to(site).as_posix()
        for tag, url in parsed(page).links:
            parts = urlsplit(url)
            if parts.scheme or url.startswith("//") or url.startswith("data:"):
                continue  # external (checked elsewhere: the site fetches nothing from the internet)
            report.links += 1
            target_rel = unquote(parts.path)
            if target_rel.startswith("/"):
                report.broken.append(f"{rel_page}: {url} is absolute (it breaks when the site is opened from disk)")
                continue
            if target_rel == "":
                target = page
            else:
                target_rel = posixpath.normpath(posixpath.join(posixpath.dirname(rel_page), target_rel))
                if target_rel.startswith(".."):
                    report.broken.append(f"{rel_page}: {url} points outside the site")
                    continue
                target = site / target_rel
                if target.is_dir():
                    target = target / "index.html"
            if not target.exists():
                report.broken.append(f"{rel_page}: {url} (missing {target.relative_to(site).as_posix()})")
                continue
            frag = unquote(parts.fragment)
            if frag and target.suffix == ".html" and frag not in parsed(target).ids:
                report.broken.append(f"{rel_page}: {url} (no anchor #{frag})")
    return report


if __name__ == "__main__":  # pragma: no cover
    import sys
    r = check_site(Path(sys.argv[1]))
    print(f"{r.pages} pages, {r.links} internal links, {len(r.broken)} broken")
    for b in r.broken[:100]:
        print(b)
    sys.exit(1 if r.broken else 0)
