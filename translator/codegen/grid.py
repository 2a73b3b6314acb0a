"""The NDRange: hardware-parallel inames -> local sizes, group counts, and what each work item
may assume about its iname values.

A local iname (``l.N``) of values ``base .. base+E-1`` is ``base + get_local_id(N)``; its
extent `E` must be a constant (it is the work-group size along N).  A group iname (``g.N``) is
``base + get_group_id(N)`` with as many groups as it has values (an expression in parameters).
When several inames share an axis, the axis takes the largest size.  The grid may cover more
points than a statement's domain; guards (`translator.codegen.emit`) take care of that.
"""

from __future__ import annotations

import pymbolic.primitives as p

from translator.diagnostics import CodegenError
from translator.ir.expr import Expression
from translator.ir.isl_glue import (context_set, hardware_range, hardware_span, nonnegative_in,
                                     statement_domain)
from translator.ir.kernel import Kernel
from translator.ir.tags import HardwareAxisTag, LocalTag
from translator.records import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class HardwareIname:
    iname: str
    tag: HardwareAxisTag
    base: Expression          # the iname's lowest value (expression in parameters)
    count: Expression         # its number of values (constant int for local inames)


@dataclass(frozen=True, slots=True, kw_only=True)
class Grid:
    inames: tuple[HardwareIname, ...]          # in iname-name order
    local_size: tuple[int, ...]                # per axis, work items per group
    groups: tuple[Expression, ...]             # per axis, number of groups

    @property
    def global_size(self) -> tuple[Expression, ...]:
        return tuple(_times(g, loc) for g, loc in zip(self.groups, self.local_size))

    def axis_size(self, tag: HardwareAxisTag) -> Expression:
        """Values one work item's iname on `tag`'s axis can take across the NDRange."""
        return self.local_size[tag.axis] if isinstance(tag, LocalTag) else self.groups[tag.axis]

    def conditions(self) -> tuple[Expression, ...]:
        """What every work item knows: base <= iname <= base + axis size - 1.

        A group count clamped at zero (``max((n + 14) // 16, 0)``: `_group_count`) is
        stated without the clamp: beside ``base <= iname`` both say the same (a count of
        zero or less leaves no value either way), and the context the conditions make
        (`translator.ir.isl_glue.context_set`) is then one piece, not the union of a
        maximum's two pieces, which isl built and simplified away for each first build."""
        out: list[Expression] = []
        for hw in self.inames:
            v = p.Variable(hw.iname)
            out.append(p.Comparison(v, ">=", hw.base))
            size = self.axis_size(hw.tag)
            if UNCLAMPED_CONDITIONS and _clamped(size):
                size = size.children[0]
            out.append(p.Comparison(v, "<=", _plus(hw.base, _plus(size, -1))))
        return tuple(out)

    def id_expression(self, hw: HardwareIname) -> str:
        """C text of the iname's value in a work item."""
        fn = "get_local_id" if isinstance(hw.tag, LocalTag) else "get_group_id"
        return f"(int) {fn}({hw.tag.axis})"


#: Whether `Grid.conditions` states clamped group counts without the clamp (tests compare
#: both ways).
UNCLAMPED_CONDITIONS = True


def _clamped(count: Expression) -> bool:
    """Whether `count` is ``max(c, 0)`` as `_group_count` clamps a count."""
    return type(count) is p.Max and len(count.children) == 2 and count.children[1] == 0 \
        and type(count.children[1]) is int


def _times(a: Expression, b: Expression) -> Expression:
    if isinstance(a, int) and isinstance(b, int):
        return a * b
    if b == 1:
        return a
    return p.Product((a, b))


def _plus(a: Expression, b: Expression) -> Expression:
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    if a == 0:
        return b
    if b == 0:
        return a
    return p.Sum((a, b))


def compute_grid(kernel: Kernel, hardware: dict[str, HardwareAxisTag]) -> Grid:
    """Sizes of the NDRange for the hardware inames of `kernel` (see module docstring)."""
    infos: list[HardwareIname] = []
    for iname in sorted(hardware):
        tag = hardware[iname]
        domain = statement_domain(kernel.domains, [iname])
        if isinstance(tag, LocalTag):
            # (a local iname's count is its constant bound: the count expression is not made)
            base, extent = hardware_span(domain, iname)
            if extent is None:
                count = hardware_range(domain, iname)[1]
                raise CodegenError(
                    f"iname {iname!r} is tagged {tag} but its number of values ({count}) is "
                    "not a constant: the work-group size must be known at code generation "
                    "(split the iname with a constant inner length and tag the inner one)",
                    kernel.span)
            count = extent
        else:
            base, count, _ = hardware_range(domain, iname)
        infos.append(HardwareIname(iname=iname, tag=tag, base=base, count=count))
    naxes = 1 + max((hw.tag.axis for hw in infos), default=0)
    local = [1] * naxes
    groups: list[list[Expression]] = [[] for _ in range(naxes)]
    for hw in infos:
        if isinstance(hw.tag, LocalTag):
            local[hw.tag.axis] = max(local[hw.tag.axis], int(hw.count))
        else:
            groups[hw.tag.axis].append(hw.count)
    group_counts = tuple(_at_least_one(kernel, _group_count(kernel, g))
                         if _runs_outside(kernel, infos, axis) else _group_count(kernel, g)
                         for axis, g in enumerate(groups))
    return Grid(inames=tuple(infos), local_size=tuple(local), groups=group_counts)


def _runs_outside(kernel: Kernel, infos: list[HardwareIname], axis: int) -> bool:
    """Whether some statement of `kernel` that writes an argument lies outside every group
    iname of `axis`: the first group runs it, so the kernel needs that group even where the
    group loop has no values (``do j = 0, i`` with ``i < 0``, a statement after it).
    (Statements filling local or private temporaries there serve the group's own loop.)"""
    inames = {hw.iname for hw in infos
              if not isinstance(hw.tag, LocalTag) and hw.tag.axis == axis}
    args = {a.name for a in kernel.args}
    return bool(inames) and any(not (s.within_inames & inames)
                                and set(s.assignee_names()) & args for s in kernel.statements)


def _at_least_one(kernel: Kernel, count: Expression) -> Expression:
    if isinstance(count, int):
        return max(count, 1)
    context = context_set((), kernel.assumptions)
    if nonnegative_in(p.Sum((count, -1)), context):
        return count
    if isinstance(count, p.Max) and 0 in count.children:      # max(c, 0) -> max(c, 1)
        return p.Max(tuple(1 if c == 0 else c for c in count.children))
    return p.Max((count, 1))


def _group_count(kernel: Kernel, counts: list[Expression]) -> Expression:
    """The number of groups along an axis: the largest count, never negative."""
    if not counts:
        return 1
    unique: list[Expression] = []
    for c in counts:
        if c not in unique:
            unique.append(c)
    count = unique[0] if len(unique) == 1 else p.Max(tuple(unique))
    if isinstance(count, int):
        return max(count, 0)
    context = context_set((), kernel.assumptions)
    count = _without_smaller_terms(count, context)
    # Where the domain is empty the count formula may go negative; clamp unless proved.
    if not isinstance(count, int) and not nonnegative_in(count, context):
        count = p.Max((count, 0))
    return count


def _without_smaller_terms(count: Expression, context) -> Expression:
    """``max(528, q - 528*(q // 528))`` -> ``528``: terms of a maximum that never exceed one of
    its constants are dropped (a split group loop whose values wrap around, as a group loop
    from a parameter split by a constant does, has the bound as its count)."""
    if isinstance(count, p.Max):
        terms = count.children
    elif (isinstance(count, p.Call) and isinstance(count.function, p.Variable)
          and count.function.name == "max"):
        terms = count.parameters
    else:
        return count
    consts = [c for c in terms if isinstance(c, int)]
    if not consts:
        return count
    top = max(consts)
    kept = [c for c in terms if not isinstance(c, int)
            and not nonnegative_in(p.Sum((top, p.Product((-1, c)))), context)]
    if len(kept) == len(terms) - 1:
        return count
    return p.Max((top, *kept)) if kept else top
