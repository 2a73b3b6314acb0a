"""Fortran's elemental bit intrinsics that OpenCL C has as operators (iand, ior, ieor, not,
btest, ibset, ibclr, merge_bits, and the unsigned comparisons bge, bgt, ble, blt), ``logical``
and ``nearest`` (OpenCL's ``nextafter``).

The bit intrinsics work on the two's complement bits of their integer argument, as gfortran
does; positions are ``0 <= pos < bit_size(i)`` (Fortran requires it; others are refused when
the position is a constant).  The shift and count intrinsics (ishft, shifta, popcnt, leadz,
...), the masks (maskl, maskr, ibits) and the bit counts (popcnt, leadz, ...) are refused
by name: a Fortran shift by the full bit size gives 0 where OpenCL C takes the count modulo
the bit size, and the counts need OpenCL built-ins the translator does not emit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pymbolic.primitives as p

from frontends.fortran.intrinsics import (INTRINSICS, _kind_arg, _numeric, _real_numeric,
                                          split_args)
from frontends.fortran.types import LOGICAL, FType, promote
from frontends.fortran.values import Typed, call, cast, is_constant
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


#: Fortran's shift and bit-count intrinsics, refused with the reason.
REFUSED = {
    **dict.fromkeys(("ishft", "ishftc", "shifta", "shiftl", "shiftr", "dshiftl", "dshiftr"),
                    "a shift by the whole bit size gives 0 in Fortran, but OpenCL C takes "
                    "the count modulo the bit size"),
    **dict.fromkeys(("popcnt", "poppar", "leadz", "trailz"),
                    "the translator does not emit OpenCL's bit-count built-ins (popcount, "
                    "clz)"),
    **dict.fromkeys(("maskl", "maskr", "ibits"),
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
    "logical": _logical,
    **dict.fromkeys(REFUSED, _refuse),
}

#: Every intrinsic the Fortran frontend knows: intrinsics.py's table and this module's.
ALL_INTRINSICS = {**INTRINSICS, **BIT_INTRINSICS}

__all__ = ["ALL_INTRINSICS", "BIT_INTRINSICS"]
