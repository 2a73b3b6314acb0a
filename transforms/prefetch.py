"""add_prefetch: copy the part of an array that a loop nest reads into a temporary first.

As in the reference, this is an extracted rule plus `precompute`: the array's reads
``a[e0, e1]`` in the selected statements become invocations of a new rule
``a_fetch_rule(a_dim_0, a_dim_1) := a[a_dim_0, a_dim_1]``, which is then precomputed (the
footprint clipped to the array's bounds, the temporary laid out like the array).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pymbolic.primitives as p

from translator.diagnostics import KernelLanguageError, TransformError
from translator.ir import isl_glue
from translator.ir.data import ArrayArg, TemporaryVariable
from translator.ir.delinearise import flat_index, split_flat
from translator.ir.expr import Expression, LinearSubscript, TaggedVariable
from translator.ir.kernel import Kernel, SubstitutionRule
from translator.ir.util import UniqueNameGenerator

from transforms.common import check_iname, kernel_names, name_list, suggestion
from transforms.footprint import array_levels, glue_call, temporary_ref
from transforms.inames import check_tag_syntax
from transforms.match import parse_stack_match
from transforms.precompute import (Matcher, PrecomputeRequest, dependencies_of,
                                   explicit_inames, find_uses, precompute_rule, replace_uses,
                                   storage_order)
from transforms.registry import transform
from translator.ir.parse_expr import parse_expression

_WHAT = "add_prefetch"


@transform()
def add_prefetch(kernel: Kernel, var_name: str, sweep_inames: Any = (),
                 dim_arg_names: Any = None, default_tag: Any = "l.auto",
                 rule_name: str | None = None, temporary_name: str | None = None,
                 temporary_address_space: Any = None, footprint_subscripts: Any = None,
                 fetch_bounding_box: bool = False, fetch_outer_inames: Any = None,
                 fetch_insn_id: str | None = None, within: Any = None,
                 storage_axes: Any = None, storage_padding: int = 0) -> Kernel:
    """Prefetch the reads of `var_name`, swept through `sweep_inames`, into a temporary.

    `var_name` is an array name, ``a$tag`` (only reads written ``a$tag[...]``), or a
    subscripted footprint such as ``a[:, :]`` or ``f[i, j, :, :]`` (then that footprint is
    fetched, and the reads must lie inside it; `footprint_subscripts` adds more).  Example
    (a 16x16 tile of ``a`` for each work group and step of k)::

        before: c[i, j] = sum(k, a[i, k]*b[k, j])   with i, j split by 16 onto g./l. axes
                                                    and k split by 16
        add_prefetch(knl, "a", ["i_inner", "k_inner"])
        after:  a_fetch[a_dim_0, a_dim_1] = a[a_dim_0 + 16*i_outer, a_dim_1 + 16*k_outer]
                    {id=a_fetch_rule, inames=a_dim_0:a_dim_1:i_outer:k_outer, if=...}
                c[i, j] = sum([k_outer, k_inner], a_fetch[i_inner, k_inner]*b[k, j])
                with a_fetch a 16x16 local array and a_dim_0, a_dim_1 on local axes.

    A flat array read as ``a[i*n + k]`` or ``a[(n+4)*k + j]`` (C pointers, Fortran ``a(*)``)
    is fetched in the dimensions its subscripts delinearise to (`translator.ir.delinearise`:
    the same row strides in every read), ``a_fetch[a_dim_0, a_dim_1] = a[a_dim_0*n +
    a_dim_1]``: exact for any values, so no range needs proving.

    The fetch inames are named by `dim_arg_names` (default ``a_dim_0``, ...) and tagged
    `default_tag`: ``l.auto`` puts them on the kernel's local axes (the array's fastest axis
    on the lowest axis), split to fit the work group; None leaves them sequential loops.  The
    footprint comes from isl; one that is not convex needs ``fetch_bounding_box=True``.
    The temporary is local when a fetch iname is local-parallel, else private (or
    `temporary_address_space`); code generation adds the barriers the schedule needs.

    The temporary is laid out like the array unless `storage_axes` (the fetch axes in memory
    order, outermost first: their `dim_arg_names` or positions) or `storage_padding` (unused
    elements after each row of the innermost axis) say otherwise; the ``l.auto`` order (and so
    the coalescing of the copy) still follows the array.  A tile of ``b[j, k]`` read across
    ``j`` by neighbouring work items is stored transposed and padded against local-memory
    bank conflicts: ``storage_axes=[1, 0], storage_padding=2`` gives a 64 x 16 tile the
    strides 1 and 66.
    """
    name, tag, subscript = _parse_var_name(var_name)
    var = _variable(kernel, name)
    sweep = name_list(sweep_inames, _WHAT, "sweep_inames")
    for iname in sweep:
        check_iname(kernel, iname, _WHAT)
    check_tag_syntax(default_tag, _WHAT, "default_tag")
    outer = None
    if fetch_outer_inames is not None:
        outer = frozenset(name_list(fetch_outer_inames, _WHAT, "fetch_outer_inames"))
        for iname in outer:
            check_iname(kernel, iname, _WHAT)
    match = parse_stack_match(within)
    ids = tuple(s.id for s in kernel.statements if match(kernel, s))
    _check_not_written(kernel, name, ids)
    strides = None
    if len(var.shape) == 1 and subscript is None and footprint_subscripts is None:
        strides = _flat_strides(kernel, name, tag, ids)
    ndim = len(var.shape) if strides is None else len(strides) + 1
    if isinstance(storage_padding, bool) or not isinstance(storage_padding, int) \
            or storage_padding < 0:
        raise TransformError(f"{_WHAT}: storage_padding must be an integer >= 0, got "
                             f"{storage_padding!r}")
    kernel, rule = _extract_fetch_rule(kernel, name, tag, ndim, ids, rule_name,
                                       dim_arg_names, strides)
    subscripts = ([subscript] if subscript is not None else []) + _subscript_list(
        footprint_subscripts)
    generators = tuple(_generator(kernel, var, s) for s in subscripts) or None
    if temporary_name is None:
        temporary_name = UniqueNameGenerator(kernel_names(kernel))(f"{name}_fetch")
    req = PrecomputeRequest(
        what=_WHAT, rule=rule, tag=None, label=name, statements=ids, sweep=sweep,
        iname_bases=rule.arguments, outer=outer, generators=generators,
        default_tag=default_tag, dtype=var.dtype, bounding_box=bool(fetch_bounding_box),
        address_space=temporary_address_space, temporary=temporary_name,
        insn_id=fetch_insn_id, shape=tuple(var.shape) if strides is None else None,
        layout=array_levels(var) if strides is None else tuple(range(ndim - 1, -1, -1)),
        memory=storage_order(_WHAT, rule.arguments, storage_axes), padding=storage_padding)
    return precompute_rule(kernel, req)


# ---------------------------------------------------------------------------------------------
# arguments

def _parse_var_name(var_name: Any) -> tuple[str, str | None, tuple | None]:
    """(array name, tag or None, footprint subscript or None)."""
    if not isinstance(var_name, str):
        raise TransformError(f"{_WHAT}: var_name must be a string such as 'a', 'a$tag' or "
                             f"'a[:, :]', got {var_name!r}")
    try:
        expr = parse_expression(var_name)
    except KernelLanguageError as e:
        raise TransformError(f"{_WHAT}: bad var_name {var_name!r}: {e.message}") from None
    subscript = None
    if isinstance(expr, p.Subscript):
        subscript = tuple(expr.index_tuple)
        expr = expr.aggregate
    if not isinstance(expr, p.Variable):
        raise TransformError(f"{_WHAT}: var_name {var_name!r} does not name an array")
    tag = expr.tag if isinstance(expr, TaggedVariable) else None
    return expr.name, tag, subscript


def _variable(kernel: Kernel, name: str) -> ArrayArg | TemporaryVariable:
    var = kernel.variable(name)
    if var is None:
        names = [a.name for a in kernel.array_args] + list(kernel.temporaries)
        raise TransformError(f"{_WHAT}: unknown array {name!r}" + suggestion(name, names))
    if not isinstance(var, (ArrayArg, TemporaryVariable)) or not var.shape:
        raise TransformError(f"{_WHAT}: {name!r} is not an array with a known shape")
    return var


def _check_not_written(kernel: Kernel, name: str, ids: Sequence[str]) -> None:
    stmts = kernel.id_to_statement
    for sid in ids:
        if name in stmts[sid].assignee_names():
            raise TransformError(f"{_WHAT}: statement {sid!r} writes {name!r}, so a prefetched "
                                 "copy would go stale (buffer_array handles arrays that are "
                                 "read and written)", stmts[sid].span)


def _subscript_list(value: Any) -> list[tuple]:
    """`footprint_subscripts` as index tuples: each item a string ``"i, :"``, or a tuple of
    expressions, strings and ``":"``/slices."""
    if value is None:
        return []
    out = []
    for item in value if isinstance(value, (list, tuple)) else [value]:
        try:
            if isinstance(item, str):
                out.append(tuple(parse_expression(f"_[{item}]").index_tuple))
                continue
            entries = item if isinstance(item, (tuple, list)) else (item,)
            out.append(tuple(p.Slice((None,)) if e == ":" or isinstance(e, slice) else
                             parse_expression(e) if isinstance(e, str) else e
                             for e in entries))
        except KernelLanguageError as e:
            raise TransformError(f"{_WHAT}: bad footprint subscript {item!r}: "
                                 f"{e.message}") from None
    return out


# ---------------------------------------------------------------------------------------------
# the fetch rule


def subscript_matcher(what: str, name: str, tag: str | None, ndim: int) -> Matcher:
    """Subscripts ``name[e0, ...]`` (``name$tag[...]`` if `tag` is given), matched with
    their indices; a linear subscript of `name` is a `TransformError`."""
    def named(agg: Expression) -> bool:
        if not isinstance(agg, p.Variable) or agg.name != name:
            return False
        return tag is None or (isinstance(agg, TaggedVariable) and agg.tag == tag)

    def match(expr: Expression) -> tuple[Expression, ...] | None:
        if isinstance(expr, LinearSubscript) and named(expr.aggregate):
            raise TransformError(f"{what}: cannot handle {name!r}: it is accessed with a "
                                 f"linear subscript ({expr})")
        if not (isinstance(expr, p.Subscript) and named(expr.aggregate)):
            return None
        index = tuple(expr.index_tuple)
        if len(index) != ndim:
            raise TransformError(f"{what}: {expr} has {len(index)} indices, but {name!r} has "
                                 f"{ndim} axes")
        return index
    return match


def _flat_strides(kernel: Kernel, name: str, tag: str | None, ids: Sequence[str]
                  ) -> tuple[Expression, ...] | None:
    """The row strides that every read of the flat array `name` in `ids` splits by, when
    some read is not affine (``a[i*n + k]``); None to keep one axis."""
    uses = find_uses(kernel, ids, subscript_matcher(_WHAT, name, tag, 1))
    inames = kernel.all_inames
    names = inames | {a.name for a in kernel.value_args}
    if not uses or all(isl_glue.is_affine(u.args[0], names) for u in uses):
        return None
    splits = [split_flat(u.args[0], inames) for u in uses]
    rows = [u.args[0] for u, split in zip(uses, splits) if split is not None]
    others = [u.args[0] for u, split in zip(uses, splits) if split is None]
    if others and not rows:
        # name a read that is not affine (an affine one before it is not the trouble)
        bad = next(e for e in others if not isl_glue.is_affine(e, names))
        raise TransformError(f"{_WHAT}: cannot compute the footprint of {name!r}: its read "
                             f"{name}[{bad}] is neither affine nor rows of a parameter "
                             "length")
    if others:
        raise TransformError(
            f"{_WHAT}: cannot compute the footprint of {name!r}: its reads are flat subscripts "
            f"that are not affine, with rows of a parameter length ({name}[{rows[0]}]), and "
            f"{name}[{others[0]}] is not such a row; prefetch the reads of one kind with "
            f"within= or {name}$tag")
    lengths = sorted({", ".join(str(x) for x in s[1]) for s in splits if s is not None})
    if len(lengths) != 1:
        raise TransformError(f"{_WHAT}: cannot compute the footprint of {name!r}: its reads "
                             f"split into rows of different lengths ({'; '.join(lengths)}); "
                             f"prefetch the reads of one length with within= or {name}$tag")
    return splits[0][1]


def _flat_matcher(name: str, tag: str | None, strides: tuple[Expression, ...],
                  inames: frozenset[str]) -> Matcher:
    """Reads ``name[flat]`` matched with the coordinates `flat` splits to by `strides`."""
    flat = subscript_matcher(_WHAT, name, tag, 1)

    def match(expr: Expression) -> tuple[Expression, ...] | None:
        index = flat(expr)
        if index is None:
            return None
        split = split_flat(index[0], inames)
        return split[0] if split is not None and split[1] == strides else None
    return match


def _extract_fetch_rule(kernel: Kernel, name: str, tag: str | None, ndim: int,
                        ids: Sequence[str], rule_name: str | None, dim_arg_names: Any,
                        strides: tuple[Expression, ...] | None = None
                        ) -> tuple[Kernel, SubstitutionRule]:
    gen = UniqueNameGenerator(kernel_names(kernel))
    rule = gen(rule_name or f"{name}_fetch_rule")
    given = list(explicit_inames(kernel, _WHAT, dim_arg_names, "dim_arg_names"))
    args = tuple(gen(given[k] if k < len(given) else f"{name}_dim_{k}") for k in range(ndim))
    match = (subscript_matcher(_WHAT, name, tag, ndim) if strides is None
             else _flat_matcher(name, tag, strides, kernel.all_inames))
    count = len(find_uses(kernel, ids, match))
    if not count:
        where = "" if len(ids) == len(kernel.statements) else " in the selected statements"
        raise TransformError(f"{_WHAT}: no read of {name + ('$' + tag if tag else '')!r}"
                             f"{where} to prefetch")
    kernel = replace_uses(kernel, ids, match, lambda index: p.Call(p.Variable(rule), index))
    coords = tuple(p.Variable(a) for a in args)
    body = temporary_ref(name, coords if strides is None else [flat_index(coords, strides)])
    # no span: the fetch statement then takes the span of the first statement it serves
    new_rule = SubstitutionRule(name=rule, arguments=args, expression=body)
    kernel = replace(kernel, substitutions=kernel.substitutions.set(rule, new_rule))
    return kernel, new_rule


def _generator(kernel: Kernel, var: ArrayArg | TemporaryVariable, subscript: Sequence[Any]
               ) -> tuple[Any, tuple[Expression, ...]]:
    """(instance set, arguments) of a footprint subscript; slices sweep a whole axis."""
    if len(subscript) != len(var.shape):
        raise TransformError(f"{_WHAT}: footprint subscript {subscript!r} has "
                             f"{len(subscript)} entries, but {var.name!r} has "
                             f"{len(var.shape)} axes")
    args: list[Expression] = []
    slices: list[tuple[str, Expression]] = []
    for k, entry in enumerate(subscript):
        if isinstance(entry, p.Slice):
            if entry.children != (None,) and any(c is not None for c in entry.children):
                raise TransformError(f"{_WHAT}: only whole-axis slices ':' are supported in "
                                     f"a footprint subscript, got {entry}")
            if var.shape[k] is None:
                raise TransformError(f"{_WHAT}: axis {k} of {var.name!r} has no known "
                                     "extent, so ':' cannot sweep it")
            slices.append((f"_tr_s{k}", var.shape[k]))
            args.append(p.Variable(f"_tr_s{k}"))
        else:
            args.append(entry)
    inames = dependencies_of(args, kernel)

    def domain():
        dom = isl_glue.use_domain(kernel.domains, inames)
        if slices:
            box = isl_glue.slice_domain([e for _, e in slices], [n for n, _ in slices])
            dom = isl_glue.product_domain(dom, box)
        return dom
    return glue_call(_WHAT, var.name, domain), tuple(args)


__all__ = ["add_prefetch", "subscript_matcher"]
