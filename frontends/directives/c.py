"""OpenMP/OpenACC directives in C: the ``#pragma omp`` / ``#pragma acc`` lines of the original
text (continuations with a trailing backslash), as ``#pragma translate`` lines are read
(`frontends.c.regions.scan_directives`), and their claims.  `frontends.c.regions` makes the
regions (the statement after a directive is delimited by `frontends.c.extent`)."""

from __future__ import annotations

from typing import Any

from frontends.c.preprocess import SourceText
from frontends.c.regions import RawDirective, scan_directives

_SENTINELS = {"openmp": "omp", "openacc": "acc"}


def read_claims(src: SourceText, models: tuple[str, ...], parsers: dict[str, Any]
                ) -> dict[int, tuple[RawDirective, Any]]:
    """line -> (directive, claim) for every directive of the requested models."""
    out = {}
    for model in models:
        if model not in _SENTINELS:
            continue
        for line, raw in scan_directives(src, _SENTINELS[model]).items():
            out[line] = (raw, parsers[model](raw.text, raw.span, "c"))
    return out
