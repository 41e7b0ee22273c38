"""The data of the YAML files a build read, kept between builds by the digest of each file's bytes.

Composing and converting YAML is most of loading the content (at 10,000 entries, two of the three seconds).
A file whose bytes are the same as when it was last read without a problem gives the same data, so the
data is taken from here and the file is not parsed; its positions are found only if a check reports a
problem in it (content/yamlfile.py, `Locs`). Files with a problem are never kept: they are read, and
reported, every time.

Only a cache: missing, unreadable or made by another reader, it is simply not used, and it is rewritten
whole (atomically) when it changed, keeping only the files read this time.
"""
from __future__ import annotations

import hashlib
import pickle
from pathlib import Path

from ..outdir import keep

FORMAT = 1


def _reader() -> str:
    """The reader's own version: this module, the YAML reader's code and ruamel.yaml's version."""
    import ruamel.yaml

    from . import yamlfile
    h = hashlib.sha256(f"{FORMAT}\0{ruamel.yaml.__version__}\0".encode())
    for module in (yamlfile, __import__(__name__, fromlist=["_"])):
        h.update(Path(module.__file__).read_bytes())
    return h.hexdigest()[:32]


class ParseCache:
    def __init__(self, path: Path | None):
        self.path = path
        self.reader = _reader()
        self.old: dict[bytes, bytes] = {}
        self.new: dict[bytes, bytes] = {}
        if path is not None:
            try:
                with open(path, "rb") as fh:
                    data = pickle.load(fh)
                if isinstance(data, dict) and data.get("reader") == self.reader:
                    self.old = data["files"]
            except Exception:  # noqa: BLE001 - missing, cut short, another version: parse every file
                self.old = {}

    @staticmethod
    def digest(raw: bytes) -> bytes:
        return hashlib.blake2b(raw, digest_size=20).digest()

    def get(self, digest: bytes):
        """The data of a file with these bytes, or None. Each call gives a fresh copy: callers may change it."""
        blob = self.old.get(digest) or self.new.get(digest)
        if blob is None:
            return None
        self.new[digest] = blob
        return pickle.loads(blob)

    def put(self, digest: bytes, data) -> None:
        self.new[digest] = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)

    def save(self) -> None:
        """Write the files read this time, if that is not what the cache already holds."""
        if self.path is None or self.new.keys() == self.old.keys():
            return
        keep(self.path, {"reader": self.reader, "files": self.new})
