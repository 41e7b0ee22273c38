"""`kodeks serve`: a live preview. Serves build/site on 127.0.0.1 and rebuilds when content changes.
Pages are served with a tag that makes them ask for new versions; the files on disk are the built site's.

Only files inside the built site are served (the handler maps paths into the site folder and refuses
anything that resolves outside it), never a folder's listing, and only to requests addressed to this server
by its own name: a page of another site that points its host name at 127.0.0.1 (DNS rebinding) is refused.
Pages poll /__kodeks/version and reload after a rebuild; while the content has errors, the answer carries
them (path:line:col) and the page shows them over the last good build.
"""
from __future__ import annotations

import errno
import http.server
import io
import ipaddress
import json
import os
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Callable

MAX_PROBLEMS = 50  # shown in the page; the terminal has them all


def snapshot(folders: list[Path]) -> dict[str, float]:
    state = {}
    for folder in folders:
        if folder.is_file():
            state[str(folder)] = folder.stat().st_mtime
            continue
        for dirpath, _, files in os.walk(folder):
            for name in files:
                p = os.path.join(dirpath, name)
                try:
                    state[p] = os.stat(p).st_mtime
                except OSError:
                    pass
    return state


class State:
    """What the pages learn from /__kodeks/version: the build's number, and why the last update failed."""

    def __init__(self) -> None:
        self.version = 0
        self.last_error = ""
        self.problems: list[str] = []  # path:line:col: ... of the content errors
        self.lock = threading.Lock()

    def failed(self, error: str, problems: list[str] = ()) -> None:
        with self.lock:
            self.last_error, self.problems = error, list(problems)[:MAX_PROBLEMS]

    def fixed(self) -> None:
        with self.lock:
            self.last_error, self.problems = "", []

    def json(self) -> bytes:
        with self.lock:
            return json.dumps({"version": self.version, "error": self.last_error,
                               "problems": self.problems}, ensure_ascii=False).encode("utf-8")


class ServeError(Exception):
    """The server cannot listen where it was asked to; the message says what to do."""


_LOOPBACK = {"localhost", "127.0.0.1", "::1"}
_WILDCARD = {"", "0.0.0.0", "::"}


def _split_host(value: str) -> tuple[str, int | None]:
    """'name:port' or '[v6]:port' of a Host header as (name, port); port None when the header has none."""
    value = value.strip().lower()
    if value.startswith("["):
        name, _, rest = value[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    elif value.count(":") == 1:
        name, _, port = value.partition(":")
    else:
        name, port = value, ""
    if not port:
        return name, None
    return (name, int(port)) if port.isascii() and port.isdigit() else ("", -1)


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def host_allowed(header: str | None, host: str, port: int) -> bool:
    """Whether a request's Host header names this server: this machine by its loopback names, or the --host
    it listens on (any address of the machine when it listens on all of them), with its port."""
    if not header:
        return False
    name, given = _split_host(header)
    if given != port and not (given is None and port == 80):
        return False
    bound = host.strip("[]").lower()
    if name in _LOOPBACK or name == bound:
        return True
    return bound in _WILDCARD and _is_ip(name)


def make_handler(site: Path, state: State, host: str = "127.0.0.1"):
    site = site.resolve() if site.exists() else site.absolute()

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(site), **kwargs)

        def log_message(self, format, *args):  # noqa: A002 - keep the console for build output
            pass

        def _addressed_here(self) -> bool:
            port = self.server.server_address[1]
            if host_allowed(self.headers.get("Host"), host, port):
                return True
            self.send_error(421, "Misdirected Request", f"this preview answers only requests addressed to it "
                                                        f"(http://127.0.0.1:{port}/ or http://localhost:{port}/)")
            return False

        def list_directory(self, path):
            # A folder without index.html: no listing of what the build folder holds.
            self.send_error(404, "Not found")
            return None

        def do_HEAD(self):
            if self._addressed_here():
                super().do_HEAD()

        def translate_path(self, path: str) -> str:
            translated = Path(super().translate_path(path))
            root = Path(self.directory).resolve()
            try:
                resolved = translated.resolve()
                resolved.relative_to(root)
            except (ValueError, OSError):
                return str(root / "__outside__")  # does not exist: 404
            return str(resolved)

        def send_head(self):
            # Pages served here ask for new versions (assets/kodeks.js): a published site has nobody to ask,
            # so the built pages do not carry the tag; it is added on the way out.
            path = self.translate_path(self.path)
            if os.path.isdir(path) and self.path.split("?", 1)[0].endswith("/"):
                path = os.path.join(path, "index.html")
            if not path.endswith(".html") or not os.path.isfile(path):
                return super().send_head()
            try:
                with open(path, "rb") as fh:
                    body = fh.read().replace(b"<head>", b'<head><meta name="kodeks-live" content="1">', 1)
            except OSError:
                self.send_error(404, "File not found")
                return None
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            return io.BytesIO(body)

        def do_GET(self):
            if not self._addressed_here():
                return
            if self.path.startswith("/__kodeks/version"):
                body = state.json()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Cache-Control", "no-store")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            return super().do_GET()

    return Handler


def watch(folders: list[Path], rebuild: Callable[[], bool], state: State, stop: threading.Event,
          interval: float = 0.4, before: dict[str, float] | None = None) -> None:
    """Call `rebuild` after each change of `folders` (since `before`, their state when serving started)."""
    before = snapshot(folders) if before is None else before
    while not stop.is_set():
        time.sleep(interval)
        now = snapshot(folders)
        if now != before:
            before = now
            time.sleep(0.1)  # let an editor finish writing
            before = snapshot(folders)
            if rebuild():
                with state.lock:
                    state.version += 1


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)):
            return  # the browser left before the answer (a reload, a closed tab): nothing went wrong here
        print(f"kodeks serve: answering {client_address[0]} failed: {type(exc).__name__}: {exc}", file=sys.stderr)


def serve(site: Path, host: str, port: int, state: State) -> http.server.ThreadingHTTPServer:
    """A server bound to host:port (not yet serving). ServeError if it cannot listen there: a busy port, a
    host that is not an address of this machine, a port out of range."""
    if not 0 <= port <= 65535:
        raise ServeError(f"--port {port}: a port is a number from 1 to 65535 (fix: --port 8000)")
    try:
        family, _, _, _, address = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                                      flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as exc:
        raise ServeError(f"--host {host}: not an address of this machine ({exc}) (fix: --host 127.0.0.1, or "
                         f"an address this machine has)") from None
    server_class = type("Server", (_Server,), {"address_family": family})
    try:
        return server_class(address, make_handler(site, state, host))
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise ServeError(f"port {port} is in use on {host}: another program listens there (fix: stop it, "
                             f"or pass another port, e.g. --port {port + 1 if port < 65535 else 8000})") from None
        if exc.errno == errno.EADDRNOTAVAIL:
            raise ServeError(f"--host {host}: not an address of this machine (fix: --host 127.0.0.1)") from None
        if exc.errno == errno.EACCES:
            raise ServeError(f"port {port}: permission denied; ports below 1024 need root (fix: --port 8000)") from None
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
