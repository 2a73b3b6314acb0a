"""Speculative updates of dead accumulators: a register block computed whole on the diagonal.

In a tiled product over a triangle (syrk: ``for j <= i``) the groups on the diagonal own only
part of their tile.  Guarding every multiply-add of the unrolled block by ``j <= i`` makes their
copy of the summed loop the guarded one (a test per update, scalar local reads), several times
slower than a full group's.  An update of a private accumulator may run at the points its
guard would skip, when nothing there can be observed:

- it writes one private temporary and reads only temporaries outside global memory, value
  arguments and inames (no global access, no side effect);
- every point it may now run at is in a *relaxed* domain: the loops that do not select the
  accumulator entry (``k``) within their exact range, the others (work-item ids, the unrolled
  block) each within its own range -- and there every local or private read stays inside its
  array;
- the accumulator entries (work item, subscript) written at the added points are touched by
  no statement instance that runs: none is stored, read or initialised, so their values
  (computed from whatever the tiles hold there) go nowhere.

The statement is then printed with the guard of its relaxed domain (none inside a full step of
``k``), and `translator.codegen.versioning` can give the diagonal groups the guard-free copy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pymbolic.primitives as p

from translator.analysis.access import statement_accesses
from translator.ir import isl_glue as glue
from translator.ir.data import AddressSpace
from translator.ir.expr import Expression, dependencies
from translator.ir.statements import Assignment, Statement

if TYPE_CHECKING:
    from translator.codegen.emit import TreeEmitter


def speculative_domain(emitter: TreeEmitter, stmt: Statement):
    """The relaxed domain `stmt` may run in (a parameter-only isl set), or None when it does
    not qualify or gains nothing (module docstring)."""
    target = _private_update(emitter, stmt)
    if target is None:
        return None
    kernel = emitter.kernel
    hardware = emitter.schedule.hardware
    index = _index_of(kernel, stmt, target)
    if index is None:
        return None
    selecting = {n for e in index for n in dependencies(e)}
    output = {n for n in stmt.within_inames if n in hardware} | selecting
    dom = emitter.executed(stmt)
    relaxed = glue.relaxed_domain(dom, stmt.within_inames - output)
    # no point added (the relaxed domain inside the exact one): read from the texts where
    # the relaxed domain is a box, else from their difference
    inside = glue.box_inside(relaxed, dom) if SHORTCUT else None
    extra = None if inside is not None else glue.difference(relaxed, dom)
    if inside or (extra is not None and glue.disjoint(extra, extra)) \
            or not _reads_inside(kernel, stmt, relaxed):
        return None
    axes = sorted({str(t) for t in hardware.values()})
    names = [*(_axis_name(a) for a in axes), *(f"_tr_entry{k}" for k in range(len(index)))]
    inames = kernel.all_inames
    written = None
    for other in kernel.statements:
        for acc in statement_accesses(kernel, other, {target}):
            if acc.index is None or acc.layout or set(acc.inames) - other.within_inames:
                return None
            if SHORTCUT and _inside_own_entries(emitter, stmt, other, index, acc.index):
                continue
            if written is None:
                extra = extra if extra is not None else glue.difference(relaxed, dom)
                written = glue.entries(extra, _entry(hardware, stmt, axes, index), names,
                                       inames)
            live = glue.entries(emitter.executed(other),
                                _entry(hardware, other, axes, acc.index), names, inames)
            if not glue.disjoint(written, live):
                return None
    return relaxed


#: Whether `speculative_domain` reads a box-shaped relaxed domain's points outside the exact
#: one from the texts (`glue.box_inside`) and skips the entries of statements
#: `_inside_own_entries` proves disjoint from the written ones (tests compare both ways).
SHORTCUT = True


def _inside_own_entries(emitter: TreeEmitter, stmt: Statement, other: Statement,
                        index: tuple[Expression, ...], other_index: tuple[Expression, ...]
                        ) -> bool:
    """Whether the accumulator entries `other` touches lie among those `stmt` writes in its
    own domain, so that none is written at the added points: then `disjoint` would say yes,
    and its isl questions (the entries of both, their intersection) are not asked.

    Proved without isl where the accumulator is a scalar (`index` and `other_index` empty)
    and `stmt` runs within hardware inames only, one per axis: an entry is then the work
    item, which names the point of `stmt`'s domain one to one, so the points added
    (``relaxed - dom``) write entries no point of ``dom`` writes.  `other` runs within the
    same hardware inames (and maybe more), neither statement is narrowed to one work item
    (`single_item`), and the kernel has one domain, so that ``executed(other)``
    projected onto `stmt`'s inames is ``executed(stmt)`` itself (both are exact
    projections of that one basic set: `glue.statement_domain`); `other` is `stmt` itself
    in the simplest case."""
    if index or other_index or len(emitter.kernel.domains) != 1:
        return False
    hardware = emitter.schedule.hardware
    own = stmt.within_inames
    if not all(n in hardware for n in own) or len({str(hardware[n]) for n in own}) != len(own):
        return False
    if {n for n in other.within_inames if n in hardware} != own:
        return False
    return not emitter.single_item(stmt) and not emitter.single_item(other)


def _private_update(emitter: TreeEmitter, stmt: Statement) -> str | None:
    """The private temporary `stmt` assigns, if it qualifies by what it reads and writes."""
    kernel = emitter.kernel
    if not isinstance(stmt, Assignment) or stmt.predicates or stmt.atomicity:
        return None
    (target,) = stmt.assignee_names()
    temp = kernel.temporaries.get(target)
    if temp is None or temp.address_space not in (None, AddressSpace.PRIVATE) \
            or any(t.base_storage for t in kernel.temporaries.values()):
        return None   # (storage shared between temporaries: an entry is not one variable's)
    values = {a.name for a in kernel.value_args}
    for name in {n for e in stmt.read_expressions() for n in dependencies(e)}:
        read = kernel.temporaries.get(name)
        if name in kernel.all_inames or name in values:
            continue
        if read is None or read.address_space is AddressSpace.GLOBAL or read.shape is None:
            return None
    return target


def _index_of(kernel, stmt: Assignment, target: str) -> tuple[Expression, ...] | None:
    """The subscript of the accumulator `stmt` writes (affine in its inames), or None."""
    writes = [a for a in statement_accesses(kernel, stmt, {target}) if a.is_write]
    if len(writes) != 1 or writes[0].index is None or writes[0].layout \
            or set(writes[0].inames) - stmt.within_inames:
        return None
    return writes[0].index


def _reads_inside(kernel, stmt: Statement, relaxed) -> bool:
    """Whether every temporary `stmt` reads is read inside its shape over `relaxed`."""
    temps = {n for n, t in kernel.temporaries.items() if t.shape}
    for acc in statement_accesses(kernel, stmt, temps):
        shape = kernel.temporaries[acc.variable].shape
        if acc.index is None or acc.layout or len(acc.index) != len(shape) \
                or set(acc.inames) - stmt.within_inames:
            return False
        for idx, extent in zip(acc.index, shape):
            if not isinstance(extent, int):
                return False
            if not (glue.nonnegative_in(idx, relaxed)
                    and glue.nonnegative_in(p.Sum((extent - 1, p.Product((-1, idx)))),
                                            relaxed)):
                return False
    return True


def _axis_name(axis: str) -> str:
    return "_tr_axis_" + axis.replace(".", "_")


def _entry(hardware, stmt: Statement, axes: list[str], index) -> list[Expression | None]:
    """The work item (its id on each hardware axis; None: every id) and the subscript."""
    by_axis = {str(hardware[n]): p.Variable(n) for n in stmt.within_inames if n in hardware}
    return [*(by_axis.get(a) for a in axes), *index]
