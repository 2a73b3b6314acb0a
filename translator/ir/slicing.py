"""Slicing a kernel: the kernel of some of its statements, and the names they use.

A region that runs as several launches (`translator.split`), a kernel cut at its global
barriers (`translator.codegen.opencl`) and the proof of a directive's claim each need the
kernel of a subset of statements, restricted to the domains, tags, arguments and temporaries
those statements use (`sub_kernel`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from translator.ir.data import ArrayArg, ValueArg
from translator.ir.expr import dependencies
from translator.ir.isl_glue import inames_of
from translator.ir.kernel import Kernel
from translator.ir.mappers import reduction_inames
from translator.ir.statements import Statement
from translator.ir.util import FrozenDict


def loop_order(kernel: Kernel) -> dict[str, int]:
    """Each iname's position in the order the domains declare them (outer first)."""
    return {n: k for k, n in enumerate(n for d in kernel.domains for n in inames_of(d))}



def sub_kernel(kernel: Kernel, ids: Sequence[str], host: Sequence[str], name: str) -> Kernel:
    """The kernel of statements `ids` inside host loops `host` (whose inames become int32
    value arguments); domains, tags and array arguments restricted to what they use."""
    index = _index(kernel)
    host_set = set(host)
    keep = set(ids)
    stmts = tuple(replace(s, within_inames=s.within_inames - host_set,
                          depends_on=frozenset(d for d in s.depends_on if d in keep))
                  for s in index.statements(ids))
    used = set().union(*(s.within_inames | reduction_inames(s) for s in stmts))
    picked = sorted(k for k in {k for n in used for k in index.domain_of.get(n, ())}
                    if not index.domain_names[k] & host_set)
    domains = tuple(kernel.domains[k] for k in picked)
    inames = set().union(*(index.domain_names[k] for k in picked))
    names = referenced_names(stmts)
    # declared read/write flags describe the whole region: each kernel infers its own
    args = tuple(replace(a, is_input=None, is_output=None) if isinstance(a, ArrayArg) else a
                 for a in index.ordered(kernel.args, index.arg_at, names, index.values))
    args += tuple(ValueArg(name=n, dtype="int32") for n in host if kernel.arg(n) is None)
    tags = FrozenDict(index.ordered_items(kernel.iname_tags, index.tag_at, inames))
    prio = frozenset(t for t in kernel.loop_priority if set(t) <= inames)
    temps = FrozenDict(index.ordered_items(kernel.temporaries, index.temp_at, names))
    return kernel.copy(name=name, statements=stmts, domains=domains, args=args,
                       iname_tags=tags, loop_priority=prio, temporaries=temps)


def without_statements(kernel: Kernel, ids: set[str]) -> Kernel:
    """`kernel` without statements `ids` (statements that never run), nor the loops that only
    they ran: the tags of those inames, and the domains that hold nothing else."""
    stmts = tuple(replace(s, depends_on=s.depends_on - ids) if s.depends_on & ids else s
                  for s in kernel.statements if s.id not in ids)
    live = set().union(*(s.within_inames | reduction_inames(s) for s in stmts))
    gone = set().union(*(s.within_inames | reduction_inames(s) for s in kernel.statements
                         if s.id in ids)) - live
    domains = tuple(d for d in kernel.domains
                    if not inames_of(d) or not set(inames_of(d)) <= gone)
    tags = FrozenDict((n, t) for n, t in kernel.iname_tags.items() if n not in gone)
    prio = frozenset(t for t in kernel.loop_priority if not set(t) & gone)
    return kernel.copy(statements=stmts, domains=domains, iname_tags=tags, loop_priority=prio)


class _KernelIndex:
    """Positions in one kernel by name, so that cutting it into many sub-kernels does not
    scan all of it for each (a region of hundreds of loops)."""

    def __init__(self, kernel: Kernel) -> None:
        self.held = kernel
        self.stmt_at = {s.id: k for k, s in enumerate(kernel.statements)}
        self.domain_names = [frozenset(inames_of(d)) for d in kernel.domains]
        self.domain_of: dict[str, list[int]] = {}
        for k, names in enumerate(self.domain_names):
            for n in names:
                self.domain_of.setdefault(n, []).append(k)
        self.arg_at = {a.name: k for k, a in enumerate(kernel.args)
                       if isinstance(a, ArrayArg)}
        self.values = [k for k, a in enumerate(kernel.args) if not isinstance(a, ArrayArg)]
        self.tag_at = {n: k for k, n in enumerate(kernel.iname_tags)}
        self.temp_at = {n: k for k, n in enumerate(kernel.temporaries)}

    def statements(self, ids: Sequence[str]) -> list[Statement]:
        every = self.held.statements
        return [every[k] for k in sorted({self.stmt_at[i] for i in ids if i in self.stmt_at})]

    @staticmethod
    def ordered(items: Sequence, at: dict[str, int], names: set[str],
                always: Sequence[int] = ()) -> list:
        """The entries of `items` named in `names` (positions `at`) and at `always`, in order."""
        return [items[k] for k in sorted({at[n] for n in names if n in at} | set(always))]

    @staticmethod
    def ordered_items(mapping, at: dict[str, int], names: set[str]) -> dict:
        keys = sorted((n for n in names if n in at), key=at.__getitem__)
        return {n: mapping[n] for n in keys}


_INDEXES: list[_KernelIndex] = []


def _index(kernel: Kernel) -> _KernelIndex:
    """The index of `kernel`, remembered for the last few kernels (by identity, held)."""
    for index in _INDEXES:
        if index.held is kernel:
            return index
    index = _KernelIndex(kernel)
    _INDEXES.insert(0, index)
    del _INDEXES[4:]
    return index


def referenced_names(stmts: Sequence[Statement]) -> set[str]:
    """The names `stmts` assign or read (arrays, scalars, temporaries, parameters)."""
    names: set[str] = set()
    for s in stmts:
        names.update(s.assignee_names())
        for e in s.read_expressions():
            names |= dependencies(e)
    return names


__all__ = ["loop_order", "referenced_names", "sub_kernel", "without_statements"]
