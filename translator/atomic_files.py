"""Writing outputs atomically, and only when they change.

Several outputs of one source (the rewritten source, the ``.cl`` and ``.host.c`` files) are
written as one unit: every changed file goes to a hidden temporary next to it, and only when
all are complete are they renamed into place (`write_files`).  A file that already holds its
text is left alone (its modification time is kept, so build tools rebuild only what changed).
Temporaries are named after their process, so a later run removes those an interrupted one
left behind (`remove_stale_temporaries`).
"""

from __future__ import annotations

import errno
import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from translator.patterns import LazyPattern


@lru_cache(maxsize=1)
def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_if_changed(path: str, text: str) -> bool:
    """Write `text` to `path` atomically unless it already holds exactly that; returns whether
    it wrote (an unchanged file keeps its modification time, so nothing rebuilds).  An
    `OSError` names `path`, not the temporary file.  Bytes of the source that are not UTF-8
    come back as they were (`translator.sourcebytes`)."""
    data = text.encode("utf-8", "surrogateescape")
    remove_stale_temporaries(path)
    if _holds(path, data):
        return False
    try:
        _write_atomically(path, data)
    except OSError as e:
        raise OSError(e.errno, e.strerror, path) from None
    return True


def write_files(files: dict[str, str]) -> list[str]:
    """Write several files as one unit: each changed file goes to a temporary file next to
    it, and only when every one is complete are they renamed into place; on any failure the
    temporary files are removed and no file has changed (a rename that fails after others
    succeeded puts the earlier files back).  Files that already hold their text are left
    alone.  Returns the paths written.  An `OSError` names the file, not the temporary."""
    pending: list[tuple[str, str]] = []
    for path in files:
        remove_stale_temporaries(path)
    try:
        for path, text in files.items():
            data = text.encode("utf-8", "surrogateescape")
            if _holds(path, data):
                continue
            _refuse_directory(path)
            pending.append((_temporary(path, data), path))
        _rename_all(pending)
    except OSError as e:
        for tmp, _ in pending:
            if os.path.lexists(tmp):
                os.unlink(tmp)
        raise OSError(e.errno, e.strerror, _named(e, pending)) from None
    return [path for _, path in pending]


def _refuse_directory(path: str) -> None:
    """An `IsADirectoryError` naming `path` if it is a directory: a rename over it fails only
    after other outputs were renamed, so it is found before anything is written."""
    if os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)


def _rename_all(pending: list[tuple[str, str]]) -> None:
    """Rename each temporary file onto its target; if one rename fails, the targets renamed
    before it get their old contents back (kept as backups meanwhile) or are removed.
    SIGTERM, SIGINT and SIGHUP wait until all renames are done (only SIGKILL, or a power cut,
    can leave outputs of two runs; the generation stamp makes such a set fail to link)."""
    with _termination_held():
        _rename_each(pending)


@contextmanager
def _termination_held() -> Iterator[None]:
    """Delay the signals that end a process politely while the body runs: they are recorded
    and sent again, to the old handlers, when it ends.  (A signal mask would not do: the
    kernel hands a process's signal to any thread that does not block it.)  Only the main
    thread can set handlers; elsewhere nothing is held."""
    caught: list[int] = []
    old = {}
    try:
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            old[sig] = signal.signal(sig, lambda signum, _frame: caught.append(signum))
    except ValueError:   # not the main thread
        pass
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, signal.SIG_DFL if handler is None else handler)
        for sig in dict.fromkeys(caught):
            os.kill(os.getpid(), sig)


def _rename_each(pending: list[tuple[str, str]]) -> None:
    renamed: list[tuple[str, str | None]] = []
    try:
        for tmp, path in pending:
            _pause_for_tests()
            backup = _backup(path)
            try:
                os.replace(tmp, path)
            except OSError:
                _drop([(path, backup)])
                raise
            renamed.append((path, backup))
    except OSError:
        for path, backup in reversed(renamed):
            if backup is not None:
                os.replace(backup, path)
            elif os.path.lexists(path):
                os.unlink(path)
        raise
    _drop(renamed)


def _backup(path: str) -> str | None:
    """A second name for the file now at `path`: a hard link, or a copy where the file
    system has none (None if there is no file)."""
    if not os.path.lexists(path):
        return None
    folder = os.path.dirname(path) or "."
    backup = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.old")
    if os.path.lexists(backup):
        os.unlink(backup)
    try:
        os.link(path, backup, follow_symlinks=False)
    except OSError:
        import shutil  # here: rarely needed, and costly at start-up
        shutil.copyfile(path, backup, follow_symlinks=False)
    return backup


def _drop(backups: list[tuple[str, str | None]]) -> None:
    for _, backup in backups:
        if backup is not None and os.path.lexists(backup):
            os.unlink(backup)


def _holds(path: str, data: bytes) -> bool:
    """Whether `path` holds exactly `data` (not through pathlib: a result-cache hit imports
    no pathlib, 40 M instructions, where the install does not either)."""
    try:
        with open(path, "rb") as f:
            return f.read() == data
    except OSError:
        return False


def _named(err: OSError, pending: list[tuple[str, str]]) -> str:
    """The file an error is about: the target of a temporary file."""
    for tmp, path in pending:
        if err.filename in (tmp, path):
            return path
    return err.filename


def _make_folder(folder: str) -> None:
    """`os.makedirs`, but a file where a folder must be is "Not a directory" (makedirs says
    "File exists", which reads as if the output were there already)."""
    try:
        os.makedirs(folder, exist_ok=True)
    except FileExistsError:
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), folder) from None


def _temporary(path: str, data: bytes) -> str:
    """A complete temporary copy of `data` next to `path` (removed again if writing fails)."""
    folder = os.path.dirname(path) or "."
    try:
        _make_folder(folder)
        fd, tmp = _mkstemp(path)
    except OSError as e:
        raise OSError(e.errno, e.strerror, path) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o666 & ~_umask())   # mkstemp makes 0600; outputs are ordinary files
    except BaseException as e:
        os.unlink(tmp)
        if isinstance(e, OSError):
            raise OSError(e.errno, e.strerror, path) from None
        raise
    return tmp


def _write_atomically(path: str, data: bytes) -> None:
    folder = os.path.dirname(path) or "."
    _make_folder(folder)
    fd, tmp = _mkstemp(path)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o666 & ~_umask())   # mkstemp makes 0600; outputs are ordinary files
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# ---------------------------------------------------------------------------------------------
# temporary files: named after their process, so that later runs can remove those left behind

#: The hidden temporaries of `write_files` next to an output NAME: ``.NAME.<pid>.<random>.tmp``
#: (a new file being written) and ``.NAME.<pid>.old`` (a backup during the renames).
_TEMPORARY = LazyPattern(r"\.(?P<pid>\d+)\.(?:[A-Za-z0-9_]+\.tmp|old)")
#: Seconds after which a temporary is stale even if its process id is alive (reused).
STALE_AFTER = 60.0


def _mkstemp(path: str) -> tuple[int, str]:
    folder = os.path.dirname(path) or "."
    import tempfile  # here: a cache hit whose outputs are unchanged writes none
    return tempfile.mkstemp(prefix=f".{os.path.basename(path)}.{os.getpid()}.", suffix=".tmp",
                            dir=folder)


def remove_stale_temporaries(path: str) -> list[str]:
    """Remove the temporaries that an interrupted run (killed, or out of power) left next to
    `path`: those of a process that no longer exists, and any older than a minute.  Returns
    the paths removed."""
    folder = os.path.dirname(path) or "."
    prefix = f".{os.path.basename(path)}"
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix)]
    except OSError:
        return []
    removed = []
    for name in names:
        match = _TEMPORARY.fullmatch(name, len(prefix))
        full = os.path.join(folder, name)
        if match and _stale(full, match.group("pid")):
            try:
                os.unlink(full)
                removed.append(full)
            except OSError:
                pass   # gone already (another run cleaned it), or not ours to remove
    return removed


def _stale(path: str, pid: str) -> bool:
    try:
        if time.time() - os.lstat(path).st_mtime > STALE_AFTER:
            return True
    except OSError:
        return False
    if int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except (OSError, OverflowError):
        return False   # alive under another user, or not a process id at all
    return False


def _pause_for_tests() -> None:
    """``TRANSLATE_TEST_SLOW_RENAMES=SECONDS``: wait before each rename of `write_files`, so
    that a test can interrupt a translation between two renames (a window of microseconds
    otherwise)."""
    delay = os.environ.get("TRANSLATE_TEST_SLOW_RENAMES")
    if delay:
        time.sleep(float(delay))
