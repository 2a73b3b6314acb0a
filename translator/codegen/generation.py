"""The generation stamp that ties a file's three outputs together.

``translate src.f90 -o out`` writes ``out/src.f90``, ``out/src.cl`` and ``out/src.host.c``.
They are renamed into place one after the other, so a translation killed between two renames
(or a file copied from another run) can leave a set whose rewritten source and glue come from
different runs.  Such a set must not link: the glue refers to a symbol named after a hash of
its own text, and the rewritten source defines that symbol.  A mixed set then stops the link
with ``undefined reference to `translate_outputs_out_of_date_rerun_translate_<stamp>'``, which
says what to do; at run time the stamp costs nothing.

The stamp hashes the glue, which embeds the kernels' source: an edit outside the regions
changes only the rewritten source (so unchanged outputs keep their time), an edit inside a
region changes all three.
"""

from __future__ import annotations

import hashlib

#: What the stamp symbol says to whoever reads a link error.
SYMBOL_PREFIX = "translate_outputs_out_of_date_rerun_translate_"


def generation_symbol(glue: str) -> str:
    """The stamp symbol for the host glue text `glue` (12 hex digits: a fixed-form Fortran
    line still holds it)."""
    digest = hashlib.sha256(glue.encode("utf-8", "surrogateescape")).hexdigest()
    return SYMBOL_PREFIX + digest[:12]


def stamp(symbol: str) -> str:
    """The hex digits of a stamp symbol."""
    return symbol[len(SYMBOL_PREFIX):]


def glue_reference(symbol: str, source_name: str) -> str:
    """C text that makes the glue object refer to `symbol` (kept at any optimisation level
    by ``used``; nothing runs)."""
    return (f"\n/* Generation stamp {stamp(symbol)}: the rewritten {_safe(source_name)} "
            "defines the symbol below.\n"
            " * If the link says it is undefined, this glue and that source come from "
            "different runs of\n * translate (an interrupted run, a copied file): rerun "
            "translate. */\n"
            f"extern const char {symbol};\n"
            "static const char *const _tr_generation __attribute__((used)) = "
            f"&{symbol};\n")


def device_note(symbol: str) -> str:
    """The comment line that names the stamp in ``src.cl``."""
    return f"// translate generation stamp {stamp(symbol)}\n"


def _safe(text: str) -> str:
    return text.replace("*/", "* /")
