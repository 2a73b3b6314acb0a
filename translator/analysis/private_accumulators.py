"""Private accumulators: an accumulation inside a loop whose trip count differs between work
items becomes a private partial result, added to the accumulator after that loop.

OpenMP's ``reduction(+:e)`` on the outer loop of a force loop accumulates in the inner loop,
over a neighbour count that each iteration reads from memory::

    for (k = 0; k < cnt[i]; k++) { d = ...; e[0] = e[0] + d*d; }        (i parallel)

A reduction tree over i cannot run inside the k loop (work items run it a different number of
times: the tree's barriers would not match), and it cannot take the k loop inside its term (the
term reads ``d``, which another statement of the k loop computes).  This rewrite gives each
work item its own partial result instead, so that the accumulation left is one per iteration
of the loops outside k, which `translator.analysis.reductions` turns into a tree::

    acc = 0                                          {inames=i}
    for (k = 0; k < cnt[i]; k++) { d = ...; acc = acc + d*d; }
    e[0] = e[0] + acc                                {inames=i}

The terms are added in another order (``e + (t1 + t2)`` for ``(e + t1) + t2``), which is what
a parallel reduction does anyway: the reduction stage's callers ask for the user's consent
where the result may round differently.  The plans come from the reduction stage
(`translator.analysis.reductions`), which knows which accumulations qualify.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pymbolic.primitives as p

from translator.ir.data import AddressSpace, TemporaryVariable
from translator.ir.expr import Expression, IRIdentityMapper, dependencies
from translator.ir.kernel import Kernel
from translator.ir.reduction_ops import combine, neutral_element
from translator.ir.statements import Assignment, Statement
from translator.ir.util import UniqueNameGenerator
from translator.records import dataclass


@dataclass(frozen=True, slots=True)
class AccumulationPlan:
    """Accumulate statement `statement` (``x[idx] = x[idx] OP term``) privately inside the
    loops over `loops`, in `dtype` (the accumulator's type)."""

    statement: str
    operation: str
    loops: frozenset[str]
    dtype: np.dtype


def accumulate_privately(kernel: Kernel, plans: list[AccumulationPlan]) -> Kernel:
    """`kernel` with each plan's accumulation rewritten through a private partial result
    (module docstring); a plan whose statements cannot be placed is skipped."""
    names = UniqueNameGenerator([*kernel.arg_names, *kernel.temporaries, *kernel.all_inames])
    ids = UniqueNameGenerator(s.id for s in kernel.statements)
    for plan in plans:
        kernel = _rewrite(kernel, plan, names, ids)
    return kernel


def _rewrite(kernel: Kernel, plan: AccumulationPlan, names: UniqueNameGenerator,
             ids: UniqueNameGenerator) -> Kernel:
    stmt = kernel.statement(plan.statement)
    if not isinstance(stmt, Assignment):
        return kernel
    outer = stmt.within_inames - plan.loops
    nest = [k for k, s in enumerate(kernel.statements)
            if s.within_inames >= outer and s.within_inames & plan.loops]
    acc = p.Variable(names(f"_tr_acc_{stmt.assignee_names()[0]}"))
    expression = _Replaced(stmt.assignee, acc)(stmt.expression)
    target = stmt.assignee_names()[0]
    if (not nest or nest != list(range(nest[0], nest[-1] + 1))
            or any(target in dependencies(e) for e in (expression, *stmt.predicates))):
        return kernel   # the loops' statements are not one run of the list, or x is read
    init = Assignment(id=ids(f"{stmt.id}_acc_init"), within_inames=outer,
                      assignee=acc, expression=neutral_element(plan.operation, plan.dtype,
                                                               kernel),
                      span=stmt.span)
    final = Assignment(id=ids(f"{stmt.id}_acc_add"), within_inames=outer,
                       depends_on=frozenset({stmt.id}), assignee=stmt.assignee,
                       expression=combine(plan.operation, stmt.assignee, acc), span=stmt.span)
    updated = _with_replaced(stmt, acc, expression, init.id)
    statements: list[Statement] = []
    for k, s in enumerate(kernel.statements):
        if k == nest[0]:
            statements.append(init)
        statements.append(updated if s.id == stmt.id else _after(s, stmt.id, final.id, nest, k))
        if k == nest[-1]:
            statements.append(final)
    temps = kernel.temporaries.set(acc.name, TemporaryVariable(
        name=acc.name, dtype=plan.dtype, address_space=AddressSpace.PRIVATE, span=stmt.span))
    return kernel.copy(statements=tuple(statements), temporaries=temps)


def _with_replaced(stmt: Assignment, acc: p.Variable, expression: Expression,
                   init: str) -> Assignment:
    """The accumulation into the private `acc`, after its initialisation `init`."""
    return Assignment(id=stmt.id, within_inames=stmt.within_inames,
                      depends_on=stmt.depends_on | {init}, predicates=stmt.predicates,
                      tags=stmt.tags, groups=stmt.groups,
                      conflicts_with_groups=stmt.conflicts_with_groups,
                      no_sync_with=stmt.no_sync_with, priority=stmt.priority, span=stmt.span,
                      assignee=acc, expression=expression)


def _after(s: Statement, old: str, final: str, nest: list[int], k: int) -> Statement:
    """`s`, depending on the final addition where it depended on the accumulation and runs
    after the loops (it reads the accumulator's total there)."""
    if old not in s.depends_on or nest[0] <= k <= nest[-1]:
        return s
    return replace(s, depends_on=s.depends_on | {final})


class _Replaced(IRIdentityMapper):
    """An expression with every occurrence of `old` (the accumulated element) read as `new`."""

    def __init__(self, old: Expression, new: Expression) -> None:
        self.old, self.new = old, new

    def map_subscript(self, expr: p.Subscript, *args, **kwargs) -> Expression:
        return self.new if expr == self.old else super().map_subscript(expr, *args, **kwargs)
