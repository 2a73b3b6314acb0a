"""Dealing with parameters: fix_parameters, assume."""

from __future__ import annotations

from dataclasses import replace
from numbers import Number
from typing import Any

import numpy as np
import pymbolic.primitives as p

from translator.diagnostics import DomainError, TransformError
from translator.ir import isl_glue
from translator.ir.data import ArrayArg, FixedStrideTag, TemporaryVariable, ValueArg
from translator.ir.expr import Expression, IRIdentityMapper
from translator.ir.kernel import Kernel
from translator.ir.util import FrozenDict

from transforms.common import Rewriter, rewrite_statements, suggestion
from transforms.registry import transform


class _ConstantFolder(IRIdentityMapper):
    """Folds +, *, // and % whose operands are all Python ints (typed numpy constants and
    floats are left alone so that their types survive)."""

    def map_sum(self, expr: p.Sum, *args: Any, **kwargs: Any) -> Expression:
        return self._fold(expr, super().map_sum(expr), sum, 0)

    def map_product(self, expr: p.Product, *args: Any, **kwargs: Any) -> Expression:
        return self._fold(expr, super().map_product(expr), _prod, 1)

    def _fold(self, orig: Expression, new: Expression, op: Any, unit: int) -> Expression:
        if not isinstance(new, (p.Sum, p.Product)):
            return new
        ints = [c for c in new.children if _is_int(c)]
        if len(ints) < 2 and not (ints and ints[0] == unit):
            return new
        rest = tuple(c for c in new.children if not _is_int(c))
        value = op(ints)
        if isinstance(new, p.Product) and value == 0:
            return 0
        children = rest if value == unit else (*rest, value)
        if not children:
            return value
        return children[0] if len(children) == 1 else type(new)(children)

    def map_floor_div(self, expr: p.FloorDiv, *args: Any, **kwargs: Any) -> Expression:
        new = super().map_floor_div(expr)
        if isinstance(new, p.FloorDiv) and _is_int(new.numerator) and _is_int(new.denominator) \
                and new.denominator != 0:
            return new.numerator // new.denominator
        return new

    def map_remainder(self, expr: p.Remainder, *args: Any, **kwargs: Any) -> Expression:
        new = super().map_remainder(expr)
        if isinstance(new, p.Remainder) and _is_int(new.numerator) \
                and _is_int(new.denominator) and new.denominator != 0:
            return new.numerator % new.denominator
        return new


def _is_int(x: Any) -> bool:
    return type(x) is int


def _prod(values: list[int]) -> int:
    out = 1
    for v in values:
        out *= v
    return out


def _fold(expr: Expression) -> Expression:
    return _ConstantFolder()(expr)


@transform()
def fix_parameters(kernel: Kernel, **value_dict: Any) -> Kernel:
    """Fix domain parameters and value arguments to constant values.

    They are substituted everywhere (statements, rules, domains, shapes, assumptions) and
    leave the argument list.  Example::

        before: {[i]: 0<=i<n}     args: out[n], a[n], n
        fix_parameters(knl, n=16)
        after:  {[i]: 0<=i<16}    args: out[16], a[16]
    """
    if not value_dict:
        raise TransformError("fix_parameters: no parameters given (call it as "
                             "fix_parameters(n=16, ...))")
    for name in sorted(value_dict):
        kernel = _fix_one(kernel, name, value_dict[name])
    return kernel


def _fix_one(kernel: Kernel, name: str, value: Any) -> Kernel:
    params = {prm for d in kernel.domains for prm in isl_glue.params_of(d)}
    arg = kernel.arg(name)
    if isinstance(arg, ArrayArg):
        raise TransformError(f"fix_parameters: {name!r} is an array argument; only domain "
                             "parameters and value arguments can be fixed")
    if name in kernel.all_inames or name in kernel.temporaries:
        raise TransformError(f"fix_parameters: {name!r} is an iname or a temporary, not a "
                             "parameter")
    if arg is None and name not in params:
        known = params | {a.name for a in kernel.value_args}
        raise TransformError(f"fix_parameters: {name!r} is neither a domain parameter nor a "
                             f"value argument of kernel {kernel.name!r}" + suggestion(name, known))
    value = _check_value(name, value, in_domain=name in params)
    if isinstance(arg, ValueArg):
        kernel = _remember_fixed(kernel, arg, value)
    rewriter = Rewriter({name: value})
    result = rewrite_statements(kernel, rewriter, lambda s: True)
    fold = lambda e: _fold(rewriter(e))  # noqa: E731
    return replace(
        result,
        domains=tuple(isl_glue.fix_dim(d, name, value) for d in result.domains),
        args=tuple(_map_arg(a, fold) for a in result.args if a.name != name),
        temporaries=FrozenDict((k, _map_array(t, fold)) for k, t in result.temporaries.items()),
        assumptions=(None if result.assumptions is None
                     else isl_glue.fix_dim(result.assumptions, name, value)))


def _remember_fixed(kernel: Kernel, arg: ValueArg, value: Any) -> Kernel:
    """`kernel` remembering that `arg` was fixed to `value`: callers still pass it (the host
    glue checks it)."""
    if arg.dtype is None or np.dtype(arg.dtype).kind not in "iubf":
        return kernel   # no glue passes it (a Python API kernel's type is chosen later)
    dtype = np.dtype(arg.dtype)
    value = value.item() if isinstance(value, np.generic) else value
    if isinstance(value, complex):
        return kernel
    fixed = (*kernel.options.fixed_parameters, (arg.name, value, dtype.name))
    return replace(kernel, options=replace(kernel.options, fixed_parameters=fixed))


def _check_value(name: str, value: Any, *, in_domain: bool) -> Any:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (Number, np.generic)):
        raise TransformError(f"fix_parameters: value for {name!r} must be a number, got "
                             f"{value!r}")
    if in_domain:
        if not (isinstance(value, (int, np.integer))):
            raise TransformError(f"fix_parameters: {name!r} bounds a loop domain; its value "
                                 f"must be an integer, got {value!r}")
        return int(value)
    return value


def _map_arg(arg: Any, fn: Any) -> Any:
    if isinstance(arg, ValueArg):
        return arg
    return _map_array(arg, fn)


def _map_array(ary: ArrayArg | TemporaryVariable, fn: Any) -> Any:
    """Apply `fn` to the expressions of an array's shape, strides and offset."""
    changes: dict[str, Any] = {}
    if ary.shape is not None:
        shape = tuple(None if e is None else fn(e) for e in ary.shape)
        if shape != ary.shape:
            changes["shape"] = shape
    if ary.dim_tags is not None:
        tags = tuple(replace(t, stride=fn(t.stride)) if isinstance(t, FixedStrideTag) else t
                     for t in ary.dim_tags)
        if tags != ary.dim_tags:
            changes["dim_tags"] = tags
    if isinstance(ary, ArrayArg):
        offset = fn(ary.offset)
        if offset != ary.offset:
            changes["offset"] = offset
    return replace(ary, **changes) if changes else ary


@transform()
def assume(kernel: Kernel, assumptions: Any) -> Kernel:
    """Add an assumption about the domain parameters (ISL syntax).

    A conjunction such as ``"n mod 16 = 0 and n >= 16"`` (or an islpy set); it joins
    (intersects) the assumptions already made.  Example::

        before: assumptions = None
        assume(knl, "n mod 4 = 0")
        after:  assumptions = [n] -> { : n mod 4 = 0 }
    """
    given = isl_glue.as_param_set(assumptions)
    if given is None and not isinstance(assumptions, str):
        raise TransformError(f"assume: assumptions must be a string in ISL syntax, got "
                             f"{assumptions!r}")
    names = {prm for d in kernel.domains for prm in isl_glue.params_of(d)}
    names |= {a.name for a in kernel.value_args}
    if kernel.assumptions is not None:
        names |= set(isl_glue.params_of(kernel.assumptions))
    text = str(assumptions)
    try:
        new = given if given is not None else isl_glue.parse_param_set(text, names)
    except DomainError as e:
        raise TransformError(f"assume: {e.message}") from None
    merged = isl_glue.intersect_params(kernel.assumptions, new)
    if merged.is_empty():
        raise TransformError(f"assume: {text!r} contradicts the assumptions already made "
                             "(no parameter values satisfy them all)")
    if kernel.assumptions is not None and merged.is_equal(kernel.assumptions.params()):
        return kernel
    return replace(kernel, assumptions=merged)
