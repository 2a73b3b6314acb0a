"""Files with nothing to translate, answered without the translator's heavy modules.

A file that holds no region and no data directive comes out as it went in (the driver's
`translate_text` writes its original bytes back).  Where the built-in frontend can tell that
from the text alone (`frontends.quick.nothing_to_translate`), the build layer takes this path
instead and imports neither the frontend's parser nor the IR, isl, pymbolic or numpy: in a
build that runs ``translate`` on every file of a program, most files cost the interpreter's
start and a read (bench/RESULTS.md, "Files without regions (lead, session 14)").  The outputs,
warnings and report are the ones the full path gives such a file.
"""

from __future__ import annotations

import os
from typing import Any

from frontends.quick import nothing_to_translate
from translator.languages import C_SUFFIXES, FORTRAN_SUFFIXES, language_of
from translator.sourcebytes import SourceBytes

_SUFFIXES = {"fortran": FORTRAN_SUFFIXES, "c": C_SUFFIXES}


def builtin_language(path: str, options: dict[str, Any]) -> str | None:
    """The built-in language the driver's `frontend_for` would choose for `path` without
    looking up plugins (None: a plugin may be meant, or the suffix is not known)."""
    language = options.get("language")
    if language:
        return language if language in _SUFFIXES else None
    name = language_of(path)
    suffix = os.path.splitext(os.path.basename(path))[1]   # as Path(path).suffix, without pathlib
    if name is None or not (suffix in _SUFFIXES[name] or suffix.lower() in _SUFFIXES[name]):
        return None
    return name


def untranslated(path: str, text: str | bytes, options: dict[str, Any]
                 ) -> tuple[str, SourceBytes] | None:
    """(language, the file's bytes) when the file certainly has nothing to translate; None
    when the frontend must read it."""
    language = builtin_language(path, options)
    if language is None:
        return None
    source = (SourceBytes.from_bytes(text) if isinstance(text, bytes)
              else SourceBytes.from_text(text))
    if not nothing_to_translate(language, path, source.text, options):
        return None
    return language, source


def passthrough_outputs(path: str, source: SourceBytes, emit: str, all_outputs: bool
                        ) -> dict[str, str]:
    """The outputs of a file without regions for ``--emit EMIT`` (the driver's
    `outputs_for_emit` of its `TranslationResult`), with ``--all-outputs``' placeholders."""
    base = os.path.basename(path)
    stem, _ = os.path.splitext(base)
    if emit == "ir":
        return {f"{stem}.ir": ""}
    outputs = {base: source.original} if emit in ("all", "source") else {}
    if all_outputs and emit == "all":
        outputs.update(placeholder_outputs(path))
    return outputs


def placeholder_outputs(path: str) -> dict[str, str]:
    """For a file without regions: an empty device file and a host glue file that compiles to
    nothing, for build systems that must know every output in advance (``--all-outputs``)."""
    base = os.path.basename(path)
    stem, _ = os.path.splitext(base)
    note = f"no translate regions in {base}: nothing runs on the device"
    return {f"{stem}.cl": f"/* {note} */\n",
            f"{stem}.host.c": f"/* {note} */\ntypedef int translate_no_regions_;\n"}


def no_regions_report(path: str) -> str:
    """The ``--report`` line of a file without regions."""
    return f"translate: report for {path}: no regions\n"
