"""How many elements of a pointer (or of an array's unknown first dimension) a region touches:
C pointers and Fortran assumed-size dummies use the same bound.

The host glue copies exactly ``shape`` elements, so the extent must never exceed what the
program's loops access.  Affine subscripts are bounded exactly with isl (statement domain and
affine predicates).  A linearised subscript such as ``a[i*n + j]`` is not affine (``i*n``);
it is split into ``sum_k P_k * c_k`` where each ``P_k`` is a product of value arguments and each
``c_k`` is affine in the inames, and each ``c_k`` is bounded by isl.  That bound is exact when
the maxima are reached together, as in the usual row-major linearisations, and assumes the
``P_k`` are non-negative (array extents).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pymbolic.primitives as p

from translator.diagnostics import DomainError
from translator.ir import isl_glue
from translator.ir.expr import Expression


class NotLinear(Exception):
    """The subscript is not a polynomial of the supported shape."""


def index_end(domain, index: Expression, predicates: Sequence[Expression],
              inames: frozenset[str]) -> Expression:
    """One past the largest value of `index`; raises DomainError if it cannot be bounded."""
    try:
        return isl_glue.c_index_end(domain, index, predicates)
    except DomainError:
        pass
    try:
        groups = _group_by_parameters(_monomials(index), inames)
    except NotLinear:
        raise DomainError(f"subscript {index} is neither affine nor a linearised "
                          "multi-dimensional index") from None
    terms: list[Expression] = []
    for params, coeff in sorted(groups.items()):
        top = _largest(domain, coeff, predicates)
        terms.append(top if not params else _product(params, top))
    terms.append(1)
    return p.Sum(tuple(terms))


def affine_parts(index: Expression, inames: frozenset[str]) -> list[Expression]:
    """The parts of `index` affine in `inames`, one per product of other names it is
    multiplied by (`index_end`'s split: ``i*n + j`` -> ``[i, j]``); `index` itself where it
    has no such product.  Each part >= 0 keeps `index` >= 0 (the products being extents)."""
    if isl_glue.is_affine(index, ()):
        return [index]
    return [coeff for _, coeff in sorted(_group_by_parameters(_monomials(index), inames).items())]


def _largest(domain, expr: Expression, predicates) -> Expression:
    end = isl_glue.c_index_end(domain, expr, predicates)
    return p.Sum((end, -1)) if not isinstance(end, int) else end - 1


def _product(params: tuple[str, ...], factor: Expression) -> Expression:
    factors = [p.Variable(n) for n in params]
    if factor != 1:
        factors.append(factor)
    return factors[0] if len(factors) == 1 else p.Product(tuple(factors))


Monomial = tuple[int, tuple[str, ...]]


def _monomials(expr: Expression) -> list[Monomial]:
    """Expand into (coefficient, sorted variable names) monomials."""
    if isinstance(expr, int) and not isinstance(expr, bool):
        return [(expr, ())] if expr else []
    if isinstance(expr, np.integer):
        return [(int(expr), ())] if int(expr) else []
    if isinstance(expr, p.Variable):
        return [(1, (expr.name,))]
    if isinstance(expr, p.Sum):
        return [m for c in expr.children for m in _monomials(c)]
    if isinstance(expr, p.Product):
        out: list[Monomial] = [(1, ())]
        for child in expr.children:
            out = [(c1 * c2, tuple(sorted(v1 + v2)))
                   for c1, v1 in out for c2, v2 in _monomials(child)]
        return out
    raise NotLinear(str(expr))


def _group_by_parameters(monomials: list[Monomial],
                         inames: frozenset[str]) -> dict[tuple[str, ...], Expression]:
    """Parameter product -> affine coefficient in the inames."""
    groups: dict[tuple[str, ...], list[Expression]] = {}
    for coeff, names in monomials:
        params = tuple(n for n in names if n not in inames)
        loops = [n for n in names if n in inames]
        if len(loops) > 1:
            raise NotLinear("product of inames")
        term: Expression = coeff if not loops else (
            p.Variable(loops[0]) if coeff == 1 else p.Product((coeff, p.Variable(loops[0]))))
        groups.setdefault(params, []).append(term)
    out: dict[tuple[str, ...], Expression] = {}
    for params, terms in groups.items():
        out[params] = terms[0] if len(terms) == 1 else p.Sum(tuple(terms))
    return out
