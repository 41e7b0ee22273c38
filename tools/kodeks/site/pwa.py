"""The site as an installable app that works offline (written into each language's site after mkdocs).

Each language root gets a web app manifest and a service worker. The worker precaches the app shell
(theme and kodeks assets, the search index, the home, game, kind and quick-reference pages), keeps every
page a player opens, and on request saves a whole game (its page list is <game>/offline.json). A new build
has a new version in sw.js: the browser installs it, old caches are dropped, pages come from the new build.

The Polish site's root also holds the English site (en/), which has its own worker: each worker answers only
for its own language's pages and keeps its own cache. Offline, a page that was never saved gets a page that
says so, in the worker's language, with links home and to the game's page; the worker writes it with absolute
addresses from its scope, so it is styled at whatever depth it is shown.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from ..model.kb import KnowledgeBase
from . import notsaved, partial, themefiles, urls

NAMES = {"pl": ("kodeks – zasady gier bitewnych", "kodeks"), "en": ("kodeks – wargame rules reference", "kodeks")}


def _files(site: Path, under: str, suffixes: tuple[str, ...]) -> list[str]:
    """Site-relative paths of the files below `under` whose names end with one of `suffixes`, sorted."""
    # Plain strings and os.walk: with Path objects, listing and sorting 10,000 pages cost more than hashing them.
    files = []
    for folder, _, names in os.walk(site / under):
        rel = os.path.relpath(folder, site).replace(os.sep, "/")
        prefix = "" if rel == "." else rel + "/"
        files += [prefix + n for n in names if n.endswith(suffixes)]
    return sorted(files)


def _version(site: Path) -> str:
    """A digest of the files the worker serves. A page mkdocs made stands in it by what it was made from, as
    its record says (site/partial.py), which the same inputs always turn into the same file: reading ten
    thousand pages again after a build that rendered ten of them cost most of a small rebuild."""
    key, made = partial.made_from(str(site))
    h = hashlib.sha256(key.encode())
    for name in _files(site, "", (".html", ".js", ".css", ".json")):
        if name == partial.RECORD:
            continue
        h.update(name.encode())
        known = made.get(name)
        if known is not None:
            h.update(b"\0made:" + known.encode())
            continue
        with open(os.path.join(site, name), "rb") as fh:
            h.update(hashlib.sha256(fh.read()).digest())
    return h.hexdigest()[:16]


def manifest(lang: str) -> dict:
    name, short = NAMES[lang]
    return {"name": name, "short_name": short, "lang": lang, "start_url": "./index.html", "scope": "./",
            "display": "standalone", "background_color": "#ffffff", "theme_color": "#673ab7",
            "icons": [{"src": "assets/icons/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any maskable"},
                      {"src": "assets/icons/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any maskable"}]}


def shell(site: Path, kb: KnowledgeBase) -> list[str]:
    files = ["./", "index.html", "manifest.webmanifest"]
    for p in sorted((site / "assets").rglob("*")):
        rel = p.relative_to(site).as_posix()
        if p.is_file() and not themefiles.unused(rel) and "/images/" not in rel \
                and p.suffix in (".js", ".css", ".png", ".svg", ".woff2"):
            files.append(rel)
    for gid, g in kb.games.items():
        files.append(urls.html_path(urls.game_index(gid)))
        for kind in kb.kinds_of(gid):
            files.append(urls.html_path(urls.kind_index(gid, kind)))
        if g.quick_reference:
            files.append(f"{gid}/quick.html")
        files.append(f"{gid}/odds.html")  # the odds calculator, where the game has one (kept only if it exists)
    return [f for f in files if f in ("./",) or (site / f).exists()]


def game_pages(site: Path, game: str) -> list[str]:
    return _files(site, game, (".html",))


# Other languages' sites that lie below this one's root, each answered by its own worker.
NESTED = {"pl": ["en"], "en": []}

SW = r"""/* kodeks service worker (generated). */
const VERSION = "__VERSION__";
const SHELL = __SHELL__;
const NESTED = __NESTED__;
const NOT_SAVED = __NOT_SAVED__;
const GAME_LINKS = new Map(Object.entries(__GAME_LINKS__));
const SCOPE = self.registration.scope;
// Caches are shared by the whole origin: the Polish and the English worker each keep and clean only their own.
const PREFIX = "kodeks:" + SCOPE + ":";
const CACHE = PREFIX + VERSION;
self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});
self.addEventListener("activate", (e) => {
  // "kodeks-<version>": one name for both languages, before each worker had its own.
  const stale = (k) => (k.startsWith(PREFIX) && k !== CACHE) || /^kodeks-[0-9a-f]{16}$/.test(k);
  e.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter(stale).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});
const attr = (s) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
function notSaved(url, rest) {
  const root = attr(SCOPE), game = (GAME_LINKS.get(rest.split("/")[0]) || "").replace(/\{root\}/g, () => root);
  const fill = { root: root, here: attr(url), game: game };
  const body = NOT_SAVED.replace(/\{(root|here|game)\}/g, (m, k) => fill[k]);
  return new Response(body, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}
self.addEventListener("fetch", (e) => {
  const req = e.request;
  if (req.method !== "GET" || !req.url.startsWith(SCOPE)) return;
  const rest = req.url.slice(SCOPE.length);
  if (NESTED.includes(rest.split(/[/?#]/)[0])) return;  // another language's site, another worker's
  // Cache first (offline at the table), then refresh the copy in the background.
  e.respondWith(caches.open(CACHE).then((c) => c.match(req, { ignoreSearch: true }).then((hit) => {
    const fresh = fetch(req).then((res) => { if (res.ok) c.put(req, res.clone()); return res; });
    if (hit) { fresh.catch(() => null); return hit; }
    return fresh.catch(() => (req.mode === "navigate" ? notSaved(req.url, rest) : Response.error()));
  })));
});
self.addEventListener("message", (e) => {
  const msg = e.data || {};
  if (msg.type !== "save-game") return;
  const port = e.ports[0];
  e.waitUntil(fetch(msg.game + "/offline.json").then((r) => r.json()).then(async (list) => {
    const c = await caches.open(CACHE);
    let done = 0;
    for (let i = 0; i < list.length; i += 8) {
      await Promise.all(list.slice(i, i + 8).map((u) => c.add(u).catch(() => null)));
      done = Math.min(list.length, i + 8);
      if (port) port.postMessage({ done: done, total: list.length });
    }
    if (port) port.postMessage({ done: list.length, total: list.length, finished: true });
  }).catch(() => port && port.postMessage({ error: true })));
});
"""


def write(site: Path, kb: KnowledgeBase, lang: str) -> str:
    """Write manifest.webmanifest, sw.js and <game>/offline.json into one language's site; returns the version."""
    (site / "manifest.webmanifest").write_text(json.dumps(manifest(lang), ensure_ascii=False, indent=1), encoding="utf-8")
    for gid in kb.games:
        if (site / gid).is_dir():
            (site / gid / "offline.json").write_text(json.dumps(game_pages(site, gid)), encoding="utf-8")
    version = _version(site)
    sw = (SW.replace("__VERSION__", version).replace("__SHELL__", json.dumps(shell(site, kb)))
          .replace("__NESTED__", json.dumps(NESTED[lang])).replace("__NOT_SAVED__", json.dumps(notsaved.page(site, lang)))
          .replace("__GAME_LINKS__", json.dumps(notsaved.game_links(kb, lang))))
    (site / "sw.js").write_text(sw, encoding="utf-8")
    return version
