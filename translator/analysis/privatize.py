"""Privatisation: small work arrays that every iteration writes before it reads become private
temporaries, one copy per work item.

A candidate is a procedure-local array that is dead after the region (frontends list them in
``options.extra["private_candidates"]``) with a constant shape of at most `MAX_ELEMENTS`.  Let
P be the loops that enclose every statement touching it.  It is privatised when, for every
read, each element read in an iteration of P was written earlier in that same iteration by a
statement the reader depends on (proved with isl).  Then no value flows between iterations of
P through it, and each work item may keep its own copy.  Otherwise it stays shared, and mapping
P in parallel is refused by legality analysis with a witness.
"""

from __future__ import annotations

from translator.analysis.access import Access, kernel_accesses
from translator.ir.data import AddressSpace, ArrayArg, TemporaryVariable
from translator.ir.isl_glue import access_footprint, param_set_subset
from translator.ir.kernel import Kernel

MAX_ELEMENTS = 1024


def privatize(kernel: Kernel) -> Kernel:
    """The kernel with every provably private candidate array turned into a private
    temporary (the same object when there is none)."""
    candidates = kernel.options.extra.get("private_candidates", ())
    arrays = {a.name: a for a in kernel.array_args if a.name in candidates}
    chosen = [a for n, a in sorted(arrays.items()) if _small(a) and _private(kernel, n)]
    if not chosen:
        return kernel
    names = {a.name for a in chosen}
    temps = kernel.temporaries
    for a in chosen:
        temps = temps.set(a.name, TemporaryVariable(
            name=a.name, dtype=a.dtype, shape=a.shape, dim_tags=a.dim_tags,
            address_space=AddressSpace.PRIVATE, span=a.span))
    return kernel.copy(args=tuple(a for a in kernel.args if a.name not in names),
                       temporaries=temps)


def _small(arg: ArrayArg) -> bool:
    if not arg.shape or not all(isinstance(x, int) for x in arg.shape):
        return False
    size = 1
    for x in arg.shape:
        size *= x
    return size <= MAX_ELEMENTS


def _private(kernel: Kernel, name: str) -> bool:
    accesses = [a for a in kernel_accesses(kernel) if a.variable == name]
    if not accesses or any(a.index is None or a.layout for a in accesses):
        return False
    stmts = {a.statement for a in accesses}
    loops = frozenset.intersection(*(kernel.statement(s).within_inames for s in stmts))
    if not loops:
        return False
    closure = kernel.dependency_closure()
    writes = [a for a in accesses if a.is_write]
    for read in (a for a in accesses if not a.is_write):
        # the writes of statements the reader depends on (never its own)
        before = closure[read.statement] - {read.statement}
        earlier = [w for w in writes if w.statement in before]
        if not param_set_subset(_footprint(kernel, read, loops), _union(kernel, earlier, loops)):
            return False
    return True


def _footprint(kernel: Kernel, acc: Access, loops: frozenset[str]):
    return access_footprint(kernel.domains, acc.inames, acc.conditions, acc.index, loops,
                            assumptions=kernel.assumptions)


def _union(kernel: Kernel, accesses: list[Access], loops: frozenset[str]):
    out = None
    for acc in accesses:
        fp = _footprint(kernel, acc, loops)
        out = fp if out is None else out.union(fp.align_params(out.get_space()))
    return out
