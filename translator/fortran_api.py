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
from typing import Any

from translator.ir.kernel import Kernel

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
    from translator.driver import frontend_for
    frontend = frontend_for(filename, "fortran")
    opts = dict(options or {})
    if _KERNEL_DIRECTIVE.search(source):
        return _marked_kernels(frontend.parse(filename, source, opts))
    regions = frontend.parse(filename, with_regions(source, filename, opts), opts).regions
    return {r.name: r.kernel for r in regions}


def with_regions(source: str, filename: str, options: dict[str, Any]) -> str:
    """`source` with each subroutine's executable part between ``!$translate kernel NAME``
    and ``!$translate end kernel`` lines (column 1: a directive in both source forms)."""
    from frontends.fortran.source import (children, class_name, node_lines, parse_source,
                                          source_form, walk)
    tree = parse_source(filename, source, source_form(filename, options))
    lines = source.splitlines(keepends=True)
    marks: list[tuple[int, str]] = []
    for unit in walk(tree):
        if class_name(unit) != "Subroutine_Subprogram":
            continue
        parts = {class_name(c): c for c in children(unit) if c is not None}
        span = node_lines(parts.get("Execution_Part"))
        if span is None:
            continue
        name = str(parts["Subroutine_Stmt"].items[1]).lower()
        marks += [(span[0] - 1, f"!$translate kernel {name}\n"),
                  (span[1], "!$translate end kernel\n")]
    for at, line in sorted(marks, reverse=True):
        if at > 0 and not lines[at - 1].endswith("\n"):
            lines[at - 1] += "\n"
        lines.insert(at, line)
    return "".join(lines)


def _marked_kernels(parsed: Any) -> dict[str, Kernel]:
    from translator.pipeline import apply_transform_calls
    return {r.name: apply_transform_calls(r.kernel, r.transform_calls)
            for r in parsed.regions}


__all__ = ["parse_fortran", "with_regions"]
