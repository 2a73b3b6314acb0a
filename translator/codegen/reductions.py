"""Lowering of `Reduction` nodes to accumulator temporaries (before scheduling).

``out[i] = sum(k, a[i, k])`` becomes three statements::

    _tr_acc = 0                       {id=_tr_s_init,   inames=i}
    _tr_acc = _tr_acc + a[i, k]       {id=_tr_s_update, inames=i:k, dep=_tr_s_init}
    out[i] = _tr_acc                  {id=s, dep=_tr_s_update}

so a reduction iname is a sequential loop around the accumulator update only.  Reductions here
are sequential within a work item: those over ``l.*``/``g.*`` inames are lowered before, by
`translator.codegen.parallel_reductions` (one left over raises `CodegenError`).
"""

from __future__ import annotations

import numpy as np
import pymbolic.primitives as p

from translator.diagnostics import CodegenError
from translator.ir.data import AddressSpace, TemporaryVariable
from translator.ir.expr import REDUCTION_NAMES, IRIdentityMapper, Reduction
from translator.ir.kernel import Kernel
from translator.ir.mappers import has_reduction
from translator.ir.reduction_ops import combine, neutral_element, reduction_definition
from translator.ir.statements import Assignment, CallInstruction, Statement
from translator.ir.tags import is_hardware_parallel
from translator.ir.types import TypeOracle
from translator.ir.util import UniqueNameGenerator
from translator.records import replace


def lower_reductions(kernel: Kernel) -> Kernel:
    """Replace every reduction by an accumulator (see module docstring).  Returns `kernel`
    itself when it has no reductions."""
    if not any(_statement_has_reduction(s) for s in kernel.statements):
        return kernel
    lowering = _Lowering(kernel)
    statements: list[Statement] = []
    for stmt in kernel.statements:
        statements.extend(lowering.statement(stmt))
    return replace(kernel, statements=tuple(statements), temporaries=lowering.temporaries,
                   loop_priority=kernel.loop_priority | lowering.nesting)


def _statement_has_reduction(stmt: Statement) -> bool:
    if isinstance(stmt, (Assignment, CallInstruction)) and has_reduction(stmt.expression):
        return True
    return any(has_reduction(pr) for pr in stmt.predicates)


class _Lowering:
    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel
        self.oracle = TypeOracle(kernel)
        taken = {s.id for s in kernel.statements} | set(kernel.temporaries) | set(kernel.arg_names)
        self.names = UniqueNameGenerator(taken | set(kernel.all_inames))
        self.temporaries = kernel.temporaries
        #: (outer, inner) loop priorities: the statement's and an enclosing reduction's loops
        #: go around a reduction's, whose accumulator lives for one iteration of them.
        self.nesting: frozenset[tuple[str, ...]] = frozenset()

    def statement(self, stmt: Statement) -> list[Statement]:
        if not _statement_has_reduction(stmt):
            return [stmt]
        if any(has_reduction(pr) for pr in stmt.predicates):
            raise CodegenError(f"statement {stmt.id!r}: reductions in predicates are not "
                               "supported", stmt.span)
        emitted: list[Statement] = []
        replacer = _Replacer(self, stmt, stmt.within_inames, emitted)
        new_expr = replacer(stmt.expression)
        deps = stmt.depends_on | set(replacer.updates)
        return [*emitted, replace(stmt, expression=new_expr, depends_on=frozenset(deps))]

    def reduction(self, red: Reduction, stmt: Statement, outer: frozenset[str],
                  emitted: list[Statement]) -> tuple[p.Variable, str]:
        """Emit init/update statements for `red` (inner reductions first); return the
        accumulator that replaces it and the id of its update statement."""
        self._check_inames(red, stmt)
        # The accumulator holds one value per iteration of every enclosing loop (the
        # statement's own and an outer reduction's), so they all go around the reduction's
        # loops; otherwise ``h[j] = sum(i, a[i, j])`` with i declared first shares it across j.
        self.nesting |= {(o, r) for o in sorted(outer) for r in red.inames if o != r}
        inner_inames = outer | frozenset(red.inames)
        inner: list[Statement] = []
        replacer = _Replacer(self, stmt, inner_inames, inner)
        body = replacer(red.expr)
        dtype = self.oracle.dtype(red.expr)
        if dtype is None:
            raise CodegenError(f"statement {stmt.id!r}: cannot determine the type of the "
                               f"reduction {red}", stmt.span)
        acc = self._accumulator(stmt, np.dtype(dtype))
        init_id = self.names(f"_tr_{stmt.id}_init")
        update_id = self.names(f"_tr_{stmt.id}_update")
        common = dict(predicates=stmt.predicates, span=stmt.span, priority=stmt.priority,
                      groups=stmt.groups, conflicts_with_groups=stmt.conflicts_with_groups)
        # The accumulator is new, so its initialisation waits for nothing that runs inside
        # the reduction loop (a prefetch into local memory, say): depending on it would
        # split the loop and run every such statement before the first update.
        stmts = self.kernel.id_to_statement
        init_deps = frozenset(d for d in stmt.depends_on
                              if not (d in stmts and stmts[d].within_inames & set(red.inames)))
        init = Assignment(id=init_id, assignee=acc,
                          expression=neutral_element(red.operation, dtype, self.kernel),
                          within_inames=outer, depends_on=init_deps, **common)
        inner_deps = set(replacer.updates)
        update = Assignment(id=update_id, assignee=acc,
                            expression=combine(red.operation, acc, body, self.kernel),
                            within_inames=inner_inames,
                            depends_on=frozenset({init_id} | inner_deps | stmt.depends_on),
                            **common)
        emitted.extend([init, *inner, update])
        return acc, update_id

    def _check_inames(self, red: Reduction, stmt: Statement) -> None:
        for iname in red.inames:
            if any(is_hardware_parallel(t) for t in self.kernel.tags_of(iname)):
                tags = ", ".join(sorted(str(t) for t in self.kernel.tags_of(iname)))
                raise CodegenError(
                    f"statement {stmt.id!r}: reduction iname {iname!r} is tagged {tags}; "
                    "parallel reductions across work items are not supported yet (reduce "
                    "over a sequential iname)", stmt.span)
        if (red.operation not in REDUCTION_NAMES
                and reduction_definition(self.kernel, red.operation) is None):
            raise CodegenError(f"statement {stmt.id!r}: unknown reduction operation "
                               f"{red.operation!r}", stmt.span)

    def _accumulator(self, stmt: Statement, dtype: np.dtype) -> p.Variable:
        name = self.names("_tr_acc")
        self.temporaries = self.temporaries.set(name, TemporaryVariable(
            name=name, dtype=dtype, shape=(), address_space=AddressSpace.PRIVATE,
            span=stmt.span))
        return p.Variable(name)


class _Replacer(IRIdentityMapper):
    def __init__(self, lowering: _Lowering, stmt: Statement, outer: frozenset[str],
                 emitted: list[Statement]) -> None:
        self.lowering = lowering
        self.stmt = stmt
        self.outer = outer
        self.emitted = emitted
        self.updates: list[str] = []

    def map_reduction(self, expr: Reduction, *args, **kwargs):
        acc, update_id = self.lowering.reduction(expr, self.stmt, self.outer, self.emitted)
        self.updates.append(update_id)
        return acc
