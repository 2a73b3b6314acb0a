"""Fortran's elemental bit intrinsics that OpenCL C has as operators (iand, ior, ieor, not,
btest, ibset, ibclr, merge_bits, and the unsigned comparisons bge, bgt, ble, blt), the counts
popcnt and poppar (OpenCL's ``popcount``), the logical shift ishft and the field ibits (written
so that a shift never reaches the bit size), ``logical`` and ``nearest`` (OpenCL's
``nextafter``).

The bit intrinsics work on the two's complement bits of their integer argument, as gfortran
does; positions are ``0 <= pos < bit_size(i)`` (Fortran requires it; others are refused when
the position is a constant).  The other shift and count intrinsics (ishftc, shifta, leadz,
...) and the masks (maskl, maskr) are refused by name: a Fortran shift by the full bit size
gives 0 where OpenCL C takes the count modulo the bit size, and leadz needs ``clz``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pymbolic.primitives as p

from frontends.fortran.intrinsics import (INTRINSICS, _kind_arg, _numeric, _real_numeric,
                                          split_args)
from frontends.fortran.types import INTEGER, LOGICAL, FType, promote
from frontends.fortran.values import Typed, call, cast, is_constant, negate
from translator.diagnostics import FrontendError, UnsupportedConstructError
from translator.ir.expr import TypeCast

if TYPE_CHECKING:
    from frontends.fortran.expressions import ExprBuilder


def _integer(builder: ExprBuilder, name: str, node: Any) -> Typed:
    t = _numeric(builder, name, node)
    if t.ftype.base != "integer":
        raise FrontendError(f"intrinsic {name}: argument {node} is {t.ftype.base}, not integer",
                            builder.ctx.span(name))
    return t


def _operands(builder: ExprBuilder, name: str, args: list, names: tuple[str, ...]
              ) -> tuple[FType, list[Any]]:
    a = split_args(builder, name, args, names, len(names))
    values = [_integer(builder, name, a[n]) for n in names]
    t = values[0].ftype
    for v in values[1:]:
        t = promote(t, v.ftype)
    return t, [cast(v, t) for v in values]


def _logic(op: type) -> Any:
    def handler(builder: ExprBuilder, name: str, args: list) -> Typed:
        t, (i, j) = _operands(builder, name, args, ("i", "j"))
        return Typed(op((i, j)), t)
    return handler


def _not(builder: ExprBuilder, name: str, args: list) -> Typed:
    t, (i,) = _operands(builder, name, args, ("i",))
    return Typed(p.BitwiseNot(i), t)


def _bit(builder: ExprBuilder, name: str, args: list) -> tuple[FType, Any, Any]:
    """The integer, its type, and the mask ``1 << pos`` in that type."""
    a = split_args(builder, name, args, ("i", "pos"), 2)
    i = _integer(builder, name, a["i"])
    pos = _integer(builder, name, a["pos"])
    bits = 8 * i.ftype.kind
    if is_constant(pos.expr) and not 0 <= int(pos.expr) < bits:
        raise FrontendError(f"intrinsic {name}: pos {int(pos.expr)} is outside 0 to {bits - 1} "
                            f"(the bits of integer({i.ftype.kind}))", builder.ctx.span(name))
    one = i.ftype.dtype.type(1)
    return i.ftype, i.expr, p.LeftShift(one, cast(pos, i.ftype))


def _btest(builder: ExprBuilder, name: str, args: list) -> Typed:
    t, i, mask = _bit(builder, name, args)
    return Typed(p.Comparison(p.BitwiseAnd((i, mask)), "!=", t.dtype.type(0)), LOGICAL)


def _ibset(builder: ExprBuilder, name: str, args: list) -> Typed:
    t, i, mask = _bit(builder, name, args)
    return Typed(p.BitwiseOr((i, mask)), t)


def _ibclr(builder: ExprBuilder, name: str, args: list) -> Typed:
    t, i, mask = _bit(builder, name, args)
    return Typed(p.BitwiseAnd((i, p.BitwiseNot(mask))), t)


def _unsigned_compare(op: str) -> Any:
    """bge, bgt, ble, blt: the bits compared as unsigned numbers (the shorter argument is
    extended with zeros, as Fortran 2008 says)."""
    def handler(builder: ExprBuilder, name: str, args: list) -> Typed:
        a = split_args(builder, name, args, ("i", "j"), 2)
        i, j = _integer(builder, name, a["i"]), _integer(builder, name, a["j"])
        wide = np.dtype(f"u{max(i.ftype.kind, j.ftype.kind)}")
        ui, uj = (TypeCast(wide, TypeCast(np.dtype(f"u{t.ftype.kind}"), t.expr))
                  for t in (i, j))
        return Typed(p.Comparison(ui, op, uj), LOGICAL)
    return handler


def _merge_bits(builder: ExprBuilder, name: str, args: list) -> Typed:
    """merge_bits(i, j, mask): the bits of i where mask has ones, of j elsewhere."""
    t, (i, j, mask) = _operands(builder, name, args, ("i", "j", "mask"))
    return Typed(p.BitwiseOr((p.BitwiseAnd((i, mask)),
                              p.BitwiseAnd((j, p.BitwiseNot(mask))))), t)


def _logical(builder: ExprBuilder, name: str, args: list) -> Typed:
    """logical(l, kind): the same truth value (logical kinds differ only in storage)."""
    a = split_args(builder, name, args, ("l", "kind"), 1)
    value = builder.visit(a["l"])
    if value.ftype.base != "logical":
        raise FrontendError(f"intrinsic {name}: argument {a['l']} is {value.ftype.base}, not "
                            "logical", builder.ctx.span(name))
    return Typed(value.expr, _kind_arg(builder, a, "logical", 4))


def _nearest(builder: ExprBuilder, name: str, args: list) -> Typed:
    """nearest(x, s): the next number after x towards +inf if s > 0, -inf if s < 0."""
    a = split_args(builder, name, args, ("x", "s"), 2)
    x, s = _real_numeric(builder, name, a["x"]), _real_numeric(builder, name, a["s"])
    if x.ftype.base != "real" or s.ftype.base != "real":
        raise FrontendError(f"intrinsic {name}: x and s must be real", builder.ctx.span(name))
    if is_constant(s.expr) and float(s.expr) == 0:
        raise FrontendError(f"intrinsic {name}: s must not be zero", builder.ctx.span(name))
    inf = x.ftype.dtype.type(np.inf)
    toward = call("copysign", inf, cast(s, x.ftype))
    return Typed(call("nextafter", x.expr, toward), x.ftype)


def _real_arg(builder: ExprBuilder, name: str, args: list) -> Typed:
    a = split_args(builder, name, args, ("x",), 1)
    x = _real_numeric(builder, name, a["x"])
    if x.ftype.base != "real":
        raise FrontendError(f"intrinsic {name}: argument {a['x']} is {x.ftype.base}, not real",
                            builder.ctx.span(name))
    return x


def _finite_nonzero(x: Any) -> Any:
    return p.LogicalAnd((p.Comparison(x, "!=", 0), p.Comparison(call("isfinite", x), "!=", 0)))


def _model_exponent(x: Any) -> Any:
    """e with x = f * 2**e, 0.5 <= |f| < 1 (x finite, not zero): ilogb(x) + 1, exact for
    subnormals too."""
    return p.Sum((call("ilogb", x), 1))


def _exponent(builder: ExprBuilder, name: str, args: list) -> Typed:
    """exponent(x): 0 for x = 0, huge(0) for an infinity or NaN (as gfortran)."""
    x = _real_arg(builder, name, args).expr
    other = p.If(p.Comparison(x, "==", 0), np.int32(0), np.int32(np.iinfo(np.int32).max))
    return Typed(p.If(_finite_nonzero(x), _model_exponent(x), other), INTEGER)


def _fraction(builder: ExprBuilder, name: str, args: list) -> Typed:
    """fraction(x) = x * 2**-exponent(x); x itself for a zero (its sign kept), NaN for an
    infinity or NaN (x - x)."""
    t = _real_arg(builder, name, args)
    x = t.expr
    scaled = call("ldexp", x, negate(_model_exponent(x)))
    other = p.If(p.Comparison(x, "==", 0), x, p.Sum((x, negate(x))))
    return Typed(p.If(_finite_nonzero(x), scaled, other), t.ftype)


def _spacing(builder: ExprBuilder, name: str, args: list) -> Typed:
    """spacing(x) = 2**(exponent(x) - digits(x)), tiny(x) for a zero or where that is not a
    normal number, NaN for an infinity or NaN (as gfortran)."""
    t = _real_arg(builder, name, args)
    x, info = t.expr, np.finfo(t.ftype.dtype)
    tiny = t.ftype.dtype.type(info.tiny)
    power = p.Sum((_model_exponent(x), -(info.nmant + 1)))
    normal = p.If(p.Comparison(power, ">=", info.minexp),
                  call("ldexp", t.ftype.dtype.type(1), power), tiny)
    other = p.If(p.Comparison(x, "==", 0), tiny, p.Sum((x, negate(x))))
    return Typed(p.If(_finite_nonzero(x), normal, other), t.ftype)


def _unsigned(t: FType) -> np.dtype:
    return np.dtype(f"u{t.kind}")


def _popcnt(builder: ExprBuilder, name: str, args: list) -> Typed:
    """popcnt(i): the bits set; poppar(i): their parity (default integers)."""
    a = split_args(builder, name, args, ("i",), 1)
    i = _integer(builder, name, a["i"])
    count = call("popcount", i.expr)
    if name == "poppar":
        count = p.BitwiseAnd((count, i.ftype.dtype.type(1)))
    return Typed(cast(Typed(count, i.ftype), INTEGER), INTEGER)


def _ishft(builder: ExprBuilder, name: str, args: list) -> Typed:
    """ishft(i, shift): a logical shift left (shift > 0) or right (shift < 0) of the bits
    of i; 0 when |shift| reaches the bit size (OpenCL C would take the count modulo it)."""
    a = split_args(builder, name, args, ("i", "shift"), 2)
    i = _integer(builder, name, a["i"])
    shift = cast(_integer(builder, name, a["shift"]), INTEGER)
    bits, u = 8 * i.ftype.kind, _unsigned(i.ftype)
    bits_of = TypeCast(u, i.expr)
    left = TypeCast(i.ftype.dtype, p.LeftShift(bits_of, shift))
    right = TypeCast(i.ftype.dtype, p.RightShift(bits_of, negate(shift)))
    if is_constant(shift):
        value = int(shift)
        if abs(value) > bits:
            raise FrontendError(f"intrinsic {name}: |shift| {abs(value)} exceeds the bit size "
                                f"{bits} of integer({i.ftype.kind})", builder.ctx.span(name))
        if abs(value) == bits:
            return Typed(i.ftype.dtype.type(0), i.ftype)
        return Typed(left if value >= 0 else right, i.ftype)
    inside = p.LogicalAnd((p.Comparison(shift, "<", bits), p.Comparison(shift, ">", -bits)))
    shifted = p.If(p.Comparison(shift, ">=", 0), left, right)
    return Typed(p.If(inside, shifted, i.ftype.dtype.type(0)), i.ftype)


def _ibits(builder: ExprBuilder, name: str, args: list) -> Typed:
    """ibits(i, pos, len): the len bits of i from pos on, right-adjusted (a mask of the
    whole bit size needs no shift by it)."""
    a = split_args(builder, name, args, ("i", "pos", "len"), 3)
    i = _integer(builder, name, a["i"])
    pos, length = (cast(_integer(builder, name, a[k]), INTEGER) for k in ("pos", "len"))
    bits, u = 8 * i.ftype.kind, _unsigned(i.ftype)
    if all(is_constant(x) for x in (pos, length)) and not (
            0 <= int(pos) and 0 <= int(length) and int(pos) + int(length) <= bits):
        raise FrontendError(f"intrinsic {name}: pos {int(pos)} and len {int(length)} do not "
                            f"lie within the {bits} bits of integer({i.ftype.kind})",
                            builder.ctx.span(name))
    shifted = p.RightShift(TypeCast(u, i.expr), pos)
    mask = p.Sum((p.LeftShift(u.type(1), length), -1))
    if is_constant(length):
        masked = shifted if int(length) >= bits else p.BitwiseAnd((shifted, mask))
    else:
        masked = p.If(p.Comparison(length, ">=", bits), shifted,
                      p.BitwiseAnd((shifted, mask)))
    return Typed(TypeCast(i.ftype.dtype, masked), i.ftype)


#: Fortran's other shift and bit-count intrinsics, refused with the reason.
REFUSED = {
    **dict.fromkeys(("ishftc", "shifta", "shiftl", "shiftr", "dshiftl", "dshiftr"),
                    "a shift by the whole bit size gives 0 in Fortran, but OpenCL C takes "
                    "the count modulo the bit size"),
    **dict.fromkeys(("leadz", "trailz"),
                    "the translator does not emit OpenCL's clz built-in"),
    **dict.fromkeys(("maskl", "maskr"),
                    "a mask of the whole bit size needs a shift by it, which OpenCL C takes "
                    "modulo the bit size"),
}


def _refuse(builder: ExprBuilder, name: str, args: list) -> Typed:
    raise UnsupportedConstructError(
        f"intrinsic function {name!r} cannot be translated: {REFUSED[name]}; compute it "
        "before the region, or give the device your own with a register_function pragma",
        builder.ctx.span(name))


BIT_INTRINSICS = {
    "iand": _logic(p.BitwiseAnd), "ior": _logic(p.BitwiseOr), "ieor": _logic(p.BitwiseXor),
    "not": _not, "btest": _btest, "ibset": _ibset, "ibclr": _ibclr, "nearest": _nearest,
    "bge": _unsigned_compare(">="), "bgt": _unsigned_compare(">"),
    "ble": _unsigned_compare("<="), "blt": _unsigned_compare("<"), "merge_bits": _merge_bits,
    "logical": _logical, "popcnt": _popcnt, "poppar": _popcnt, "ishft": _ishft,
    "ibits": _ibits, "exponent": _exponent, "fraction": _fraction, "spacing": _spacing,
    **dict.fromkeys(REFUSED, _refuse),
}

#: Every intrinsic the Fortran frontend knows: intrinsics.py's table and this module's.
ALL_INTRINSICS = {**INTRINSICS, **BIT_INTRINSICS}

__all__ = ["ALL_INTRINSICS", "BIT_INTRINSICS"]
