"""Access relations: which element of which variable each statement instance reads or writes.

An access is exact when every subscript is quasi-affine in the statement's inames and the
parameters; otherwise its `index` is None, meaning "may touch any element".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterator

import numpy as np
import pymbolic.primitives as p
from pymbolic import evaluate

from translator.diagnostics import SourceSpan
from translator.ir.data import AddressSpace, ArrayArg
from translator.ir.delinearise import delinearise, flat_index, stride_candidates
from translator.ir.expr import (Expression, LinearSubscript, Reduction, TaggedVariable,
                                dependencies, expr_key, substitute)
from translator.diagnostics import TranslatorError
from translator.ir.expr import (IRIdentityMapper, IRStringifier, TypeCast,
                                integer_casts_dropped)
from translator.ir.isl_glue import is_affine, is_nonnegative, params_of, statement_domain
from translator.ir.isl_glue.core import memoized
from translator.ir.kernel import Kernel
from translator.ir.mappers import nodes_of
from translator.ir.polynomials import Polynomial, polynomial
from translator.ir.predicates import holding_comparisons
from translator.ir.statements import Assignment, CallInstruction, Statement
from translator.records import dataclass


@dataclass(frozen=True, slots=True)
class Access:
    statement: str
    variable: str
    index: tuple[Expression, ...] | None
    is_write: bool
    #: How `index` addresses the array: "" (one subscript per axis), "linear" (a flat
    #: ``a[[k]]``), or "delinearised:S" (a flat ``q*S + r`` rewritten as ``(q, r)``, see
    #: `delinearised_layout`).
    layout: str
    inames: tuple[str, ...]
    conditions: tuple[Expression, ...]
    span: SourceSpan | None
    #: The row strides of a delinearised index, outermost first (`flat_index`).
    strides: tuple[Expression, ...] = ()
    #: A flat subscript that splits into rows but stays flat: (inner index, row length) of
    #: the first row whose range ``0 <= index < length`` was not proved.
    row: tuple[Expression, Expression] | None = None
    #: Every row tried and not proved, `row` first (each stride the subscript may be read
    #: by: the advice names the one an assumption proves).
    rows: tuple[tuple[Expression, Expression], ...] = ()

    @property
    def verb(self) -> str:
        return "writes" if self.is_write else "reads"


def shared_variables(kernel: Kernel) -> dict[str, str]:
    """Variables that work items share, with their kind: "global" or "local".

    Private temporaries are per work item and never shared.
    """
    out = {a.name: "global" for a in kernel.args if isinstance(a, ArrayArg)}
    for t in kernel.temporaries.values():
        if t.address_space in (AddressSpace.LOCAL, AddressSpace.GLOBAL):
            out[t.name] = t.address_space.value
    return out


def statement_accesses(kernel: Kernel, stmt: Statement,
                       variables: Collection[str] | None = None) -> Iterator[Access]:
    """Every access of `stmt` to a shared variable, or to one of `variables` when given
    (writes first)."""
    shared = shared_variables(kernel) if variables is None else variables
    inames = tuple(sorted(stmt.within_inames))
    conds = tuple(sorted(stmt.predicates, key=expr_key))
    if isinstance(stmt, Assignment):
        targets = (stmt.assignee,)
    elif isinstance(stmt, CallInstruction):
        targets = stmt.assignees
    else:
        return
    for target in targets:
        found = _subscripted(target)
        if found and found[0] in shared:
            yield _make(kernel, stmt, found, True, inames, conds)
    exact = None
    for expr in stmt.read_expressions():
        # a read inside a predicate runs whether that predicate holds or not
        outer = tuple(c for c in conds if c is not expr) if expr in stmt.predicates else conds
        literal: set[int] | None = None
        for found, extra, guards in _reads(expr, ()):
            if found[0] in shared:
                if guards and exact is None:
                    exact = _integer_names(kernel) | set(inames)
                if guards and literal is None:
                    literal = {id(c) for c in nodes_of(expr, p.Comparison)}
                kept = tuple(g for g in guards if id(g) in (literal or ())
                             or (dependencies(g.left - g.right) <= exact
                                 and is_affine(g.left - g.right, exact)))
                yield _make(kernel, stmt, found, False, inames + extra,
                            (*outer, *sorted(set(kept), key=expr_key)))


def _make(kernel: Kernel, stmt: Statement, found, is_write: bool, inames, conds) -> Access:
    name, index, linear = found
    layout = "linear" if linear else ""
    params = _parameters(kernel)
    names = set(inames) | params
    index = _prepared(kernel, index, inames, names)
    strides: tuple[Expression, ...] = ()
    row = None
    rows: tuple[tuple[Expression, Expression], ...] = ()
    if index is not None and len(index) == 1 and not is_affine(index[0], names):
        split, rows = _delinearise(kernel, index[0], inames, _row_preference(kernel, name))
        if split is not None:
            index, layout, strides = split
        # rows of a value the kernel computes: no assumption states it
        rows = tuple(r for r in rows if not (dependencies(r[0]) | dependencies(r[1])) - names)
        row = rows[0] if rows else None
    if index is not None and not all(is_affine(i, names) for i in index):
        index = None
    if index is not None and any(dependencies(i) - names for i in index):
        index = None        # a variable the kernel computes (``a[r + i]``) is no parameter
    return Access(stmt.id, name, index, is_write, layout, tuple(sorted(set(inames))), conds,
                  stmt.span, strides, row, rows)


def _prepared(kernel: Kernel, index: tuple[Expression, ...] | None, inames, names
              ) -> tuple[Expression, ...] | None:
    """`index` without integer casts, with truncating divisions as floors where they agree
    (what the access's subscripts are compared as)."""
    if index is not None:
        index = _without_integer_casts(kernel, index, inames)
    if index is not None and not all(is_affine(i, names) for i in index):
        index = _as_floor(kernel, index, inames)
    return index


def _without_integer_casts(kernel: Kernel, index: tuple[Expression, ...], inames
                           ) -> tuple[Expression, ...]:
    """`index` without conversions of integer values to wide integer types (``(long)i*n``
    addresses the element ``i*n`` does)."""
    if not any(_has_cast(i) for i in index):
        return index

    def is_integer(name: str) -> bool:
        if name in inames or name in kernel.all_inames:
            return True
        v = kernel.variable(name)
        return v is not None and v.dtype is not None and np.dtype(v.dtype).kind in "iu"
    return tuple(integer_casts_dropped(i, is_integer) for i in index)


def _has_cast(expr: Expression) -> bool:
    return isinstance(expr, TypeCast) or any(_has_cast(c) for c in _children(expr))


def _delinearise(kernel: Kernel, index: Expression, inames, prefer=()):
    """A flat subscript ``q*S + r`` (`translator.ir.delinearise`) whose inner coordinates are
    proved inside their rows on the statement's domain -> ((coordinates, layout, strides),
    ()): then the coordinates name the element exactly.  Otherwise (None, the rows (r, S)
    whose range was not proved, in the order tried).  The strides `prefer` are tried
    first."""
    prover = _row_prover(kernel, inames)
    if prover is None:
        return None, ()
    in_row, unproved = prover
    found = delinearise(index, inames, in_row, prefer)
    if found is None:
        return None, tuple(dict.fromkeys(unproved))
    coords, strides = found
    return (coords, delinearised_layout(strides), strides), ()


def _row_prover(kernel: Kernel, inames):
    """``in_row(r, S)``: whether ``0 <= r < S`` holds on the domain of `inames` under the
    kernel's assumptions, and the list of the rows it did not prove; None without a
    domain."""
    try:
        domain = statement_domain(kernel.domains, inames)
    except TranslatorError:
        return None
    unproved: list[tuple[Expression, Expression]] = []

    def in_row(r: Expression, stride: Expression) -> bool:
        ok = (is_nonnegative(r, domain, kernel.assumptions)
              and is_nonnegative(p.Sum((stride, -1, p.Product((-1, r)))), domain,
                                 kernel.assumptions))
        if not ok:
            unproved.append((r, stride))
        return ok
    return in_row, unproved


def _row_preference(kernel: Kernel, variable: str) -> tuple[Polynomial, ...]:
    """The row strides to read the flat subscripts of `variable` by, the one that proves
    the most of them first: two subscripts compare exactly only when split by the same
    strides (Rodinia's lud reads ``a[i*size + k]`` with ``k < i`` and the parameter ``i``,
    which rows of ``i`` would prove too, next to ``a[k*size + j]``); empty where there is
    no choice to make."""
    def compute() -> tuple[Polynomial, ...]:
        params = _parameters(kernel)
        flats: list[tuple[Polynomial, tuple[str, ...], Expression]] = []
        for stmt in kernel.statements:
            for index, inames in _subscripts_of(stmt, variable):
                names = set(inames) | params
                index = _prepared(kernel, index, inames, names)
                if index is None or len(index) != 1 or is_affine(index[0], names):
                    continue
                poly = polynomial(index[0])
                if poly is not None:
                    flats.append((poly, inames, index[0]))
        candidates: list[Polynomial] = []
        for poly, inames, _ in flats:
            candidates.extend(c for c in stride_candidates(poly, frozenset(inames))
                              if c not in candidates)
        if len(flats) < 2 or len(candidates) < 2:
            return ()
        scores = [sum(_proved_by(kernel, index, inames, c) for _, inames, index in flats)
                  for c in candidates]
        order = sorted(range(len(candidates)), key=lambda k: -scores[k])
        return tuple(candidates[k] for k in order if scores[k])
    return memoized(("row preference", id(kernel.statements), id(kernel.domains),
                     id(kernel.assumptions), id(kernel.args), variable),
                    (kernel.statements, kernel.domains, kernel.assumptions, kernel.args),
                    compute)


def _proved_by(kernel: Kernel, index: Expression, inames, stride: Polynomial) -> bool:
    """Whether `index` splits into proved rows of `stride` (its innermost one)."""
    prover = _row_prover(kernel, inames)
    if prover is None:
        return False
    found = delinearise(index, inames, prover[0], (stride,))
    return found is not None and polynomial(found[1][-1]) == stride


def _subscripts_of(stmt: Statement, variable: str
                   ) -> Iterator[tuple[tuple[Expression, ...], tuple[str, ...]]]:
    """(index, inames) of each access of `stmt` to `variable`, as `statement_accesses`
    finds them."""
    inames = tuple(sorted(stmt.within_inames))
    targets = (stmt.assignee,) if isinstance(stmt, Assignment) else (
        stmt.assignees if isinstance(stmt, CallInstruction) else ())
    for target in targets:
        found = _subscripted(target)
        if found and found[0] == variable:
            yield found[1], inames
    if not targets:
        return
    for expr in stmt.read_expressions():
        for found, extra, _ in _reads(expr, ()):
            if found[0] == variable:
                yield found[1], inames + extra


def delinearised_layout(strides: tuple[Expression, ...]) -> str:
    """The layout key of split coordinates: ``delinearised:n`` (every stride ``n``),
    ``delinearised:n + 4``, ``delinearised:n;m`` (outermost first)."""
    texts = [IRStringifier()(s) for s in strides]
    return "delinearised:" + (texts[0] if len(set(texts)) == 1 else ";".join(texts))


class _TruncToFloor(IRIdentityMapper):
    """C/Fortran truncating ``/`` and ``rem`` by a positive constant equal floor ``//`` and
    ``%`` where the numerator is proved non-negative on the statement's domain."""

    def __init__(self, domain) -> None:
        self.domain = domain

    def map_quotient(self, expr: p.Quotient):
        num = self.rec(expr.numerator)
        if self._positive_const(expr.denominator) and is_nonnegative(num, self.domain):
            return p.FloorDiv(num, int(expr.denominator))
        return expr

    def map_call(self, expr: p.Call):
        params = tuple(self.rec(c) for c in expr.parameters)
        if (getattr(expr.function, "name", None) == "rem" and len(params) == 2
                and self._positive_const(params[1]) and is_nonnegative(params[0], self.domain)):
            return p.Remainder(params[0], int(params[1]))
        return expr if params == expr.parameters else p.Call(expr.function, params)

    @staticmethod
    def _positive_const(e) -> bool:
        return isinstance(e, int | np.integer) and not isinstance(e, bool) and e > 0


def _as_floor(kernel: Kernel, index: tuple[Expression, ...], inames) -> tuple[Expression, ...]:
    try:
        domain = statement_domain(kernel.domains, inames)
    except TranslatorError:
        return index
    mapper = _TruncToFloor(domain)
    return tuple(mapper(i) for i in index)


def _parameters(kernel: Kernel) -> frozenset[str]:
    """Value arguments and domain parameters (asked once per access: remembered by the
    identity of the kernel's args and domains, which the splitter's whole region and its
    candidate kernels ask about in turn)."""
    return memoized(("parameters", id(kernel.args), id(kernel.domains)),
                    (kernel.args, kernel.domains),
                    lambda: frozenset({a.name for a in kernel.value_args}
                                      | _param_names(kernel)))


def _param_names(kernel: Kernel) -> set[str]:
    return {n for d in kernel.domains for n in params_of(d)}


def _subscripted(expr: Expression) -> tuple[str, tuple[Expression, ...], bool] | None:
    """(name, index, is_linear) of a variable reference, or None."""
    if isinstance(expr, TaggedVariable | p.Variable):
        return expr.name, (), False
    if isinstance(expr, p.Subscript) and isinstance(expr.aggregate, p.Variable):
        return expr.aggregate.name, tuple(expr.index_tuple), False
    if isinstance(expr, LinearSubscript) and isinstance(expr.aggregate, p.Variable):
        return expr.aggregate.name, (expr.index,), True
    return None


def _reads(expr: Expression, extra: tuple[str, ...], guards: tuple[p.Comparison, ...] = ()):
    """(variable, index) triples read by `expr`, with the reduction inames around each and
    the comparisons that hold wherever it is evaluated: the conditions of the ``?:``
    branches and the operands before it of ``&&``/``||``, which C and OpenCL evaluate only
    as far as needed (`holding_comparisons`).  A comparison of `expr` itself that holds
    there (not a negation: a NaN makes both ``a <= b`` and ``a > b`` false) is a condition
    of the read whatever its operands, as a statement's predicate is: a private value
    written under ``t1 <= 1`` is then known to be written before a reduction's term
    ``if(t1 <= 1, x1*t2, 0)`` reads it (NPB EP's Gaussian pairs, h90)."""
    if isinstance(expr, Reduction):
        yield from _reads(expr.expr, extra + tuple(expr.inames), guards)
        return
    found = _subscripted(expr)
    if found is not None:
        yield found, extra, guards
        for i in found[1]:
            yield from _reads(i, extra, guards)
        return
    if isinstance(expr, p.If):
        yield from _reads(expr.condition, extra, guards)
        yield from _reads(expr.then, extra, guards + holding_comparisons(expr.condition, True))
        yield from _reads(expr.else_, extra, guards + holding_comparisons(expr.condition, False))
        return
    if isinstance(expr, p.LogicalAnd | p.LogicalOr):
        for child in expr.children:
            yield from _reads(child, extra, guards)
            guards = guards + holding_comparisons(child, isinstance(expr, p.LogicalAnd))
        return
    if isinstance(expr, p.Call):
        for c in expr.parameters:
            yield from _reads(c, extra, guards)
        return
    for child in _children(expr):
        yield from _reads(child, extra, guards)


def _integer_names(kernel: Kernel) -> frozenset[str]:
    """The kernel's integer value arguments and domain parameters (what a condition that
    bounds an access may name besides the inames); remembered as `_parameters` is (asked
    per statement: walking every domain each time made a loop of 400 statements quadratic)."""
    def names() -> frozenset[str]:
        floating = {a.name for a in kernel.value_args
                    if a.dtype is None or a.dtype.kind not in "iu"}
        return _parameters(kernel) - floating
    return memoized(("integer_names", id(kernel.args), id(kernel.domains)),
                    (kernel.args, kernel.domains), names)


#: Field names of each expression class (`dataclasses.fields` builds its answer per call).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _children(expr: Expression) -> tuple:
    if isinstance(expr, p.ExpressionNode):
        names = _FIELD_NAMES.get(type(expr))
        if names is None:
            names = _FIELD_NAMES[type(expr)] = tuple(f.name for f in dataclasses.fields(expr))
        out = []
        for name in names:
            value = getattr(expr, name)
            if isinstance(value, tuple):
                out.extend(value)
            else:
                out.append(value)
        return tuple(out)
    return ()


#: Recent answers of `kernel_accesses`, with the kernel parts they were computed from (held,
#: so compared by identity): the kernels that mapping and legality check are copies that
#: differ in their tags only, and share these parts.
_ACCESSES: list[tuple[tuple, list[Access]]] = []


def kernel_accesses(kernel: Kernel) -> list[Access]:
    """Every access of every statement (`statement_accesses`), in statement order."""
    parts = (kernel.statements, kernel.domains, kernel.args, kernel.temporaries,
             kernel.assumptions)
    for held, found in _ACCESSES:
        if all(a is b for a, b in zip(held, parts)):
            return list(found)
    shared = shared_variables(kernel)
    found = [a for s in kernel.statements for a in statement_accesses(kernel, s, shared)]
    _ACCESSES.insert(0, (parts, found))
    del _ACCESSES[4:]
    return list(found)


def element_text(acc: Access, values: dict[str, int]) -> str:
    """The element `acc` touches at the iname and parameter `values`, as messages show it
    (``a[3, 4]``; ``a[[12]]`` for a linear subscript)."""
    if acc.index is None:
        return f"{acc.variable}[?]"
    if not acc.index:
        return acc.variable
    parts = []
    for i in acc.index:
        try:
            parts.append(str(int(evaluate(i, values))))
        except Exception:  # non-affine pieces referencing data: show the expression
            parts.append(str(i))
    inner = ", ".join(parts)
    if acc.layout.startswith("delinearised:"):
        flat = flat_index(acc.index, acc.strides)
        try:
            return f"{acc.variable}[{int(evaluate(flat, values))}]"
        except Exception:  # a parameter no constraint names has no value in the witness
            known = {n: v for n, v in values.items() if isinstance(v, int)}
            return f"{acc.variable}[{IRStringifier()(substitute(flat, known))}]"
    return f"{acc.variable}[[{inner}]]" if acc.layout == "linear" else f"{acc.variable}[{inner}]"
