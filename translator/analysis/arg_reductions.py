"""Recognition of arg-min/arg-max reductions: a minimum (maximum) and where it is, in one loop.

The time-step control of a hydro code keeps the smallest value of a nest and its location::

    if (dtc < dtmin) then            _tr_cond = cast(int32, dtc < dtmin[0])   {inames=j:k}
      dtmin = dtc                    dtmin[0] = dtc      {if=_tr_cond}
      jmin = j                       jmin[0] = j         {if=_tr_cond}
      kmin = k                       kmin[0] = k         {if=_tr_cond}
    end if

Once one of the loops is hardware-parallel, this stage rewrites such a group into one
statement with an arg-reduction over all loops of the group::

    dtmin[0], jmin[0], kmin[0] = argmin([k, j_outer, j_inner], _tr_arg(dtc, 1, j, k))

The reduction's inames are in the loops' nesting order: their values, compared
lexicographically, are each iteration's rank in the sequential order.  ``_tr_arg`` holds the
value, the condition under which the iteration takes part (other predicates of the group,
else 1) and the location values.  The operation tells the comparison: ``argmin`` for ``<``
(the first iteration in sequential order wins ties), ``argmin_last`` for ``<=`` (the last
wins), ``argmax`` and ``argmax_last`` for ``>`` and ``>=``.  Code generation
(`translator.codegen.arg_reductions`) reduces (value, rank, set) exactly: NaNs never take
part (a comparison with a NaN is false), equal values are ordered by rank, and the winner
replaces the initial value of the target only where the original comparison with it holds,
so the results are those of the sequential loop bit for bit.

What is recognised: a private condition temporary written once from a comparison of a value
``v`` with a global scalar ``m`` (``v < m`` or ``m > v``, any of ``<``, ``<=``, ``>``,
``>=``), read only as the predicate of statements in the same loops, one of which is
``m = v`` and the others ``l = e`` with ``l`` another global scalar and ``e`` affine in the
loop indices and the kernel's parameters.  ``v`` must have the type of ``m``; no other
statement of the kernel may touch ``m`` or a location, and ``v`` and the predicates must
not read them.  Anything else is left alone (legality then reports the race, and the
automatic mapping keeps the loop sequential).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pymbolic.primitives as p

from translator.ir import isl_glue as glue
from translator.ir.data import AddressSpace, ArrayArg
from translator.ir.expr import (
    Expression,
    Reduction,
    TypeCast,
    dependencies,
    flatten_and,
    substitute,
)
from translator.ir.kernel import Kernel
from translator.ir.statements import Assignment, CallInstruction, Statement
from translator.ir.types import TypeOracle
from translator.records import dataclass

#: The arg-reduction operations by the comparison of the source (``v OP m``).
ARG_OPERATIONS = {"<": "argmin", "<=": "argmin_last", ">": "argmax", ">=": "argmax_last"}
#: The call that holds (value, condition, locations...) inside an arg-reduction.
ARG_CALL = "_tr_arg"
_FLIP = {">": "<", ">=": "<=", "<": ">", "<=": ">="}


def is_arg_reduction(expr: object) -> bool:
    """Whether `expr` is an arg-reduction made by this stage."""
    return (isinstance(expr, Reduction) and expr.operation in ARG_OPERATIONS.values()
            and isinstance(expr.expr, p.Call)
            and getattr(expr.expr.function, "name", None) == ARG_CALL)


def arg_parts(red: Reduction) -> tuple[Expression, Expression, tuple[Expression, ...]]:
    """(value, condition, locations) of an arg-reduction."""
    value, condition, *locations = red.expr.parameters
    return value, condition, tuple(locations)


def arg_reduction_text(stmt: CallInstruction) -> str:
    """What ``--report`` says of the arg-reduction statement `stmt`."""
    names = stmt.assignee_names()
    smallest = stmt.expression.operation.startswith("argmin")
    ties = "last" if stmt.expression.operation.endswith("_last") else "first"
    if len(names) == 1:
        return (f"{'min' if smallest else 'max'}imum reduction of {names[0]} as the source "
                f"selects it (NaN values never taken; of equal values the {ties} in loop "
                "order wins; exact)")
    return (f"{'arg-min' if smallest else 'arg-max'} reduction (value {names[0]}, location "
            f"{', '.join(names[1:])}; equal values: the {ties} in loop order wins; exact)")


@dataclass(frozen=True, slots=True)
class _Group:
    """The statements of one guarded block: the condition's writer, the value statement and
    the location statements, in statement order."""

    writer: Assignment
    value: Assignment
    locations: tuple[Assignment, ...]
    operation: str
    term: Expression
    predicates: frozenset[Expression]

    @property
    def ids(self) -> set[str]:
        return {self.writer.id, self.value.id, *(s.id for s in self.locations)}


def recognize_arg_reductions(kernel: Kernel, parallel: frozenset[str]) -> Kernel:
    """Rewrite every guarded min/max-with-location block inside hardware-parallel loops as
    one arg-reduction statement (module docstring); `kernel` itself when there is none."""
    for temp in sorted(kernel.temporaries):
        group = _group(kernel, temp, parallel)
        if group is not None:
            kernel = _rewrite(kernel, group, temp)
    for stmt in kernel.statements:
        group = _select_group(kernel, stmt, parallel)
        if group is not None:
            kernel = _rewrite(kernel, group, None)
    return kernel


def _select_group(kernel: Kernel, stmt: Statement, parallel: frozenset[str]) -> _Group | None:
    """A floating-point minimum written as one selection, ``m = if(v < m, v, m)`` (C's
    ``m = v < m ? v : m``, Fortran's ``merge(v, m, v < m)``), as an arg-reduction without
    locations: the term replaces the target exactly when the comparison holds, so NaN terms
    never do, a NaN initial value stays, and of equal values (0.0 and -0.0) the first (``<``)
    or the last (``<=``) is kept, which only the ranks reproduce.  The other way round,
    ``m = if(m < v, m, v)``, takes every NaN term and is no such selection."""
    if (not isinstance(stmt, Assignment) or stmt.atomicity
            or not isinstance(stmt.expression, p.If) or not stmt.within_inames & parallel):
        return None
    select = stmt.expression
    cond = select.condition
    if (not isinstance(cond, p.Comparison) or cond.operator not in _FLIP
            or select.else_ != stmt.assignee):
        return None
    value = replace(stmt, expression=select.then)
    operation = _operation(cond, value)
    if operation is None or not _is_float(kernel, stmt.assignee):
        return None
    group = _Group(stmt, value, (), operation, select.then, stmt.predicates)
    return group if _valid(kernel, group) else None


def _is_float(kernel: Kernel, target: Expression) -> bool:
    dtype = TypeOracle(kernel).dtype(target)
    return dtype is not None and np.dtype(dtype).kind == "f"


def _group(kernel: Kernel, temp: str, parallel: frozenset[str]) -> _Group | None:
    """The guarded block that `temp` (a condition temporary) controls, if it has the form."""
    var = kernel.temporaries[temp]
    if var.shape or var.address_space not in (None, AddressSpace.PRIVATE):
        return None
    writers = kernel.writers(temp)
    if len(writers) != 1:
        return None
    writer = kernel.statement(writers[0])
    cond = _comparison(writer)
    if cond is None or not writer.within_inames & parallel:
        return None
    guarded = [s for s in kernel.statements if s.id != writer.id
               and any(temp in dependencies(e) for e in s.read_expressions())]
    if not guarded or not all(_guarded_by(s, temp, writer) for s in guarded):
        return None
    return _split_group(kernel, writer, cond, guarded, temp)


def _comparison(writer: Statement) -> p.Comparison | None:
    if not isinstance(writer, Assignment) or writer.predicates:
        return None
    value = writer.expression
    while isinstance(value, TypeCast):
        value = value.child
    ok = isinstance(value, p.Comparison) and value.operator in _FLIP
    return value if ok else None


def _guarded_by(stmt: Statement, temp: str, writer: Assignment) -> bool:
    """`stmt` is an assignment in the writer's loops that reads `temp` only as a predicate."""
    if not isinstance(stmt, Assignment) or stmt.atomicity \
            or stmt.within_inames != writer.within_inames:
        return False
    tests = [c for c in stmt.predicates if temp in dependencies(c)]
    reads = [stmt.expression, *(i for i in _indices(stmt.assignee))]
    return (len(tests) == 1 and _tests_temp(tests[0], temp)
            and not any(temp in dependencies(e) for e in reads))


def _tests_temp(pred: Expression, temp: str) -> bool:
    if isinstance(pred, p.Comparison) and pred.operator == "!=" and pred.right == 0:
        pred = pred.left
    return isinstance(pred, p.Variable) and pred.name == temp


def _split_group(kernel: Kernel, writer: Assignment, cond: p.Comparison,
                 guarded: list[Assignment], temp: str) -> _Group | None:
    """The value statement (``m = v`` with the comparison of v and m) and the locations."""
    others = [frozenset(c for c in s.predicates if temp not in dependencies(c))
              for s in guarded]
    if any(o != others[0] for o in others):
        return None
    for stmt in guarded:
        operation = _operation(cond, stmt)
        if operation is None:
            continue
        locations = tuple(s for s in guarded if s is not stmt)
        if not locations and not _is_float(kernel, stmt.assignee):
            return None         # an exact plain minimum: `translator.analysis.reductions`
        group = _Group(writer, stmt, locations, operation, stmt.expression, others[0])
        return group if _valid(kernel, group) else None
    return None


def _operation(cond: p.Comparison, stmt: Assignment) -> str | None:
    """The arg operation when `stmt` is ``m = v`` and `cond` compares v with m."""
    target, term = stmt.assignee, stmt.expression
    if cond.left == term and cond.right == target:
        return ARG_OPERATIONS[cond.operator]
    if cond.left == target and cond.right == term:
        return ARG_OPERATIONS[_FLIP[cond.operator]]
    return None


def _valid(kernel: Kernel, group: _Group) -> bool:
    """Scalars are global and fixed, only the group touches them, the value has the type of
    its target and every location is affine in the loop indices and parameters."""
    targets = [group.value, *group.locations]
    names = {s.assignee_names()[0] for s in targets}
    if len(names) != len(targets) or not all(_fixed_scalar(kernel, s) for s in targets):
        return False
    if any(dependencies(e) & names for e in (group.term, *group.predicates)):
        return False
    if dependencies(group.writer.expression) & names != {group.value.assignee_names()[0]}:
        return False
    if _aliased_or_touched(kernel, group, names):
        return False
    oracle = TypeOracle(kernel)
    dtype = oracle.dtype(group.value.assignee)
    if dtype is None or oracle.dtype(group.term) != dtype or np.dtype(dtype).kind not in "iuf":
        return False
    params = sorted(a.name for a in kernel.value_args)
    return all(_affine_location(s.expression, group.value.within_inames, params)
               for s in group.locations)


def _fixed_scalar(kernel: Kernel, stmt: Assignment) -> bool:
    """The assignee is a global array element with a constant subscript."""
    arg = kernel.arg(stmt.assignee_names()[0])
    index = _indices(stmt.assignee)
    return isinstance(arg, ArrayArg) and bool(index) and all(
        isinstance(i, (int, np.integer)) for i in index)


def _aliased_or_touched(kernel: Kernel, group: _Group, names: set[str]) -> bool:
    """Whether an array that may alias a target exists or another statement uses a target."""
    for name in names:
        arg = kernel.arg(name)
        if getattr(arg, "may_alias", ()) or any(name in a.may_alias for a in kernel.array_args):
            return True
    ids = group.ids
    for stmt in kernel.statements:
        if stmt.id in ids:
            continue
        used = set(stmt.assignee_names()) | {
            n for e in stmt.read_expressions() for n in dependencies(e)}
        if used & names:
            return True
    return False


def _affine_location(expr: Expression, inames: frozenset[str], params: list[str]) -> bool:
    """`expr` reads only loop indices and parameters and is affine in the indices, with
    coefficients that may be parameters (``j + (k - 1)*nx``): each parameter is taken as a
    constant of its own for the test."""
    deps = dependencies(expr)
    if not deps <= inames | set(params):
        return False
    fixed = substitute(expr, {n: 7919 + 2*k for k, n in enumerate(params)})
    return glue.is_affine(fixed, sorted(inames))


def _indices(target: Expression) -> tuple[Expression, ...]:
    return tuple(target.index_tuple) if isinstance(target, p.Subscript) else ()


def _rewrite(kernel: Kernel, group: _Group, temp: str | None) -> Kernel:
    """The kernel with the group replaced by its arg-reduction statement."""
    inames = group.value.within_inames
    order = [n for d in kernel.domains for n in glue.inames_of(d) if n in inames]
    condition = flatten_and(sorted(group.predicates, key=str)) if group.predicates else 1
    call = p.Call(p.Variable(ARG_CALL),
                  (group.term, condition, *(s.expression for s in group.locations)))
    red = Reduction(group.operation, tuple(order), call)
    ids = group.ids
    deps = frozenset().union(*(kernel.statement(i).depends_on for i in sorted(ids))) - ids
    stmt = CallInstruction(
        id=group.value.id, assignees=(group.value.assignee,
                                      *(s.assignee for s in group.locations)),
        expression=red, within_inames=frozenset(), depends_on=deps, span=group.value.span,
        priority=group.value.priority, groups=group.value.groups,
        conflicts_with_groups=group.value.conflicts_with_groups)
    kept: list[Statement] = []
    for s in kernel.statements:
        if s.id == group.value.id:
            kept.append(stmt)
        elif s.id not in ids:
            kept.append(_rerouted(s, ids - {group.value.id}, group.value.id))
    if temp is None:
        return kernel.copy(statements=tuple(kept))
    return kernel.copy(statements=tuple(kept), temporaries=kernel.temporaries.delete(temp))


def _rerouted(stmt: Statement, gone: set[str], new: str) -> Statement:
    """`stmt` depending on the arg-reduction `new` instead of the statements it replaced."""
    if not stmt.depends_on & gone:
        return stmt
    return replace(stmt, depends_on=(stmt.depends_on - gone) | {new})


__all__ = ["ARG_CALL", "ARG_OPERATIONS", "arg_parts", "arg_reduction_text", "is_arg_reduction",
           "recognize_arg_reductions"]
