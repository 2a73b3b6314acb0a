"""Parallel reductions: reduction inames on local axes (a work-group tree in local memory) and
on group axes (atomic updates of the destination).  Runs before `lower_reductions`.  A group
iname of a reduction with many values is first split so that a bounded number of groups each
run a grid-stride loop (`translator.codegen.bounded_groups`).

``s[0] = s[0] + sum([i_outer, i_inner], a[i])`` with ``i_outer`` on g.0 and ``i_inner`` on l.0
(a work group of 256) becomes::

    _tr_acc = 0                                  {inames=}                 every work item
    _tr_acc = _tr_acc + a[i]                     {inames=i_outer:i_inner}  its own terms
    _tr_red[_tr_lane0] = _tr_acc                 {inames=_tr_lane0}
    _tr_red[_tr_lane0] = _tr_red[_tr_lane0] + _tr_red[_tr_lane0 + 128]
                                                 {inames=_tr_lane0, if=_tr_lane0 < 128}
    ... strides 64, 32, ..., 1 (barriers come from `translator.codegen.barriers`)
    s[0] = s[0] + _tr_red[0]                     {inames=i_outer, atomic}

``_tr_laneN`` is a fresh iname covering the whole work group along local axis N, so that every
work item stores a value (the neutral element where it has no terms: sizes need not be
multiples of the work-group size) and takes part in every step.  The tree folds slot
``r + s`` into slot ``r`` for ``r < min(s, size - s)``, s running down the powers of two, so
any work-group size works.  Local axes the reduction does not cross keep separate rows.

Across groups there is no barrier.  Where isl proves that every launched group runs the
final update (`_every_group_runs`), each group stores its value in a buffer of per-group values
and the last group to finish combines them with all its work items in a fixed order
(`translator.codegen.group_updates`; the statement then runs in every work item).  Otherwise
one work item per group combines the group's value into the destination with an atomic update
(``atomic_add``/``atomic_max``/``atomic_min`` on 32-bit integers, ``atom_add`` on 64-bit ones,
otherwise a compare-and-swap loop on the value's bits).  The destination's initial value is on
the device already (the host copies arrays in), so the statement must have the form
``x[idx] = x[idx] OP reduce(OP, ...)``, and nothing else in the kernel may touch x.

In the grid-stride loop of `translator.codegen.bounded_groups`, each value of its unrolled
accumulator selector adds into its own private accumulator (`_Lowering._accumulate`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pymbolic.primitives as p

from translator.analysis.arg_reductions import is_arg_reduction
from translator.analysis.reductions import combine, match_update, other_statement_touches
from translator.codegen import registry
from translator.codegen.arg_reductions import (arg_finish_helper, is_arg_helper_key,
                                               lower_arg_reduction)
from translator.codegen.bounded_groups import bound_reduction_groups
from translator.codegen.grid import Grid, compute_grid
from translator.codegen.group_updates import (INT64_ATOMICS, SCRATCH_PREFIX,
                                              atomic_update_text, finish_buffer_name,
                                              helper_definition, scratch_name)
from translator.schedule import resolve_hardware_axes
from translator.diagnostics import CodegenError
from translator.ir import isl_glue as glue
from translator.ir.data import AddressSpace, ArrayArg, TemporaryVariable
from translator.ir.expr import Expression, IRCombineMapper, IRIdentityMapper, Reduction
from translator.ir.kernel import Kernel
from translator.ir.statements import Assignment, CallInstruction, Statement
from translator.ir.tags import GroupTag, HardwareAxisTag, LocalAutoTag, LocalTag
from translator.ir.types import TypeOracle
from translator.ir.util import FrozenDict, UniqueNameGenerator

_OPERATIONS = ("sum", "product", "max", "min")


class _ParallelFinder(IRCombineMapper):
    """Whether an expression holds a reduction over a hardware-parallel iname."""

    def __init__(self, hardware: frozenset[str]) -> None:
        self.hardware = hardware

    def combine(self, values) -> bool:
        return any(values)

    def map_reduction(self, expr: Reduction, *args, **kwargs) -> bool:
        return bool(set(expr.inames) & self.hardware) or self.rec(expr.expr)

    def map_constant(self, expr, *args, **kwargs) -> bool:
        return False

    map_variable = map_tagged_variable = map_numpy_scalar = map_constant

    def map_foreign(self, expr, *args, **kwargs) -> bool:
        return False


def _hardware_inames(kernel: Kernel) -> frozenset[str]:
    return frozenset(n for n in kernel.iname_tags
                     if any(isinstance(t, (LocalTag, GroupTag, LocalAutoTag))
                            for t in kernel.tags_of(n)))


def lower_parallel_reductions(kernel: Kernel) -> Kernel:
    """Lower every reduction over hardware-parallel inames (module docstring).  Returns
    `kernel` itself when there is none.  Types must be inferred already."""
    finder = _ParallelFinder(_hardware_inames(kernel))
    if not any(finder(e) for s in kernel.statements for e in s.read_expressions()):
        return kernel
    kernel, accumulators = bound_reduction_groups(kernel)
    finder = _ParallelFinder(_hardware_inames(kernel))
    hardware = resolve_hardware_axes(kernel)
    kernel = _resolved_auto_tags(kernel, hardware)
    lowering = _Lowering(kernel, hardware, compute_grid(kernel, hardware), finder)
    lowering.accumulators = accumulators
    statements: list[Statement] = []
    for stmt in kernel.statements:
        statements.extend(lowering.statement(stmt))
    if not lowering.partials:
        # No last-group finish: each tree keeps its own barriers.  PoCL 3.1's default work-group
        # method (loopvec) crashes on a valid one-group kernel whose seven trees share
        # barriers (tests/e2e/test_reductions.py, Fortran intrinsics; `cbs` and `loops` run
        # it); the shared pass pays where groups finish together (`one_tree_pass`).
        return lowering.kernel_with(tuple(statements))
    return lowering.kernel_with(one_tree_pass(statements, lowering.tree_levels))


#: The level of a statement that reads a work-group tree's result (after every tree step).
_AFTER_TREES = 1 << 30


def one_tree_pass(statements: list[Statement], levels: dict[str, int]) -> tuple[Statement, ...]:
    """`statements` with the work-group trees of all reductions interleaved, level by level
    (every store, then every first step, ...), and the statements that read their results
    after them all: the scheduler keeps declaration order where dependences allow it, so
    the trees of a multi-value reduction share their barriers (one per level), and their
    last-group finishes are adjacent, which `translator.codegen.emit` prints as one call
    (`translator.codegen.group_updates.finish_call_text`).  Only the declaration order
    changes; dependences keep every statement where its inputs are."""
    if not levels:
        return tuple(statements)
    kept = [s for s in statements if s.id not in levels]
    trees = sorted((s for s in statements if s.id in levels), key=lambda s: levels[s.id])
    return (*kept, *trees)


def _resolved_auto_tags(kernel: Kernel, hardware: dict[str, HardwareAxisTag]) -> Kernel:
    """``l.auto`` replaced by the axis it resolved to, so that new lane inames cannot move it."""
    tags = dict(kernel.iname_tags)
    changed = False
    for iname, its in kernel.iname_tags.items():
        if any(isinstance(t, LocalAutoTag) for t in its):
            tags[iname] = frozenset(t for t in its if not isinstance(t, LocalAutoTag)) | {
                hardware[iname]}
            changed = True
    return kernel.copy(iname_tags=FrozenDict(tags)) if changed else kernel


class _Lowering:
    def __init__(self, kernel: Kernel, hardware: dict[str, HardwareAxisTag], grid: Grid,
                 finder: _ParallelFinder) -> None:
        self.kernel = kernel
        self.hardware = hardware
        self.grid = grid
        self.finder = finder
        self.oracle = TypeOracle(kernel)
        taken = ({s.id for s in kernel.statements} | set(kernel.temporaries)
                 | set(kernel.arg_names) | set(kernel.all_inames))
        self.names = UniqueNameGenerator(taken)
        self.temporaries = kernel.temporaries
        self.domains = list(kernel.domains)
        self.tags = dict(kernel.iname_tags)
        self.lane_names: dict[int, str] = {}
        self.local_axes = sorted({t.axis for t in hardware.values() if isinstance(t, LocalTag)})
        #: (outer, inner) loop priorities: a work item's accumulator holds one value per
        #: iteration of the statement's sequential loops, so they go around the reduction's.
        self.nesting: frozenset[tuple[str, ...]] = frozenset()
        #: Buffers of per-group values (`_add_partials`), new arguments of the kernel.
        self.partials: list[ArrayArg] = []
        #: Unrolled inames selecting one of several accumulators, with their counts
        #: (`translator.codegen.bounded_groups`).
        self.accumulators: dict[str, int] = {}
        #: Statements of work-group trees by level (`one_tree_pass`).
        self.tree_levels: dict[str, int] = {}

    def kernel_with(self, statements: tuple[Statement, ...]) -> Kernel:
        return self.kernel.copy(statements=statements, temporaries=self.temporaries,
                                args=self.kernel.args + tuple(self.partials),
                                domains=tuple(self.domains), iname_tags=FrozenDict(self.tags),
                                loop_priority=self.kernel.loop_priority | self.nesting)

    # -- statements -----------------------------------------------------------------------

    def statement(self, stmt: Statement) -> list[Statement]:
        if not any(self.finder(e) for e in stmt.read_expressions()):
            return [stmt]
        if isinstance(stmt, CallInstruction) and is_arg_reduction(stmt.expression):
            return lower_arg_reduction(self, stmt)
        if not isinstance(stmt, Assignment):
            raise CodegenError(f"statement {stmt.id!r}: a reduction over work items must be "
                               "in an assignment", stmt.span)
        if any(self.finder(c) for c in stmt.predicates):
            raise CodegenError(f"statement {stmt.id!r}: reductions in predicates are not "
                               "supported", stmt.span)
        emitted: list[Statement] = []
        replacer = _Replacer(self, stmt, emitted)
        expression = replacer(stmt.expression)
        deps = stmt.depends_on | frozenset(replacer.last_ids)
        within = stmt.within_inames | replacer.extra_inames
        final = replace(stmt, expression=expression, depends_on=deps, within_inames=within)
        if replacer.group_inames:
            final = self._atomic_final(stmt, final, replacer)
        if any(e.id in self.tree_levels for e in emitted):
            self.tree_levels[final.id] = _AFTER_TREES
        return [*emitted, final]

    def _atomic_final(self, stmt: Assignment, final: Assignment, replacer: _Replacer
                      ) -> Assignment:
        """One work item per group combines the group's value into the destination."""
        update = match_update(stmt.expression, stmt.assignee)
        target = self.kernel.arg(stmt.assignee_names()[0])
        if (update is None or not isinstance(update.term, Reduction) or len(replacer.values) != 1
                or update.operation != update.term.operation or not isinstance(target, ArrayArg)):
            raise CodegenError(
                f"statement {stmt.id!r}: a reduction over group inames "
                f"({', '.join(sorted(replacer.group_inames))}) must update a global array "
                "element in place, as in x[i] = x[i] + sum(j, ...): work groups cannot wait "
                "for each other inside a kernel, so each group adds its part atomically "
                "(or map the reduction's inames to local axes only)", stmt.span)
        self._check_destination_private(stmt, target.name, replacer.group_inames)
        expression = combine(update.operation, stmt.assignee, replacer.values[0])
        final = replace(final, expression=expression, atomicity=frozenset({target.name}),
                        within_inames=final.within_inames | replacer.group_inames)
        return self._add_partials(final, target)

    def _add_partials(self, final: Assignment, target: ArrayArg) -> Assignment:
        """Give `final` a buffer of per-group values (`scratch_name`) when every launched group
        runs it exactly once: then the last group to finish combines them
        (`translator.codegen.group_updates`) instead of one contended atomic update per group.
        A group that skipped it would leave the count short and the result unwritten, so this
        needs a proof (`_every_group_runs`); otherwise each group updates atomically (`final`
        is returned as it is).  The finish runs in every work item of the group (it combines
        the values in parallel), so the statement gets the lanes of every local axis and a
        local buffer (`finish_buffer_name`) of one slot per work item and a flag."""
        name = scratch_name(final.id)
        buffer = finish_buffer_name(final.id)
        groups = {n for n in final.within_inames if isinstance(self.hardware.get(n), GroupTag)}
        taken = set(self.kernel.arg_names) | set(self.temporaries)
        if name in taken or buffer in taken or final.within_inames - groups:
            return final
        kernel_axes = {t.axis for t in self.hardware.values() if isinstance(t, GroupTag)}
        if kernel_axes - {self.hardware[n].axis for n in groups}:
            return final
        if not self._every_group_runs(final, groups):
            return final
        count = self._group_bound(groups)
        self.partials.append(ArrayArg(name=name, dtype=target.dtype, shape=(_sum([count, 1]),),
                                      is_input=False, is_output=False, span=final.span))
        size = int(np.prod(self.grid.local_size))
        self.temporaries = self.temporaries.set(buffer, TemporaryVariable(
            name=buffer, dtype=np.dtype(target.dtype), shape=(size + 1,),
            address_space=AddressSpace.LOCAL, span=final.span))
        lanes = frozenset(self._lane(a).name for a in self.local_axes
                          if self.grid.local_size[a] > 1)
        return replace(final, within_inames=final.within_inames | lanes)

    def _group_bound(self, groups: set[str]) -> Expression:
        """The number of launched groups, or a constant bound on it where each group axis runs
        one of `groups` alone and isl bounds its values by a constant (a bounded grid: 1024).
        The buffer's size then does not depend on host loop variables, which the kernel sees
        as parameters but the host sizes the buffer before its loops start."""
        bounds = []
        for n in sorted(groups):
            axis = self.hardware[n]
            alone = all(m == n or t != axis for m, t in self.hardware.items())
            extent = glue.hardware_span(glue.statement_domain(self.kernel.domains, [n]), n)[1]
            if not alone or extent is None:
                return _product([g for g in self.grid.groups if g != 1])
            bounds.append(max(extent, 1))
        return int(np.prod(bounds))

    def _every_group_runs(self, final: Assignment, groups: set[str]) -> bool:
        """Whether every work group of the launched grid runs `final` (whose inames are the
        group inames `groups`, so it runs at most once per group) wherever any group does: no
        predicates, and the grid box ``base <= g <= base + groups - 1`` of each group iname
        lies inside the exact projection of its domain, for every parameter value the kernel
        allows where that projection is not empty (isl).  Where no group runs it, none counts
        and the destination keeps its value, as the empty reduction leaves it."""
        if final.predicates:
            return False
        box: list[Expression] = []
        for hw in self.grid.inames:
            if hw.iname in groups:
                g = p.Variable(hw.iname)
                last = p.Sum((hw.base, self.grid.axis_size(hw.tag), -1))
                box += [p.Comparison(g, ">=", hw.base), p.Comparison(g, "<=", last)]
        return glue.runs_on_whole_box(self.kernel.domains, sorted(groups), box,
                                      self.kernel.assumptions)

    def _check_destination_private(self, stmt: Statement, name: str, groups: set[str]) -> None:
        for other in self.kernel.statements:
            if other.id != stmt.id and other_statement_touches(self.kernel, other, stmt):
                raise CodegenError(
                    f"statement {stmt.id!r} reduces over group inames "
                    f"({', '.join(sorted(groups))}) into {name!r}, which statement "
                    f"{other.id!r} also uses: work groups cannot wait for each other inside a "
                    "kernel (map the reduction to local axes only, or move the other use into "
                    "another region)", stmt.span)

    # -- one reduction ----------------------------------------------------------------------

    def reduction(self, red: Reduction, stmt: Assignment, emitted: list[Statement]
                  ) -> tuple[Expression, str, frozenset[str], frozenset[str]]:
        """Emit the statements computing `red`; return the expression holding its value, the
        id of the last statement, the lane inames that expression needs and the reduction's
        group inames."""
        outer = stmt.within_inames
        local, group = self._classify(red, stmt)
        self.nesting |= {(o, r) for o in sorted(outer - set(self.hardware))
                         for r in red.inames if r not in self.hardware}
        dtype = self.oracle.dtype(red.expr)
        if dtype is None:
            raise CodegenError(f"statement {stmt.id!r}: cannot determine the type of the "
                               f"reduction {red}", stmt.span)
        dtype = np.dtype(dtype)
        acc, update_id = self._accumulate(red, stmt, dtype, emitted)
        if not local:
            return acc, update_id, frozenset(), group
        self._check_uniform_loops(red, stmt)
        value, last, lanes = self._tree(red.operation, dtype, acc, local, stmt, update_id,
                                        emitted)
        return value, last, lanes, group

    def _accumulate(self, red: Reduction, stmt: Assignment, dtype: np.dtype,
                    emitted: list[Statement]) -> tuple[p.Variable, str]:
        """A work item's own terms of `red` in a private accumulator; returns it and the id of
        the statement that completes it.  Where the reduction runs over an unrolled
        accumulator selector of `translator.codegen.bounded_groups`, each of its values adds
        into its own element of a private array (independent chains of loads and adds), and
        the elements are combined in index order at the end."""
        outer = stmt.within_inames
        common = _common(stmt)
        # Like the sequential lowering: the new accumulator waits for nothing inside the
        # reduction's own loops (depending on it would split them).
        stmts = self.kernel.id_to_statement
        init_deps = frozenset(d for d in stmt.depends_on
                              if not (d in stmts and stmts[d].within_inames & set(red.inames)))
        neutral = registry.neutral_element(self.kernel, red.operation, dtype)
        selector = next((n for n in red.inames if n in self.accumulators), None)
        count = 1 if selector is None else self.accumulators[selector]
        acc = self._temporary("_tr_acc", dtype, (), AddressSpace.PRIVATE, stmt)
        parts = acc if selector is None else self._temporary(
            "_tr_accs", dtype, (count,), AddressSpace.PRIVATE, stmt)
        elements = [parts] if selector is None else [p.Subscript(parts, (k,))
                                                       for k in range(count)]
        init_ids = []
        for element in elements:
            init_ids.append(self.names(f"_tr_{stmt.id}_init"))
            emitted.append(Assignment(id=init_ids[-1], assignee=element, expression=neutral,
                                      within_inames=outer, depends_on=init_deps, **common))
        mine = parts if selector is None else p.Subscript(parts, (p.Variable(selector),))
        update_id = self.names(f"_tr_{stmt.id}_update")
        emitted.append(Assignment(id=update_id, assignee=mine,
                                  expression=registry.combine(self.kernel, red.operation, mine,
                                                              red.expr),
                                  within_inames=outer | frozenset(red.inames),
                                  depends_on=stmt.depends_on | set(init_ids), **common))
        if selector is None:
            return acc, update_id
        total: Expression = elements[0]
        for element in elements[1:]:
            total = registry.combine(self.kernel, red.operation, total, element)
        total_id = self.names(f"_tr_{stmt.id}_combine")
        emitted.append(Assignment(id=total_id, assignee=acc, expression=total,
                                  within_inames=outer, depends_on=frozenset({update_id}),
                                  **common))
        return acc, total_id

    def _classify(self, red: Reduction, stmt: Statement) -> tuple[dict[int, str], frozenset[str]]:
        """The reduction's local inames by axis, and its group inames; each axis at most once,
        and not one the statement itself runs on."""
        user = registry.reduction_definition(self.kernel, red.operation)
        if red.operation not in _OPERATIONS and (user is None or not user.parallel):
            raise CodegenError(f"statement {stmt.id!r}: reduction {red.operation!r} cannot run "
                               "across work items (only sum, product, max, min and registered "
                               "reductions that are associative and commutative)", stmt.span)
        if red.allow_simultaneous:
            raise CodegenError(f"statement {stmt.id!r}: simul_reduce over work items is not "
                               "supported", stmt.span)
        own = {self.hardware[n] for n in stmt.within_inames if n in self.hardware}
        local: dict[int, str] = {}
        group: set[str] = set()
        seen: set[HardwareAxisTag] = set()
        for iname in red.inames:
            tag = self.hardware.get(iname)
            if tag is None:
                continue
            if tag in own or tag in seen:
                raise CodegenError(
                    f"statement {stmt.id!r}: reduction iname {iname!r} is on axis {tag}, "
                    "which another iname of the statement or of the reduction also uses",
                    stmt.span)
            seen.add(tag)
            if isinstance(tag, LocalTag):
                local[tag.axis] = iname
            else:
                group.add(iname)
        if group and user is not None:
            raise CodegenError(f"statement {stmt.id!r}: reduction {red.operation!r} over group "
                               f"inames ({', '.join(sorted(group))}) would need an atomic update, "
                               "which registered reductions do not have (map the reduction's "
                               "inames to local axes only)", stmt.span)
        return local, frozenset(group)

    def _check_uniform_loops(self, red: Reduction, stmt: Statement) -> None:
        """The tree's barriers sit inside the statement's sequential loops: every work item of
        a group must run them equally often."""
        outer = stmt.within_inames
        sequential = {n for n in outer if n not in self.hardware}
        local = {n for n in outer | set(red.inames)
                 if isinstance(self.hardware.get(n), LocalTag)}
        if not sequential or not local:
            return
        domain = glue.statement_domain(self.kernel.domains, outer | set(red.inames))
        if not glue.bounds_independent(domain, sequential, local):
            raise CodegenError(
                f"statement {stmt.id!r}: the bounds of loop(s) {', '.join(sorted(sequential))} "
                f"depend on local iname(s) {', '.join(sorted(local))}; a reduction across the "
                "work group needs barriers, which every work item must reach equally often",
                stmt.span)

    # -- the work-group tree ------------------------------------------------------------------

    def _lane(self, axis: int) -> p.Variable:
        """The iname covering the whole work group along local `axis` (made on first use)."""
        name = self.lane_names.get(axis)
        if name is None:
            name = self.names(f"_tr_lane{axis}")
            size = self.grid.local_size[axis]
            self.domains.append(glue.parse_domain(f"{{[{name}]: 0 <= {name} < {size}}}"))
            self.tags[name] = frozenset({LocalTag(axis)})
            self.lane_names[axis] = name
        return p.Variable(name)

    def _flat(self, axes: list[int], keep: list[int] | None = None
              ) -> tuple[Expression, int, frozenset[str]]:
        """The row-major offset of the lanes of `axes` (axis 0 fastest; lanes of axes not in
        `keep` taken as 0), their count, and the lane inames used."""
        terms: list[Expression] = []
        used: set[str] = set()
        stride = 1
        for axis in axes:
            size = self.grid.local_size[axis]
            if size > 1 and (keep is None or axis in keep):
                lane = self._lane(axis)
                used.add(lane.name)
                terms.append(_scaled(stride, lane))
            stride *= size
        return _sum(terms), stride, frozenset(used)

    def _tree(self, operation: str, dtype: np.dtype, acc: p.Variable, local: dict[int, str],
              stmt: Assignment, after: str, emitted: list[Statement]
              ) -> tuple[Expression, str, frozenset[str]]:
        """Store every work item's value in local memory and fold the slots pairwise."""
        rows = [a for a in self.local_axes if a not in local]
        slot, size, slot_lanes = self._flat(sorted(local))
        row, nrows, row_lanes = self._flat(rows)
        red = self._temporary("_tr_red", dtype, (size * nrows,), AddressSpace.LOCAL, stmt)
        within = stmt.within_inames | slot_lanes | row_lanes
        common = _common(stmt)
        here = _sum([_scaled(size, row), slot])
        last = self.names(f"_tr_{stmt.id}_store")
        emitted.append(Assignment(id=last, assignee=p.Subscript(red, (here,)), expression=acc,
                                  within_inames=within, depends_on=frozenset({after}), **common))
        self.tree_levels[last] = 0
        step = 1 << max(0, (size - 1).bit_length() - 1)
        while size > 1 and step >= 1:
            mine = p.Subscript(red, (here,))
            other = p.Subscript(red, (_sum([here, step]),))
            live = p.Comparison(slot, "<", min(step, size - step))
            sid = self.names(f"_tr_{stmt.id}_tree")
            emitted.append(Assignment(
                id=sid, assignee=mine,
                expression=registry.combine(self.kernel, operation, mine, other),
                within_inames=within, depends_on=frozenset({last}),
                **{**common, "predicates": common["predicates"] | {live}}))
            self.tree_levels[sid] = self.tree_levels[last] + 1
            last = sid
            step //= 2
        # The final statement reads its own row: the lanes of the local axes it runs on; on
        # the others every row holds the same value, and it reads row 0.
        own = [a for a in rows if any(self.hardware.get(n) == LocalTag(a)
                                      for n in stmt.within_inames)]
        row_read, _, read_lanes = self._flat(rows, own)
        return p.Subscript(red, (_scaled(size, row_read),)), last, read_lanes

    def _temporary(self, base: str, dtype: np.dtype, shape: tuple, space: AddressSpace,
                   stmt: Statement) -> p.Variable:
        name = self.names(base)
        self.temporaries = self.temporaries.set(name, TemporaryVariable(
            name=name, dtype=dtype, shape=shape, address_space=space, span=stmt.span))
        return p.Variable(name)


class _Replacer(IRIdentityMapper):
    """Replaces each top-level parallel reduction of a statement by the expression holding
    its value (emitting the statements that compute it)."""

    def __init__(self, lowering: _Lowering, stmt: Assignment, emitted: list[Statement]) -> None:
        self.lowering = lowering
        self.stmt = stmt
        self.emitted = emitted
        self.last_ids: list[str] = []
        self.values: list[Expression] = []
        self.extra_inames: frozenset[str] = frozenset()
        self.group_inames: set[str] = set()

    def map_reduction(self, expr: Reduction, *args, **kwargs):
        hardware = set(self.lowering.hardware)
        if not set(expr.inames) & hardware:
            if self.lowering.finder(expr.expr):
                raise CodegenError(f"statement {self.stmt.id!r}: a reduction over work items "
                                   "inside a sequential reduction is not supported",
                                   self.stmt.span)
            return expr
        if self.lowering.finder(expr.expr):
            raise CodegenError(f"statement {self.stmt.id!r}: nested reductions over work "
                               "items are not supported", self.stmt.span)
        value, last, lanes, group = self.lowering.reduction(expr, self.stmt, self.emitted)
        self.last_ids.append(last)
        self.values.append(value)
        self.extra_inames |= lanes
        self.group_inames |= group
        return value


def _common(stmt: Statement) -> dict:
    return dict(predicates=stmt.predicates, span=stmt.span, priority=stmt.priority,
                groups=stmt.groups, conflicts_with_groups=stmt.conflicts_with_groups)


def _sum(terms: list[Expression]) -> Expression:
    terms = [t for t in terms if t != 0]
    if not terms:
        return 0
    return terms[0] if len(terms) == 1 else p.Sum(tuple(terms))


def _product(factors: list[Expression]) -> Expression:
    if not factors:
        return 1
    return factors[0] if len(factors) == 1 else p.Product(tuple(factors))


def _scaled(factor: int, expr: Expression) -> Expression:
    if expr == 0 or factor == 1:
        return expr
    return p.Product((factor, expr))


def atomic_preamble(helpers: set[tuple[str, str]]) -> str:
    """The extension pragma and the definitions of the helpers used: atomic updates, group
    finishes (`group_updates`) and arg-reduction finishes (`arg_reductions`)."""
    if not helpers:
        return ""
    out = []
    if any(np.dtype(dt).itemsize == 8 for op, dt in helpers if not is_arg_helper_key(op)):
        out.append(INT64_ATOMICS)
    for op, dt in sorted(helpers):
        out.append(arg_finish_helper(op, dt) if is_arg_helper_key(op)
                   else helper_definition(op, dt))
    return "".join(out)


__all__ = ["SCRATCH_PREFIX", "atomic_preamble", "atomic_update_text", "lower_parallel_reductions",
           "scratch_name"]   # the update texts live in translator.codegen.group_updates
