"""Recognition of parallel reductions: accumulations across work items become `Reduction`s.

A statement that accumulates into one element of a global array from every iteration of a
hardware-parallel loop races as written::

    s[0] = s[0] + a[i]*b[i]            {inames=i_outer:i_inner}   (i_outer g.0, i_inner l.0)

but it is a reduction: the order of the terms does not matter (up to rounding).  This stage
rewrites it so that the reduction is explicit and the loops it crosses are its inames::

    s[0] = s[0] + sum([i_inner, i_outer], a[i]*b[i])    {inames=}

Code generation then reduces in a work-group tree in local memory and, across groups, with
atomic updates (`translator.codegen.parallel_reductions`).  What is recognised:

- ``x[idx] = x[idx] OP e`` with OP ``+``, ``*``, ``max(x[idx], e)``/``min(...)`` as IR calls,
  and ``if(x[idx] > e, x[idx], e)``-style conditionals (max or min by the comparison);
- ``x[idx] = e`` guarded by ``e > x[idx]`` (or another comparison of the two), directly or
  through a private condition temporary that only this statement reads (C's ``if``);
- ``x[idx] = cast(T, x[idx] OP e)`` with T the floating-point type of x and a wider term
  (``float s; s += a[i]*b[i]`` with doubles): the terms are converted to T and reduced in T;
- x a global array, the statement inside at least one hardware-parallel loop (``l.N``,
  ``g.N``, ``l.auto``) whose iname does not occur in idx;
- no other statement inside those loops touches x[idx] (nor an array that may alias x), and
  the statement reads x only as the accumulator.  When a group axis is involved, no other
  statement of the kernel may touch x[idx] at all: groups cannot synchronise inside a kernel.

The reduction's inames are those parallel inames plus the sequential inames of the statement
that do not occur in idx and whose loops hold nothing but such accumulations (each work item
then accumulates its whole share privately before the tree).  Predicates that depend on a
reduction iname move into the term (``if(cond, e, neutral)``).  A statement in sequential loops
only is never touched, so sequential accumulations keep their order and stay bit-identical.
An accumulator that is also read inside the loops (a prefix sum) is left alone: legality then
reports the race.  A statement of the kernel that also uses x across groups (typically its
initialisation) is a `LegalityError` that says so.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import numpy as np
import pymbolic.primitives as p

from translator.analysis.access import Access, shared_variables, statement_accesses
from translator.analysis.bounds import address_spill
from translator.analysis.arg_reductions import recognize_arg_reductions
from translator.analysis.private_accumulators import AccumulationPlan, accumulate_privately
from translator.diagnostics import LegalityError, Note
from translator.ir import isl_glue as glue
from translator.ir.data import AddressSpace, ArrayArg
from translator.ir.expr import (Expression, Reduction, TypeCast, dependencies, flatten_and,
                                substitute)
from translator.ir.isl_glue.flow import varies_with
from translator.ir.kernel import Kernel
# combine: code generation's lowering of parallel reductions imports it from here
from translator.ir.reduction_ops import combine, neutral_element
from translator.ir.statements import Assignment, Statement
from translator.ir.tags import GroupTag, is_hardware_parallel
from translator.ir.types import TypeOracle
from translator.records import dataclass

# ---------------------------------------------------------------------------------------------
# matching an accumulation

@dataclass(frozen=True, slots=True)
class Update:
    """``target = target OP term``, as matched in a statement.  `dtype`: the floating-point
    type of the target where the statement converts each update back to it
    (``x = cast(float32, x + e)`` with a float64 term: C's ``float s; s += a*b`` with
    doubles); the terms are then reduced in that type."""

    operation: str
    term: Expression
    dtype: np.dtype | None = None
    #: Why the update, though of this form, has no parallel reduction ("" when it has).
    refused: str = ""


_FLIP = {">": "<", ">=": "<=", "<": ">", "<=": ">="}


def match_update(expression: Expression, target: Expression,
                 oracle: TypeOracle | None = None) -> Update | None:
    """The accumulation ``target = target OP term`` that `expression` computes, if any.

    `target` must occur exactly once, as an operand of the outermost operation.  With the
    kernel's `oracle`, a conditional maximum or minimum is one only where the conversions
    around its comparison keep the order (`_match_conditional`)."""
    if isinstance(expression, (p.Sum, p.Product)):
        op = "sum" if isinstance(expression, p.Sum) else "product"
        return _match_operands(op, expression.children, target, type(expression))
    if isinstance(expression, (p.Max, p.Min)):
        op = "max" if isinstance(expression, p.Max) else "min"
        return _match_operands(op, expression.children, target, type(expression))
    if isinstance(expression, p.Call) and getattr(expression.function, "name", None) in (
            "max", "min"):
        op = expression.function.name
        return _match_operands(op, expression.parameters, target,
                               lambda rest: p.Call(p.Variable(op), rest))
    if isinstance(expression, p.If):
        return _match_conditional(expression.condition, expression.then, expression.else_,
                                  target, oracle)
    return None


def _match_operands(op: str, operands: tuple, target: Expression, rebuild) -> Update | None:
    hits = [k for k, c in enumerate(operands) if c == target]
    if len(hits) != 1:
        return None
    rest = operands[:hits[0]] + operands[hits[0] + 1:]
    if not rest:
        return None
    return Update(op, rest[0] if len(rest) == 1 else rebuild(tuple(rest)))


def _match_conditional(cond: Expression, then: Expression, else_: Expression,
                       target: Expression, oracle: TypeOracle | None = None
                       ) -> Update | None:
    """``if(x > e, x, e)`` is max(x, e); the comparison decides between max and min.  The
    comparison may see the operands before a conversion (``x = cast(float64, e)`` guarded by
    ``e > x``): conversions that keep the order keep the larger one the larger one.  With
    `oracle`, any other conversion (``int m; if (u[i] > m) m = u[i]`` with unsigned u
    compares in unsigned, where -1 is the largest: h72) is no maximum, unless the comparison
    sees what the statement stores (``unsigned m; if (a[i] > m) m = a[i]``)."""
    if not isinstance(cond, p.Comparison) or cond.operator not in _FLIP:
        return None
    if then == target:
        term = else_
    elif else_ == target:
        term = then
    else:
        return None
    left, right = _uncast(cond.left), _uncast(cond.right)
    plain = (cond.left, cond.right) in ((target, term), (term, target))
    reordered = None if oracle is None or plain else next(
        (r for r in map(partial(_reordering, oracle), (cond.left, cond.right, term))
         if r is not None), None)
    if left == _uncast(target) and right == _uncast(term):
        rel = cond.operator
    elif right == _uncast(target) and left == _uncast(term):
        rel = _FLIP[cond.operator]
    else:
        return None
    # `rel` compares target against term: when it holds, the larger of the two is...
    larger_when_true = target if rel in (">", ">=") else term
    operation = "max" if then == larger_when_true else "min"
    if reordered is None:
        return Update(operation, term)
    return Update(operation, term, refused=_reordered(operation, *reordered))


def _reordered(operation: str, inner: str, wide: str) -> str:
    """Why a maximum or minimum through a conversion that changes the order of values is
    refused, and what to write."""
    return (f"the loop compares and stores values of different types ({inner} converted to "
            f"{wide}), which order them differently, so it takes no {operation}imum of "
            "either type: accumulate into a variable of the comparison's type and convert "
            "it after the loop, or convert the term to the accumulator's type in the "
            "comparison")


def _reordering(oracle: TypeOracle, expr: Expression) -> tuple[str, str] | None:
    """The (from, to) type names of the first conversion at the top of `expr` that does not
    keep the order of values (None: all do).  Kept: to a floating-point type (rounding is
    non-decreasing), from one to an integer (truncation is), and to an integer type that
    holds every value of the converted one."""
    while isinstance(expr, TypeCast):
        inner = oracle.dtype(expr.child)
        wide = np.dtype(expr.dtype)
        if inner is None:
            return "values", _integers(wide)
        inner = np.dtype(inner)
        if not (wide.kind == "f" or (inner.kind == "f" and wide.kind in "iu")
                or (inner.kind in "iub" and wide.kind in "iu"
                    and np.can_cast(inner, wide, casting="safe"))):
            return _integers(inner), _integers(wide)
        expr = expr.child
    return None


def _integers(dtype: np.dtype) -> str:
    """``signed 32-bit integers`` for int32, for messages."""
    if dtype.kind not in "iu":
        return f"{dtype.name} values"
    return f"{'unsigned' if dtype.kind == 'u' else 'signed'} {8 * dtype.itemsize}-bit integers"


def _uncast(expr: Expression) -> Expression:
    while isinstance(expr, TypeCast):
        expr = expr.child
    return expr


# ---------------------------------------------------------------------------------------------
# the stage

@dataclass(frozen=True, slots=True)
class _Candidate:
    """A statement that accumulates across the parallel inames `crossed`."""

    stmt: Assignment
    update: Update
    predicates: frozenset[Expression]
    condition_stmt: str | None
    crossed: frozenset[str]
    index_names: frozenset[str]
    #: Other statements updating the same element by the same operation (with their
    #: condition statements): ``s += b[i]`` and ``s += c[i][j]`` in the loop over j.  Each
    #: becomes a reduction of its own; the order of the updates does not matter.
    partners: frozenset[str] = frozenset()

    @property
    def skip(self) -> set[str | None]:
        return {self.stmt.id, self.condition_stmt, *self.partners}


def recognize_parallel_reductions(kernel: Kernel) -> Kernel:
    """Rewrite accumulations across hardware-parallel loops as reductions (module docstring).
    Returns `kernel` itself when nothing is recognised."""
    parallel = frozenset(n for n in kernel.iname_tags
                         if any(is_hardware_parallel(t) for t in kernel.tags_of(n)))
    if not parallel:
        return kernel
    kernel = recognize_arg_reductions(kernel, parallel)
    kernel = _private_accumulations(kernel, parallel)
    found = [_candidate(kernel, s, parallel) for s in kernel.statements]
    candidates = {c.stmt.id: c for c in found if c is not None}
    if not candidates:
        return kernel
    oracle = TypeOracle(kernel)
    statements = list(kernel.statements)
    dead: set[str] = set()
    for k, stmt in enumerate(statements):
        cand = candidates.get(stmt.id)
        new = None if cand is None else _rewrite(kernel, cand, candidates, parallel, oracle)
        if new is not None:
            statements[k] = new
            dead |= {cand.condition_stmt} - {None}
    if all(new is old for new, old in zip(statements, kernel.statements)):
        return kernel
    return _drop_statements(kernel.copy(statements=tuple(statements)), dead)


def _private_accumulations(kernel: Kernel, parallel: frozenset[str]) -> Kernel:
    """`kernel` with each accumulation inside a loop whose bounds vary over the parallel loops,
    and whose term reads what that loop computes, made private to the work item first
    (`translator.analysis.private_accumulators`): the reduction is then over its total."""
    plans = []
    for stmt in kernel.statements:
        cand = _candidate(kernel, stmt, parallel)
        if cand is None or cand.condition_stmt is not None:
            continue
        loops = _loops_inside(kernel, stmt, _varying_loops(kernel, cand, cand.crossed, parallel))
        if (not loops or loops & cand.crossed or _term_independent_of(kernel, cand, loops)
                or not _accumulator_is_private(kernel, cand, cand.crossed | loops)):
            continue   # no such loop, or it joins the reduction (`_with_bound_loops`)
        dtype = cand.update.dtype or getattr(kernel.arg(stmt.assignee_names()[0]), "dtype",
                                             None)
        if dtype is not None:
            plans.append(AccumulationPlan(stmt.id, cand.update.operation, loops,
                                          np.dtype(dtype)))
    return accumulate_privately(kernel, plans) if plans else kernel


def _loops_inside(kernel: Kernel, stmt: Statement, loops: frozenset[str]) -> frozenset[str]:
    """`loops` and every loop of `stmt` nested inside one of them: the loops of `stmt` but
    those around all of `loops` (a loop encloses another when every statement in the other
    is in it too).  The private partial result lives in the loops left, so they must be the
    outer ones (``do m = 1, cnt(c)`` around ``do nb = 0, 26`` around ``do t = 1, cnt(cj)``:
    the partial result of c's iteration is set before m, not inside it)."""
    if not loops:
        return loops
    members = {n: frozenset(s.id for s in kernel.statements if n in s.within_inames)
               for n in stmt.within_inames}
    outer = frozenset(n for n in stmt.within_inames - loops
                      if all(members[b] <= members[n] for b in loops))
    return stmt.within_inames - outer


def _varying_loops(kernel: Kernel, cand: _Candidate, inames: frozenset[str],
                   parallel: frozenset[str]) -> frozenset[str]:
    """The sequential loops of `cand` whose bounds depend on `inames` (directly, through a
    name written in their loops, or through another such loop)."""
    stmt = cand.stmt
    domain = glue.statement_domain(kernel.domains, stmt.within_inames)
    found: frozenset[str] = frozenset()
    while True:
        around = inames | found
        varying = _varying_names(kernel, cand, around) - around
        more = frozenset(n for n in stmt.within_inames - around - parallel - cand.index_names
                         if not glue.bounds_independent(domain, [n], around)
                         or varying & _bound_names(kernel, n))
        if not more:
            return found
        found |= more


def _candidate(kernel: Kernel, stmt: Statement, parallel: frozenset[str]) -> _Candidate | None:
    """`stmt` as an accumulation across parallel loops that only it touches, or None."""
    if not isinstance(stmt, Assignment) or stmt.atomicity:
        return None
    if not isinstance(kernel.arg(stmt.assignee_names()[0]), ArrayArg):
        return None
    index_names = frozenset().union(*(dependencies(i) for i in _indices(stmt.assignee)))
    crossed = (stmt.within_inames & parallel) - index_names
    if not crossed:
        return None
    update, predicates, condition_stmt = _match_statement(kernel, stmt)
    if update is None or unsupported_update(kernel, stmt, update):
        return None
    cand = _Candidate(stmt, update, predicates, condition_stmt, crossed, index_names)
    if _accumulator_is_private(kernel, cand, crossed):
        return cand
    cand = replace(cand, partners=_partners(kernel, cand))
    return cand if cand.partners and _accumulator_is_private(kernel, cand, crossed) else None


def _partners(kernel: Kernel, cand: _Candidate) -> frozenset[str]:
    """The other statements that update the element `cand` accumulates into by the same
    operation in the same type, reading it only as their accumulator (and the statements
    computing their conditions)."""
    stmt, found = cand.stmt, set()
    names = _aliases(kernel, stmt.assignee_names()[0])
    for other in kernel.statements:
        if (other.id in (stmt.id, cand.condition_stmt) or not isinstance(other, Assignment)
                or other.atomicity or other.assignee != stmt.assignee):
            continue
        update, predicates, condition_stmt = _match_statement(kernel, other)
        if (update is None or update.operation != cand.update.operation
                or update.dtype != cand.update.dtype
                or unsupported_update(kernel, other, update)
                or any(names & dependencies(e) for e in (update.term, *predicates))):
            continue
        found |= {other.id, condition_stmt} - {None}
    return frozenset(found)


def _rewrite(kernel: Kernel, cand: _Candidate, candidates: dict[str, _Candidate],
             parallel: frozenset[str], oracle: TypeOracle) -> Statement | None:
    """The statement with its accumulation written as a reduction, or None."""
    stmt = cand.stmt
    inames = cand.crossed | _sequential_inames(kernel, cand, candidates, parallel)
    if inames != cand.crossed and not _accumulator_is_private(kernel, cand, inames):
        inames = cand.crossed
    inames = _with_bound_loops(kernel, cand, inames, parallel)
    if inames is None:
        return None
    groups = sorted(n for n in inames & parallel if _is_group(kernel, n))
    if groups and cand.partners:
        return None     # codegen combines a group's part into a destination only it updates
    if groups:
        _check_no_other_use(kernel, stmt, groups, cand.skip)
    varying = _varying_names(kernel, cand, inames)
    term = _term(oracle, cand, varying)
    if term is None:
        return None
    kept = frozenset(c for c in cand.predicates if not dependencies(c) & varying)
    reduction = _reduction(cand.update.operation, inames, term)
    return replace(stmt, expression=combine(cand.update.operation, stmt.assignee, reduction),
                   within_inames=stmt.within_inames - inames, predicates=kept)


def _indices(target: Expression) -> tuple[Expression, ...]:
    return tuple(target.index_tuple) if isinstance(target, p.Subscript) else ()


def unordered_selection(kernel: Kernel, stmt: Statement) -> bool:
    """Whether `stmt` is a floating-point minimum or maximum written as a selection (``m = v <
    m ? v : m``, ``if (v < m) m = v``) that a reduction tree of fmin/fmax does not reproduce
    bit for bit: a NaN initial value that the source keeps, the NaN terms that ``m = m < v ?
    m : v`` takes, 0.0 against -0.0 in source order.  The selections that keep all of those
    (`translator.analysis.arg_reductions`) were rewritten before this stage; a reduction of
    what is left is inexact, like a floating-point sum: the automatic mapping needs the
    user's consent (``reassociate``, a reduction clause, an explicit mapping).  fmin/fmax
    calls and Fortran's MIN/MAX ignore NaN terms in the source too (the sign of a zero
    minimum is the library's choice there), and count as exact."""
    if not isinstance(stmt, Assignment):
        return False
    update, predicates, _ = _match_statement(kernel, stmt)
    if update is None or update.operation not in ("max", "min"):
        return False
    dtype = getattr(kernel.arg(stmt.assignee_names()[0]), "dtype", None)
    if dtype is None or np.dtype(dtype).kind != "f":
        return False
    expression = _uncast(stmt.expression)
    return isinstance(expression, p.If) or predicates != stmt.predicates


def _match_statement(kernel: Kernel, stmt: Assignment
                     ) -> tuple[Update | None, frozenset[Expression], str | None]:
    """The update, the statement's remaining predicates, and the condition statement (C's
    ``if (e > x) x = e;`` evaluates its condition into a private temporary first)."""
    oracle = TypeOracle(kernel)
    update = (match_update(stmt.expression, stmt.assignee, oracle)
              or _match_converted(kernel, stmt))
    if update is not None:
        return update, stmt.predicates, None
    for pred in sorted(stmt.predicates, key=str):
        cond, condition_stmt = _condition_of(kernel, stmt, pred)
        if cond is None:
            continue
        update = _match_conditional(cond, stmt.expression, stmt.assignee, stmt.assignee,
                                    oracle)
        if update is not None:
            return update, stmt.predicates - {pred}, condition_stmt
    return None, stmt.predicates, None


def _match_converted(kernel: Kernel, stmt: Assignment) -> Update | None:
    """``x = cast(T, x OP e)`` with T the type of x.  T floating-point: each update is
    rounded to T, so the terms are reduced in T (another rounding of the same sum, which a
    parallel reduction of floating-point values makes anyway).  T an integer type
    (`_integer_update`): a sum or product in integers wraps modulo 2**bits whatever the
    order, and a maximum or minimum computed in floating point truncates monotonically;
    truncating every partial sum of floating-point terms is no reduction."""
    expr = stmt.expression
    dtype = getattr(kernel.arg(stmt.assignee_names()[0]), "dtype", None)
    if (not isinstance(expr, TypeCast) or dtype is None
            or np.dtype(expr.dtype) != np.dtype(dtype)):
        return None
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        return _integer_update(kernel, expr.child, stmt.assignee, dtype)
    if dtype.kind != "f":
        return None
    inner = unwidened(expr.child, stmt.assignee, dtype)
    update = match_update(inner, stmt.assignee, TypeOracle(kernel))
    return None if update is None else replace(update, dtype=dtype)


def _integer_update(kernel: Kernel, inner: Expression, target: Expression,
                    dtype: np.dtype) -> Update | None:
    """C's ``short s; s += a[i]`` (``s = cast(int16, cast(int32, s) + a[i])``) and ``int m; m
    = fmax(m, x[i])``: the update of an integer accumulator of type `dtype` computed in a
    wider type.  Sums and products of integers are reduced in the unsigned type of the
    arithmetic's width (wrapping as the stores to `dtype` do); maxima and minima computed in
    a floating-point type that holds every value of `dtype` are reduced in `dtype` (the
    conversion truncates toward zero, which keeps the order)."""
    oracle = TypeOracle(kernel)
    wide = oracle.dtype(inner)
    if wide is None or np.dtype(wide).kind not in "iuf":
        return None
    wide = np.dtype(wide)
    update = match_update(unwidened(inner, target, dtype), target, oracle)
    if update is None and wide.kind in "iu" and wide.itemsize >= dtype.itemsize:
        # int s; s += u[i] with unsigned u: C adds in unsigned and converts back; the low
        # bits of a sum or product do not depend on the conversions (h72)
        update = match_update(unwidened(inner, target, dtype, modular=True), target, oracle)
        if update is None:
            return None
        if update.operation not in ("sum", "product"):    # int m; m = u > m ? u : m
            return replace(update, refused=update.refused or _reordered(
                update.operation, _integers(dtype), _integers(wide)))
    if update is None and wide.kind == "f":    # fminf(m, x) of an int m: m is rounded
        update = match_update(unwidened(inner, target, dtype, exact=False), target, oracle)
        return None if update is None else replace(update, dtype=wide)
    if update is None:
        return None
    if update.operation in ("sum", "product") and wide.kind in "iu":
        return replace(update, dtype=np.dtype(f"u{wide.itemsize}"))
    if update.operation not in ("max", "min") or wide.kind != "f":
        return None
    term = update.term
    inside = oracle.dtype(term.child) if isinstance(term, TypeCast) else None
    if (inside is not None and np.dtype(inside).kind in "iu"
            and _holds(np.dtype(term.dtype), np.dtype(inside))
            and _holds(dtype, np.dtype(inside))):    # fmax(m, a[i]) of ints: exact
        return replace(update, term=term.child, dtype=dtype)
    return replace(update, dtype=wide)


def unsupported_update(kernel: Kernel, stmt: Assignment, update: Update) -> str:
    """Why the accumulation `update` of `stmt` into an integer cannot be reduced in parallel
    ("" when it can): the device has no atomic updates of integers narrower than 32 bits,
    and a maximum or minimum of floating-point terms converted to an integer at each update
    has no exact reduction in either type (NaN terms, which fmax ignores)."""
    if update.refused:
        return update.refused
    dtype = getattr(kernel.arg(stmt.assignee_names()[0]), "dtype", None)
    if dtype is None or np.dtype(dtype).kind not in "iu" or update.dtype is None:
        return ""
    dtype = np.dtype(dtype)
    kind = {"i": "", "u": "unsigned "}[dtype.kind]
    if dtype.itemsize < 4:
        article = "an" if dtype.itemsize == 1 else "a"
        return (f"a reduction into {article} {8 * dtype.itemsize}-bit {kind}integer is not "
                "supported on the device (its atomic updates are of 32- and 64-bit integers "
                "and floats): accumulate into an int and store that after the loop")
    if np.dtype(update.dtype).kind == "f":
        return (f"the loop takes the {update.operation}imum in floating point and converts it "
                "to an integer at each update: a reduction of it is supported where the "
                "terms are integers or the accumulator is floating-point")
    return ""


def unwidened(expr: Expression, target: Expression, dtype: np.dtype, *,
               exact: bool = True, modular: bool = False) -> Expression:
    """`expr` with operands ``cast(W, target)`` of its outermost operation replaced by
    `target` where W holds every value of `dtype` (an exact conversion: C's ``fmax(s, e)``
    with float s and a double e, the promotion of a ``short`` accumulator to ``int``); any W
    without `exact`; with `modular`, also an integer W at least as wide as `dtype` (``int``
    to ``unsigned``: the low bits of the value are kept)."""
    def kept(wide: np.dtype) -> bool:
        return (not exact or _holds(wide, dtype)
                or (modular and wide.kind in "iu" and wide.itemsize >= dtype.itemsize))

    def plain(operand: Expression) -> Expression:
        if (isinstance(operand, TypeCast) and operand.child == target
                and kept(np.dtype(operand.dtype))):
            return target
        return operand
    if isinstance(expr, (p.Sum, p.Product, p.Max, p.Min)):
        return type(expr)(tuple(plain(c) for c in expr.children))
    if isinstance(expr, p.Call):
        return p.Call(expr.function, tuple(plain(c) for c in expr.parameters))
    if isinstance(expr, p.If):
        return p.If(expr.condition, plain(expr.then), plain(expr.else_))
    return expr


def _holds(wide: np.dtype, dtype: np.dtype) -> bool:
    """Whether every value of `dtype` converts to `wide` exactly."""
    if wide.kind == "f":
        if dtype.kind == "f":
            return wide.itemsize >= dtype.itemsize
        return dtype.kind in "iu" and 8 * dtype.itemsize <= np.finfo(wide).nmant + 1
    if wide.kind in "iu" and dtype.kind in "iu":
        return np.can_cast(dtype, wide, casting="safe")
    return False


def _condition_of(kernel: Kernel, stmt: Assignment, pred: Expression
                  ) -> tuple[Expression | None, str | None]:
    """The comparison a predicate tests: itself, or the value of a private condition
    temporary (``c != 0`` with ``c = cast(int32, cmp)``) written and read only here."""
    if isinstance(pred, p.Comparison) and pred.operator in _FLIP:
        return pred, None
    if isinstance(pred, p.Comparison) and pred.operator == "!=" and pred.right == 0:
        pred = pred.left            # c != 0 tests the temporary c, as a bare c does
    if not isinstance(pred, p.Variable):
        return None, None
    temp = kernel.temporaries.get(pred.name)
    if (temp is None or temp.shape
            or temp.address_space not in (None, AddressSpace.PRIVATE)):
        return None, None
    writers = kernel.writers(temp.name)
    readers = [s.id for s in kernel.statements
               if any(temp.name in dependencies(e) for e in s.read_expressions())]
    if len(writers) != 1 or readers != [stmt.id]:
        return None, None
    writer = kernel.statement(writers[0])
    if (not isinstance(writer, Assignment) or writer.predicates
            or writer.within_inames != stmt.within_inames):
        return None, None
    value = _uncast(writer.expression)
    return (value, writer.id) if isinstance(value, p.Comparison) else (None, None)


def _sequential_inames(kernel: Kernel, cand: _Candidate, candidates: dict[str, _Candidate],
                       parallel: frozenset[str]) -> frozenset[str]:
    """Untagged sequential inames of the statement that do not index its accumulator and whose
    loops hold only accumulations (each work item then runs the whole loop privately before
    the tree; the accumulations of one loop are independent of each other)."""
    conditions = {c.condition_stmt for c in candidates.values()}
    out = set()
    for n in cand.stmt.within_inames - parallel - cand.index_names:
        if kernel.tags_of(n):
            continue
        inside = [s.id for s in kernel.statements if n in s.within_inames]
        if all((sid in candidates and n not in candidates[sid].index_names)
               or sid in conditions for sid in inside):
            out.add(n)
    return frozenset(out)


def _with_bound_loops(kernel: Kernel, cand: _Candidate, inames: frozenset[str],
                      parallel: frozenset[str]) -> frozenset[str] | None:
    """`inames` plus the statement's sequential loops whose bounds depend on them (``for (j =
    4*i; j < 4*i + 4; j++) s += b[j]`` with i mapped): such a loop cannot go around the
    reduction, so it joins it, each work item running it for its own values of i.  Where it
    holds other statements, the term must read nothing they write (the accumulation then
    moves out of the loop unchanged); otherwise None (no reduction: legality reports the
    race)."""
    while True:
        bound = _varying_loops(kernel, cand, inames, parallel)
        if not bound:
            return inames
        if not (_term_independent_of(kernel, cand, bound)
                or _term_reads_final(kernel, cand, bound, inames | bound)) \
                or not _accumulator_is_private(kernel, cand, inames | bound):
            return None
        inames |= bound


def _bound_names(kernel: Kernel, iname: str) -> frozenset[str]:
    """The names the bounds of the loop over `iname` read (its domain's parameters): a
    data-dependent trip count (``for (k = 0; k < cnt[i]; k++)``) reads a private temporary
    set in each iteration of the loop around it (``_tr_bound = cnt[i]``), which isl sees as
    a parameter, not as i (h87: the loop was left around a reduction over i, each work item
    running its own trip count between the tree's barriers: a sum of 0)."""
    return frozenset(glue.params_of(kernel.domains[kernel.domain_index_of(iname)]))


def _term_independent_of(kernel: Kernel, cand: _Candidate, loops: frozenset[str]) -> bool:
    """Whether the term and predicates of `cand` read nothing that another statement inside
    the loops over `loops` writes."""
    written = {n for s in kernel.statements
               if s.id not in cand.skip and s.within_inames & loops
               for n in s.assignee_names()}
    reads = [cand.update.term, *cand.predicates]
    return not any(written & dependencies(e) for e in reads)


def _term_reads_final(kernel: Kernel, cand: _Candidate, loops: frozenset[str],
                      reduced: frozenset[str]) -> bool:
    """Whether every value the term and predicates of `cand` read inside the loops over
    `loops` is the one its element keeps after the reduction's loops `reduced` (``a[i] =
    ..; s += a[i]`` in a loop split onto ``l.0``, whose sequential part joins the
    reduction): they read no private variable
    another statement there writes, and each statement there writing an element they read
    comes before `cand`'s in the dependences (so the accumulation, moved out, runs after it)
    and writes that element in no instance after the read in source order.  Conservative:
    aliasing arrays, subscripts not compared exactly or leaving their extents are refused."""
    stmt = cand.stmt
    others = [s for s in kernel.statements if s.id not in cand.skip and s.within_inames & loops]
    shared = shared_variables(kernel)
    read_names = set().union(*(dependencies(e) for e in (cand.update.term, *cand.predicates)))
    written = {n for s in others for n in s.assignee_names()}
    if any(n not in shared for n in written & read_names):
        return False
    accumulator = _aliases(kernel, stmt.assignee_names()[0])
    reads = [a for a in statement_accesses(kernel, stmt, shared)
             if not a.is_write and a.variable not in accumulator]
    before = _depended_on(kernel, stmt.id)
    for other in others:
        for w in statement_accesses(kernel, other, shared):
            if not w.is_write:
                continue
            for r in reads:
                if w.variable == r.variable:
                    if not _written_before_read(kernel, r, w, other.id in before, reduced):
                        return False
                elif w.variable in _aliases(kernel, r.variable):
                    return False
    return True


def _depended_on(kernel: Kernel, sid: str) -> set[str]:
    """The statements `sid` depends on, directly or through others."""
    found: set[str] = set()
    todo = [sid]
    while todo:
        for d in kernel.statement(todo.pop()).depends_on:
            if d not in found:
                found.add(d)
                todo.append(d)
    return found


def _written_before_read(kernel: Kernel, r: Access, w: Access, ordered: bool,
                         reduced: frozenset[str]) -> bool:
    """No instance of write `w` touches the element read `r` reads after that read, in the
    source's order, in one iteration of the loops around the reduction's loops `reduced`
    (the loops both are in, in declaration order, then statement order: `ordered` says the
    writer's statement comes first)."""
    if (r.index is None or w.index is None or r.layout != w.layout
            or len(r.index) != len(w.index) or address_spill(kernel, r)
            or address_spill(kernel, w)):
        return False
    second = "_tr_w2_"
    rename = {n: second + n for n in w.inames}
    first = glue.instance_set(kernel.domains, r.inames, r.conditions,
                              assumptions=kernel.assumptions)
    other = glue.instance_set(kernel.domains, w.inames, w.conditions, rename=rename,
                              assumptions=kernel.assumptions)
    names = {n: p.Variable(m) for n, m in rename.items()}
    same = [(i, substitute(j, names)) for i, j in zip(r.index, w.index)]
    order = [n for d in kernel.domains for n in glue.inames_of(d)]
    common = [n for n in order if n in r.inames and n in w.inames]
    outer = next((k for k, n in enumerate(common) if n in reduced), len(common))
    around = [(p.Variable(c), names[c]) for c in common[:outer]]
    if not ordered:     # the accumulation may run before the writer: they must not meet
        return glue.find_conflict(first, other, same + around, []) is None
    for k in range(outer, len(common)):
        equal = [(p.Variable(c), names[c]) for c in common[:k]]
        n = common[k]
        if glue.find_conflict(first, other, same + equal, [], [(p.Variable(n), names[n])]):
            return False
    return True


def _accumulator_is_private(kernel: Kernel, cand: _Candidate, inames: frozenset[str]) -> bool:
    """Only this statement touches x[idx] inside the loops over `inames`, and it reads x only
    as the accumulator."""
    stmt = cand.stmt
    name = stmt.assignee_names()[0]
    if not _fixed_location(kernel, stmt, inames):
        return False
    reads = [cand.update.term, *_indices(stmt.assignee), *cand.predicates]
    if any(_aliases(kernel, name) & dependencies(e) for e in reads):
        return False
    return not any(other_statement_touches(kernel, other, stmt)
                   for other in kernel.statements
                   if other.id not in cand.skip and other.within_inames & inames)


def _fixed_location(kernel: Kernel, stmt: Assignment, inames: frozenset[str]) -> bool:
    """The accumulated element is the same in every iteration of the loops over `inames`
    (proved with isl on the access; a subscript through a variable the kernel writes, such as
    ``p[k]`` with ``k += 8`` in the loop, moves and is not proved)."""
    name = stmt.assignee_names()[0]
    index = _indices(stmt.assignee)
    if any(kernel.writers(n) for e in index for n in dependencies(e)):
        return False
    write = next((a for a in statement_accesses(kernel, stmt, {name}) if a.is_write), None)
    if write is None or write.index is None:
        return False
    return not varies_with(kernel.domains, kernel.assumptions, write.inames, write.index,
                           sorted(inames & set(write.inames)))


def _check_no_other_use(kernel: Kernel, stmt: Assignment, groups: list[str],
                        skip: set[str | None]) -> None:
    """Across work groups the accumulation is atomic, and groups cannot wait for each other:
    a statement that also uses x[idx] (typically its initialisation) would race with it."""
    if kernel.options.trust_mappings:
        return
    for other in kernel.statements:
        if other.id in skip or not other_statement_touches(kernel, other, stmt):
            continue
        name = stmt.assignee_names()[0]
        notes = (Note(f"statement {other.id} also uses {name} here", other.span),) \
            if other.span is not None else ()
        raise LegalityError(
            f"mapping {', '.join(groups)} to group axes makes statement {stmt.id} a reduction "
            f"into {name} across work groups, but statement {other.id} also uses {name} in "
            "this region: work groups cannot wait for each other inside a kernel",
            stmt.span, notes=notes,
            detail="  initialise the accumulator before the region, or map only the inner "
                   "loop to a local axis (split_iname(..., inner_tag=\"l.0\") without an "
                   "outer group tag) so that one work group reduces everything")


def other_statement_touches(kernel: Kernel, other: Statement, stmt: Assignment) -> bool:
    """Whether `other` may read or write the element `stmt` assigns (or an array that may
    alias it).  Different constant subscripts are different elements."""
    names = _aliases(kernel, stmt.assignee_names()[0])
    mine = _indices(stmt.assignee)
    for acc in statement_accesses(kernel, other):
        if acc.variable not in names:
            continue
        plain = not getattr(acc, "linear", False) and not getattr(acc, "layout", "")
        if acc.variable == stmt.assignee_names()[0] and plain and _differ(acc.index, mine):
            continue
        return True
    return False


def _differ(index: tuple[Expression, ...] | None, mine: tuple[Expression, ...]) -> bool:
    if index is None or len(index) != len(mine):
        return False
    constant = (int, np.integer)
    return all(isinstance(i, constant) and isinstance(j, constant) for i, j in zip(index, mine)) \
        and tuple(int(i) for i in index) != tuple(int(j) for j in mine)


def _aliases(kernel: Kernel, name: str) -> frozenset[str]:
    arg = kernel.arg(name)
    out = {name} | set(getattr(arg, "may_alias", ()))
    out |= {a.name for a in kernel.array_args if name in a.may_alias}
    return frozenset(out)


def _is_group(kernel: Kernel, iname: str) -> bool:
    return any(isinstance(t, GroupTag) for t in kernel.tags_of(iname))


def _varying_names(kernel: Kernel, cand: _Candidate, inames: frozenset[str]) -> frozenset[str]:
    """`inames` and the names that statements inside their loops write: a predicate reading
    one of them (``if (d*d < rc2) e += ...`` with a private ``d`` computed in the loop)
    differs between the reduction's iterations, so it goes into the term; left on the
    statement it would be tested once, after the loops, with one iteration's value (h87)."""
    written = {n for s in kernel.statements
               if s.id not in cand.skip and s.within_inames & inames
               for n in s.assignee_names()}
    return inames | frozenset(written)


def _term(oracle: TypeOracle, cand: _Candidate, varying: frozenset[str]) -> Expression | None:
    """The reduction's body: the term in the accumulator's arithmetic type, zeroed (made
    neutral) where a predicate that varies over the reduction (reads an iname or a name
    written in its loops: `_varying_names`) is false."""
    stmt, update, predicates = cand.stmt, cand.update, cand.predicates
    term = update.term
    dtype = update.dtype or oracle.dtype(combine(update.operation, stmt.assignee, term))
    if dtype is not None and oracle.dtype(term) != dtype:
        term = TypeCast(np.dtype(dtype), term)
    folded = sorted((c for c in predicates if dependencies(c) & varying), key=str)
    if folded:
        if dtype is None:
            return None
        term = p.If(flatten_and(folded), term, neutral_element(update.operation, dtype))
    return term


def _reduction(operation: str, inames: frozenset[str], term: Expression) -> Reduction:
    """A reduction over `inames`; a term that is itself the same reduction is merged."""
    ordered = tuple(sorted(inames))
    if (isinstance(term, Reduction) and term.operation == operation
            and not term.allow_simultaneous):
        return Reduction(operation, ordered + tuple(term.inames), term.expr)
    return Reduction(operation, ordered, term)


def _drop_statements(kernel: Kernel, dead: set[str]) -> Kernel:
    """Remove condition statements that only fed a rewritten statement (and their temporaries);
    statements that depended on one depend on its dependencies instead."""
    if not dead:
        return kernel
    gone = {s.id: s for s in kernel.statements if s.id in dead}
    temps = {n for s in gone.values() for n in s.assignee_names()}
    kept = []
    for s in kernel.statements:
        if s.id in dead:
            continue
        deps = set(s.depends_on)
        for d in sorted(deps & set(gone)):
            deps.discard(d)
            deps |= gone[d].depends_on
        kept.append(s if deps == set(s.depends_on) else replace(s, depends_on=frozenset(deps)))
    temporaries = kernel.temporaries
    for n in sorted(temps):
        if n in temporaries:
            temporaries = temporaries.delete(n)
    return kernel.copy(statements=tuple(kept), temporaries=temporaries)


__all__ = ["Update", "combine", "match_update", "neutral_element", "unordered_selection",
           "other_statement_touches", "recognize_parallel_reductions", "unsupported_update",
           "unwidened"]


def statement_update(kernel: Kernel, stmt: Assignment) -> Update | None:
    """The accumulation `stmt` makes of its assignee (``x = x OP e``, a rounded one, or C's
    guarded ``if (e > x) x = e``), or None: what a reduction clause on ``x`` must match."""
    return _match_statement(kernel, stmt)[0]
