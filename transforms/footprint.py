"""Footprints and storage: what precompute, add_prefetch and buffer_array share.

- the *footprint*: the arguments (array indices) that the uses touch while the sweep inames
  run over their domain and the *outer* inames stay fixed; it comes from isl and must be
  convex unless a bounding box is allowed;
- the *storage*: one axis per argument whose footprint is wider than one value, each with a
  base (an affine expression in the outer inames and parameters) and a constant extent;
- a storage statement (fetch, compute, init, store) runs over new inames ranging over the box
  ``0 <= iname < extent``, predicated on the exact footprint, inside the outer inames.  A box
  domain has no parameters, so it needs no place in the domain forest (whose loops over the
  outer inames may well sit in unrelated trees, as the frontends make them);
- tags: ``l.auto`` maps the new inames onto the kernel's local axes, fastest-varying storage
  axis first, splitting an iname that is longer than its axis (code generation's ``l.auto``
  does not split);
- the address space, unless given, is local when a new iname is local-parallel, else private.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import pymbolic.primitives as p

from translator.diagnostics import DomainError, KernelLanguageError, TransformError
from translator.ir import isl_glue
from translator.ir.data import (AddressSpace, FixedStrideTag, NestingTag, TemporaryVariable,
                               parse_dim_tags)
from translator.ir.expr import Expression, dependencies, readable_condition, substitute
from translator.ir.kernel import Kernel
from translator.ir.statements import Statement
from translator.ir.tags import LocalAutoTag, LocalTag, is_hardware_parallel
from translator.ir.util import UniqueNameGenerator

from transforms.common import kernel_names
from transforms.inames import resolve_tag, set_tag
from transforms.split import split_iname
from translator.records import dataclass

#: Work items a work group may get when ``l.auto`` has to create the local axes itself.
MAX_AUTO_GROUP_SIZE = 256


# ---------------------------------------------------------------------------------------------
# uses and the storage plan

@dataclass(frozen=True, slots=True)
class Use:
    """One use to cover: its statement, its arguments (indices), the inames around it (the
    statement's and those of enclosing reductions) and the statement's predicates."""

    statement: str
    args: tuple[Expression, ...]
    inames: frozenset[str]
    conditions: frozenset[Expression] = frozenset()


@dataclass(frozen=True, slots=True)
class StorageAxis:
    """Argument `position` is stored along this axis at ``argument - base``."""

    position: int
    base: Expression
    extent: int
    iname: str | None          # None: extent one, no axis in the temporary


@dataclass(frozen=True, slots=True)
class StoragePlan:
    axes: tuple[StorageAxis, ...]            # in argument order
    order: tuple[int, ...]                   # storage order: positions, outermost axis first
    outer: frozenset[str]
    predicates: tuple[Expression, ...]

    @property
    def stored(self) -> tuple[StorageAxis, ...]:
        """The axes of the temporary, in storage order."""
        return tuple(self.axes[k] for k in self.order if self.axes[k].iname is not None)

    @property
    def new_inames(self) -> tuple[str, ...]:
        return tuple(ax.iname for ax in self.stored)

    def index(self, args: Sequence[Expression]) -> tuple[Expression, ...]:
        """The temporary's subscript for a use with arguments `args`."""
        return tuple(args[ax.position] if ax.base == 0 else
                     isl_glue.simplify_index(p.Sum((args[ax.position], p.Product((-1, ax.base)))))
                     for ax in self.stored)

    def point(self) -> tuple[Expression, ...]:
        """The arguments that the storage statement's instance ``(inames)`` stands for."""
        return tuple(ax.base if ax.iname is None else
                     isl_glue.simplify_index(p.Sum((p.Variable(ax.iname), ax.base)))
                     for ax in self.axes)


def guess_outer_inames(kernel: Kernel, uses: Sequence[Use], sweep: Iterable[str],
                       reads: Iterable[str], ignore_writers: Iterable[str] = ()
                       ) -> frozenset[str]:
    """The inames the storage statement runs inside: those the arguments depend on, those
    among the names its stored expression `reads`, and each sequential iname around every
    use inside which a statement (not in `ignore_writers`) writes one of `reads` (the values
    change from one iteration to the next); never a swept one."""
    ignore = set(ignore_writers)
    inames = kernel.all_inames
    reads = frozenset(reads)
    found = set(reads & inames)
    for use in uses:
        for a in use.args:
            found |= dependencies(a) & inames
    common = frozenset.intersection(*(u.inames for u in uses)) if uses else frozenset()
    for iname in sorted(common - found):
        if any(is_hardware_parallel(t) for t in kernel.tags_of(iname)):
            continue
        if any(iname in s.within_inames and reads & set(s.assignee_names())
               for s in kernel.statements if s.id not in ignore):
            found.add(iname)
    return frozenset(found - set(sweep))


def plan_storage(kernel: Kernel, what: str, var: str, uses: Sequence[Use],
                 sweep: Iterable[str], outer: frozenset[str], iname_bases: Sequence[str], *,
                 generators: Sequence[tuple[Any, Sequence[Expression]]] | None = None,
                 bounding_box: bool = False, shape: Sequence[Expression] | None = None,
                 order: Sequence[int] | None = None) -> StoragePlan:
    """Footprint, bases, extents and predicates for storing `var` (see module docstring).

    `generators` (instance set, arguments) replace the uses as the source of the footprint;
    the uses must then lie inside it.  `shape` clips the footprint to an array's bounds.
    """
    nargs = len(iname_bases)
    _check_uses(kernel, what, var, uses, sweep, outer, nargs, generators is None)
    names = [f"_tr_fp{k}" for k in range(nargs)]
    box = _footprint(kernel, what, var, uses, outer, names, generators, bounding_box)
    if shape is not None and all(e is not None for e in shape):
        box = glue_call(what, var, lambda: isl_glue.clip_to_shape(box, shape))
    order = tuple(range(nargs)) if order is None else tuple(order)
    gen = UniqueNameGenerator(kernel_names(kernel))
    axes = []
    for k in range(nargs):
        found = isl_glue.storage_axis(box, k)
        if found is None:
            raise TransformError(
                f"{what}: the footprint of {var!r} along axis {k} has no constant size (it "
                f"grows with the parameters); sweep fewer inames, or split them first")
        base, extent = found
        axes.append(StorageAxis(k, base, extent, None))
    for k in order:
        if axes[k].extent == 1:
            continue
        base = iname_bases[k]
        if base in kernel.all_inames:
            _check_reused_iname(kernel, what, var, base, axes[k].extent, outer | set(sweep))
            axes[k] = replace(axes[k], iname=base)
        else:
            axes[k] = replace(axes[k], iname=gen(base))
    _check_bases(kernel, what, var, uses, axes)
    plan = StoragePlan(tuple(axes), order, outer, ())
    return replace(plan, predicates=_predicates(kernel, what, var, box, plan))


def _check_reused_iname(kernel: Kernel, what: str, var: str, iname: str, extent: int,
                        busy: set[str]) -> None:
    """An existing iname named for a storage axis must run over exactly ``0 <= iname <
    extent``, independently of other inames, and not be one the footprint is taken in."""
    if iname in busy:
        raise TransformError(f"{what}: {iname!r} cannot index the storage of {var!r}: the "
                             "footprint is taken inside that loop (swept or outer)")
    domain = next(d for d in kernel.domains if iname in isl_glue.inames_of(d))
    lower = isl_glue.static_lower_bound(domain, iname)
    length = None if lower != 0 else isl_glue.static_length(domain, iname, 0)
    if length != extent:
        raise TransformError(f"{what}: existing iname {iname!r} cannot index the storage of "
                             f"{var!r}: it must run over 0 <= {iname} < {extent} "
                             f"(the footprint's extent)")


def _check_uses(kernel: Kernel, what: str, var: str, uses: Sequence[Use], sweep: Iterable[str],
                outer: frozenset[str], nargs: int, strict: bool) -> None:
    """Right arity; unless the footprint comes from elsewhere (`strict` False), every iname
    an argument depends on is swept or outer."""
    if not uses:
        raise TransformError(f"{what}: no use of {var!r} matches (check the name and "
                             "within=)")
    for use in uses:
        if len(use.args) != nargs:
            raise TransformError(f"{what}: statement {use.statement!r} uses {var!r} with "
                                 f"{len(use.args)} argument(s), expected {nargs}")
        if not strict:
            continue
        loose = sorted((set().union(*(dependencies(a) for a in use.args)) & kernel.all_inames)
                       - set(sweep) - outer)
        if loose:
            raise TransformError(f"{what}: the footprint of {var!r} in statement "
                                 f"{use.statement!r} depends on iname(s) {', '.join(loose)}, "
                                 "which are neither swept nor outer inames")


def _check_bases(kernel: Kernel, what: str, var: str, uses: Sequence[Use],
                 axes: Sequence[StorageAxis]) -> None:
    """Each use must see the inames that the bases are written in (to index the storage)."""
    needed = set().union(*(dependencies(ax.base) for ax in axes)) & kernel.all_inames
    for use in uses:
        missing = sorted(needed - use.inames)
        if missing:
            raise TransformError(f"{what}: statement {use.statement!r} uses {var!r} outside "
                                 f"the loop(s) over {', '.join(missing)}, which the stored "
                                 "part depends on")


def _footprint(kernel: Kernel, what: str, var: str, uses: Sequence[Use], outer: frozenset[str],
               names: list[str], generators, bounding_box: bool):
    """The footprint as one convex set (the bounding box if asked), or a TransformError."""
    def of(items):
        return isl_glue.data_footprint(items, outer, names, kernel.assumptions)

    actual = glue_call(what, var, lambda: of([(_use_domain(kernel, u), u.args) for u in uses]))
    footprint = actual
    if generators is not None:
        footprint = glue_call(what, var, lambda: of(generators))
        if not isl_glue.footprint_within(actual, footprint):
            raise TransformError(f"{what}: some uses of {var!r} lie outside the footprint "
                                 "given for it (they would read elements never fetched)")
    if bounding_box:
        return glue_call(what, var, lambda: isl_glue.footprint_bounding_box(footprint))
    convex = isl_glue.convex_footprint(footprint)
    if convex is None:
        raise TransformError(
            f"{what}: the footprint of {var!r} is not convex (its accesses leave holes in "
            "the rectangle around them, like a stencil's corners); pass "
            "fetch_bounding_box=True to fetch the bounding box instead")
    return convex


def _use_domain(kernel: Kernel, use: Use):
    return isl_glue.use_domain(kernel.domains, use.inames, use.conditions)


def glue_call(what: str, var: str, fn: Callable[[], Any]) -> Any:
    """`fn()`, with isl-side errors reported as a `TransformError` of transform `what`."""
    try:
        return fn()
    except (DomainError, KernelLanguageError) as e:
        raise TransformError(f"{what}: cannot compute the footprint of {var!r}: "
                             f"{e.message}") from None


def _predicates(kernel: Kernel, what: str, var: str, box, plan: StoragePlan
                ) -> tuple[Expression, ...]:
    axes = tuple((ax.position, ax.iname, ax.base) for ax in plan.stored)
    domain = glue_call(what, var, lambda: isl_glue.fetch_domain(box, axes))
    outer = (isl_glue.statement_domain(kernel.domains, plan.outer)
             if plan.outer else None)
    extents = {ax.iname: ax.extent for ax in plan.stored}
    found = isl_glue.fetch_predicates(domain, extents, outer, kernel.assumptions)
    if found is None:
        raise TransformError(f"{what}: the footprint of {var!r} is empty")
    return tuple(readable_condition(c) for c in found)


# ---------------------------------------------------------------------------------------------
# adding the storage: domain, temporary, statement, tags, address space

def add_storage(kernel: Kernel, what: str, temporary: str,
                parts: Sequence[tuple[StoragePlan, Sequence[Statement]]], *, dtype: Any,
                address_space: Any, tags: Mapping[int, Any], default_tag: Any,
                dim_tags: Any = None) -> Kernel:
    """Add the temporary and, for each (plan, statements) part, the box domain of the plan's
    new inames and the statements that iterate over them; tag the new inames (`tags` maps an
    argument position to a tag spec, `default_tag` the others) and settle the address space.
    The parts share the temporary, so their plans must have the same storage axes."""
    space = _address_space_arg(what, address_space)
    first = parts[0][0]
    temp = TemporaryVariable(name=temporary, dtype=dtype,
                             shape=tuple(ax.extent for ax in first.stored), dim_tags=dim_tags,
                             address_space=space, span=parts[0][1][0].span)
    kernel = replace(kernel, temporaries=kernel.temporaries.set(temporary, temp))
    ids: list[str] = []
    for plan, statements in parts:
        kernel = _add_box_domain(kernel, plan)
        kernel = replace(kernel, statements=kernel.statements + tuple(statements))
        kernel = _tag_new_inames(kernel, what, plan, tags, default_tag,
                                 _fastest_first(temp, plan))
        ids += [s.id for s in statements]
    return _settle_address_space(kernel, what, first, temporary, space, ids)


def _add_box_domain(kernel: Kernel, plan: StoragePlan) -> Kernel:
    """A box domain for the plan's inames that are new (reused inames have theirs)."""
    fresh = [ax for ax in plan.stored if ax.iname not in kernel.all_inames]
    if not fresh:
        return kernel
    conds = " and ".join(f"0 <= {ax.iname} < {ax.extent}" for ax in fresh)
    box = isl_glue.parse_domain(f"{{[{', '.join(ax.iname for ax in fresh)}]: {conds}}}")
    return replace(kernel, domains=kernel.domains + (box,))


def _address_space_arg(what: str, value: Any) -> AddressSpace | None:
    if value is None:
        return None
    try:
        return AddressSpace.parse(value)
    except (KernelLanguageError, AttributeError):
        raise TransformError(f"{what}: temporary_address_space must be 'private', 'local' or "
                             f"'global', got {value!r}") from None


def _fastest_first(temp: TemporaryVariable, plan: StoragePlan) -> list[str]:
    levels = [t.level if isinstance(t, NestingTag) else 0 for t in temp.dim_tags or ()]
    pairs = sorted(zip(levels, range(len(levels)), plan.new_inames))
    return [iname for _, _, iname in pairs]


def _tag_new_inames(kernel: Kernel, what: str, plan: StoragePlan, tags: Mapping[int, Any],
                    default_tag: Any, fastest_first: Sequence[str]) -> Kernel:
    auto: list[str] = []
    reused = [ax.iname for ax in plan.stored if kernel.tag_of(ax.iname, LocalTag) is not None]
    for ax in plan.stored:
        spec = tags.get(ax.position, default_tag)
        tag = resolve_tag(kernel, spec, what, f"tag of {ax.iname!r}")
        if isinstance(tag, LocalAutoTag):
            if ax.iname not in reused:   # an existing iname keeps its local axis
                auto.append(ax.iname)
        else:
            kernel = set_tag(kernel, ax.iname, tag, transform_name=what)
    if auto:
        busy = {t.axis for i in [*plan.outer, *reused] for t in kernel.tags_of(i)
                if isinstance(t, LocalTag)}
        kernel = assign_local_axes(kernel, [i for i in fastest_first if i in auto], busy)
    return kernel


def local_axis_sizes(kernel: Kernel, exclude: Iterable[str] = ()) -> dict[int, int]:
    """Work-group size along each local axis the kernel's ``l.N`` inames use."""
    exclude = set(exclude)
    sizes: dict[int, int] = {}
    for iname in sorted(kernel.iname_tags):
        tag = kernel.tag_of(iname, LocalTag)
        if tag is None or iname in exclude:
            continue
        extent = isl_glue.constant_iname_extent(kernel.domains, iname) or 1
        sizes[tag.axis] = max(sizes.get(tag.axis, 1), extent)
    return sizes


def assign_local_axes(kernel: Kernel, inames: Sequence[str], busy: set[int]) -> Kernel:
    """Resolve ``l.auto`` for `inames` (fastest-varying first): each takes the next local
    axis of the kernel that is not `busy`, split by the axis' size when it is longer; when
    the kernel has no local axes yet, new ones are made (at most `MAX_AUTO_GROUP_SIZE` work
    items); inames left without an axis stay sequential loops."""
    sizes = local_axis_sizes(kernel, inames)
    free = [a for a in sorted(sizes) if a not in busy]
    create = not sizes
    group = 1
    for iname in inames:
        extent = isl_glue.constant_iname_extent(kernel.domains, iname) or 1
        if free:
            axis = free.pop(0)
            size = sizes[axis]
        elif create:
            axis = next((a for a in range(3) if a not in busy), None)
            size = min(extent, MAX_AUTO_GROUP_SIZE // group)
            if axis is None or size < 2:
                continue
            group *= size
        else:
            continue
        busy.add(axis)
        if extent <= size:
            kernel = set_tag(kernel, iname, LocalTag(axis), transform_name="l.auto")
        else:
            kernel = split_iname(kernel, iname, size, inner_tag=f"l.{axis}")
    return kernel


def _settle_address_space(kernel: Kernel, what: str, plan: StoragePlan, temporary: str,
                          space: AddressSpace | None, ids: Sequence[str]) -> Kernel:
    stmts = kernel.id_to_statement
    new = set().union(*(stmts[i].within_inames for i in ids)) - plan.outer
    local_new = sorted(i for i in new if kernel.tag_of(i, LocalTag) is not None)
    if space is None:
        space = AddressSpace.LOCAL if local_new else AddressSpace.PRIVATE
    if space == AddressSpace.PRIVATE and local_new:
        raise TransformError(f"{what}: temporary {temporary!r} is private, but the inames "
                             f"that fill it ({', '.join(local_new)}) are local-parallel: each "
                             "work item would fill only part of its copy (use local memory, "
                             "or default_tag=None)")
    if space == AddressSpace.LOCAL:
        shared = sorted(i for i in plan.outer if kernel.tag_of(i, LocalTag) is not None
                        or kernel.tag_of(i, LocalAutoTag) is not None)
        if shared:
            raise TransformError(
                f"{what}: temporary {temporary!r} would be in local memory, shared by the work "
                f"items of a group, but it is filled inside local iname(s) "
                f"{', '.join(shared)}, which its storage does not index: the work items would "
                "overwrite each other's values (sweep those inames too, or pass "
                "default_tag=None for a private copy per work item)")
    temps = kernel.temporaries
    temp = replace(temps[temporary], address_space=space)
    return replace(kernel, temporaries=temps.set(temporary, temp))


# ---------------------------------------------------------------------------------------------
# dependencies

def writer_dependencies(kernel: Kernel, ids: Iterable[str], names: Iterable[str]
                        ) -> frozenset[str]:
    """Statements that the statements `ids` depend on (transitively) and that write one of
    `names`: what a statement reading `names` in their place must wait for."""
    stmts = kernel.id_to_statement
    names = set(names)
    seen: set[str] = set()
    todo = [d for i in ids for d in stmts[i].depends_on]
    while todo:
        d = todo.pop()
        if d in seen or d not in stmts:
            continue
        seen.add(d)
        todo.extend(stmts[d].depends_on)
    return frozenset(d for d in seen if names & set(stmts[d].assignee_names()))


def add_dependency(kernel: Kernel, ids: Iterable[str], on: str) -> Kernel:
    """Statements `ids` also depend on statement `on`."""
    ids = set(ids)
    return replace(kernel, statements=tuple(
        replace(s, depends_on=s.depends_on | {on}) if s.id in ids else s
        for s in kernel.statements))


def unique_statement_id(kernel: Kernel, requested: str | None, base: str, what: str) -> str:
    """`requested` (which must be free) or a fresh statement id based on `base`."""
    taken = {s.id for s in kernel.statements}
    if requested is not None:
        if not isinstance(requested, str) or not requested:
            raise TransformError(f"{what}: a statement id must be a non-empty string, got "
                                 f"{requested!r}")
        if requested in taken:
            raise TransformError(f"{what}: statement id {requested!r} is already used")
        return requested
    return UniqueNameGenerator(taken)(base)


# ---------------------------------------------------------------------------------------------
# layout, names, references


def array_levels(var: Any) -> tuple[int, ...] | None:
    """Each axis' nesting level in memory (0: fastest) of an array with nesting dim tags."""
    tags = var.dim_tags or ()
    if len(tags) != len(var.shape) or not all(isinstance(t, NestingTag) for t in tags):
        return None
    return tuple(t.level for t in tags)


def storage_dim_tags(plan: StoragePlan, levels: Sequence[int] | None) -> Any:
    """Dim tags laying the temporary out like an array with nesting `levels` (C order if
    None): its stored axes keep their relative order in memory."""
    if levels is None or not plan.stored:
        return None
    mine = [levels[ax.position] for ax in plan.stored]
    ranks = {lv: r for r, lv in enumerate(sorted(mine))}
    return parse_dim_tags(",".join(f"N{ranks[lv]}" for lv in mine), len(mine))


def strided_dim_tags(plan: StoragePlan, memory: Sequence[int] | None,
                     levels: Sequence[int] | None, padding: int) -> tuple[FixedStrideTag, ...]:
    """Fixed strides laying the stored axes out in `memory` order (argument positions,
    outermost first; None: as `levels`, or C order), each row of the innermost axis followed
    by `padding` unused elements (a 64 x 16 tile stored transposed with 2 of padding: strides
    1 and 66)."""
    stored = {ax.position: ax.extent for ax in plan.stored}
    if memory is None:
        memory = sorted(stored, key=lambda k: (-levels[k], k)) if levels else list(stored)
    out: dict[int, int] = {}
    running = 1
    for n, position in enumerate(k for k in reversed(memory) if k in stored):
        out[position] = running
        running *= stored[position] + (padding if n == 0 else 0)
    return tuple(FixedStrideTag(stride=out[ax.position]) for ax in plan.stored)


def rename_plan(plan: StoragePlan, gen: UniqueNameGenerator, base: str) -> StoragePlan:
    """The same storage over fresh inames ``base0``, ... (for a second storage statement)."""
    axes = tuple(ax if ax.iname is None else replace(ax, iname=gen(f"{base}{ax.position}"))
                 for ax in plan.axes)
    mapping = {old.iname: p.Variable(new.iname) for old, new in zip(plan.axes, axes)
               if old.iname is not None}
    preds = tuple(substitute(c, mapping) for c in plan.predicates)
    return replace(plan, axes=axes, predicates=preds)


def temporary_ref(temp: str, index: Sequence[Expression]) -> Expression:
    """``temp[index]`` (a plain subscript for one axis), or ``temp`` for a scalar."""
    index = tuple(index)
    if not index:
        return p.Variable(temp)
    return p.Subscript(p.Variable(temp), index[0] if len(index) == 1 else index)
