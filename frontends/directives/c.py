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
    if "openacc" in models:   # OpenACC constructs depend on what follows them (h16)
        from frontends.directives.openacc import resolve_constructs
        lines = sorted(out)
        claims = resolve_constructs([(k, out[k][0].last_line, out[k][1]) for k in lines],
                                    src.lines, "c")
        out = {k: (out[k][0], c) for k, c in zip(lines, claims)}
    return out
