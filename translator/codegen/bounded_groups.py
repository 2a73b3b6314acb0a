"""Reductions over work groups with a bounded number of groups (a grid-stride loop).

A reduction whose terms run over a group iname (``sum([i_outer, i_inner], ...)`` with
``i_outer`` on g.0, as after ``split_iname("i", 256, outer_tag="g.0", inner_tag="l.0")``)
ends with one atomic update of the destination per work group
(`translator.codegen.parallel_reductions`).  With one group per 256 terms, a large sum makes
every group contend for the same element.  Before lowering, such a group iname `g` whose
number of values is not a constant of at most `MAX_REDUCTION_GROUPS` is split::

    g = g_grid + MAX_REDUCTION_GROUPS * g_stride     g_grid on the same group axis,
                                                      g_stride a sequential loop

so at most `MAX_REDUCTION_GROUPS` groups launch, each work item adds up its terms over the
whole range in strides of the grid, and each group makes one update of the destination.
Sequential execution of the iterations of a parallel loop is always legal, so the result is
the same reduction; floating-point sums are rounded in another order, as any parallel
reduction is.  Where the group iname does not start at 0 (a loop from 1, or from a
parameter ``m``), the grid counts from its lowest value `base` (one affine expression in the
parameters)::

    g = base + g_grid + MAX_REDUCTION_GROUPS * g_stride

so every launched group has terms (``g_grid < min(MAX_REDUCTION_GROUPS, count)``), which the
last-group finish of `translator.codegen.parallel_reductions` needs.

The grid-stride loop is split once more, ``g_stride = g_acc + REDUCTION_UNROLL * g_stride'``
with ``g_acc`` unrolled: the lowering gives each value of ``g_acc`` its own accumulator
(`accumulator_inames`), so a work item has `REDUCTION_UNROLL` independent load pairs in
flight per iteration, and adds the accumulators in a fixed order at the end.

A reduction over several group axes (a 2-D nest: ``j`` split onto l.0 and g.0, ``k`` on
g.1) keeps its axis-0 groups as they are (one per 256 values of the coalesced loop) and
bounds each other group iname to `MAX_OUTER_REDUCTION_GROUPS`, so that the grid stays near
`MAX_REDUCTION_GROUPS` groups in all and each work item walks its column of rows with one set
of unrolled accumulators (bounding both axes would multiply the accumulators).

The split is skipped where it could break something else: the group axis shared with other
inames, local-memory temporaries or explicit barriers (their loops must run equally often in
every work item of a group), or a statement other than an assignment using the iname.
"""

from __future__ import annotations

from dataclasses import replace

import pymbolic.primitives as p

from translator.ir import isl_glue as glue
from translator.ir.data import AddressSpace
from translator.ir.expr import (Expression, IRCombineMapper, IRIdentityMapper, Reduction,
                                dependencies)
from translator.ir.kernel import Kernel
from translator.ir.statements import Assignment, BarrierInstruction, Statement
from translator.ir.tags import GroupTag, UnrollTag
from translator.ir.util import FrozenDict, UniqueNameGenerator

#: Work groups a reduction over groups launches at most (enough to fill a large GPU:
#: 1024 groups of 256 work items are 262,144 work items).
MAX_REDUCTION_GROUPS = 1024
#: Groups along each axis other than 0 of a reduction over several group axes.
MAX_OUTER_REDUCTION_GROUPS = 64
#: Independent accumulators per work item in the grid-stride loop (loads in flight).
REDUCTION_UNROLL = 4

_ATOMIC_OPERATIONS = ("sum", "product", "max", "min")


def bound_reduction_groups(kernel: Kernel, limit: int = MAX_REDUCTION_GROUPS,
                           unroll: int = REDUCTION_UNROLL) -> tuple[Kernel, dict[str, int]]:
    """`kernel` with every unbounded group iname of a parallel reduction split (module
    docstring; `kernel` itself when there is none), and the unrolled inames that select an
    accumulator, with their number of values."""
    accumulators: dict[str, int] = {}
    outer = _outer_group_inames(kernel)
    for iname in _unbounded_reduction_groups(kernel, limit):
        if iname in outer and not outer[iname]:
            continue        # the coalesced axis of a reduction over several group axes
        bound = min(limit, MAX_OUTER_REDUCTION_GROUPS) if outer.get(iname) else limit
        kernel, acc = _split_group_iname(kernel, iname, bound,
                                         unroll if _one_loop_body(kernel, iname) else 1)
        if acc is not None:
            accumulators[acc] = unroll
    return kernel, accumulators


class _ReductionInames(IRCombineMapper):
    """The inames reduced over in an expression, by the operations that have atomic updates
    (others over group inames are refused by the lowering, which names the user's iname)."""

    def combine(self, values) -> frozenset[str]:
        out: frozenset[str] = frozenset()
        for v in values:
            out |= v
        return out

    def map_reduction(self, expr: Reduction, *args, **kwargs) -> frozenset[str]:
        own = frozenset(expr.inames) if expr.operation in _ATOMIC_OPERATIONS else frozenset()
        return own | self.rec(expr.expr)

    def map_constant(self, expr, *args, **kwargs) -> frozenset[str]:
        return frozenset()

    map_variable = map_tagged_variable = map_numpy_scalar = map_constant

    def map_foreign(self, expr, *args, **kwargs) -> frozenset[str]:
        return frozenset()


class _AnyReductionInames(_ReductionInames):
    """The inames reduced over by any operation (an arg-min's statement uses its inames
    too: `_users`)."""

    def map_reduction(self, expr: Reduction, *args, **kwargs) -> frozenset[str]:
        return frozenset(expr.inames) | self.rec(expr.expr)


class _ReductionGroups(IRCombineMapper):
    """The sets of inames of each reduction (of the operations with atomic updates)."""

    def combine(self, values) -> list[frozenset[str]]:
        return [r for v in values for r in v]

    def map_reduction(self, expr: Reduction, *args, **kwargs) -> list[frozenset[str]]:
        own = [frozenset(expr.inames)] if expr.operation in _ATOMIC_OPERATIONS else []
        return own + self.rec(expr.expr)

    def map_constant(self, expr, *args, **kwargs) -> list[frozenset[str]]:
        return []

    map_variable = map_tagged_variable = map_numpy_scalar = map_constant

    def map_foreign(self, expr, *args, **kwargs) -> list[frozenset[str]]:
        return []


def _outer_group_inames(kernel: Kernel) -> dict[str, bool]:
    """The group inames of reductions over several group axes: True for those on an axis
    other than 0 (bounded to `MAX_OUTER_REDUCTION_GROUPS`), False for axis 0 (left as is)."""
    out: dict[str, bool] = {}
    for s in kernel.statements:
        for e in s.read_expressions():
            for inames in _ReductionGroups()(e):
                tags = {n: _group_tag(kernel, n) for n in inames}
                groups = {n: t for n, t in tags.items() if t is not None}
                if len(groups) > 1:
                    for n, t in groups.items():
                        out[n] = out.get(n, False) or t.axis != 0
    return out


def _group_tag(kernel: Kernel, iname: str) -> GroupTag | None:
    return next((t for t in kernel.tags_of(iname) if isinstance(t, GroupTag)), None)


def _unbounded_reduction_groups(kernel: Kernel, limit: int) -> list[str]:
    if _has_barrier_or_local_memory(kernel):
        return []
    reduced: set[str] = set()
    for s in kernel.statements:
        for e in s.read_expressions():
            reduced |= _ReductionInames()(e)
    out = []
    for iname in sorted(reduced):
        tag = _group_tag(kernel, iname)
        if tag is None or iname not in kernel.all_inames or _axis_shared(kernel, iname, tag):
            continue
        if not all(isinstance(s, Assignment) for s in _users(kernel, iname)):
            continue
        domain = glue.statement_domain(kernel.domains, [iname])
        extent = glue.hardware_span(domain, iname)[1]
        if extent is None or extent > limit:
            out.append(iname)
    return out


def _has_barrier_or_local_memory(kernel: Kernel) -> bool:
    if any(t.address_space is AddressSpace.LOCAL for t in kernel.temporaries.values()):
        return True
    return any(isinstance(s, BarrierInstruction) for s in kernel.statements)


def _axis_shared(kernel: Kernel, iname: str, tag: GroupTag) -> bool:
    return any(n != iname and tag in kernel.tags_of(n) for n in kernel.all_inames)


def _one_loop_body(kernel: Kernel, iname: str) -> bool:
    """Whether the statements inside `iname` all run in the same loops (no sequential loop
    nested in the body): then its accumulators can be unrolled; an inner loop (``acc = 0``,
    ``do l ...; acc = acc + ...``) cannot be scheduled inside the unrolled selector."""
    loops = {s.within_inames for s in kernel.statements if iname in s.within_inames}
    return len(loops) <= 1


def _users(kernel: Kernel, iname: str) -> list[Statement]:
    return [s for s in kernel.statements
            if iname in s.within_inames
            or any(iname in _AnyReductionInames()(e) for e in s.read_expressions())]


# ---------------------------------------------------------------------------------------------
# the split

class _Split(IRIdentityMapper):
    """``g`` -> ``base + grid + limit*(acc + unroll*stride)`` in expressions (without `acc`
    where there is none); reductions over g run over the new inames."""

    def __init__(self, iname: str, new: tuple[str, ...], value: Expression) -> None:
        self.iname, self.new, self.value = iname, new, value

    def map_variable(self, expr: p.Variable, *args, **kwargs) -> Expression:
        return self.value if expr.name == self.iname else expr

    def map_reduction(self, expr: Reduction, *args, **kwargs) -> Expression:
        body = self.rec(expr.expr)
        if self.iname not in expr.inames:
            return expr if body is expr.expr else Reduction(
                expr.operation, expr.inames, body, expr.allow_simultaneous)
        inames = tuple(j for i in expr.inames for j in (self.new if i == self.iname else (i,)))
        return Reduction(expr.operation, inames, body, expr.allow_simultaneous)


def _split_group_iname(kernel: Kernel, iname: str, limit: int, unroll: int
                       ) -> tuple[Kernel, str | None]:
    """`iname` split into a grid, a stride loop and (`unroll` > 1) an unrolled accumulator
    selector; returns the kernel and the selector's name."""
    names = UniqueNameGenerator(set(kernel.all_inames) | set(kernel.arg_names)
                                | set(kernel.temporaries))
    stride, grid = names(f"{iname}_stride"), names(f"{iname}_grid")
    acc = names(f"{iname}_acc") if unroll > 1 else None
    base = _lowest_value(kernel, iname)
    steps: Expression = p.Variable(stride)
    if acc is not None:
        steps = p.Sum((p.Variable(acc), p.Product((unroll, p.Variable(stride)))))
    value = p.Sum((*((base,) if base != 0 else ()), p.Variable(grid), p.Product((limit, steps))))
    new = (stride, acc, grid) if acc is not None else (stride, grid)
    mapper = _Split(iname, new, value)
    statements = tuple(_split_statement(s, mapper) for s in kernel.statements)
    temps = (names(f"{iname}_shifted"), names(f"{iname}_steps"))
    domains = tuple(_split_domain(d, iname, (stride, grid, acc), limit, unroll, base, temps)
                    if iname in glue.inames_of(d) else _substitute_parameter(d, mapper)
                    for d in kernel.domains)
    tags = dict(kernel.iname_tags)
    tags[grid] = frozenset({_group_tag(kernel, iname)})
    if acc is not None:
        tags[acc] = frozenset({UnrollTag()})
    del tags[iname]
    prios = frozenset(tuple(j for i in prio for j in (new if i == iname else (i,)))
                      for prio in kernel.loop_priority)
    if acc is not None:
        prios |= {(stride, acc)}
    return kernel.copy(statements=statements, domains=domains, iname_tags=FrozenDict(tags),
                       loop_priority=prios), acc


def _lowest_value(kernel: Kernel, iname: str) -> Expression:
    """The lowest value of `iname` as one affine expression in the parameters; 0 where it is
    not one (the grid then counts from 0, as before)."""
    domain = glue.statement_domain(kernel.domains, [iname])
    base = glue.static_lower_bound(domain, iname)
    return 0 if base is None else base


def _split_domain(domain, iname: str, new: tuple[str, str, str | None], limit: int,
                  unroll: int, base: Expression, temps: tuple[str, str]):
    """``iname = base + grid + limit*stride`` (``stride = acc + unroll*stride'``) in one
    domain of the kernel; `temps` are free names for the steps between."""
    if iname not in glue.inames_of(domain):
        return domain
    stride, grid, acc = new
    shifted, steps = temps
    if base != 0:
        domain = glue.add_dim(domain, shifted, pos=glue.inames_of(domain).index(iname) + 1)
        domain = glue.constrain_equal(domain, shifted,
                                      p.Sum((p.Variable(iname), p.Product((-1, base)))))
        domain = glue.project_out_names(domain, [iname])
        iname = shifted
    if acc is None:
        return glue.split_dim(domain, iname, stride, grid, limit)
    domain = glue.split_dim(domain, iname, steps, grid, limit)
    return glue.split_dim(domain, steps, stride, acc, unroll)


def _substitute_parameter(domain, mapper: _Split):
    """A nested domain whose bounds name the split iname as a parameter (``i`` from
    ``256*k`` to ``256*k + 255`` inside a loop over ``k``) bounded by the new inames instead:
    they (and the parameters of the grid's base) become its parameters, tied to the old one
    by the split's value, which is then projected out."""
    if mapper.iname not in glue.params_of(domain):
        return domain
    for name in sorted(dependencies(mapper.value)):
        if name not in glue.params_of(domain):
            domain = glue.add_dim(domain, name, param=True)
    domain = glue.constrain_equal(domain, mapper.iname, mapper.value)
    return glue.project_out_names(domain, [mapper.iname])


def _split_statement(stmt: Statement, mapper: _Split) -> Statement:
    if not isinstance(stmt, Assignment):
        return stmt
    within = stmt.within_inames
    if mapper.iname in within:
        within = (within - {mapper.iname}) | set(mapper.new)
    return replace(stmt, assignee=mapper(stmt.assignee), expression=mapper(stmt.expression),
                   predicates=frozenset(mapper(c) for c in stmt.predicates),
                   within_inames=within)
