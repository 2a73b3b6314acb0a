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

Across groups there is no barrier: one work item per group combines the group's value into the
destination with an atomic update (``atomic_add``/``atomic_max``/``atomic_min`` on 32-bit
integers, ``atom_add`` on 64-bit ones, otherwise a compare-and-swap loop on the value's bits,
``cl_khr_int64_base_atomics`` for 8-byte types).  The destination's initial value is on the
device already (the host copies arrays in), so the statement must have the form
``x[idx] = x[idx] OP reduce(OP, ...)``, and nothing else in the kernel may touch x.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pymbolic.primitives as p

from translator.analysis.reductions import combine, match_update, other_statement_touches
from translator.codegen import registry
from translator.codegen.bounded_groups import bound_reduction_groups
from translator.codegen.cexpr import c_type_name
from translator.codegen.grid import Grid, compute_grid
from translator.codegen.schedule import resolve_hardware_axes
from translator.diagnostics import CodegenError
from translator.ir import isl_glue as glue
from translator.ir.data import AddressSpace, ArrayArg, TemporaryVariable
from translator.ir.expr import Expression, IRCombineMapper, IRIdentityMapper, Reduction
from translator.ir.kernel import Kernel
from translator.ir.statements import Assignment, Statement
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
    kernel = bound_reduction_groups(kernel)
    finder = _ParallelFinder(_hardware_inames(kernel))
    hardware = resolve_hardware_axes(kernel)
    kernel = _resolved_auto_tags(kernel, hardware)
    lowering = _Lowering(kernel, hardware, compute_grid(kernel, hardware), finder)
    statements: list[Statement] = []
    for stmt in kernel.statements:
        statements.extend(lowering.statement(stmt))
    return lowering.kernel_with(tuple(statements))


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

    def kernel_with(self, statements: tuple[Statement, ...]) -> Kernel:
        return self.kernel.copy(statements=statements, temporaries=self.temporaries,
                                args=self.kernel.args + tuple(self.partials),
                                domains=tuple(self.domains), iname_tags=FrozenDict(self.tags),
                                loop_priority=self.kernel.loop_priority | self.nesting)

    # -- statements -----------------------------------------------------------------------

    def statement(self, stmt: Statement) -> list[Statement]:
        if not any(self.finder(e) for e in stmt.read_expressions()):
            return [stmt]
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
        self._add_partials(final, target)
        return final

    def _add_partials(self, final: Assignment, target: ArrayArg) -> None:
        """Give `final` a buffer of per-group values (`scratch_name`) when every launched group
        runs it exactly once: then the last group to finish combines them
        (`atomic_update_text`) instead of one contended atomic update per group.  A group
        that skipped it would leave the count short and the result unwritten, so this needs a
        proof (`_every_group_runs`); otherwise each group updates atomically."""
        name = scratch_name(final.id)
        groups = {n for n in final.within_inames if isinstance(self.hardware.get(n), GroupTag)}
        if name in self.kernel.arg_names or name in self.temporaries or final.within_inames - groups:
            return
        kernel_axes = {t.axis for t in self.hardware.values() if isinstance(t, GroupTag)}
        if kernel_axes - {self.hardware[n].axis for n in groups}:
            return
        if not self._every_group_runs(final, groups):
            return
        count = _product([g for g in self.grid.groups if g != 1])
        self.partials.append(ArrayArg(name=name, dtype=target.dtype, shape=(_sum([count, 1]),),
                                      is_input=False, is_output=False, span=final.span))

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
        acc = self._temporary("_tr_acc", dtype, (), AddressSpace.PRIVATE, stmt)
        init_id = self.names(f"_tr_{stmt.id}_init")
        update_id = self.names(f"_tr_{stmt.id}_update")
        common = _common(stmt)
        # Like the sequential lowering: the new accumulator waits for nothing inside the
        # reduction's own loops (depending on it would split them).
        stmts = self.kernel.id_to_statement
        init_deps = frozenset(d for d in stmt.depends_on
                              if not (d in stmts and stmts[d].within_inames & set(red.inames)))
        emitted.append(Assignment(id=init_id, assignee=acc,
                                  expression=registry.neutral_element(self.kernel, red.operation,
                                                                     dtype),
                                  within_inames=outer, depends_on=init_deps, **common))
        emitted.append(Assignment(id=update_id, assignee=acc,
                                  expression=registry.combine(self.kernel, red.operation, acc,
                                                              red.expr),
                                  within_inames=outer | frozenset(red.inames),
                                  depends_on=stmt.depends_on | {init_id}, **common))
        if not local:
            return acc, update_id, frozenset(), group
        self._check_uniform_loops(red, stmt)
        value, last, lanes = self._tree(red.operation, dtype, acc, local, stmt, update_id,
                                        emitted)
        return value, last, lanes, group

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


# ---------------------------------------------------------------------------------------------
# atomic updates (emitted by `translator.codegen.emit` for statements with `atomicity`)

_INT32_BUILTINS = {"sum": "atomic_add", "max": "atomic_max", "min": "atomic_min"}


#: Prefix of the per-group value buffers of group reductions (kernel arguments that exist on
#: the device only, zero-filled before each launch: `translator.codegen.opencl.kernel_params`
#: makes them parameters of kind "scratch").
SCRATCH_PREFIX = "_tr_part_"


def scratch_name(statement_id: str) -> str:
    """The per-group value buffer of the group reduction finished by `statement_id`."""
    return SCRATCH_PREFIX + statement_id


def atomic_update_text(stmt: Assignment, assignee: Expression, printer, dtype: np.dtype,
                       helpers: set[tuple[str, str]], arg_names=()) -> str:
    """``_tr_atomic_<op>_<type>(&x[i], value);`` for ``x[i] = x[i] OP value`` marked atomic,
    or ``_tr_finish_<op>_<type>(&x[i], value, partials);`` where the statement has a buffer
    of per-group values among `arg_names`; records the helper it needs in `helpers`."""
    if not isinstance(stmt, Assignment):
        raise CodegenError(f"statement {stmt.id!r}: atomic calls are not supported", stmt.span)
    name = stmt.assignee_names()[0]
    update = match_update(stmt.expression, stmt.assignee)
    if name not in stmt.atomicity or update is None or update.operation not in _OPERATIONS:
        raise CodegenError(f"statement {stmt.id!r}: an atomic update must have the form "
                           "x[i] = x[i] + e (or *, max, min)", stmt.span)
    dt = np.dtype(dtype)
    if dt.kind not in "iuf" or dt.itemsize not in (4, 8):
        raise CodegenError(f"statement {stmt.id!r}: atomic updates of {dt.name} data are not "
                           "supported (32- and 64-bit integers and floats are)", stmt.span)
    value = printer(update.term, ctx=dt)
    partials = scratch_name(stmt.id)
    if partials in arg_names:
        helpers.add(("finish:" + update.operation, dt.name))
        return (f"_tr_finish_{update.operation}_{dt.name}(&{printer(assignee)}, {value}, "
                f"{partials});")
    helpers.add((update.operation, dt.name))
    return f"_tr_atomic_{update.operation}_{dt.name}(&{printer(assignee)}, {value});"


def atomic_preamble(helpers: set[tuple[str, str]]) -> str:
    """The extension pragma and helper definitions for the atomic updates used."""
    if not helpers:
        return ""
    out = []
    if any(np.dtype(dt).itemsize == 8 for _, dt in helpers):
        out.append("#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n\n")
    for op, dt in sorted(helpers):
        finish = op.startswith("finish:")
        out.append(_finish_helper(op[7:], dt) if finish else _atomic_helper(op, dt))
    return "".join(out)


#: Per-group values the last group loads at once (independent loads in flight).
_FINISH_BATCH = 32


def _combined(operation: str, dt: np.dtype, a: str, b: str) -> str:
    fn = {"max": "fmax", "min": "fmin"} if dt.kind == "f" else {"max": "max", "min": "min"}
    return {"sum": f"{a} + {b}", "product": f"{a} * {b}"}.get(operation,
                                                                 f"{fn.get(operation)}({a}, {b})")


def _finish_helper(operation: str, dtype_name: str) -> str:
    """Each group stores its value in ``part[g]``; the last group to arrive (counted by an
    atomic increment of the element after the groups' values) combines ``part[0..ng-1]`` in
    group order, so the result does not depend on timing, then resets the counter."""
    dt = np.dtype(dtype_name)
    t = c_type_name(dt)
    b = _FINISH_BATCH
    return (
        f"static inline void _tr_finish_{operation}_{dtype_name}"
        f"(__global {t} *p, {t} v, volatile __global {t} *part)\n{{\n"
        "  /* the last work group to finish combines every group's value, in group order */\n"
        "  const uint ng = get_num_groups(0) * get_num_groups(1) * get_num_groups(2);\n"
        "  const uint g = get_group_id(0) + get_num_groups(0) * (get_group_id(1)\n"
        "                 + get_num_groups(1) * get_group_id(2));\n"
        "  volatile __global uint *count = (volatile __global uint *) (part + ng);\n"
        "  part[g] = v;\n"
        "  mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
        "  if (atomic_inc(count) != ng - 1)\n    return;\n"
        "  mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
        f"  {t} acc = *p;\n"
        f"  for (uint k = 0; k < ng; k += {b}) {{\n"
        f"    {t} x[{b}];\n"
        f"    for (uint j = 0; j < {b}; ++j)\n"
        "      if (k + j < ng)\n        x[j] = part[k + j];\n"
        f"    for (uint j = 0; j < {b}; ++j)\n"
        f"      if (k + j < ng)\n        acc = {_combined(operation, dt, 'acc', 'x[j]')};\n"
        "  }\n"
        "  *p = acc;\n"
        "  *count = 0;\n"
        "}\n\n")


def _atomic_helper(operation: str, dtype_name: str) -> str:
    dt = np.dtype(dtype_name)
    t = c_type_name(dt)
    head = (f"static inline void _tr_atomic_{operation}_{dtype_name}"
            f"(volatile __global {t} *p, {t} v)\n{{\n")
    if dt.kind in "iu" and dt.itemsize == 4 and operation in _INT32_BUILTINS:
        return head + f"  {_INT32_BUILTINS[operation]}(p, v);\n}}\n\n"
    if dt.kind in "iu" and operation == "sum":
        return head + "  atom_add(p, v);\n}\n\n"
    bits = "uint" if dt.itemsize == 4 else "ulong"
    cas = "atomic_cmpxchg" if dt.itemsize == 4 else "atom_cmpxchg"
    fn = {"max": "fmax", "min": "fmin"} if dt.kind == "f" else {"max": "max", "min": "min"}
    new = {"sum": "old.v + v", "product": "old.v * v"}.get(operation,
                                                            f"{fn.get(operation)}(old.v, v)")
    body = (f"  /* compare-and-swap on the bits: retry until no other work item intervened */\n"
            f"  union {{ {bits} u; {t} v; }} old, new_;\n"
            "  old.v = *p;\n"
            "  for (;;) {\n"
            f"    new_.v = {new};\n"
            f"    {bits} seen = {cas}((volatile __global {bits} *) p, old.u, new_.u);\n"
            "    if (seen == old.u)\n      break;\n"
            "    old.u = seen;\n"
            "  }\n")
    return head + body + "}\n\n"


__all__ = ["SCRATCH_PREFIX", "atomic_preamble", "atomic_update_text", "lower_parallel_reductions",
           "scratch_name"]
