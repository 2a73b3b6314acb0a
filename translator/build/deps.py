"""Dependency files (``-MD -MF file.d``): the make rule of a translated file.

A dependency file is a make rule: the outputs (or the ``-MT`` targets) depend on the source,
every file it includes, and the translator itself.  Includes are found the way the compilers
find them: C ``#include`` lines by ``gcc -MM`` with the same ``-I``/``-D``/``-U`` flags the
frontend saw; Fortran ``include`` lines (and ``#include`` in preprocessed Fortran) by scanning,
searching the including file's directory first, then each ``-I`` directory.

The translator's "version stamp" is the list of its own files (Python modules and the C
runtime): installing another version or editing the translator in place changes their
modification times, so make or CMake translate again.  No stamp file has to be kept up to date.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path

from translator.diagnostics import FrontendError

_FORTRAN_INCLUDE = re.compile(r"""^[ \t]*include[ \t]*(['"])(?P<name>[^'"]+)\1""",
                              re.IGNORECASE | re.MULTILINE)
_CPP_INCLUDE = re.compile(r"""^[ \t]*#[ \t]*include[ \t]*(["<])(?P<name>[^">]+)[">]""",
                          re.MULTILINE)


@lru_cache(maxsize=1)
def toolchain_files() -> tuple[str, ...]:
    """The translator's own files, sorted: its Python modules and the C runtime."""
    import frontends
    import transforms
    import translator
    found = set()
    for pkg in (translator, frontends, transforms):
        root = Path(pkg.__file__).resolve().parent
        for path in root.rglob("*"):
            if path.suffix in (".py", ".c", ".h", ".cmake", ".mk") and \
                    "__pycache__" not in path.parts:
                found.add(str(path))
    return tuple(sorted(found))


def include_dirs(cpp_args: Sequence[str]) -> list[str]:
    """The ``-I`` directories of a preprocessor argument list, in order."""
    return [a[2:] for a in cpp_args if a.startswith("-I") and len(a) > 2]


def fortran_includes(path: str, search: Sequence[str], seen: set[str] | None = None
                     ) -> list[str]:
    """Files a Fortran source includes (transitively), in first-seen order."""
    seen = set() if seen is None else seen
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    out: list[str] = []
    here = os.path.dirname(path) or "."
    for m in list(_FORTRAN_INCLUDE.finditer(text)) + list(_CPP_INCLUDE.finditer(text)):
        found = _resolve(m.group("name"), [here, *search])
        if found is None or found in seen:
            continue
        seen.add(found)
        out.append(found)
        out += fortran_includes(found, search, seen)
    return out


def _resolve(name: str, dirs: Iterable[str]) -> str | None:
    if os.path.isabs(name):
        return name if os.path.isfile(name) else None
    for d in dirs:
        cand = os.path.join(d, name)
        if os.path.isfile(cand):
            return os.path.normpath(cand)
    return None


def c_includes(path: str, cpp_args: Sequence[str]) -> list[str]:
    """Files a C source includes (transitively, system headers left out), by ``gcc -MM``."""
    import subprocess  # here: writing outputs (a cache hit) needs no subprocess
    cmd = ["gcc", "-MM", "-MG", *cpp_args, "-x", "c", path]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise FrontendError(f"{path}: cannot list its includes with gcc: {e}") from None
    if proc.returncode != 0:
        first = (proc.stderr.strip().splitlines() or ["gcc failed"])[0]
        raise FrontendError(f"{path}: cannot list its includes: {first}")
    deps = parse_make_rule(proc.stdout)
    source = os.path.normpath(path)
    return [d for d in deps if os.path.normpath(d) != source]


def parse_make_rule(text: str) -> list[str]:
    """The prerequisites of the (first) rule in a make dependency text."""
    joined = text.replace("\\\n", " ")
    _, _, prereqs = joined.partition(":")
    words, current, escaped = [], "", False
    for ch in prereqs.split("\n", 1)[0]:
        if escaped:
            current += ch
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch.isspace():
            if current:
                words.append(current)
            current = ""
        else:
            current += ch
    if current:
        words.append(current)
    return words


def source_dependencies(path: str, language: str, cpp_args: Sequence[str]) -> list[str]:
    """The source, then every file it includes (no duplicates)."""
    if language == "c":
        includes = c_includes(path, cpp_args)
    else:
        includes = fortran_includes(path, include_dirs(cpp_args))
    out: list[str] = []
    for dep in [path, *includes]:
        if dep not in out:
            out.append(dep)
    return out


def _escape(path: str) -> str:
    return path.replace("\\", "\\\\").replace(" ", "\\ ").replace("#", "\\#").replace("$", "$$")


def depfile_text(targets: Sequence[str], deps: Sequence[str], *, phony: bool = False) -> str:
    """A make rule ``targets: deps``, one prerequisite per line; with `phony`, an empty rule
    for each prerequisite but the first, so that deleting a header does not break the build
    (gcc's ``-MP``)."""
    lines = [" ".join(_escape(t) for t in targets) + ":"]
    lines += [f" {_escape(d)}" for d in deps]
    text = " \\\n".join(lines) + "\n"
    if phony:
        text += "".join(f"\n{_escape(d)}:\n" for d in deps[1:])
    return text

