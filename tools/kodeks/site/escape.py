"""The one boundary between content and HTML.

Content comes from many hands (pull requests, a player's folder of extra units), so every string in it is
untrusted. Each reaches a page through one of the functions here:

- `md_text`: a plain string (a name, a citation, a table cell, a term's form, a value) as Markdown that
  renders as exactly that text: every character Markdown or HTML would read as markup is an entity, so it
  can neither open a tag, nor a link, nor an attribute list (`{: onclick=... }`).
- `attr`: a string inside a double-quoted HTML attribute kodeks writes.
- `title`: a string the theme prints as HTML (nav titles, the page title, the meta description, the games
  menu).
- `author_markdown`: an author's Markdown text: Markdown stays, raw HTML does not (a few bare inline tags
  excepted), nor do attribute lists.
- `html_fragment`: the last word. Every page's rendered content goes through it (the `Sanitizer` plugin):
  only known tags and attributes survive, no event handler, no `javascript:`/`data:`/`vbscript:` address,
  whatever route Markdown found to produce one. kodeks' own markup (links with data- attributes, cards,
  tables, buttons) is within what it keeps.
"""
from __future__ import annotations

import re

# --- plain strings -----------------------------------------------------------------------------------
_MD_TEXT = str.maketrans({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\\": "&#92;", "`": "&#96;", "*": "&#42;",
    "_": "&#95;", "[": "&#91;", "]": "&#93;", "{": "&#123;", "}": "&#125;", "|": "&#124;", "#": "&#35;",
    "!": "&#33;", "~": "&#126;", "\n": " ", "\r": " ", "\t": " ", "\0": "",
})


def md_text(text: str) -> str:
    """A plain string as inert Markdown (it renders as itself, on one line)."""
    return text.translate(_MD_TEXT)


_ATTR = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;", "|": "&#124;",
                       "{": "&#123;", "}": "&#125;", "\n": " ", "\r": " ", "\t": " ", "\0": ""})


def attr(text: str) -> str:
    """A string for a double-quoted attribute value (one line; `|` too, so it can sit in a table row)."""
    return text.translate(_ATTR)


_TITLE = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\n": " ", "\r": " ", "\0": ""})


def title(text: str) -> str:
    """A string the theme's templates print unescaped, in text and in double-quoted attributes."""
    return text.translate(_TITLE)


def front_matter(**fields) -> str:
    """A page's YAML front matter. Values are JSON strings (valid YAML with no escapes of its own to decode)
    of theme-safe text; lists stay lists."""
    import json
    lines = ["---"]
    for key, value in fields.items():
        if value is None:
            continue
        if isinstance(value, list):
            lines.append(f"{key}:")
            lines += [f"  - {json.dumps(v)}" for v in value]
        else:
            lines.append(f"{key}: {json.dumps(title(str(value)), ensure_ascii=False)}")
    lines.append("---")
    return "\n".join(lines) + "\n"


# --- author Markdown ---------------------------------------------------------------------------------
INLINE_TAGS = ("br", "sup", "sub", "em", "strong", "b", "i", "kbd", "abbr", "s", "u", "small", "mark")
_ALLOWED_TAG = re.compile(r"</?(?:" + "|".join(INLINE_TAGS) + r")\s*/?>", re.I)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def author_markdown(text: str) -> str:
    """An author's Markdown, with every `<` that does not open one of a few bare inline tags (no
    attributes) shown as text, and braces as entities (an attribute list is kodeks' markup, never the
    author's). Link addresses are left to `html_fragment`, which sees them after Markdown has decoded
    every spelling of them."""
    if "<" in text:
        out, pos = [], 0
        for m in _ALLOWED_TAG.finditer(text):
            out.append(text[pos:m.start()].replace("<", "&lt;"))
            out.append(m.group(0).lower().replace(" ", ""))
            pos = m.end()
        out.append(text[pos:].replace("<", "&lt;"))
        text = "".join(out)
    if "{" in text or "}" in text:
        text = text.replace("{", "&#123;").replace("}", "&#125;")
    return _CONTROL.sub("", text)


# --- rendered HTML -----------------------------------------------------------------------------------
TAGS = {
    "a", "abbr", "article", "b", "blockquote", "br", "button", "caption", "code", "dd", "del", "details", "div",
    "dl", "dt", "em", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "i", "input", "ins", "kbd",
    "label", "li", "mark", "nav", "ol", "option", "output", "p", "pre", "s", "section", "select", "small", "span",
    "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "u", "ul",
}
ATTRIBUTES = {
    "*": {"class", "id", "title", "lang", "hidden", "role", "tabindex"},
    "a": {"href", "download"},
    "button": {"type", "disabled"},
    "th": {"style", "colspan", "rowspan", "scope"},
    "td": {"style", "colspan", "rowspan"},
    "input": {"name", "type", "min", "max", "step", "value", "placeholder", "inputmode", "autocomplete"},
    "select": {"name"},
    "option": {"value", "selected"},
    "label": {"for"},
    "output": {"for", "name"},
    "details": {"open"},
    "ol": {"start"},
    "section": {"style"},  # a card sheet's --cols
}
URL_SCHEMES = {"http", "https", "mailto"}


def html_fragment(fragment: str) -> str:
    """Rendered page content with only known tags, attributes and address schemes (relative addresses
    stay); `style` keeps only the properties kodeks writes."""
    import nh3
    return nh3.clean(fragment, tags=TAGS, attributes=ATTRIBUTES, generic_attribute_prefixes={"data-", "aria-"},
                     url_schemes=URL_SCHEMES, link_rel=None, strip_comments=False,
                     filter_style_properties={"text-align", "--cols"})


def sanitizer():
    """The mkdocs plugin that passes every page's content through `html_fragment`, in a full build, in
    `kodeks serve` and in any other mkdocs run kodeks starts."""
    from mkdocs.plugins import BasePlugin

    class Sanitizer(BasePlugin):
        def on_page_content(self, content, page, config, files):
            return html_fragment(content)

    return Sanitizer()
