"""Creating batches of operations: to_batched."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import numpy as np
import pymbolic.primitives as p

from translator.diagnostics import DomainError, TransformError
from translator.ir import isl_glue
from translator.ir.data import (AddressSpace, ArrayArg, NestingTag, TemporaryVariable,
                                ValueArg)
from translator.ir.expr import Expression, dependencies
from translator.ir.kernel import Kernel
from translator.ir.tags import ForceSequentialTag

from transforms.arrays import rewrite_subscripts
from transforms.common import kernel_names, name_list, name_generator, suggestion
from transforms.registry import transform


@transform()
def to_batched(kernel: Kernel, nbatches: int | str, batch_varying_args: str | Iterable[str],
               batch_iname_prefix: str = "ibatch", sequential: bool = False) -> Kernel:
    """Turn a kernel into one that performs `nbatches` independent copies of its work.

    A new outermost iname (named from `batch_iname_prefix`) ranges over ``0 <= ib <
    nbatches``; `nbatches` is a non-negative integer or the name of a (new or existing)
    integer argument.  Each argument in `batch_varying_args` gets a new slowest axis indexed
    by the batch iname (a value argument becomes an array of `nbatches` values).  Unless
    `sequential`, temporaries other than private ones and read-only constant tables are
    batched too; with `sequential`, the batch loop is tagged ``ord`` and temporaries are
    shared (those in `batch_varying_args` excepted).  Example::

        before: {[i]: 0<=i<n}                        out[i] = a*x[i]
        to_batched(knl, "nb", "x, out, a")
        after:  {[ibatch]: 0<=ibatch<nb} {[i]: 0<=i<n}
                out[ibatch, i] = a[ibatch]*x[ibatch, i]        (x, out: (nb, n); a: (nb,))
    """
    name = "to_batched"
    varying = set(name_list(batch_varying_args, name, "batch_varying_args"))
    _check_varying(kernel, varying, name)
    count, count_args = _batch_count(kernel, nbatches, name)
    if not isinstance(batch_iname_prefix, str) or not batch_iname_prefix.isidentifier():
        raise TransformError(f"{name}: batch_iname_prefix must be an identifier, got "
                             f"{batch_iname_prefix!r}")
    iname = name_generator(kernel)(batch_iname_prefix)
    try:
        domain = isl_glue.parse_domain(f"{{[{iname}]: 0 <= {iname} < {count}}}")
    except DomainError as e:  # pragma: no cover - names and counts are checked above
        raise TransformError(f"{name}: {e.message}") from None
    batched = varying | (set() if sequential else {
        t.name for t in kernel.temporaries.values() if _temporary_needs_batch(t)})
    sized = sorted(n for n in batched if n in kernel.temporaries)
    if isinstance(count, str) and sized:
        raise TransformError(f"{name}: temporary {sized[0]!r} would need one copy per batch, "
                             f"but nbatches {count!r} is not a constant (use an integer "
                             "nbatches, or sequential=True)")
    args = tuple(_batched_arg(a, count, name) if a.name in varying else a
                 for a in kernel.args) + count_args
    temps = kernel.temporaries.update({
        n: _batched_layout(t, count, name) for n, t in kernel.temporaries.items()
        if n in batched})
    result = replace(kernel, domains=(domain, *kernel.domains), args=args, temporaries=temps,
                     statements=tuple(replace(s, within_inames=s.within_inames | {iname})
                                      for s in kernel.statements))
    if sequential:
        result = replace(result, iname_tags=result.iname_tags.set(
            iname, frozenset([ForceSequentialTag()])))

    def index_map(array: str, index: tuple[Expression, ...]) -> tuple[Expression, ...] | None:
        return (p.Variable(iname), *index) if array in batched else None

    return rewrite_subscripts(result, index_map)


def _check_varying(kernel: Kernel, varying: set[str], name: str) -> None:
    for n in sorted(varying):
        var = kernel.variable(n)
        if var is None:
            raise TransformError(f"{name}: {n!r} is not an argument or temporary of kernel "
                                 f"{kernel.name!r}" + suggestion(n, kernel.arg_names))
        if isinstance(var, ValueArg) and any(n in isl_glue.params_of(d)
                                             for d in kernel.domains):
            raise TransformError(f"{name}: {n!r} is a loop bound (a domain parameter); it "
                                 "cannot vary per batch")
        if isinstance(var, ValueArg) and n in _shape_names(kernel):
            raise TransformError(f"{name}: {n!r} sizes an array; it cannot vary per batch")
        if isinstance(var, ArrayArg) and var.shape is None:
            raise TransformError(f"{name}: array {n!r} has no known shape; it cannot get a "
                                 "batch axis")


def _shape_names(kernel: Kernel) -> set[str]:
    shapes = [getattr(v, "shape", None) or () for v in (*kernel.args,
                                                         *kernel.temporaries.values())]
    return {n for shape in shapes for e in shape if e is not None for n in dependencies(e)}


def _batch_count(kernel: Kernel, nbatches: Any, name: str
                 ) -> tuple[int | str, tuple[ValueArg, ...]]:
    """The batch count as domain text, and the new argument it needs (if any)."""
    if isinstance(nbatches, int) and not isinstance(nbatches, bool):
        if nbatches < 0:
            raise TransformError(f"{name}: nbatches must not be negative, got {nbatches}")
        return nbatches, ()
    if not isinstance(nbatches, str) or not nbatches.isidentifier():
        raise TransformError(f"{name}: nbatches must be an integer or an argument name, got "
                             f"{nbatches!r}")
    existing = kernel.arg(nbatches)
    if existing is not None:
        if not isinstance(existing, ValueArg) or (
                existing.dtype is not None and existing.dtype.kind not in "iu"):
            raise TransformError(f"{name}: argument {nbatches!r} is not an integer value")
        return nbatches, ()
    if nbatches in kernel_names(kernel):
        raise TransformError(f"{name}: nbatches {nbatches!r} is already used in kernel "
                             f"{kernel.name!r} and is not an argument")
    return nbatches, (ValueArg(name=nbatches, dtype=np.int32),)


def _temporary_needs_batch(t: TemporaryVariable) -> bool:
    """Shared per work item or per group unless private or a constant table."""
    if t.initializer is not None and t.read_only:
        return False
    return (t.address_space or AddressSpace.PRIVATE) != AddressSpace.PRIVATE


def _batched_arg(arg: Any, count: int | str, name: str) -> ArrayArg:
    extent = p.Variable(count) if isinstance(count, str) else count
    if isinstance(arg, ValueArg):
        return ArrayArg(name=arg.name, dtype=arg.dtype, shape=(extent,), span=arg.span)
    return _batched_layout(arg, count, name)


def _batched_layout(var: Any, count: int | str, name: str) -> Any:
    """`var` with a new slowest axis of extent `count` (the inner layout is kept)."""
    extent = p.Variable(count) if isinstance(count, str) else count
    tags = var.dim_tags or ()
    if not all(isinstance(t, NestingTag) for t in tags):
        raise TransformError(f"{name}: {var.name!r} has fixed-stride or sep/vec axes; only "
                             "nesting-ordered arrays (c, f, N*) can get a batch axis")
    slowest = max((t.level for t in tags), default=-1) + 1
    return replace(var, shape=(extent, *var.shape),
                   dim_tags=(NestingTag(level=slowest), *tags))
