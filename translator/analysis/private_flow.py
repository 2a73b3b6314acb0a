"""Private temporaries proved private: every read gets its value from its own work item.

A private temporary has one copy per work item (frontend scalars written before they are
read, privatised work arrays, kernel-language ``<>`` temporaries, temporaries transforms
make).  That is only right when, in the original sequential order, the last write before each
read is an instance that the reading work item also runs: the same values of the
hardware-parallel inames (``g.N``, ``l.N``; ILP, unrolled and vector lanes belong to one work
item), or a statement outside the loops over that axis, which every work item runs.

Otherwise the mapping is refused with a witness (a prefix sum ``s = s + b(i); a(i) = s``, a
value carried to the next iteration, a scalar read after the mapped loop).  A read with no
write before it in the region is refused too: each work item's copy starts undefined (unless
the temporary has an initializer, a constant table).

The last writers come from isl (`translator.ir.isl_glue.flow`).  A write under a data-dependent
condition may or may not run; it surely ran before a read under the same condition at the same
values of the inames the condition depends on, when nothing in the kernel writes the data the
condition reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pymbolic.primitives as p

from translator.analysis.access import Access, element_text, statement_accesses
from translator.diagnostics import LegalityError, Note
from translator.ir.data import AddressSpace
from translator.ir.expr import Expression, dependencies
from translator.ir.mappers import reduction_inames
from translator.ir.isl_glue import hardware_span, params_of, statement_domain
from translator.ir.isl_glue.flow import (CrossFlow, FlowAccess, Guarantee, affine_condition,
                                         first_cross_flow)
from translator.ir.kernel import Kernel
from translator.ir.predicates import MAX_COMBINED, merge_complementary
from translator.ir.statements import Statement
from translator.ir.tags import InameTag
from translator.ir.util import FrozenDict
from translator.records import dataclass
from translator.schedule import (LoopNode, StatementNode, resolve_hardware_axes,
                                 schedule_kernel)


def private_temporaries(kernel: Kernel) -> list[str]:
    """Names of the temporaries with one copy per work item, sorted (frontends declare them in
    different orders; the first one refused is the same for every language)."""
    return sorted(t.name for t in kernel.temporaries.values()
                  if t.address_space in (None, AddressSpace.PRIVATE))


def check_private_temporaries(kernel: Kernel, trusted: frozenset[str] = frozenset()) -> None:
    """Raise `LegalityError` for the first private temporary some read of which may get its
    value from another work item (or from before the region); `trusted` inames (asserted
    independent) do not count as separating work items."""
    names = private_temporaries(kernel)
    hardware = resolve_hardware_axes(kernel)
    axes = _checked_axes(hardware, trusted)
    if not names or not hardware:
        return
    # one walk over the statements and one dependency closure for all temporaries (a
    # region of 400 statements with 400 temporaries took seconds when each did its own)
    by_name = _accesses(kernel, names)
    closure = kernel.dependency_closure()
    for name in names:
        accesses = by_name.get(name, [])
        if not any(not a.is_write for a in accesses):
            continue
        keep = {a.statement for a in accesses} | _condition_writers(kernel, accesses)
        layout = _Layout.of(kernel, keep, closure)
        accesses = accesses + _combined_writes(kernel, layout, accesses)
        flows = [_flow_access(kernel, layout, hardware, axes, a) for a in accesses]
        guarantees = _guarantees(kernel, layout, accesses, flows)
        found = first_cross_flow(kernel.domains, kernel.assumptions, flows,
                                 _shape(kernel, name), guarantees,
                                 kernel.temporaries[name].initializer is not None)
        if found is not None:
            raise _error(kernel, hardware, name, accesses, found)


def _checked_axes(hardware: dict[str, InameTag], trusted: frozenset[str]) -> set[str]:
    """Axes with at least one iname not asserted independent."""
    return {str(tag) for iname, tag in hardware.items() if iname not in trusted}


def _accesses(kernel: Kernel, names: list[str]) -> dict[str, list[Access]]:
    """The accesses to each of `names`, in statement order."""
    out: dict[str, list[Access]] = {}
    wanted = set(names)
    for s in kernel.statements:
        for a in statement_accesses(kernel, s, wanted):
            out.setdefault(a.variable, []).append(a)
    return out


def _shape(kernel: Kernel, name: str) -> tuple[int | None, ...]:
    shape = kernel.temporaries[name].shape or ()
    return tuple(int(x) if isinstance(x, int) else None for x in shape)


# ---------------------------------------------------------------------------------------------
# the sequential order

@dataclass(frozen=True)
class _Layout:
    """Each statement's place in the sequential order: the path from the root of the loop
    tree (child positions, doubled, alternating with loop inames).

    The order is that of the statements touching one variable alone, every iname a loop:
    their dependencies (direct or through other statements) and loop nests, as the code
    generator orders statements.  Statements transforms add elsewhere (a prefetch's copies)
    would otherwise split the loops of this untagged kernel where the tagged one keeps them
    whole, which is not the order of the source.
    """

    paths: dict[str, tuple[int | str, ...]]

    @staticmethod
    def of(kernel: Kernel, keep: set[str],
           closure: dict[str, frozenset[str]] | None = None) -> _Layout:
        keep = keep | _domain_writers(kernel)
        closure = kernel.dependency_closure() if closure is None else closure
        stmts = tuple(replace(_with_inames(s), depends_on=(closure[s.id] & keep) - {s.id})
                      for s in kernel.statements if s.id in keep)
        plain = kernel.copy(statements=stmts, iname_tags=FrozenDict())
        paths: dict[str, tuple[int | str, ...]] = {}

        def walk(nodes, prefix: tuple[int | str, ...]) -> None:
            for k, node in enumerate(nodes):
                if isinstance(node, LoopNode):
                    walk(node.body, prefix + (2 * k, node.iname))
                elif isinstance(node, StatementNode):
                    paths[node.statement_id] = prefix + (2 * k,)

        walk(schedule_kernel(plain).body, ())
        return _Layout(paths)


def _domain_writers(kernel: Kernel) -> set[str]:
    """Statements writing temporaries that bound loops (the schedule needs them)."""
    params = {n for d in kernel.domains for n in params_of(d)}
    return {w for n in params if n in kernel.temporaries for w in kernel.writers(n)}


def _with_inames(stmt: Statement) -> Statement:
    """The statement inside the loops of its reductions too (their terms are evaluated
    there)."""
    extra = reduction_inames(stmt)
    return replace(stmt, within_inames=stmt.within_inames | extra) if extra else stmt


def _schedule(layout: _Layout, kernel: Kernel, acc: Access) -> tuple[tuple[str, ...],
                                                                      tuple[int | str, ...]]:
    """(the access's inames in loop order, its schedule vector)."""
    path = layout.paths[acc.statement]
    mine = set(acc.inames)
    loops = [e for e in path if isinstance(e, str)]
    stmt = kernel.statement(acc.statement)
    reductions = reduction_inames(stmt)
    outside = [n for n in loops if n in reductions and n not in mine]
    if outside:
        return _after_reduction(path, loops.index(outside[0]), mine)
    order = tuple(n for n in loops if n in mine)
    sched = tuple(e if not isinstance(e, str) or e in mine else 0 for e in path)
    return order, sched


def _after_reduction(path, depth: int, mine: set[str]):
    """Reads of a reduction statement outside its reduction: after the whole loop over the
    first reduction iname (depth `depth` in the nest), deeper loops of the access kept."""
    head = list(path[:2 * depth + 1])
    head[-1] = head[-1] + 1
    inner = [e for e in path[2 * depth + 1:] if isinstance(e, str) and e in mine]
    sched = tuple(head) + tuple(x for n in inner for x in (n, 0))
    order = tuple(e for e in head if isinstance(e, str)) + tuple(inner)
    return order, sched


# ---------------------------------------------------------------------------------------------
# accesses for isl

def _flow_access(kernel: Kernel, layout: _Layout, hardware: dict[str, InameTag], axes: set[str],
                 acc: Access) -> FlowAccess:
    inames, sched = _schedule(layout, kernel, acc)
    extra = tuple(n for n in acc.inames if n not in inames)
    names = set(acc.inames) | _params(kernel)
    exact = tuple(c for c in acc.conditions if affine_condition(c, names))
    must = acc.index is not None and len(exact) == len(acc.conditions)
    coords = []
    for n in inames:
        tag = hardware.get(n)
        if tag is not None and str(tag) in axes:
            coords.append((str(tag), p.Variable(n) - _lowest(kernel, n)))
    return FlowAccess(inames=inames, schedule=sched, index=acc.index, is_write=acc.is_write,
                      must=must, conditions=exact, extra=extra, coords=tuple(sorted(coords, key=lambda c: (c[0], str(c[1])))))


def _params(kernel: Kernel) -> set[str]:
    return {a.name for a in kernel.value_args} | {n for d in kernel.domains for n in params_of(d)}


def _lowest(kernel: Kernel, iname: str) -> Expression:
    return hardware_span(statement_domain(kernel.domains, [iname]), iname)[0]


def _guarantees(kernel: Kernel, layout: _Layout, accesses: Sequence[Access],
                flows: Sequence[FlowAccess]) -> list[Guarantee]:
    """Conditional writes that surely ran before reads under the same conditions."""
    out = []
    for w, (wa, wf) in enumerate(zip(accesses, flows)):
        if not wa.is_write or wf.must or wa.index is None:
            continue
        unknown = [c for c in wa.conditions if c not in wf.conditions]
        for r, ra in enumerate(accesses):
            if ra.is_write or not set(unknown) <= set(ra.conditions):
                continue
            equal = _stable_inames(kernel, layout, unknown, wa, ra)
            if equal is not None:
                out.append(Guarantee(w, r, tuple(sorted(equal))))
    return out


def _stable_inames(kernel: Kernel, layout: _Layout, conditions: Sequence[Expression],
                   first: Access, then: Access) -> set[str] | None:
    """The inames at equal values of which the conditions hold the same value at `first` and
    at `then` (which comes later in the sequential order); None when that is not sure.

    Those are the inames the conditions depend on, which both accesses must have.  A
    condition may read data the kernel writes (a private scalar computed earlier in the
    iteration, a hoisted ``if`` condition) when no statement writing it runs between the two
    accesses: then both must also be in the same iteration of every loop they share."""
    inames = kernel.all_inames
    common = set(first.inames) & set(then.inames)
    used: set[str] = set()
    for c in conditions:
        names = dependencies(c)
        data = names - inames - _params(kernel)
        if any(_writes_between(kernel, layout, v, first, then) for v in data):
            return None
        if any(kernel.writers(v) for v in data):
            used |= common
        used |= names & inames
    return used if used <= common else None


def _writes_between(kernel: Kernel, layout: _Layout, variable: str, first: Access,
                    then: Access) -> bool:
    """Whether a statement writing `variable` may run after `first`'s statement (or is it)
    and before `then`'s, in one iteration of the loops they share."""
    start, end = layout.paths[first.statement], layout.paths[then.statement]
    for writer in kernel.writers(variable):
        at = layout.paths.get(writer)
        if at is None or writer == first.statement or start < at < end:
            return True
    return False


def _condition_writers(kernel: Kernel, accesses: Sequence[Access]) -> set[str]:
    """Statements writing data that the accesses' conditions read (the layout places them,
    for `_writes_between`)."""
    inames = kernel.all_inames
    data = {n for a in accesses for c in a.conditions for n in dependencies(c)} - inames
    return {w for v in sorted(data) for w in kernel.writers(v)}


def _combined_writes(kernel: Kernel, layout: _Layout, accesses: Sequence[Access]
                     ) -> list[Access]:
    """Writes of one element in both branches of an ``if``/``else`` (conditions ``c`` and
    ``not c``, the others shared), as one write under the shared conditions at the later of
    the two statements: by then one of them surely ran in that iteration.  Repeated, an ``else
    if`` chain whose every branch writes combines into one write.  `c` must hold the same
    value at both (no statement writing its data runs between them)."""
    writes = [a for a in accesses if a.is_write and a.index is not None]
    out: list[Access] = []
    while len(out) < MAX_COMBINED:
        merged = _one_combination(kernel, layout, writes)
        if merged is None:
            return out
        writes.append(merged)
        out.append(merged)
    return out


def _one_combination(kernel: Kernel, layout: _Layout, writes: list[Access]) -> Access | None:
    """A combination of two of `writes` that is not among them yet, or None."""
    have = {(a.statement, a.index, a.inames, a.conditions) for a in writes}
    for a in writes:
        for b in writes:
            if a.index != b.index or a.inames != b.inames:
                continue
            shared = merge_complementary(frozenset(a.conditions), frozenset(b.conditions))
            if shared is None:
                continue
            first, later = sorted((a, b), key=lambda x: layout.paths[x.statement])
            c = set(a.conditions) - shared
            if _stable_inames(kernel, layout, tuple(c), first, later) is None:
                continue
            conds = tuple(x for x in later.conditions if x in shared)
            merged = replace(later, conditions=conds)
            if (merged.statement, merged.index, merged.inames, merged.conditions) not in have:
                return merged
    return None


# ---------------------------------------------------------------------------------------------
# the witness

def _error(kernel: Kernel, hardware: dict[str, InameTag], name: str, accesses: Sequence[Access],
           found: CrossFlow) -> LegalityError:
    read = accesses[found.read]
    if found.write is None:
        return _no_source_error(kernel, hardware, name, read, found)
    write = accesses[found.write]
    iname = next(n for n, t in sorted(hardware.items())
                 if str(t) == found.axis and n in found.write_point)
    tag = hardware[iname]
    where = f" ({read.span.file}:{read.span.line})" if read.span is not None else ""
    values = {**found.params}
    reader = _point(found.read_point)
    msg = (f"mapping {iname} to {tag} races on private {name}: each work item has its own "
           f"{name}, but iteration {_point(found.write_point)} writes "
           f"{_element(write, {**values, **found.write_point})} and "
           + (f"iteration {reader}" if found.read_point else "the statement after the loop")
           + f" reads that value{where}")
    notes = ()
    if read.span is not None and read.span != write.span:
        notes = (Note(f"the read of {name} is here", read.span),)
    detail = _hint(kernel, name, iname, write, read, found)
    return LegalityError(msg, write.span, notes=notes, detail=detail)


def _no_source_error(kernel: Kernel, hardware: dict[str, InameTag], name: str, read: Access,
                     found: CrossFlow) -> LegalityError:
    iname, tag = sorted(hardware.items())[0]
    at = f"iteration {_point(found.read_point)}" if found.read_point else "the statement"
    msg = (f"mapping {iname} to {tag} makes {name} private to each work item, but {at} reads "
           f"{name} before the region writes it, so that copy has no value")
    lines = [f"  for example when " + ", ".join(f"{k}={v}" for k, v in sorted(found.params.items()))
             ] if found.params else []
    lines.append(f"  give {name} a value inside the region before the loop that reads it, or "
                 "keep the region sequential")
    return LegalityError(msg, read.span, detail="\n".join(lines))


def _hint(kernel: Kernel, name: str, iname: str, write: Access, read: Access,
          found: CrossFlow) -> str:
    lines = []
    if found.params:
        lines.append("  for example when " + ", ".join(
            f"{k}={v}" for k, v in sorted(found.params.items())))
    stmt = kernel.statement(write.statement)
    accumulates = any(name in dependencies(e) for e in stmt.read_expressions())
    if not found.read_point or iname not in read.inames:
        lines.append(f"  the value {name} has after the loop over {iname} comes from its last "
                     "iteration, which only one work item runs; keep the loop sequential or "
                     "keep the value in an array")
    elif accumulates:
        lines.append(f"  {name} accumulates from one iteration of {iname} to the next (a "
                     "running sum, count or index: a scan); each iteration needs the value of "
                     f"the one before, so the loop over {iname} must stay sequential")
    else:
        lines.append(f"  the value of {name} is carried from one iteration of {iname} to a "
                     f"later one; keep the loop over {iname} sequential, or compute {name} "
                     "anew in each iteration")
    return "\n".join(lines)


def _point(values: dict[str, int]) -> str:
    return ", ".join(f"{n}={v}" for n, v in sorted(values.items())) or "(all)"


def _element(acc: Access, values: dict[str, int]) -> str:
    return element_text(acc, values)
