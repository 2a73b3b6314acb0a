"""Delinearisation: a flat subscript ``q*S + r`` read back as the element ``(q, r)``.

Programs that allocate one flat block address it as ``a[(n+4)*k + j]``, ``a[k*ld + j]``,
``a[(i*n + j)*m + l]`` or, in Fortran, ``a(j + ld*(k-1))``.  As polyhedral compilers do, the
subscript is written as a polynomial in the inames and parameters; its inames' coefficients
(polynomials in the parameters, affine ones only) propose the row strides ``S``; dividing
every coefficient by one (the division algorithm) splits the subscript into ``q*S + r``,
and the stride is taken when the remainders `r` are affine (a constant per iname).  When
``0 <= r < S`` holds on the statement's domain under the region's assumptions, two
subscripts split by the same stride name the same element exactly when their ``(q, r)``
agree: the access is a 2-D one with an inner extent ``S`` (a `q` that is not affine yet is
split again, giving 3-D and more).  Where the range cannot be proved the caller keeps the
flat subscript: ``j <= n+4`` in ``a[(n+4)*k + j]`` reaches into the next row.

`split_flat` alone (no proof) is exact algebra, ``a[q*S + r]`` is ``a[(q)*S + (r)]`` for any
values: what a prefetch of a flat array needs to lay its tile out in two dimensions.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

import pymbolic.primitives as p

from translator.ir.expr import Expression
from translator.ir.polynomials import (Polynomial, divide, expression, leading, plus, polynomial,
                                       times)

#: A split flat subscript: the coordinates, outermost first, and the strides between them
#: (``len(strides) == len(index) - 1``; flat = ``(index[0]*strides[0] + index[1])*...``).
Split = tuple[tuple[Expression, ...], tuple[Expression, ...]]


def delinearise(index: Expression, inames: Collection[str],
                in_row: Callable[[Expression, Expression], bool],
                prefer: Sequence[Polynomial] = ()) -> Split | None:
    """`index` as coordinates with parameter strides, each inner coordinate proved inside
    its row by ``in_row(r, S)`` (``0 <= r < S`` on the statement's domain); None if it is
    not such a subscript or a range is not proved.  The strides `prefer` are tried first
    (those the array's other subscripts are read by: two subscripts compare exactly only
    when split by the same strides)."""
    return _delinearise(polynomial(index), frozenset(inames), in_row, tuple(prefer))


def split_flat(index: Expression, inames: Collection[str]) -> Split | None:
    """`index` split as `delinearise` does, without proving the rows' ranges."""
    return _delinearise(polynomial(index), frozenset(inames), lambda r, s: True)


def _delinearise(poly: Polynomial | None, inames: frozenset[str],
                 in_row: Callable[[Expression, Expression], bool],
                 prefer: tuple[Polynomial, ...] = ()) -> Split | None:
    if poly is None or not _linear_in(poly, inames):
        return None
    for stride in _preferred_first(stride_candidates(poly, inames), prefer):
        parts = split_by(poly, stride, inames)
        if parts is None:
            continue
        q, r = parts
        s_expr, r_expr = expression(stride), expression(r)
        if not in_row(r_expr, s_expr):
            continue
        if _is_affine(q, inames):
            return (expression(q), r_expr), (s_expr,)
        inner = _delinearise(q, inames, in_row, prefer)
        if inner is not None:
            return (*inner[0], r_expr), (*inner[1], s_expr)
    return None


def _preferred_first(candidates: list[Polynomial], prefer: tuple[Polynomial, ...]
                     ) -> list[Polynomial]:
    """`prefer`, then the other `candidates` in their order."""
    return [*prefer, *(c for c in candidates if c not in prefer)]


def _linear_in(poly: Polynomial, inames: frozenset[str]) -> bool:
    """No monomial multiplies two inames (``i*j``): each iname has a parameter coefficient."""
    return all(sum(v in inames for v in mono) <= 1 for mono in poly)


def _is_affine(poly: Polynomial, inames: frozenset[str]) -> bool:
    """Every monomial is a constant, one iname or one parameter."""
    return all(len(mono) <= 1 for mono in poly)


def coefficients(poly: Polynomial, inames: frozenset[str]) -> dict[str, Polynomial]:
    """The coefficient of each iname (a polynomial in the parameters), and under ``""`` the
    part without inames."""
    out: dict[str, Polynomial] = {}
    for mono, k in poly.items():
        names = [v for v in mono if v in inames]
        key = names[0] if names else ""
        rest = list(mono)
        if names:
            rest.remove(key)
        out[key] = plus(out.get(key, {}), {tuple(rest): k})
    return out


def stride_candidates(poly: Polynomial, inames: frozenset[str]) -> list[Polynomial]:
    """The row strides to try, in this order: the inames' coefficients that are affine in
    the parameters and not constant (a row stride must be affine to prove ``r < S``),
    sign-normalised, smallest first; then those coefficients without their constant term
    (an anti-diagonal ``(d - c)*N + c`` moves ``c`` by ``N - 1``: row ``d - c`` of ``N``);
    then each parameter of a product of two parameters in the part without inames (``i*n +
    j`` with ``i`` a parameter: row ``i`` of ``n``, or of ``i``), by name."""
    found: dict[tuple, Polynomial] = {}
    coeffs = coefficients(poly, inames)
    for name, coeff in coeffs.items():
        if not name or not coeff or set(coeff) == {()}:
            continue
        if any(len(mono) > 1 for mono in coeff):
            continue
        found[_key(coeff)] = _positive(coeff)
    first = sorted(found.values(), key=lambda c: (len(c), sorted(c.items())))
    out = list(first)
    for coeff in first:
        varying = {mono: k for mono, k in coeff.items() if mono}
        if varying != coeff and _positive(varying) not in out:
            out.append(_positive(varying))
    factors = sorted({v for mono in coeffs.get("", {}) if len(mono) == 2 for v in mono})
    out.extend(c for c in ({(v,): 1} for v in factors) if c not in out)
    return out


def _positive(coeff: Polynomial) -> Polynomial:
    """`coeff` with its leading coefficient positive."""
    return {mono: -k for mono, k in coeff.items()} if leading(coeff)[1] < 0 else coeff


def _key(coeff: Polynomial) -> tuple:
    return tuple(sorted(_positive(coeff).items()))


def split_by(poly: Polynomial, stride: Polynomial, inames: frozenset[str]
             ) -> tuple[Polynomial, Polynomial] | None:
    """(q, r) with ``poly == q*stride + r``: each coefficient is divided by `stride` (the
    division algorithm); the remainders form `r`, which must be affine (a constant for each
    iname, an affine part without inames)."""
    q: Polynomial = {}
    r: Polynomial = {}
    for name, coeff in sorted(coefficients(poly, inames).items()):
        var: Polynomial = {(name,): 1} if name else {(): 1}
        quotient, rest = divide(coeff, stride)
        if any(len(mono) > (0 if name else 1) for mono in rest):
            return None
        q = plus(q, times(quotient, var) or {})
        r = plus(r, times(rest, var) or {})
    return (q, r) if q else None


def flat_index(index: tuple[Expression, ...], strides: tuple[Expression, ...]) -> Expression:
    """The flat subscript that split coordinates `index` with `strides` stand for."""
    flat = index[0]
    for part, stride in zip(index[1:], strides):
        flat = p.Sum((p.Product((flat, stride)), part))
    return flat
