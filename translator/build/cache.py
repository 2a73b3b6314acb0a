"""The result cache (like ccache): a file translated before, under the same options, with the
same included files and the same translator, is not translated again.

Key.  An entry is found in two steps, as in ccache's direct mode:

1. the *direct key* hashes the source's bytes, its path as given and the working directory
   (both appear in the outputs and in how relative ``-I`` paths resolve), every option of the
   job (the whole `JobOptions`, normalised so that set and dict order do not matter: an
   option added later is part of the key without being listed here), the translator version
   (`translator_version`) and the Python version.  It names a *manifest*: the files the last
   translation of that source read besides the source (``#include``/``include`` files, the
   sources of used Fortran modules);
2. the *entry key* adds the current contents of those files; it names the *entry*: the
   outputs, the dependency list, the warnings as printed (the warning policy is an option),
   the offload report and the glue symbols.

Concurrency.  Every file is written to a temporary file in its own directory and renamed into
place, so a reader sees a whole file or none, and two writers of one entry leave one of their
(equal) copies.  Each file starts with the SHA-256 of its body: a file that does not match
(truncated, edited, garbage) is ignored as a miss, and the next translation replaces it.

Runs that print what only a real run knows (``--time-passes``, ``--print-ir-after-all``)
bypass the cache; failed translations are not stored.  A file that newly appears earlier on
an include or module search path than the one the entry recorded is not noticed (as with
ccache's direct mode): ``--no-cache`` or removing the directory helps.

Only the standard library is imported here: a hit costs a few milliseconds.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import fields, is_dataclass

#: typing is not imported at run time (3 ms of a 50 ms result-cache hit)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

try:   # the built-in module: hashlib would load OpenSSL first, a tenth of a hit's time
    from _sha2 import sha256  # Python 3.12 on
except ImportError:
    try:
        from _sha256 import sha256
    except ImportError:
        from hashlib import sha256

#: Changes whenever the layout or the meaning of an entry changes.
FORMAT = "translate-cache-1"
#: The translator's packages, hashed for its version (sources and data files).
PACKAGES = ("translator", "frontends", "transforms")
#: Libraries whose version can change what the translator emits.
LIBRARIES = ("islpy", "pymbolic", "fparser", "pycparser", "numpy")
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cache_dir() -> str:
    """``$TRANSLATE_CACHE_DIR``, else ``$XDG_CACHE_HOME/translate``, else
    ``~/.cache/translate``."""
    chosen = os.environ.get("TRANSLATE_CACHE_DIR")
    if chosen:
        return chosen
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "translate")


def canonical(obj: Any) -> str:
    """A text for `obj` that does not depend on set or dict order (options as a key)."""
    if is_dataclass(obj) and not isinstance(obj, type):
        inner = ", ".join(f"{f.name}={canonical(getattr(obj, f.name))}" for f in fields(obj))
        return f"{type(obj).__qualname__}({inner})"
    if isinstance(obj, dict):
        items = sorted(f"{canonical(k)}: {canonical(v)}" for k, v in obj.items())
        return "{" + ", ".join(items) + "}"
    if isinstance(obj, (set, frozenset)):
        return "set{" + ", ".join(sorted(canonical(v) for v in obj)) + "}"
    if isinstance(obj, (list, tuple)):
        return f"{type(obj).__name__}[" + ", ".join(canonical(v) for v in obj) + "]"
    return repr(obj)


def _sha(*parts: str | bytes) -> str:
    h = sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def _source_files() -> list[str]:
    """The translator's own files (every file of its packages but compiled bytecode)."""
    found = []
    for package in PACKAGES:
        for root, dirs, files in os.walk(os.path.join(_ROOT, package)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            found += [os.path.join(root, f) for f in sorted(files) if not f.endswith(".pyc")]
    return found


def _stat_text(paths: list[str]) -> str:
    lines = []
    for path in paths:
        st = os.stat(path)
        lines.append(f"{path}\0{st.st_size}\0{st.st_mtime_ns}")
    return "\n".join(lines)


def _library_stats() -> str:
    """Where each library in `LIBRARIES` is and when it was installed (no import)."""
    found = []
    for name in LIBRARIES:
        for entry in sys.path:
            init = os.path.join(entry or ".", name, "__init__.py")
            try:
                st = os.stat(init)
            except OSError:
                continue
            found.append(f"{init}\0{st.st_size}\0{st.st_mtime_ns}")
            break
    return "\n".join(found)


_VERSION: dict[str, str] = {}


def translator_version(root: str) -> str:
    """A hash of the translator's sources, of the libraries' install stamps and of Python.
    Hashing the sources' bytes costs more than a hit should, so the hash is remembered in
    the cache directory under a hash of the files' sizes and modification times: a hit
    only stats the files."""
    if root in _VERSION:
        return _VERSION[root]
    files = _source_files()
    stamp = _sha(FORMAT, sys.version, _ROOT, _stat_text(files), _library_stats())
    path = os.path.join(root, "versions", stamp)
    digest = _read_checked(path)
    if digest is None:
        contents = sha256()
        for name in files:
            with open(name, "rb") as f:
                contents.update(os.path.relpath(name, _ROOT).encode() + b"\0" + f.read())
        digest = _sha(stamp, contents.hexdigest())
        _write_checked(path, digest)
    _VERSION[root] = digest
    return digest


def _read_checked(path: str) -> str | None:
    """The body of a cache file, or None when it is missing or does not match its hash."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    digest, _, body = data.partition(b"\n")
    if digest.decode("ascii", "replace") != sha256(body).hexdigest():
        return None
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _write_checked(path: str, body: str) -> None:
    """Write `body` with its hash atomically (temporary file + rename); a cache that cannot
    be written is no error (the translation stands)."""
    data = body.encode("utf-8")
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.{os.urandom(6).hex()}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(sha256(data).hexdigest().encode("ascii") + b"\n" + data)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass


def _file_hash(path: str) -> str:
    try:
        with open(path, "rb") as f:
            return sha256(f.read()).hexdigest()
    except OSError:
        return "missing"


class ResultCache:
    """The entries under directory `root` (see the module docstring)."""

    def __init__(self, root: str | None = None) -> None:
        self.root = root or cache_dir()

    def direct_key(self, src: str, data: bytes, options: Any) -> str:
        """The key of the manifest of `src` with bytes `data` under `options`."""
        return _sha(FORMAT, translator_version(self.root), os.getcwd(), src,
                    canonical(options), sha256(data).hexdigest())

    def lookup(self, direct: str) -> dict[str, Any] | None:
        """The entry stored under `direct` whose read files still hold what they held."""
        manifest = self._load(self._path("manifests", direct))
        if manifest is None or not isinstance(manifest.get("read"), list):
            return None
        entry = self._load(self._path("entries", self._entry_key(direct, manifest["read"])))
        return entry if entry is not None and entry.get("key") == direct else None

    def store(self, direct: str, read: list[str], entry: dict[str, Any]) -> None:
        """Remember `entry` under `direct` and the current contents of the files `read`."""
        body = dict(entry, key=direct)
        _write_checked(self._path("entries", self._entry_key(direct, read)),
                       json.dumps(body, sort_keys=True))
        _write_checked(self._path("manifests", direct), json.dumps({"read": list(read)}))

    def _entry_key(self, direct: str, read: list[str]) -> str:
        return _sha(direct, *(f"{path}\0{_file_hash(path)}" for path in read))

    def _path(self, kind: str, key: str) -> str:
        return os.path.join(self.root, kind, key[:2], key[2:])

    @staticmethod
    def _load(path: str) -> dict[str, Any] | None:
        body = _read_checked(path)
        if body is None:
            return None
        try:
            value = json.loads(body)
        except ValueError:
            return None
        return value if isinstance(value, dict) else None
