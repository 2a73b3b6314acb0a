"""Fortran intrinsic functions -> IR functions (`translator.ir.expr.IR_FUNCTIONS`) and casts.

Each handler takes the builder, the intrinsic's name and its argument nodes (positional or
``keyword=value``) and returns a `Typed`.  Elemental intrinsics work element-wise in array
expressions because their arguments are converted in the builder's current context.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import pymbolic.primitives as p

from frontends.fortran.source import class_name, walk
from frontends.fortran.types import DOUBLE, INTEGER, LOGICAL, REAL, VALID_KINDS, FType, promote
# Typed values and their operations (power included) are values'; re-exported here.
from frontends.fortran.values import (Typed, add_expr, arith, as_float, call, cast, is_constant,
                                      negate, power)

COMPLEX = FType("complex", 4)
DCOMPLEX = FType("complex", 8)
from translator.diagnostics import FrontendError, UnsupportedConstructError
from translator.ir.expr import Reduction, TypeCast
from translator.ir.reduction_ops import neutral_element

if TYPE_CHECKING:
    from frontends.fortran.expressions import ExprBuilder

Handler = Callable[["ExprBuilder", str, list], Typed]


def split_args(builder: ExprBuilder, name: str, args: list, names: tuple[str, ...],
               required: int) -> dict[str, Any]:
    """Positional and keyword actual arguments, by the intrinsic's dummy names."""
    out: dict[str, Any] = {}
    for k, a in enumerate(args):
        if class_name(a) == "Actual_Arg_Spec":
            key = str(a.items[0]).lower()
            if key not in names:
                raise FrontendError(f"intrinsic {name}: unknown keyword argument {key!r}",
                                    builder.ctx.span(name))
            out[key] = a.items[1]
        elif k < len(names):
            out[names[k]] = a
        else:
            raise FrontendError(f"intrinsic {name}: too many arguments", builder.ctx.span(name))
    missing = [n for n in names[:required] if n not in out]
    if missing:
        raise FrontendError(f"intrinsic {name}: missing argument {missing[0]!r}",
                            builder.ctx.span(name))
    return out


def _numeric(builder: ExprBuilder, name: str, node: Any) -> Typed:
    t = builder.visit(node)
    if not t.ftype.is_numeric:
        raise UnsupportedConstructError(f"intrinsic {name}: argument {node} is "
                                        f"{t.ftype.base}, not numeric", builder.ctx.span(name))
    return t


def _real_numeric(builder: ExprBuilder, name: str, node: Any) -> Typed:
    """A numeric argument that must not be complex (intrinsics that need an order)."""
    t = _numeric(builder, name, node)
    if t.ftype.base == "complex":
        raise UnsupportedConstructError(f"intrinsic {name}: argument {node} is complex; "
                                        f"{name} needs integer or real arguments",
                                        builder.ctx.span(name))
    return t


def _kind_arg(builder: ExprBuilder, a: dict, base: str, default: int) -> FType:
    if "kind" not in a:
        return FType(base, default)
    value = builder.constant_int(a["kind"], "a kind argument")
    if value not in VALID_KINDS[base]:
        raise UnsupportedConstructError(f"{base} kind {value} is not supported",
                                        builder.ctx.span())
    return FType(base, value)


# ---------------------------------------------------------------------------------------------
# math

def _math(ir_name: str, force: FType | None = None) -> Handler:
    def handler(builder: ExprBuilder, name: str, args: list) -> Typed:
        a = split_args(builder, name, args, ("x",), 1)
        t = as_float(_numeric(builder, name, a["x"]))
        _check_complex_math(builder, name, ir_name, t, force)
        if force is not None:
            t = Typed(cast(t, force), force)
        return Typed(call(ir_name, t.expr), t.ftype)
    return handler


#: Elemental functions with a complex version in the OpenCL target.
_COMPLEX_MATH = ("sqrt", "exp", "log", "sin", "cos")


def _check_complex_math(builder: ExprBuilder, name: str, ir_name: str, t: Typed,
                        force: FType | None) -> None:
    is_complex = t.ftype.base == "complex"
    if is_complex and ir_name not in _COMPLEX_MATH:
        raise UnsupportedConstructError(
            f"intrinsic {name} of a complex argument is not supported (complex arguments: "
            f"{', '.join(_COMPLEX_MATH)}, abs)", builder.ctx.span(name))
    if force is not None and (force.base == "complex") != is_complex:
        raise FrontendError(f"intrinsic {name}: the argument must be {force.base}, not "
                            f"{t.ftype.base}", builder.ctx.span(name))


def _abs(builder: ExprBuilder, name: str, args: list) -> Typed:
    a = split_args(builder, name, args, ("a",), 1)
    t = _numeric(builder, name, a["a"])
    target = {"dabs": DOUBLE, "iabs": INTEGER, "cabs": COMPLEX, "cdabs": DCOMPLEX,
              "zabs": DCOMPLEX}.get(name)
    if target is not None:
        if (target.base == "complex") != (t.ftype.base == "complex"):
            raise FrontendError(f"intrinsic {name}: the argument must be {target.base}, not "
                                f"{t.ftype.base}", builder.ctx.span(name))
        t = Typed(cast(t, target), target)
    if t.ftype.base == "complex":   # |z| is real, of the kind of z
        return Typed(call("abs", t.expr), FType("real", t.ftype.kind))
    return Typed(call("abs", t.expr), t.ftype)


def _atan2(builder: ExprBuilder, name: str, args: list) -> Typed:
    a = split_args(builder, name, args, ("y", "x"), 1)
    if "x" not in a:
        return _math("atan")(builder, name, args)
    y = as_float(_real_numeric(builder, name, a["y"]))
    x = as_float(_real_numeric(builder, name, a["x"]))
    t = promote(y.ftype, x.ftype)
    return Typed(call("atan2", cast(y, t), cast(x, t)), t)


def _real_pair(ir_name: str) -> Handler:
    """hypot(x, y): two reals of one kind (the promoted one, as gfortran accepts)."""
    def handler(builder: ExprBuilder, name: str, args: list) -> Typed:
        a = split_args(builder, name, args, ("x", "y"), 2)
        x = as_float(_real_numeric(builder, name, a["x"]))
        y = as_float(_real_numeric(builder, name, a["y"]))
        t = promote(x.ftype, y.ftype)
        return Typed(call(ir_name, cast(x, t), cast(y, t)), t)
    return handler


def _scale(builder: ExprBuilder, name: str, args: list) -> Typed:
    """scale(x, i) = x * 2**i, exactly: OpenCL's ldexp (the radix is 2)."""
    a = split_args(builder, name, args, ("x", "i"), 2)
    x = as_float(_real_numeric(builder, name, a["x"]))
    i = _real_numeric(builder, name, a["i"])
    if i.ftype.base != "integer":
        raise FrontendError(f"intrinsic {name}: argument i must be an integer",
                            builder.ctx.span(name))
    return Typed(call("ldexp", x.expr, cast(i, INTEGER)), x.ftype)


#: Elemental intrinsics OpenCL C has no counterpart for: refused by name, with the reason.
NOT_IN_OPENCL = {
    **dict.fromkeys(("bessel_j0", "bessel_j1", "bessel_jn", "bessel_y0", "bessel_y1",
                     "bessel_yn", "besj0", "besj1", "besjn", "besy0", "besy1", "besyn",
                     "dbesj0", "dbesj1", "dbesjn", "dbesy0", "dbesy1", "dbesyn"),
                    "OpenCL C has no Bessel functions"),
    "erfc_scaled": "OpenCL C has no erfc_scaled (exp(x**2)*erfc(x) overflows where it "
                   "does not)",
    **dict.fromkeys(("set_exponent", "rrspacing"),
                    "OpenCL C has no direct counterpart of this model function"),
}


#: What to write instead of array intrinsics a region cannot hold (h71 hunt).
REWRITES = {
    **dict.fromkeys(("maxloc", "minloc"), (
        "write the loop it stands for (its first extreme): k = 1; do j = 2, n; if (a(j) > "
        "a(k)) k = j; end do (< for minloc)")),
    "findloc": ("write the search: k = n + 1 before a loop, if (a(j) == v) k = min(k, j) in "
                "it"),
    "norm2": ("write sqrt(sum(x**2)) (gfortran's norm2 scales the sum against overflow: the "
              "last bits may differ)"),
}


def refuse_not_in_opencl(builder: ExprBuilder, name: str, args: list) -> Typed:
    raise UnsupportedConstructError(
        f"intrinsic function {name!r} cannot be translated: {NOT_IN_OPENCL[name]}; compute it "
        "before the region, or give the device your own with a register_function pragma",
        builder.ctx.span(name))


def _minmax(ir_name: str, force: FType | None = None) -> Handler:
    def handler(builder: ExprBuilder, name: str, args: list) -> Typed:
        if len(args) < 2:
            raise FrontendError(f"intrinsic {name} needs at least two arguments",
                                builder.ctx.span(name))
        ts = [_real_numeric(builder, name, a) for a in args]
        result = ts[0].ftype
        for t in ts[1:]:
            result = promote(result, t.ftype)
        exprs = tuple(cast(t, result) for t in ts)
        out = Typed(call(ir_name, *exprs), result)
        if force is not None:
            out = Typed(cast(out, force), force)
        return out
    return handler


def _mod(builder: ExprBuilder, name: str, args: list) -> Typed:
    a = split_args(builder, name, args, ("a", "p"), 2)
    x, y = _real_numeric(builder, name, a["a"]), _real_numeric(builder, name, a["p"])
    t = promote(x.ftype, y.ftype)
    fn = "rem" if t.base == "integer" else "fmod"
    return Typed(call(fn, cast(x, t), cast(y, t)), t)


def _modulo(builder: ExprBuilder, name: str, args: list) -> Typed:
    a = split_args(builder, name, args, ("a", "p"), 2)
    x, y = _real_numeric(builder, name, a["a"]), _real_numeric(builder, name, a["p"])
    t = promote(x.ftype, y.ftype)
    xe, ye = cast(x, t), cast(y, t)
    # floor modulo; for reals as gfortran computes it (fmod, then + p where the signs
    # differ), not a - floor(a/p)*p, which rounds differently in the last bit
    return Typed(p.Remainder(xe, ye), t)


def _sign(builder: ExprBuilder, name: str, args: list) -> Typed:
    a = split_args(builder, name, args, ("a", "b"), 2)
    x, y = _real_numeric(builder, name, a["a"]), _real_numeric(builder, name, a["b"])
    t = promote(x.ftype, y.ftype)
    xe, ye = cast(x, t), cast(y, t)
    if t.base == "real":
        return Typed(call("copysign", call("abs", xe), ye), t)
    mag = call("abs", xe)
    return Typed(p.If(p.Comparison(ye, ">=", 0), mag, negate(mag)), t)


def _dim(builder: ExprBuilder, name: str, args: list) -> Typed:
    a = split_args(builder, name, args, ("x", "y"), 2)
    x, y = _real_numeric(builder, name, a["x"]), _real_numeric(builder, name, a["y"])
    t = promote(x.ftype, y.ftype)
    zero = t.dtype.type(0)
    return Typed(call("max", p.Sum((cast(x, t), negate(cast(y, t)))), zero), t)


# ---------------------------------------------------------------------------------------------
# conversions

def _to_real(default_kind: int | None) -> Handler:
    def handler(builder: ExprBuilder, name: str, args: list) -> Typed:
        a = split_args(builder, name, args, ("a", "kind"), 1)
        t = _numeric(builder, name, a["a"])
        if default_kind is None:
            # real(z) of a complex z has the kind of z
            own = t.ftype.kind if t.ftype.base == "complex" else 4
            target = _kind_arg(builder, a, "real", own)
        else:
            target = FType("real", default_kind)
        return Typed(cast(t, target), target)
    return handler


def _to_int(rounding: str | None) -> Handler:
    def handler(builder: ExprBuilder, name: str, args: list) -> Typed:
        a = split_args(builder, name, args, ("a", "kind"), 1)
        t = _numeric(builder, name, a["a"])
        target = _kind_arg(builder, a, "integer", 4)
        if t.ftype.base == "complex":   # int(z) converts the real part
            part = FType("real", t.ftype.kind)
            t = Typed(cast(t, part), part)
        if t.ftype.base == "integer":
            return Typed(cast(t, target), target)
        if is_constant(t.expr):
            fn = {None: np.trunc, "round": _round_half_away, "floor": np.floor,
                  "ceil": np.ceil}[rounding]
            return Typed(target.dtype.type(int(fn(t.expr))), target)
        inner = t.expr if rounding is None else call(rounding, t.expr)
        # a C conversion to an integer type truncates, which is INT's definition
        return Typed(TypeCast(target.dtype, inner), target)
    return handler


def _round_half_away(x: Any) -> Any:
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def _real_round(ir_name: str) -> Handler:
    def handler(builder: ExprBuilder, name: str, args: list) -> Typed:
        a = split_args(builder, name, args, ("a", "kind"), 1)
        t = as_float(_real_numeric(builder, name, a["a"]))
        if "kind" in a:
            target = _kind_arg(builder, a, "real", 4)
            t = Typed(cast(t, target), target)
        return Typed(call(ir_name, t.expr), t.ftype)
    return handler


def _cmplx(default_kind: int | None) -> Handler:
    """cmplx(x [, y] [, kind]): default complex kind unless kind= says otherwise (dcmplx: 8)."""
    def handler(builder: ExprBuilder, name: str, args: list) -> Typed:
        a = split_args(builder, name, args, ("x", "y", "kind"), 1)
        x = _numeric(builder, name, a["x"])
        kind = default_kind or _kind_arg(builder, a, "complex", 4).kind
        target, part = FType("complex", kind), FType("real", kind)
        if "y" not in a:
            return Typed(cast(x, target), target)
        if x.ftype.base == "complex":
            raise FrontendError(f"intrinsic {name}: x must not be complex when y is present",
                                builder.ctx.span(name))
        xe, ye = cast(x, part), cast(_real_numeric(builder, name, a["y"]), part)
        if is_constant(xe) and is_constant(ye):
            return Typed(target.dtype.type(complex(float(xe), float(ye))), target)
        return Typed(call("complex", xe, ye), target)
    return handler


def _complex_part(ir_name: str, kind: int | None = None) -> Handler:
    """aimag/conjg and their specific names: the argument must be complex (of `kind`)."""
    def handler(builder: ExprBuilder, name: str, args: list) -> Typed:
        a = split_args(builder, name, args, ("z",), 1)
        t = _numeric(builder, name, a["z"])
        if t.ftype.base != "complex" or (kind is not None and t.ftype.kind != kind):
            want = "complex" if kind is None else f"complex({kind})"
            raise FrontendError(f"intrinsic {name}: the argument must be {want}, not "
                                f"{t.ftype}", builder.ctx.span(name))
        result = t.ftype if ir_name == "conj" else FType("real", t.ftype.kind)
        if is_constant(t.expr):
            fold = {"conj": np.conj, "imag": np.imag}[ir_name]
            return Typed(result.dtype.type(fold(t.expr)), result)
        return Typed(call(ir_name, t.expr), result)
    return handler


def _dprod(builder: ExprBuilder, name: str, args: list) -> Typed:
    a = split_args(builder, name, args, ("x", "y"), 2)
    x, y = _numeric(builder, name, a["x"]), _numeric(builder, name, a["y"])
    return Typed(p.Product((cast(x, DOUBLE), cast(y, DOUBLE))), DOUBLE)


def _merge(builder: ExprBuilder, name: str, args: list) -> Typed:
    a = split_args(builder, name, args, ("tsource", "fsource", "mask"), 3)
    x, y, m = builder.visit(a["tsource"]), builder.visit(a["fsource"]), builder.visit(a["mask"])
    if m.ftype.base != "logical":
        raise FrontendError("merge: the mask must be logical", builder.ctx.span(name))
    t = promote(x.ftype, y.ftype) if x.ftype.is_numeric and y.ftype.is_numeric else x.ftype
    return Typed(p.If(m.expr, cast(x, t), cast(y, t)), t)


# ---------------------------------------------------------------------------------------------
# inquiry and constants

def _size(builder: ExprBuilder, name: str, args: list) -> Typed:
    a = split_args(builder, name, args, ("array", "dim", "kind"), 1)
    sym = _array_arg(builder, name, a["array"])
    layout = builder.ctx.layout(sym)
    builder.ctx.touch(sym)
    axes = range(len(layout.extents))
    if "dim" in a:
        k = builder.constant_int(a["dim"], f"the dim argument of {name}") - 1
        if not 0 <= k < len(layout.extents):
            raise FrontendError(f"{name}: dim {k + 1} out of range for {sym.name!r}",
                                builder.ctx.span(name))
        axes = range(k, k + 1)
    lower = layout.lowers
    ext = [layout.extents[k] for k in axes]
    if any(e is None for e in ext):
        raise FrontendError(f"{name} of assumed-size array {sym.name!r}: its last extent is "
                            "unknown", builder.ctx.span(name))
    if name == "size":
        out = ext[0] if len(ext) == 1 else p.Product(tuple(ext))
        return Typed(out, INTEGER)
    if len(ext) != 1:
        raise UnsupportedConstructError(f"{name} without dim= is not supported",
                                        builder.ctx.span(name))
    k = axes[0]
    if name == "lbound":
        return Typed(lower[k], INTEGER)
    return Typed(add_expr(lower[k], ext[0], -1), INTEGER)


def _present(builder: ExprBuilder, name: str, args: list) -> Typed:
    node = split_args(builder, name, args, ("a",), 1)["a"]
    if class_name(node) != "Name" or not hasattr(builder.ctx, "present_flag"):
        raise UnsupportedConstructError(f"present({node}) is not supported here",
                                        builder.ctx.span(name))
    return builder.ctx.present_flag(str(node).lower())


def _array_arg(builder: ExprBuilder, name: str, node: Any):
    if class_name(node) == "Data_Ref" and hasattr(builder.ctx, "component"):
        return _component_array_arg(builder, name, node)
    if class_name(node) != "Name":
        raise UnsupportedConstructError(f"{name} of {node}: only whole named arrays are "
                                        "supported", builder.ctx.span(name))
    sym = builder.lookup(str(node).lower())
    if not sym.is_array:
        raise FrontendError(f"{name}: {sym.name!r} is not an array", builder.ctx.span(name))
    return sym


def _component_array_arg(builder: ExprBuilder, name: str, node: Any):
    """``size(p%v)``, ``ubound(grid%u, 2)``: a whole array component, by its symbol."""
    sym, subs = builder.ctx.component(node)
    if subs is not None or not sym.is_array:
        raise UnsupportedConstructError(f"{name} of {node}: only whole arrays (a named array "
                                        "or an array component) are supported",
                                        builder.ctx.span(name))
    return sym


def _type_of_arg(builder: ExprBuilder, name: str, args: list) -> FType:
    """The type of an inquiry function's argument (which may be a whole array)."""
    node = split_args(builder, name, args, ("x",), 1)["x"]
    if class_name(node) in ("Name", "Part_Ref"):
        word = str(node if class_name(node) == "Name" else node.items[0]).lower()
        sym = builder.ctx.scope.lookup(word)
        if sym is not None and builder.ctx.loop_value(word) is None:
            return builder.type_of(sym)
    return builder.visit(node).ftype


def _kind(builder: ExprBuilder, name: str, args: list) -> Typed:
    return Typed(np.int32(_type_of_arg(builder, name, args).kind), INTEGER)


def _selected_kind(base: str) -> Handler:
    def handler(builder: ExprBuilder, name: str, args: list) -> Typed:
        names = ("p", "r") if base == "real" else ("r",)
        a = split_args(builder, name, args, names, 0)
        prec = builder.constant_int(a["p"], "p") if "p" in a else 0
        rng = builder.constant_int(a["r"], "r") if "r" in a else 0
        if base == "real":
            kind = 4 if prec <= 6 and rng <= 37 else 8 if prec <= 15 and rng <= 307 else -1
        else:
            kind = 1 if rng <= 2 else 2 if rng <= 4 else 4 if rng <= 9 else 8 if rng <= 18 else -1
        return Typed(np.int32(kind), INTEGER)
    return handler


def _numeric_inquiry(builder: ExprBuilder, name: str, args: list) -> Typed:
    ftype = _type_of_arg(builder, name, args)
    if ftype.base not in ("integer", "real"):
        raise FrontendError(f"intrinsic {name}: the argument must be integer or real, not "
                            f"{ftype.base}", builder.ctx.span(name))
    dt = ftype.dtype
    info = np.finfo(dt) if ftype.base == "real" else np.iinfo(dt)
    value = {"huge": info.max, "tiny": getattr(info, "tiny", 0),
             "epsilon": getattr(info, "eps", 0)}[name]
    return Typed(dt.type(value), ftype)


# ---------------------------------------------------------------------------------------------
# powers and reductions

_REDUCTIONS = {"sum": "sum", "product": "product", "maxval": "max", "minval": "min",
               "dot_product": "sum", "count": "sum", "any": "sum", "all": "sum"}
#: Intrinsics whose (only) array argument is a logical mask.
_MASK_REDUCTIONS = ("count", "any", "all")


def _reduction(builder: ExprBuilder, name: str, args: list) -> Typed:
    if name == "dot_product":
        names: tuple[str, ...] = ("vector_a", "vector_b")
    elif name in _MASK_REDUCTIONS:
        names = ("mask", "dim", "kind") if name == "count" else ("mask", "dim")
    else:
        names = ("array", "dim", "mask")
    a = split_args(builder, name, args, names, 2 if name == "dot_product" else 1)
    if "dim" in a:
        raise UnsupportedConstructError(f"{name} with dim= is not supported",
                                        builder.ctx.span(name))
    if builder.sections is not None:
        raise UnsupportedConstructError(f"{name} inside an array expression is not supported",
                                        builder.ctx.span(name))
    first = a[names[0]]
    listed = [a[n] for n in names[:2] if n in a and class_name(a[n]) == "Array_Constructor"]
    direct = None
    if listed and (name == "dot_product" or listed[0] is first):
        # sum([a(i), b(i)]): a reduction over the constructor's positions; over one implied
        # DO of one value, sum([(w(j) * x(i + j), j = -m, m)]), the DO's own range
        implied = builder.implied_bounds(listed[0]) if len(listed) == 1 else None
        if implied is not None:
            direct, bounds = listed[0], [implied]
        else:
            count = builder.constructor_length(listed[0])
            bounds = [(np.int32(1), np.int32(count), 1)]
    else:
        bounds = builder.section_bounds(_first_section_ref(builder, first, name))
    inames = builder.ctx.reduction_inames(bounds, builder.ctx.span(name))
    builder.sections = inames
    builder.direct_implied = direct
    try:
        body = _reduction_body(builder, name, a)
    finally:
        builder.sections = None
        builder.direct_implied = None
    reduction = Reduction(_REDUCTIONS[name], tuple(inames), body.expr)
    if name in ("any", "all"):
        # any: some element is true (the count of true ones is positive); all: no element is
        # false.  Counting keeps one associative operation, so both run in parallel too.
        return Typed(p.Comparison(reduction, ">" if name == "any" else "==", np.int32(0)),
                     LOGICAL)
    return Typed(reduction, body.ftype)


def _reduction_body(builder: ExprBuilder, name: str, a: dict) -> Typed:
    if name == "dot_product":
        x, y = builder.visit(a["vector_a"]), builder.visit(a["vector_b"])
        if x.ftype.base == "complex":   # dot_product(a, b) = sum(conjg(a) * b)
            x = Typed(call("conj", x.expr), x.ftype)
        return arith(x, "*", y, builder)
    if name in _MASK_REDUCTIONS:
        mask = builder.visit(a["mask"])
        if mask.ftype.base != "logical":
            raise FrontendError(f"{name}: the argument must be logical, not {mask.ftype.base}",
                                builder.ctx.span(name))
        # count sums in the integer kind it returns
        kind = _kind_arg(builder, a, "integer", 4) if name == "count" else INTEGER
        one, zero = kind.dtype.type(1), kind.dtype.type(0)
        hit, miss = (zero, one) if name == "all" else (one, zero)
        return Typed(p.If(_truth(mask.expr), hit, miss), kind)
    body = _numeric(builder, name, a["array"])
    if body.ftype.base == "complex" and name in ("maxval", "minval"):
        raise UnsupportedConstructError(f"{name} of complex values: complex values have no "
                                        "order", builder.ctx.span(name))
    if "mask" in a:
        if name not in ("sum", "product"):
            raise UnsupportedConstructError(f"{name} with mask= is not supported",
                                            builder.ctx.span(name))
        mask = builder.visit(a["mask"])
        neutral = neutral_element(name, body.ftype.dtype)
        return Typed(p.If(mask.expr, body.expr, neutral), body.ftype)
    return body


def _truth(expr: Any) -> Any:
    """A logical value as a condition: comparisons as they are, stored logicals (integers,
    .true. = 1) compared with zero."""
    if isinstance(expr, (p.Comparison, p.LogicalAnd, p.LogicalOr, p.LogicalNot)):
        return expr
    return p.Comparison(expr, "!=", 0)


def _first_section_ref(builder: ExprBuilder, node: Any, name: str) -> Any:
    for n in walk(node):
        if class_name(n) in ("Name", "Part_Ref", "Data_Ref") and builder.section_rank(n) > 0:
            return n
    raise FrontendError(f"{name}: the argument is not an array", builder.ctx.span(name))


INTRINSICS: dict[str, Handler] = {
    "abs": _abs, "dabs": _abs, "iabs": _abs,
    "cabs": _abs, "cdabs": _abs, "zabs": _abs,
    "sqrt": _math("sqrt"), "dsqrt": _math("sqrt", DOUBLE),
    "exp": _math("exp"), "dexp": _math("exp", DOUBLE),
    "log": _math("log"), "alog": _math("log", REAL), "dlog": _math("log", DOUBLE),
    "log10": _math("log10"), "alog10": _math("log10", REAL), "dlog10": _math("log10", DOUBLE),
    "sin": _math("sin"), "dsin": _math("sin", DOUBLE), "cos": _math("cos"),
    "dcos": _math("cos", DOUBLE), "tan": _math("tan"), "dtan": _math("tan", DOUBLE),
    "asin": _math("asin"), "dasin": _math("asin", DOUBLE), "acos": _math("acos"),
    "dacos": _math("acos", DOUBLE), "atan": _atan2, "datan": _math("atan", DOUBLE),
    "atan2": _atan2, "datan2": _atan2, "sinh": _math("sinh"), "cosh": _math("cosh"),
    "tanh": _math("tanh"), "dsinh": _math("sinh", DOUBLE), "dcosh": _math("cosh", DOUBLE),
    "dtanh": _math("tanh", DOUBLE),
    "min": _minmax("min"), "max": _minmax("max"), "amin1": _minmax("min", REAL),
    "amax1": _minmax("max", REAL), "dmin1": _minmax("min", DOUBLE),
    "dmax1": _minmax("max", DOUBLE), "min0": _minmax("min", INTEGER),
    "max0": _minmax("max", INTEGER),
    # FORTRAN 77's specific names of a type other than their arguments'
    "max1": _minmax("max", INTEGER), "min1": _minmax("min", INTEGER),
    "amax0": _minmax("max", REAL), "amin0": _minmax("min", REAL),
    "mod": _mod, "amod": _mod, "dmod": _mod, "modulo": _modulo, "sign": _sign,
    "dsign": _sign, "isign": _sign, "dim": _dim, "idim": _dim, "ddim": _dim,
    "real": _to_real(None), "float": _to_real(4), "sngl": _to_real(4), "dble": _to_real(8),
    "dfloat": _to_real(8),
    "int": _to_int(None), "ifix": _to_int(None), "idint": _to_int(None),
    "nint": _to_int("round"), "idnint": _to_int("round"), "floor": _to_int("floor"),
    "ceiling": _to_int("ceil"), "aint": _real_round("trunc"), "dint": _real_round("trunc"),
    "anint": _real_round("round"), "dnint": _real_round("round"), "dprod": _dprod,
    "cmplx": _cmplx(None), "dcmplx": _cmplx(8), "aimag": _complex_part("imag"),
    "dimag": _complex_part("imag", 8), "conjg": _complex_part("conj"),
    "dconjg": _complex_part("conj", 8),
    "csqrt": _math("sqrt", COMPLEX), "cdsqrt": _math("sqrt", DCOMPLEX),
    "zsqrt": _math("sqrt", DCOMPLEX), "cexp": _math("exp", COMPLEX),
    "cdexp": _math("exp", DCOMPLEX), "zexp": _math("exp", DCOMPLEX),
    "clog": _math("log", COMPLEX), "cdlog": _math("log", DCOMPLEX),
    "zlog": _math("log", DCOMPLEX), "csin": _math("sin", COMPLEX),
    "cdsin": _math("sin", DCOMPLEX), "zsin": _math("sin", DCOMPLEX),
    "ccos": _math("cos", COMPLEX), "cdcos": _math("cos", DCOMPLEX),
    "zcos": _math("cos", DCOMPLEX),
    "merge": _merge, "present": _present, "size": _size, "lbound": _size, "ubound": _size,
    "kind": _kind,
    "selected_real_kind": _selected_kind("real"), "selected_int_kind": _selected_kind("int"),
    "huge": _numeric_inquiry, "tiny": _numeric_inquiry, "epsilon": _numeric_inquiry,
    "sum": _reduction, "product": _reduction, "maxval": _reduction, "minval": _reduction,
    "dot_product": _reduction, "count": _reduction, "any": _reduction, "all": _reduction,
    # Fortran 2008 elemental functions OpenCL C has (and GNU's specific names of them)
    "erf": _math("erf"), "erfc": _math("erfc"), "gamma": _math("tgamma"),
    "log_gamma": _math("lgamma"), "derf": _math("erf", DOUBLE), "derfc": _math("erfc", DOUBLE),
    "dgamma": _math("tgamma", DOUBLE), "algama": _math("lgamma", REAL),
    "dlgama": _math("lgamma", DOUBLE), "asinh": _math("asinh"), "acosh": _math("acosh"),
    "atanh": _math("atanh"), "hypot": _real_pair("hypot"), "scale": _scale,
    **dict.fromkeys(NOT_IN_OPENCL, refuse_not_in_opencl),
}   # the bit intrinsics, logical and nearest: frontends.fortran.bit_intrinsics adds them

__all__ = ["INTRINSICS", "power"]
