"""The page a language's service worker shows offline in place of a page it never saved (see pwa.py).

It says so in the worker's language and links the game's page and the home, which the worker always holds.
The worker fills in its scope, so every address on the page is absolute: shown at any depth of the site, it
is styled from the cached theme like every page. Its look (stylesheets, colour palette, logo) is the built
home page's.
"""
from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

from ..model.kb import KnowledgeBase
from . import urls

WORDS = {
    "pl": {"title": "Tej strony nie zapisano do czytania offline",
           "text": "Nie ma połączenia z siecią, a tej strony nie ma w pamięci urządzenia. Bez sieci działają strony "
                   "już tu otwierane, strony gier i spisy wpisów oraz całe gry zapisane przyciskiem "
                   "„Zapisz tę grę do użytku offline” na stronie gry.",
           "game": "Strona gry: {name}", "home": "Strona główna", "retry": "Spróbuj ponownie", "header": "Nagłówek"},
    "en": {"title": "This page was not saved for offline use",
           "text": "There is no connection, and this page is not stored on this device. Offline you can read the "
                   "pages you have opened, the game pages and entry lists, and whole games saved with the "
                   "“Save this game for offline use” button on a game's page.",
           "game": "Game page: {name}", "home": "Home page", "retry": "Try again", "header": "Header"},
}

# Material's palette script, cut down: the colour scheme the player chose (Material keeps it under the site
# root's path, the logo's link), else the system's.
_SCHEME = ('<script>(function(){var c=null;try{c=(JSON.parse(localStorage.getItem(new URL(document.querySelector('
           '".md-logo").href).pathname+".__palette"))||{}).color}catch(e){}if(!c||c.media==="(prefers-color-scheme)")'
           'c=matchMedia("(prefers-color-scheme: dark)").matches?{scheme:"slate"}:{};for(var k in c)if(k!=="media")'
           'document.body.setAttribute("data-md-color-"+k,c[k])})()</script>')


class _Look(HTMLParser):
    """What the offline page borrows from the built home page: its stylesheets, body attributes (colour
    palette) and header logo."""

    def __init__(self):
        super().__init__()
        self.styles: list[str] = []
        self.body = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "link" and a.get("rel") == "stylesheet" and a.get("href") and "//" not in a["href"]:
            self.styles.append(a["href"])
        elif tag == "body" and not self.body:
            self.body = "".join(f' {k}="{html.escape(v or "", quote=True)}"' for k, v in attrs if k.startswith(("dir", "data-md-")))


def page(site: Path, lang: str) -> str:
    """The page the worker shows offline for a page it does not hold. "{root}" stands for the worker's scope,
    "{here}" for the address asked for and "{game}" for a link to its game's page; the worker fills them in."""
    home = (site / "index.html").read_text(encoding="utf-8")
    look = _Look()
    look.feed(home)
    logo = re.search(r'class="md-header__button md-logo"[^>]*>\s*(<svg.*?</svg>)', home, re.S)
    w = WORDS[lang]
    styles = "".join(f'<link rel="stylesheet" href="{{root}}{html.escape(h.removeprefix("./"), quote=True)}">'
                     for h in look.styles)
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width,initial-scale=1"><title>{w["title"]} - kodeks</title>'
            f'<meta name="theme-color" content="#673ab7"><link rel="icon" href="{{root}}assets/icons/icon-192.png">'
            f'{styles}<style>.kodeks-not-saved .md-button{{margin:0 .5em .6em 0}}</style></head><body{look.body}>'
            f'<header class="md-header md-header--shadow"><nav class="md-header__inner md-grid" aria-label="{w["header"]}">'
            f'<a href="{{root}}index.html" class="md-header__button md-logo" aria-label="kodeks">{logo.group(1) if logo else ""}</a>'
            f'<div class="md-header__title"><div class="md-header__ellipsis"><div class="md-header__topic">'
            f'<span class="md-ellipsis">kodeks</span></div></div></div></nav></header>{_SCHEME}'
            f'<div class="md-container"><main class="md-main"><div class="md-main__inner md-grid"><div class="md-content">'
            f'<article class="md-content__inner md-typeset"><h1>{w["title"]}</h1><p>{w["text"]}</p>'
            f'<p class="kodeks-not-saved">{{game}}<a class="md-button" href="{{root}}index.html">{w["home"]}</a> '
            f'<a class="md-button" href="{{here}}">{w["retry"]}</a></p>'
            f'</article></div></div></main></div></body></html>')


def game_links(kb: KnowledgeBase, lang: str) -> dict[str, str]:
    """Per game, the not-saved page's link to the game's page ("{root}" as in `page`)."""
    label = WORDS[lang]["game"]
    return {gid: f'<a class="md-button md-button--primary" href="{{root}}{urls.html_path(urls.game_index(gid))}">'
                 f'{html.escape(label.format(name=g.name.plain(lang)))}</a> '
            for gid, g in kb.games.items()}
