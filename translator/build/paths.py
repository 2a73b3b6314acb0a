"""Where the installed package keeps the files a build needs: the C runtime, the CMake module
and the make include file (``translate --runtime-dir``, ``--cmake-dir``, ``--make-dir``).

They live here, below the command line and ``translate check``/``devices``, so that those two
subcommands need not import `translator.cli`.
"""

from __future__ import annotations

import os

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def runtime_dir() -> str:
    """The directory of ``translate_rt.h`` and ``translate_rt.c``."""
    return os.path.join(_PACKAGE, "runtime")


def cmake_dir() -> str:
    """The directory of ``Translator.cmake``."""
    return os.path.join(_PACKAGE, "cmake")


def make_dir() -> str:
    """The directory of ``translate.mk``."""
    return os.path.join(_PACKAGE, "make")
