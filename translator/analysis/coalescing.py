"""Memory strides of the loops of a kernel: which loop walks the global arrays contiguously.

Work items next to each other on local axis 0 run neighbouring values of the iname on that
axis; their accesses coalesce when that iname moves the address by one element.  For every
access to a global array argument this module writes the element offset as a polynomial in
inames and parameters (``sum(index[k] * stride[k])`` from the array's shape and dim tags: C
row-major, Fortran column-major, or a linearised subscript such as ``a[i*n + j]`` or
``a(i + (j-1)*ld)`` as written), and differentiates it by each iname: the *stride* of the iname
in that access, in elements and bytes.  Subscripts it cannot read as a polynomial (indirect,
divided) count as uncoalesced for every iname.

`coalescing_scores` weighs each access by its element size (bytes moved), so the dominant
accesses are the ones that move most data.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np
import pymbolic.primitives as p

from translator.ir.data import ArrayArg, strides
from translator.ir.expr import Expression, IRWalkMapper, LinearSubscript
from translator.ir.kernel import Kernel
from translator.ir.polynomials import Polynomial, polynomial, plus as _plus, times as _times
from translator.ir.statements import Assignment, CallInstruction, Statement
from translator.ir.types import infer_unknown_types
from translator.records import dataclass


@dataclass(frozen=True, slots=True)
class ArrayAccess:
    """One access to a global array argument: its element offset (None: not a polynomial)."""

    statement: Statement
    array: str
    offset: Polynomial | None
    itemsize: int


@dataclass(frozen=True, slots=True)
class Scores:
    """Per iname, over the accesses considered (bytes: element sizes, one iteration):

    - `unit`: bytes of accesses that the iname walks with stride one element;
    - `scattered`: bytes it scatters, each access weighted by ``1 - 1/|stride|`` (1 for a
      parameter stride such as ``n`` in ``a[i*n + j]``); stride 0 (the same element for
      every value: one load serves all work items) scatters nothing;
    - `spread`: bytes weighted by the degree of the stride in the parameters (0 for a
      constant, 1 for ``n``, 2 for ``n*n``): among loops that scatter alike, the one with the
      smallest spread keeps the accesses of neighbouring work items closest together.
    """

    unit: dict[str, int]
    scattered: dict[str, float]
    total: int                      # bytes of all accesses considered
    spread: dict[str, int]


def global_accesses(kernel: Kernel, statements: Iterable[Statement] | None = None
                    ) -> list[ArrayAccess]:
    """Every access of `statements` (default: all) to a global array argument."""
    arrays = {a.name: a for a in kernel.args if isinstance(a, ArrayArg) and not a.is_image}
    if any(a.dtype is None for a in arrays.values()):
        typed = infer_unknown_types(kernel)
        arrays = {a.name: a for a in typed.args if a.name in arrays}
    out: list[ArrayAccess] = []
    for stmt in kernel.statements if statements is None else statements:
        for name, index in _subscripts(stmt, arrays):
            arg = arrays[name]
            size = np.dtype(arg.dtype).itemsize if arg.dtype is not None else 8
            out.append(ArrayAccess(stmt, name, element_offset(arg, index), size))
    return out


def element_offset(arg: ArrayArg, index: tuple[Expression, ...] | Expression
                   ) -> Polynomial | None:
    """The offset in elements that `index` addresses in `arg`, as a polynomial (or None)."""
    if not isinstance(index, tuple):
        return polynomial(index)
    if len(index) == 1 and (arg.shape is None or len(arg.shape) == 1):
        return polynomial(index[0])
    if arg.shape is None or arg.dim_tags is None or len(arg.shape) != len(index):
        return None
    total: Polynomial = {}
    for idx, stride in zip(index, strides(arg.shape, arg.dim_tags)):
        if stride is None:
            return None
        term = _times(polynomial(idx), polynomial(stride))
        if term is None:
            return None
        total = _plus(total, term)
    return total


def stride_of(offset: Polynomial | None, iname: str) -> Polynomial | None:
    """The derivative of `offset` by `iname` (None where unknown or not linear in it)."""
    if offset is None:
        return None
    out: Polynomial = {}
    for mono, coeff in offset.items():
        k = mono.count(iname)
        if k > 1:
            return None
        if k == 1:
            rest = list(mono)
            rest.remove(iname)
            out = _plus(out, {tuple(rest): coeff})
    return out


def coalescing_scores(kernel: Kernel, inames: Iterable[str],
                      statements: Iterable[Statement] | None = None,
                      runs: dict[str, int] | None = None) -> Scores:
    """How contiguously each of `inames` walks the global accesses of `statements`.
    Accesses whose offset is not a polynomial count for no iname.

    `runs`: inames one work item runs itself (unrolled, ilp or vector lanes) with their
    constant trip counts.  An access that such an iname walks with stride one is a run of that
    many neighbouring elements per work item; an iname whose stride is at most the run length
    then leaves no gap between neighbouring work items, and counts as stride one."""
    inames = list(inames)
    unit = {n: 0 for n in inames}
    scattered = {n: 0.0 for n in inames}
    spread = {n: 0 for n in inames}
    total = 0
    for acc in global_accesses(kernel, statements):
        total += acc.itemsize
        run = _run_length(acc.offset, runs or {})
        for n in inames:
            stride = stride_of(acc.offset, n)
            if stride is None:
                continue
            if not stride:
                continue
            if set(stride) != {()}:              # a parameter stride: far apart
                scattered[n] += acc.itemsize
                spread[n] += acc.itemsize * max(len(mono) for mono in stride)
                continue
            elements = abs(stride[()])
            if elements == 1 or (n not in (runs or {}) and elements <= run):
                unit[n] += acc.itemsize
            else:
                scattered[n] += acc.itemsize * (1 - 1 / elements)
    return Scores(unit, scattered, total, spread)


def _run_length(offset: Polynomial | None, runs: dict[str, int]) -> int:
    """The longest run of neighbouring elements one work item accesses through an iname of
    `runs` with stride one (1 if none)."""
    best = 1
    for iname, length in runs.items():
        stride = stride_of(offset, iname)
        if stride == {(): 1} or stride == {(): -1}:
            best = max(best, length)
    return best


def coalescing_key(scores: Scores, iname: str) -> tuple[float, int, int]:
    """Sort key: the iname that scatters least, then the one with most stride-one bytes, then
    the one whose strides grow least with the parameters (``n`` before ``n*n``)."""
    return (scores.scattered[iname], -scores.unit[iname], scores.spread[iname])



# ---------------------------------------------------------------------------------------------
# subscripts

def _subscripts(stmt: Statement, arrays: dict[str, ArrayArg]
                ) -> Iterator[tuple[str, tuple[Expression, ...] | Expression]]:
    found: list[tuple[str, tuple[Expression, ...] | Expression]] = []

    class _Walk(IRWalkMapper):
        def visit(self, expr, *args, **kwargs) -> bool:
            if isinstance(expr, p.Subscript) and isinstance(expr.aggregate, p.Variable) \
                    and expr.aggregate.name in arrays:
                found.append((expr.aggregate.name, expr.index))
            elif isinstance(expr, LinearSubscript) and isinstance(expr.aggregate, p.Variable) \
                    and expr.aggregate.name in arrays:
                found.append((expr.aggregate.name, expr.index))
            return True

    walk = _Walk()
    if isinstance(stmt, Assignment):
        walk(stmt.assignee)
    elif isinstance(stmt, CallInstruction):
        for a in stmt.assignees:
            walk(a)
    for e in stmt.read_expressions():
        walk(e)
    yield from found
