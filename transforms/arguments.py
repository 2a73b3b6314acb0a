"""Modifying arguments: set_argument_order, rename_argument."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import pymbolic.primitives as p

from translator.diagnostics import TransformError
from translator.ir import isl_glue
from translator.ir.data import ArrayArg, FixedStrideTag, TemporaryVariable, ValueArg
from translator.ir.expr import Expression, TaggedVariable, substitute
from translator.ir.kernel import Kernel
from translator.ir.statements import Statement
from translator.ir.util import FrozenDict

from transforms.common import (Rewriter, kernel_names, name_list, rewrite_statements,
                               suggestion)
from transforms.registry import transform

#: `options.extra` key holding array axis names (`transforms.set_array_axis_names`).
AXIS_NAMES_OPTION = "array_axis_names"


@transform()
def set_argument_order(kernel: Kernel, arg_names: str | Iterable[str]) -> Kernel:
    """Reorder the kernel's arguments; `arg_names` must list every argument exactly once.

    Example::

        before: args = (a, out, n)
        set_argument_order(knl, "n, a, out")
        after:  args = (n, a, out)
    """
    name = "set_argument_order"
    order = name_list(arg_names, name, "arg_names")
    have = kernel.arg_names
    unknown = [n for n in order if n not in have]
    if unknown:
        raise TransformError(f"{name}: {unknown[0]!r} is not an argument of kernel "
                             f"{kernel.name!r}" + suggestion(unknown[0], have))
    twice = sorted({n for n in order if order.count(n) > 1})
    if twice:
        raise TransformError(f"{name}: argument {twice[0]!r} is listed more than once")
    omitted = [n for n in have if n not in order]
    if omitted:
        raise TransformError(f"{name}: the order omits argument(s) {', '.join(omitted)}; "
                             "every argument must be listed")
    if order == have:
        return kernel
    by_name = {a.name: a for a in kernel.args}
    return replace(kernel, args=tuple(by_name[n] for n in order))


class _NameRewriter(Rewriter):
    """Renames a variable, tagged uses (``a$tag``) included."""

    def map_tagged_variable(self, expr: TaggedVariable, *args: Any, **kwargs: Any):
        new = self.subst.get(expr.name)
        if expr.name in self.bound or new is None:
            return expr
        return TaggedVariable(new.name, expr.tag)

    def with_bound(self, bound: Iterable[str]) -> _NameRewriter:
        return _NameRewriter(self.subst, bound=frozenset(bound))


@transform()
def rename_argument(kernel: Kernel, old_name: str, new_name: str,
                    existing_ok: bool = False) -> Kernel:
    """Rename an argument everywhere: statements, rules, domains and assumptions (value
    arguments are domain parameters), shapes, strides and offsets.

    With `existing_ok`, `new_name` may be another argument of the same kind, type and shape;
    the two are then merged.  Example::

        before: args = (a, out, n)      out[i] = 2*a[i]
        rename_argument(knl, "a", "x")
        after:  args = (x, out, n)      out[i] = 2*x[i]
    """
    name = "rename_argument"
    arg = kernel.arg(old_name) if isinstance(old_name, str) else None
    if arg is None:
        raise TransformError(f"{name}: {old_name!r} is not an argument of kernel "
                             f"{kernel.name!r}" + suggestion(str(old_name), kernel.arg_names))
    if not isinstance(new_name, str) or not new_name.isidentifier():
        raise TransformError(f"{name}: the new name must be an identifier, got {new_name!r}")
    if new_name == old_name:
        return kernel
    merged = _check_target(kernel, arg, new_name, existing_ok)
    result = _rename_everywhere(kernel, old_name, new_name)
    args = tuple(a for a in result.args if not (merged and a.name == old_name))
    return replace(result, args=tuple(
        replace(a, name=new_name) if a.name == old_name else a for a in args))


def _check_target(kernel: Kernel, arg: Any, new: str, existing_ok: bool) -> bool:
    """Whether `new` is an existing argument to merge into (checked compatible)."""
    name = "rename_argument"
    if new not in kernel_names(kernel):
        return False
    other = kernel.arg(new)
    if other is None:
        raise TransformError(f"{name}: {new!r} is already used in kernel {kernel.name!r} (an "
                             "iname, temporary, rule or domain parameter)")
    if not existing_ok:
        raise TransformError(f"{name}: argument {new!r} already exists (pass "
                             "existing_ok=True to merge the two)")
    if _layout_key(arg) != _layout_key(other):
        raise TransformError(f"{name}: arguments {arg.name!r} and {new!r} differ in kind, "
                             "type or shape; they cannot be merged")
    return True


def _layout_key(arg: Any) -> tuple:
    return (type(arg), arg.dtype, *(getattr(arg, f, None) for f in (
        "shape", "dim_tags", "offset", "address_space")))


def _rename_everywhere(kernel: Kernel, old: str, new: str) -> Kernel:
    rewriter = _NameRewriter({old: p.Variable(new)})
    result = rewrite_statements(kernel, rewriter, lambda s: True)
    result = replace(result, statements=tuple(_rename_atomicity(s, old, new)
                                              for s in result.statements))
    domains = tuple(isl_glue.rename_dim(d, old, new) for d in result.domains)
    assumptions = result.assumptions
    if assumptions is not None:
        assumptions = isl_glue.rename_dim(assumptions, old, new)
    mapping = {old: p.Variable(new)}
    args = tuple(_rename_in_layout(a, mapping, old, new) for a in result.args)
    temps = FrozenDict((n, _rename_in_layout(t, mapping, old, new))
                       for n, t in result.temporaries.items())
    return replace(result, domains=domains, assumptions=assumptions, args=args,
                   temporaries=temps, options=_rename_in_options(result, old, new))


def _rename_atomicity(s: Statement, old: str, new: str) -> Statement:
    atomicity = getattr(s, "atomicity", frozenset())
    if old not in atomicity:
        return s
    return replace(s, atomicity=(atomicity - {old}) | {new})


def _rename_in_layout(var: Any, mapping: dict[str, Expression], old: str, new: str) -> Any:
    """Shapes, strides and offsets of an argument or temporary, and its aliasing set."""
    if isinstance(var, ValueArg):
        return var
    changes: dict[str, Any] = {}
    if var.shape is not None:
        shape = tuple(None if e is None else substitute(e, mapping) for e in var.shape)
        if shape != var.shape:
            changes["shape"] = shape
    if var.dim_tags is not None:
        tags = tuple(replace(t, stride=substitute(t.stride, mapping))
                     if isinstance(t, FixedStrideTag) else t for t in var.dim_tags)
        if tags != var.dim_tags:
            changes["dim_tags"] = tags
    if isinstance(var, ArrayArg):
        offset = substitute(var.offset, mapping)
        if offset != var.offset:
            changes["offset"] = offset
        if old in var.may_alias:
            changes["may_alias"] = (var.may_alias - {old}) | {new}
    if isinstance(var, TemporaryVariable) and var.base_storage == old:
        changes["base_storage"] = new
    return replace(var, **changes) if changes else var


def _rename_in_options(kernel: Kernel, old: str, new: str) -> Any:
    names = kernel.options.extra.get(AXIS_NAMES_OPTION)
    if not names or old not in dict(names):
        return kernel.options
    renamed = tuple(sorted((new if a == old else a, dims) for a, dims in names))
    return replace(kernel.options, extra=kernel.options.extra.set(AXIS_NAMES_OPTION, renamed))
