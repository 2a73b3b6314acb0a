"""Array layout: tag_array_axes, set_array_axis_names, split_array_axis,
find_padding_multiple, add_padding, change_arg_to_image.

Layouts are dim tags (`translator.ir.data`): nesting levels (``c``, ``f``, ``N0``..``N9``),
fixed strides (``stride:EXPR``), ``sep`` and ``vec``.  Strides and sizes are in elements.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

import numpy as np
import pymbolic.primitives as p

from translator.diagnostics import KernelLanguageError, TransformError
from translator.ir import images
from translator.ir.data import (AddressSpace, ArrayArg, DimTag, FixedStrideTag, NestingTag,
                                TemporaryVariable, parse_dim_tags, strides)
from translator.ir.expr import (Expression, IRWalkMapper, LinearSubscript, TaggedVariable,
                                dependencies)
from translator.ir.kernel import Kernel

from transforms.arguments import AXIS_NAMES_OPTION
from transforms.common import (Rewriter, check_iname, name_list, positive_int,
                               rewrite_statements, statement_expressions, suggestion)
from transforms.registry import transform

Array = ArrayArg | TemporaryVariable
IndexMap = Callable[[str, tuple[Expression, ...]], tuple[Expression, ...] | None]

# ---------------------------------------------------------------------------------------------
# helpers shared with the temporaries and batching modules


def find_arrays(kernel: Kernel, names: Any, transform_name: str, what: str = "array"
                ) -> list[Array]:
    """The array arguments or temporaries named (a list or comma-separated string)."""
    out = []
    for n in name_list(names, transform_name, f"{what} names"):
        var = kernel.variable(n)
        if var is None:
            raise TransformError(f"{transform_name}: unknown {what} {n!r}" + suggestion(
                n, [*kernel.arg_names, *kernel.temporaries]))
        if not isinstance(var, (ArrayArg, TemporaryVariable)) or var.shape is None:
            raise TransformError(f"{transform_name}: {n!r} is not an array with a known shape")
        out.append(var)
    if not out:
        raise TransformError(f"{transform_name}: no {what} names given")
    return out


def with_variables(kernel: Kernel, new: Iterable[Array]) -> Kernel:
    """`kernel` with the given arguments/temporaries replacing those of the same name."""
    by_name = {v.name: v for v in new}
    if all(kernel.variable(n) is v for n, v in by_name.items()):
        return kernel
    args = tuple(by_name.get(a.name, a) for a in kernel.args)
    temps = kernel.temporaries.update({n: v for n, v in by_name.items()
                                       if n in kernel.temporaries})
    return replace(kernel, args=args, temporaries=temps)


class SubscriptRewriter(Rewriter):
    """Rewrites the index tuples of the arrays `index_map` knows (``index_map(name, index)``
    returns the new index or None); a bare use of such a name counts as index ``()``."""

    def __init__(self, index_map: IndexMap, bound: frozenset[str] = frozenset()) -> None:
        super().__init__({}, bound=bound)
        self.index_map = index_map

    def with_bound(self, bound: Iterable[str]) -> SubscriptRewriter:
        return SubscriptRewriter(self.index_map, frozenset(bound))

    def map_subscript(self, expr: p.Subscript, *args: Any, **kwargs: Any) -> Expression:
        name = getattr(expr.aggregate, "name", None)
        index = tuple(self.rec(i) for i in expr.index_tuple)
        new = None if name is None or name in self.bound else self.index_map(name, index)
        if new is None:
            if all(a is b for a, b in zip(index, expr.index_tuple)):
                return expr
            return p.Subscript(expr.aggregate, index if len(index) != 1 else index[0])
        return p.Subscript(expr.aggregate, new if len(new) != 1 else new[0])

    def map_variable(self, expr: p.Variable, *args: Any, **kwargs: Any) -> Expression:
        new = None if expr.name in self.bound else self.index_map(expr.name, ())
        if not new:
            return expr
        return p.Subscript(expr, new if len(new) != 1 else new[0])

    map_tagged_variable = map_variable

    def map_linear_subscript(self, expr: LinearSubscript, *args: Any, **kwargs: Any
                             ) -> Expression:
        # a flat offset addresses the buffer as it is: only the offset expression changes
        index = self.rec(expr.index)
        return expr if index is expr.index else LinearSubscript(expr.aggregate, index)


def rewrite_subscripts(kernel: Kernel, index_map: IndexMap) -> Kernel:
    """Apply `index_map` to every subscript in statements and rules."""
    return rewrite_statements(kernel, SubscriptRewriter(index_map), lambda s: True)


def element_strides(var: Array, transform_name: str) -> tuple[Expression, ...]:
    """The stride of each axis (elements); sep/vec axes or unknown extents are errors."""
    if not all(isinstance(t, (NestingTag, FixedStrideTag)) for t in var.dim_tags):
        raise TransformError(f"{transform_name}: array {var.name!r} has sep/vec axes")
    out = strides(var.shape, var.dim_tags)
    if any(s is None for s in out):
        raise TransformError(f"{transform_name}: array {var.name!r} has an axis of unknown "
                             "extent, so its strides are not known")
    return out


# ---------------------------------------------------------------------------------------------
# tags and names


@transform()
def tag_array_axes(kernel: Kernel, ary_names: str | Iterable[str], dim_tags: Any) -> Kernel:
    """Set the layout of arrays: `dim_tags` is ``"c,f,..."``, ``"N1,N0"``, ``"C"``/``"F"``,
    ``"stride:4,..."``, ``sep``/``vec`` (see the kernel-language reference), or a tuple.

    Example::

        before: a: shape=(n, m), dim_tags=(N1, N0)       (C order)
        tag_array_axes(knl, "a", "f,f")
        after:  a: shape=(n, m), dim_tags=(N0, N1)       (Fortran order)
    """
    new = []
    for var in find_arrays(kernel, ary_names, "tag_array_axes"):
        try:
            tags = parse_dim_tags(dim_tags, len(var.shape))
        except KernelLanguageError as e:
            raise TransformError(f"tag_array_axes: array {var.name!r}: {e.message}") from None
        except (TypeError, AttributeError):
            raise TransformError(f"tag_array_axes: bad dim_tags {dim_tags!r}") from None
        new.append(var if tags == var.dim_tags else replace(var, dim_tags=tags))
    return with_variables(kernel, new)


class _ReadTagger(Rewriter):
    """Writes ``array$tag`` for the subscripts of `array` whose index uses `iname`."""

    def __init__(self, array: str, tag: str, iname: str,
                 bound: frozenset[str] = frozenset()) -> None:
        super().__init__({}, bound=bound)
        self.array, self.tag, self.iname = array, tag, iname
        self.count = 0

    def with_bound(self, bound: Iterable[str]) -> _ReadTagger:
        return _ReadTagger(self.array, self.tag, self.iname, frozenset(bound))

    def map_subscript(self, expr: p.Subscript, *args: Any, **kwargs: Any) -> Expression:
        index = tuple(self.rec(i) for i in expr.index_tuple)
        agg = expr.aggregate
        if type(agg) is p.Variable and agg.name == self.array and agg.name not in self.bound \
                and any(self.iname in dependencies(i) for i in index):
            agg = TaggedVariable(agg.name, self.tag)
            self.count += 1
        if agg is expr.aggregate and all(a is b for a, b in zip(index, expr.index_tuple)):
            return expr
        return p.Subscript(agg, index if len(index) != 1 else index[0])


@transform()
def tag_reads(kernel: Kernel, array: str, tag: str, iname: str) -> Kernel:
    """Tag the reads of the read-only `array` whose subscripts use `iname`: they become
    ``array$tag[...]``, so that ``add_prefetch("array$tag", ...)`` fetches them apart from the
    array's other reads (an array read along two loops gets one tile per loop).  Example::

        before: acc = acc + a[i, k]*a[j, k]
        tag_reads(knl, "a", "row", "i"); tag_reads(knl, "a", "col", "j")
        after:  acc = acc + a$row[i, k]*a$col[j, k]
    """
    name = "tag_reads"
    (var,) = find_arrays(kernel, array, name)
    check_iname(kernel, iname, name)
    if not isinstance(tag, str) or not tag.isidentifier():
        raise TransformError(f"{name}: tag must be an identifier, got {tag!r}")
    writers = [s.id for s in kernel.statements if var.name in s.assignee_names()]
    if writers:
        raise TransformError(f"{name}: statement {writers[0]!r} writes {var.name!r}; only the "
                             "reads of an array the kernel does not write can be told apart")
    tagger = _ReadTagger(var.name, tag, iname)
    result = rewrite_statements(kernel, tagger, lambda s: True)
    if result is kernel:
        raise TransformError(f"{name}: no read of {var.name!r} has a subscript that uses "
                             f"{iname!r}")
    return result


@transform()
def set_array_axis_names(kernel: Kernel, ary_names: str | Iterable[str],
                         dim_names: str | Iterable[str]) -> Kernel:
    """Name the axes of arrays (for reports and printed kernels; the names are recorded in
    ``options.extra["array_axis_names"]``).  Example::

        before: a: shape=(n, m)
        set_array_axis_names(knl, "a", "row, col")
        after:  options.extra.array_axis_names = (('a', ('row', 'col')),)
    """
    name = "set_array_axis_names"
    dims = name_list(dim_names, name, "dim_names")
    if not all(d.isidentifier() for d in dims) or len(set(dims)) != len(dims):
        raise TransformError(f"{name}: axis names must be distinct identifiers, got {dims!r}")
    table = dict(kernel.options.extra.get(AXIS_NAMES_OPTION, ()))
    for var in find_arrays(kernel, ary_names, name):
        if len(dims) != len(var.shape):
            raise TransformError(f"{name}: {len(dims)} axis name(s) for the {len(var.shape)} "
                                 f"axes of {var.name!r}")
        table[var.name] = dims
    value = tuple(sorted(table.items()))
    if value == kernel.options.extra.get(AXIS_NAMES_OPTION):
        return kernel
    extra = kernel.options.extra.set(AXIS_NAMES_OPTION, value)
    return replace(kernel, options=replace(kernel.options, extra=extra))


# ---------------------------------------------------------------------------------------------
# splitting an axis


@transform()
def split_array_axis(kernel: Kernel, array_names: str | Iterable[str], axis_nr: int,
                     count: int, order: str = "C") -> Kernel:
    """Split axis `axis_nr` of arrays into two axes, the faster one of length `count`.

    Index ``k`` becomes ``(k // count, k % count)`` (order "C") or ``(k % count, k // count)``
    (order "F"); the data stays where it was in memory.  Example::

        before: a: shape=(n, 8)                       a[i, j]
        split_array_axis(knl, "a", 1, 4)
        after:  a: shape=(n, 2, 4)                    a[i, j // 4, j % 4]
    """
    name = "split_array_axis"
    count = positive_int(count, name, "count")
    if order not in ("C", "F"):
        raise TransformError(f"{name}: order must be 'C' or 'F', got {order!r}")
    arrays = find_arrays(kernel, array_names, name)
    for var in arrays:
        if isinstance(axis_nr, bool) or not isinstance(axis_nr, int) or not (
                0 <= axis_nr < len(var.shape)):
            raise TransformError(f"{name}: axis_nr {axis_nr!r} is not an axis of {var.name!r} "
                                 f"(it has {len(var.shape)})")
        if var.shape[axis_nr] is None:
            raise TransformError(f"{name}: axis {axis_nr} of {var.name!r} has no known extent")
    result = with_variables(kernel, [_split_layout(v, axis_nr, count, order) for v in arrays])
    names = {v.name for v in arrays}

    def index_map(array: str, index: tuple[Expression, ...]) -> tuple[Expression, ...] | None:
        if array not in names or len(index) != len(result.variable(array).shape) - 1:
            return None
        k = index[axis_nr]
        pair = (p.FloorDiv(k, count), p.Remainder(k, count))
        new = pair if order == "C" else pair[::-1]
        return (*index[:axis_nr], *new, *index[axis_nr + 1:])

    return rewrite_subscripts(result, index_map)


def _split_layout(var: Array, axis: int, count: int, order: str) -> Array:
    """The array with axis `axis` split; the same memory layout where it can be kept."""
    length = var.shape[axis]
    divisible = isinstance(length, int) and length % count == 0
    quotient = (-(-length // count) if isinstance(length, int)
                else p.FloorDiv(p.Sum((length, count - 1)), count))
    slow_fast = (quotient, count)
    shape = (*var.shape[:axis], *(slow_fast if order == "C" else slow_fast[::-1]),
             *var.shape[axis + 1:])
    tags = var.dim_tags
    if divisible and all(isinstance(t, NestingTag) for t in tags):
        level = tags[axis].level
        shifted = [NestingTag(level=t.level + (t.level > level)) for t in tags]
        pair = (NestingTag(level=level + 1), NestingTag(level=level))
        new_tags: tuple[DimTag, ...] = (*shifted[:axis], *(pair if order == "C" else pair[::-1]),
                                        *shifted[axis + 1:])
    else:
        old = element_strides(var, "split_array_axis")
        pair = (FixedStrideTag(stride=_times(old[axis], count)), FixedStrideTag(stride=old[axis]))
        fixed = [FixedStrideTag(stride=s) for s in old]
        new_tags = (*fixed[:axis], *(pair if order == "C" else pair[::-1]), *fixed[axis + 1:])
    return replace(var, shape=shape, dim_tags=new_tags)


def _times(a: Expression, b: int) -> Expression:
    if isinstance(a, int):
        return a * b
    return p.Product((a, b))


# ---------------------------------------------------------------------------------------------
# padding


def _stride_bytes(kernel: Kernel, variable: str, axis: int, name: str
                  ) -> tuple[Array, Expression, int]:
    var = find_arrays(kernel, [variable], name)[0]
    if isinstance(axis, bool) or not isinstance(axis, int) or not 0 <= axis < len(var.shape):
        raise TransformError(f"{name}: axis {axis!r} is not an axis of {variable!r} (it has "
                             f"{len(var.shape)})")
    if var.dtype is None:
        raise TransformError(f"{name}: the dtype of {variable!r} is not known yet")
    return var, element_strides(var, name)[axis], np.dtype(var.dtype).itemsize


def find_padding_multiple(kernel: Kernel, variable: str, axis: int, align_bytes: int,
                          allowed_waste: float = 0.1) -> int:
    """The smallest multiple of the stride of `axis` of `variable` that, rounded up to
    `align_bytes`, wastes at most the fraction `allowed_waste`.  The stride must be a known
    integer."""
    name = "find_padding_multiple"
    align = positive_int(align_bytes, name, "align_bytes")
    _, stride, itemsize = _stride_bytes(kernel, variable, axis, name)
    if not isinstance(stride, int):
        raise TransformError(f"{name}: the stride of axis {axis} of {variable!r} ({stride}) "
                             "is not a known integer")
    multiple = 1
    while True:
        true_size = multiple * stride * itemsize
        padded = -(-true_size // align) * align
        if (padded - true_size) / true_size <= allowed_waste:
            return multiple
        multiple += 1


@transform()
def add_padding(kernel: Kernel, variable: str, axis: int, align_bytes: int) -> Kernel:
    """Round the stride of axis `axis` of the array argument `variable` up to a multiple of
    `align_bytes` (slower axes of a nesting-ordered array grow with it).  Example::

        before: a: shape=(n, 5), float32, dim_tags=(N1, N0)         strides (5, 1)
        add_padding(knl, "a", 0, 32)
        after:  a: dim_tags=(stride:8, stride:1)                      strides (8, 1)
    """
    name = "add_padding"
    align = positive_int(align_bytes, name, "align_bytes")
    var, _, itemsize = _stride_bytes(kernel, variable, axis, name)
    if not isinstance(var, ArrayArg):
        raise TransformError(f"{name}: {variable!r} is a temporary; only array arguments can "
                             "be padded")
    if align % itemsize:
        raise TransformError(f"{name}: align_bytes {align} is not a multiple of the element "
                             f"size of {variable!r} ({itemsize} bytes)")
    unit = align // itemsize
    pad = (lambda s: -(-s // unit) * unit if isinstance(s, int)
           else p.Product((p.FloorDiv(p.Sum((s, unit - 1)), unit), unit)))
    old = element_strides(var, name)
    if all(isinstance(t, NestingTag) for t in var.dim_tags):
        new = _padded_nesting(var, axis, pad)
    else:
        new = tuple(pad(s) if k == axis else s for k, s in enumerate(old))
    if new == old:
        return kernel
    return with_variables(kernel, [replace(var, dim_tags=tuple(
        FixedStrideTag(stride=s) for s in new))])


def _padded_nesting(var: ArrayArg, axis: int, pad: Callable) -> tuple[Expression, ...]:
    """Strides from the nesting order, the padded axis's stride rounded up (slower axes
    follow from it)."""
    order = sorted(range(len(var.shape)), key=lambda k: var.dim_tags[k].level)
    out: list[Expression] = [0] * len(var.shape)
    running: Expression = 1
    for k in order:
        out[k] = pad(running) if k == axis else running
        extent = var.shape[k]
        running = (out[k] * extent if isinstance(out[k], int) and isinstance(extent, int)
                   else extent if out[k] == 1 else p.Product((out[k], extent)))
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# images


@transform()
def change_arg_to_image(kernel: Kernel, name: str) -> Kernel:
    """Pass a read-only array argument as an OpenCL image: reads become image reads (float32
    and int32 elements, 1 to 3 axes, the contiguous axis as x).  Example::

        before: a: array, dtype=float32, shape=(n, m)        ... = a[i, j]
        change_arg_to_image(knl, "a")
        after:  a: array, ..., address_space=image           read_imagef(a, s, (int2)(j, i)).x
    """
    what = "change_arg_to_image"
    var = kernel.arg(name) if isinstance(name, str) else None
    if not isinstance(var, ArrayArg):
        raise TransformError(f"{what}: {name!r} is not an array argument of "
                             f"kernel {kernel.name!r}"
                             + suggestion(str(name), [a.name for a in kernel.array_args]))
    if var.is_image:
        return kernel
    written = any(name in s.assignee_names() for s in kernel.statements)
    problem = images.image_problem(var, written=written) or _image_use_problem(kernel, var)
    if problem is not None:
        raise TransformError(f"{what}: cannot make {name!r} an image: {problem}", var.span)
    return with_variables(kernel, [replace(var, address_space=AddressSpace.IMAGE)])


class _ImageUses(IRWalkMapper):
    """Finds a use of array `name` that an image read cannot express."""

    def __init__(self, name: str, ndim: int) -> None:
        self.name, self.ndim = name, ndim
        self.problem: str | None = None

    def visit(self, expr: Any, *args: Any, **kwargs: Any) -> bool:
        if isinstance(expr, LinearSubscript) and getattr(expr.aggregate, "name", None) == self.name:
            self.problem = self.problem or "it is read through a flat index"
        elif isinstance(expr, p.Variable) and expr.name == self.name:
            self.problem = self.problem or "it is used without a subscript"
        return True

    def map_subscript(self, expr: p.Subscript, *args: Any, **kwargs: Any) -> None:
        if getattr(expr.aggregate, "name", None) != self.name:
            super().map_subscript(expr, *args, **kwargs)
            return
        if len(expr.index_tuple) != self.ndim:
            self.problem = self.problem or (f"it is subscripted with {len(expr.index_tuple)} "
                                            f"indices but has {self.ndim} axes")
        for index in expr.index_tuple:
            self.rec(index, *args, **kwargs)


def _image_use_problem(kernel: Kernel, var: ArrayArg) -> str | None:
    walker = _ImageUses(var.name, len(var.shape))
    exprs = [e for s in kernel.statements for e in statement_expressions(s)]
    exprs += [rule.expression for rule in kernel.substitutions.values()]
    for e in exprs:
        walker(e)
    return walker.problem


__all__ = ["add_padding", "change_arg_to_image", "find_arrays", "find_padding_multiple",
           "rewrite_subscripts", "set_array_axis_names", "split_array_axis", "tag_array_axes",
           "tag_reads", "with_variables"]
