"""Host reads outside a partial ``update host`` (``-Wstale-host-access``, h70).

``update host(y[0:N/2])`` (OpenMP ``target update from(y[0:N/2])``, Fortran ``update
host(y(1:n/2))``) brings back part of an array; a later host statement of the data region
that uses ``y`` outside that part reads what the device has newer.  The stale scan
(`frontends.stale`) asks `outside_update` where the host statement uses the array: its
subscripts, with the range of the loop around the statement that they run over (a ``for``
header, a ``do`` line), are compared with the section by isl.  The use must leave the
section whatever values the names take (``N``, ``n``: a macro or a variable the translator
does not know): ``y[i]`` over ``i < N`` against ``y[0:N/2]``.  A use whose range is not known
(a subscript through another array, a loop bound isl cannot take, a call) or that stays inside
for some values counts as inside, as the documented halo rule has it (an update of the edges,
then a send of them).
A use of the whole array (``sum(y)``, ``print *, y``) is outside.
"""

from __future__ import annotations

import re

import pymbolic.primitives as p
from pymbolic import parse

from frontends.pragmas import c_section_bounds, fortran_section_bounds, split_outside_brackets
from translator.diagnostics import TranslatorError
from translator.ir.isl_glue import instance_set, leaves_for_all_params, make_loop_domain
from translator.patterns import LazyPattern

_C_FOR = LazyPattern(r"\bfor\s*\(\s*(?:[A-Za-z_][\w\s]*?\s)?([A-Za-z_]\w*)\s*=\s*([^;]+);\s*"
                    r"\1\s*(<=|<)\s*([^;]+);\s*(?:\1\s*\+\+|\+\+\s*\1|\1\s*\+=\s*1)\s*\)")
_F_DO = LazyPattern(r"^\s*(?:\w+\s*:\s*)?do\s+([A-Za-z_]\w*)\s*=\s*([^,]+),([^,]+)$", re.I)
_F_END_DO = re.compile(r"^\s*end\s*do\b", re.I)


def section_bounds(section: str, fortran: bool) -> tuple[tuple[str, str], ...]:
    """(first, end) texts per dimension of an update's section ("" for the whole array)."""
    if not section.strip():
        return ()
    return fortran_section_bounds(section) if fortran else c_section_bounds(section)


def outside_update(code: dict[int, str], line: int, first: int, array: str,
                   bounds: tuple[tuple[str, str], ...], fortran: bool) -> str:
    """How host line `line` of `code` uses `array` outside the section `bounds` (text such
    as ``y[i] for i = 0 .. N - 1``), or "" (inside, or not known); `first` is the first line
    the loops around it may start at (the data directive)."""
    text = code.get(line, "")
    pattern = (rf"(?<![\w%]){array}\s*\(" if fortran else rf"(?<![\w.>]){array}\s*\[")
    uses = [m.end() for m in re.finditer(pattern, text, re.I if fortran else 0)]
    if not uses:
        return f"{array} as a whole" if re.search(rf"(?<!\w){array}(?!\w)", text,
                                                  re.I if fortran else 0) else ""
    loops = _enclosing_loops(code, line, first, fortran)
    for at in uses:
        subscripts = _subscripts(text, at - 1, fortran)
        if len(subscripts) != len(bounds):
            continue
        for index, (lo, end) in zip(subscripts, bounds):
            var = _outside(index, lo, end, loops, fortran)
            if var is not None:
                shown = f"{array}({index})" if fortran else f"{array}[{index}]"
                return shown + (f" for {var} = {loops[var][0]} .. {loops[var][1]}"
                                if var else "")
    return ""


def _subscripts(text: str, at: int, fortran: bool) -> list[str]:
    """The subscripts of the access whose bracket opens at `text[at]`."""
    if fortran:
        depth, k = 0, at
        for k in range(at, len(text)):
            depth += {"(": 1, ")": -1}.get(text[k], 0)
            if depth == 0:
                break
        return [s.strip() for s in split_outside_brackets(text[at + 1:k]) if s.strip()]
    out, k = [], at
    while k < len(text) and text[k] == "[":
        depth, j = 0, k
        for j in range(k, len(text)):
            depth += {"[": 1, "]": -1}.get(text[j], 0)
            if depth == 0:
                break
        out.append(text[k + 1:j].strip())
        k = j + 1
        while k < len(text) and text[k] == " ":
            k += 1
    return out


def _enclosing_loops(code: dict[int, str], line: int, first: int, fortran: bool
                     ) -> dict[str, tuple[str, str]]:
    """The loops around host line `line`: variable -> (first value, last value) texts."""
    out: dict[str, tuple[str, str]] = {}
    header = (_C_FOR.search(code.get(line, "")) if not fortran else None)
    if header:
        out[header.group(1)] = _c_range(header)
    depth, ends = 0, 0
    for k in range(line - 1, first, -1):
        text = code.get(k, "")
        if fortran:
            m = _F_DO.match(text)
            if _F_END_DO.match(text):
                ends += 1
            elif m and ends == 0:
                out.setdefault(m.group(1).lower(), (m.group(2).strip(), m.group(3).strip()))
            elif m:
                ends -= 1
            continue
        depth += text.count("}") - text.count("{")   # < 0: a block still open at `line`
        m = _C_FOR.search(text)
        if m and (depth < 0 or (k == line - 1 and "{" not in text)):
            out.setdefault(m.group(1), _c_range(m))
            depth = 0
    return out


def _c_range(m: re.Match) -> tuple[str, str]:
    last = m.group(4).strip()
    simple = re.fullmatch(r"\w+", last) is not None
    return m.group(2).strip(), last if m.group(3) == "<=" else (
        f"{last} - 1" if simple else f"({last}) - 1")


def _outside(index: str, lo: str, end: str, loops: dict[str, tuple[str, str]],
             fortran: bool) -> str | None:
    """Whether subscript `index`, over the loop whose variable it uses (if any), leaves
    [lo, end) whatever values the other names take: that variable ("" for none), or None."""
    fold = str.lower if fortran else (lambda t: t)
    exprs = [_expression(fold(t)) for t in (index, lo, end)]
    if None in exprs or not lo.strip() or not end.strip():
        return None
    idx, low, high = exprs
    ranged = sorted({v.name for v in _variables(idx)} & set(loops))
    if len(ranged) > 1:
        return None
    var = ranged[0] if ranged else "_tr_none"
    first, last = (_expression(fold(t)) for t in loops[var]) if ranged else (0, 0)
    if first is None or last is None:
        return None
    try:
        inside = instance_set((make_loop_domain(var, first, last),), (var,))
        if leaves_for_all_params(inside, idx - low, high - low, [var]):
            return ranged[0] if ranged else ""
    except TranslatorError:
        return None
    return None   # inside for some values of the names (a macro, say): not known


def _expression(text: str):
    """`text` as an affine-looking pymbolic expression (``/`` by a positive constant as
    floor division), or None."""
    try:
        expr = parse(text)
    except Exception:   # noqa: BLE001 (pymbolic's parser raises its own errors)
        return None
    return _affine(expr)


def _affine(expr):
    if isinstance(expr, (int, p.Variable)):
        return expr
    if isinstance(expr, (p.Sum, p.Product)):
        parts = [_affine(c) for c in expr.children]
        return None if None in parts else type(expr)(tuple(parts))
    if isinstance(expr, p.Quotient) and isinstance(expr.denominator, int) \
            and expr.denominator > 0:
        num = _affine(expr.numerator)
        return None if num is None else p.FloorDiv(num, expr.denominator)
    return None


def _variables(expr) -> list[p.Variable]:
    if isinstance(expr, p.Variable):
        return [expr]
    if isinstance(expr, (p.Sum, p.Product)):
        return [v for c in expr.children for v in _variables(c)]
    if isinstance(expr, p.FloorDiv):
        return _variables(expr.numerator)
    return []
