"""`kodeks serve`: a live preview. Serves build/site on 127.0.0.1 and rebuilds when content changes.

Only files inside the built site are served (the handler maps paths into the site folder and refuses
anything that resolves outside it). Pages poll /__kodeks/version and reload after a rebuild.
"""
from __future__ import annotations

import http.server
import json
import os
import threading
import time
from pathlib import Path
from typing import Callable


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
    def __init__(self) -> None:
        self.version = 0
        self.last_error = ""
        self.lock = threading.Lock()


def make_handler(site: Path, state: State):
    site = site.resolve() if site.exists() else site

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(site), **kwargs)

        def log_message(self, format, *args):  # noqa: A002 - keep the console for build output
            pass

        def translate_path(self, path: str) -> str:
            translated = Path(super().translate_path(path))
            root = Path(self.directory).resolve()
            try:
                resolved = translated.resolve()
                resolved.relative_to(root)
            except (ValueError, OSError):
                return str(root / "__outside__")  # does not exist: 404
            return str(resolved)

        def do_GET(self):
            if self.path.startswith("/__kodeks/version"):
                body = json.dumps({"version": state.version, "error": state.last_error}).encode()
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
          interval: float = 0.4) -> None:
    before = snapshot(folders)
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


def serve(site: Path, host: str, port: int, state: State) -> http.server.ThreadingHTTPServer:
    server = http.server.ThreadingHTTPServer((host, port), make_handler(site, state))
    server.daemon_threads = True
    return server
