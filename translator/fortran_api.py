"""`parse_fortran`: the subroutines of a Fortran source text as kernels (loopy's
``lp.parse_fortran``), for Python transforms, `generate_code`, `compile` and `auto_test_vs_ref`.

Each subroutine's executable part becomes one region, as if it were enclosed in ``!$translate
kernel NAME`` ... ``!$translate end kernel``, and goes through the Fortran frontend: the kernel
is what a pragma of that region would see (dummies it uses as arguments with their declared
types and shapes, procedure-local scalars as temporaries, no automatic mapping).  A text that
already marks regions gives those regions' kernels, their transform pragmas applied.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from frontends.fortran.source import (children, class_name, node_lines, parse_source, source_form,
                                      walk)
from translator.diagnostics import SourceSpan, TranslatorError
from translator.driver import frontend_for, with_claims_proven
from translator.ir.kernel import Kernel
from translator.pipeline import apply_transform_calls

#: A ``kernel`` directive in either form (the sentinel at any column in free form).
_KERNEL_DIRECTIVE = re.compile(r"^\s*[!cC*]\$translate\s+kernel\b", re.I | re.M)


def parse_fortran(source: str, filename: str = "source.f90", *,
                  options: dict[str, Any] | None = None) -> dict[str, Kernel]:
    """``{subroutine name: Kernel}`` for every subroutine with executable statements (names
    in lower case, as Fortran's are case-insensitive).  `filename` names the source in
    diagnostics and picks the form by its suffix (``.f``: fixed); `options` are the frontend
    options of `translate_file` (``{"form": "fixed"}``, ``{"defines": ...}``).

    >>> import translator
    >>> knls = translator.parse_fortran('''
    ... subroutine fill(out, a, n)
    ...   real*8 a, out(n)
    ...   integer n, i
    ...   do i = 1, n
    ...     out(i) = a
    ...   end do
    ... end
    ... ''')
    >>> sorted(knls), sorted(a.name for a in knls["fill"].args)
    (['fill'], ['a', 'n', 'out'])
    """
    frontend = frontend_for(filename, "fortran")
    opts = dict(options or {})
    if _KERNEL_DIRECTIVE.search(source):
        return _marked_kernels(with_claims_proven(frontend.parse(filename, source, opts)))
    text, origin = with_regions(source, filename, opts)
    try:
        regions = with_claims_proven(frontend.parse(filename, text, opts)).regions
    except TranslatorError as err:
        err.span = _original(err.span, origin)
        raise
    return {r.name: _at_original_lines(r.kernel, origin) for r in regions}


def with_regions(source: str, filename: str, options: dict[str, Any]
                 ) -> tuple[str, dict[int, int]]:
    """`source` with each subroutine's executable part between ``!$translate kernel NAME``
    and ``!$translate end kernel`` lines (column 1: a directive in both source forms), and
    the line of `source` that each line of the new text comes from."""
    tree = parse_source(filename, source, source_form(filename, options))
    marks: dict[int, list[str]] = {}
    for unit in walk(tree):
        if class_name(unit) != "Subroutine_Subprogram":
            continue
        parts = {class_name(c): c for c in children(unit) if c is not None}
        span = node_lines(parts.get("Execution_Part"))
        if span is None:
            continue
        name = str(parts["Subroutine_Stmt"].items[1]).lower()
        marks.setdefault(span[0], []).append(f"!$translate kernel {name}\n")
        marks.setdefault(span[1] + 1, []).insert(0, "!$translate end kernel\n")
    out: list[str] = []
    origin: dict[int, int] = {}
    lines = source.splitlines(keepends=True)
    for number, line in enumerate([*lines, ""], start=1):
        if out and not out[-1].endswith("\n"):
            out[-1] += "\n"
        out += marks.get(number, [])
        if line:
            out.append(line)
            origin[len(out)] = number
    return "".join(out), origin


def _original(span: SourceSpan | None, origin: dict[int, int]) -> SourceSpan | None:
    """`span` at the line of the text the user gave (directive lines count for nothing)."""
    if span is None or span.line not in origin:
        return span
    end = origin.get(span.end_line, span.end_line) if span.end_line is not None else None
    return replace(span, line=origin[span.line], end_line=end)


def _at_original_lines(kernel: Kernel, origin: dict[int, int]) -> Kernel:
    def moved(item: Any) -> Any:
        span = _original(item.span, origin)
        return item if span is item.span else replace(item, span=span)
    return kernel.copy(statements=tuple(moved(s) for s in kernel.statements),
                       args=tuple(moved(a) for a in kernel.args),
                       temporaries=kernel.temporaries.update(
                           {n: moved(t) for n, t in kernel.temporaries.items()}),
                       span=_original(kernel.span, origin))


def _marked_kernels(parsed: Any) -> dict[str, Kernel]:
    return {r.name: apply_transform_calls(r.kernel, r.transform_calls)
            for r in parsed.regions}


__all__ = ["parse_fortran", "with_regions"]
