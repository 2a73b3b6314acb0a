"""Assertions a user makes about a region that the translator cannot prove by itself.

They change no code: they record facts that legality analysis then trusts, and the report lists
them.
"""

from __future__ import annotations

from dataclasses import replace

from translator.diagnostics import TransformError
from translator.ir.data import ArrayArg
from translator.ir.kernel import Kernel

from transforms.common import check_iname, name_list
from transforms.registry import transform


@transform()
def independent(kernel: Kernel, inames) -> Kernel:
    """Assert that the iterations of `inames` touch no common element with a write, so mapping
    them in parallel is legal even where subscripts are not affine (indirect, data-dependent).

    Before: ``a[idx[i]] = b[i]`` with ``i`` on ``l.0`` is refused ("may race").
    After ``independent("i")``: accepted, and the report says the verdict was asserted.
    Splitting an asserted iname carries the assertion to both new inames.
    """
    names = name_list(inames, "independent", "inames")
    for n in names:
        check_iname(kernel, n, "independent")
    known = set(kernel.options.extra.get("independent", ()))
    if known.issuperset(names):
        return kernel
    extra = kernel.options.extra.set("independent", tuple(sorted(known | set(names))))
    return kernel.copy(options=replace(kernel.options, extra=extra))


@transform()
def noalias(kernel: Kernel, *names: str) -> Kernel:
    """Assert that the named pointer arguments do not overlap each other (C plain pointers may
    alias until this is said; `restrict` says it per pointer).

    Before: ``double *a, double *b`` — a write to ``a`` may hit ``b``.
    After ``noalias("a", "b")``: ``a`` and ``b`` are disjoint buffers.
    """
    if kernel.options.source_language == "fortran":
        raise TransformError("noalias: Fortran arguments never alias each other (a procedure "
                             "may not modify an argument through another name), so there is "
                             "nothing to assert; noalias is for C pointers")
    if len(names) == 1 and not isinstance(names[0], str):
        names = tuple(names[0])
    if len(names) < 2:
        raise TransformError("noalias needs at least two argument names")
    arrays = {a.name: a for a in kernel.args if isinstance(a, ArrayArg)}
    for n in names:
        if n not in arrays:
            raise TransformError(f"noalias: {n!r} is not an array argument of {kernel.name}")
    group = set(names)
    args = tuple(replace(a, may_alias=a.may_alias - (group - {a.name}))
                 if a.name in group else a for a in kernel.args)
    if args == kernel.args:
        return kernel
    return kernel.copy(args=args)
