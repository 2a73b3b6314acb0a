"""Integer polynomials in named variables: ``{sorted names (with repeats): coefficient}``.

Subscripts such as ``a[i*n + j]`` are polynomials in the inames and parameters: coalescing
differentiates them by the inames, delinearisation divides them by row strides.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pymbolic.primitives as p

from translator.ir.expr import Expression

#: A polynomial: {sorted variable names (with repeats): integer coefficient}.
Polynomial = dict[tuple[str, ...], int]


def polynomial(expr: Expression) -> Polynomial | None:
    """An integer polynomial in variables, or None (divisions, calls, floats, subscripts)."""
    if isinstance(expr, (int, np.integer)) and not isinstance(expr, bool):
        return {(): int(expr)} if expr else {}
    if isinstance(expr, p.Variable):
        return {(expr.name,): 1}
    if isinstance(expr, p.Sum):
        out: Polynomial = {}
        for c in expr.children:
            sub = polynomial(c)
            if sub is None:
                return None
            out = plus(out, sub)
        return out
    if isinstance(expr, p.Product):
        prod: Polynomial | None = {(): 1}
        for c in expr.children:
            prod = times(prod, polynomial(c))
            if prod is None:
                return None
        return prod
    return None


def plus(a: Polynomial, b: Polynomial) -> Polynomial:
    """``a + b``."""
    out = dict(a)
    for mono, k in b.items():
        out[mono] = out.get(mono, 0) + k
    return {mono: k for mono, k in out.items() if k}


def times(a: Polynomial | None, b: Polynomial | None) -> Polynomial | None:
    """``a * b`` (None if either is None)."""
    if a is None or b is None:
        return None
    out: Polynomial = {}
    for ma, ka in a.items():
        for mb, kb in b.items():
            out = plus(out, {tuple(sorted(ma + mb)): ka * kb})
    return out


def divide(num: Polynomial, den: Polynomial) -> tuple[Polynomial, Polynomial]:
    """(quotient, remainder) of `num` by `den` with integer coefficients (the division
    algorithm in a monomial order: a term whose monomial or coefficient the leading term of
    `den` does not divide goes to the remainder)."""
    lead, lead_k = leading(den)
    rest = dict(num)
    quotient: Polynomial = {}
    remainder: Polynomial = {}
    while rest:
        mono, k = leading(rest)
        factor = _quotient_monomial(mono, lead)
        if factor is None or k % lead_k:
            remainder = plus(remainder, {mono: k})
            rest = plus(rest, {mono: -k})
            continue
        term = {factor: k // lead_k}
        quotient = plus(quotient, term)
        rest = plus(rest, {m: -c for m, c in (times(term, den) or {}).items()})
    return quotient, remainder


def leading(poly: Polynomial) -> tuple[tuple[str, ...], int]:
    """The leading monomial and its coefficient, in graded lexicographic order (a monomial
    order, which the division algorithm needs): of the monomials of highest degree, the
    first sorted tuple of names holds the most of the first name where they differ."""
    top = max(len(m) for m in poly)
    mono = min(m for m in poly if len(m) == top)
    return mono, poly[mono]


def _quotient_monomial(mono: tuple[str, ...], by: tuple[str, ...]) -> tuple[str, ...] | None:
    """``mono / by`` when `by` divides `mono`, else None."""
    rest = list(mono)
    for v in by:
        if v not in rest:
            return None
        rest.remove(v)
    return tuple(sorted(rest))


def expression(poly: Polynomial) -> Expression:
    """A polynomial as an expression, monomials in a fixed order (names sorted, the constant
    last)."""
    ordered = sorted(poly.items(), key=lambda item: (not item[0], item[0]))
    return sum_of([monomial(k, list(mono)) for mono, k in ordered])


def monomial(coeff: int, names: Iterable[str]) -> Expression:
    """``coeff * name0 * name1 ...`` (the coefficient left out where it is 1)."""
    factors: list[Expression] = [p.Variable(n) for n in names]
    if coeff != 1 or not factors:
        factors.insert(0, coeff)
    return factors[0] if len(factors) == 1 else p.Product(tuple(factors))


def sum_of(terms: list[Expression]) -> Expression:
    """The sum of `terms` (0 for none, the term itself for one)."""
    return 0 if not terms else terms[0] if len(terms) == 1 else p.Sum(tuple(terms))
