"""Arithmetic rewrites: collect_common_factors_on_increment (loopy's transform of that name)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pymbolic.primitives as p

from translator.diagnostics import TransformError
from translator.ir.expr import Expression, IRIdentityMapper, dependencies
from translator.ir.kernel import Kernel
from translator.ir.statements import Assignment, Statement

from transforms.common import map_statement_expressions, suggestion
from transforms.registry import transform

_WHAT = "collect_common_factors_on_increment"


@transform()
def collect_common_factors_on_increment(kernel: Kernel, var_name: str) -> Kernel:
    """Move the factors that every increment of the temporary `var_name` shares out of the
    increments and into the statements that read `var_name`.  Every write must be an increment
    ``v = v + term`` or a zero ``v = 0``; a common factor must not depend on an iname or on
    anything the kernel writes (it has the same value at every increment and every read).
    Example::

        before: acc = 0;  acc = acc + alpha*a[k]*b[k];  out[0] = acc
        collect_common_factors_on_increment(knl, "acc")
        after:  acc = 0;  acc = acc + a[k]*b[k];        out[0] = alpha*acc

    The sum is reassociated (one multiplication by the factor instead of one per term):
    results may differ in the last bits.
    """
    if var_name not in kernel.temporaries:
        raise TransformError(f"{_WHAT}: {var_name!r} is not a temporary of kernel "
                             f"{kernel.name!r}" + suggestion(var_name, kernel.temporaries))
    increments = _increments(kernel, var_name)
    common = _common_factors(kernel, [term for _, term in increments])
    if not common:
        return kernel
    incremented = {s.id: _without(s, term, common) for s, term in increments}
    scale = _Scaled(var_name, common)
    return kernel.copy(statements=tuple(
        incremented.get(s.id) or (s if var_name in s.assignee_names()
                                  else map_statement_expressions(s, scale))
        for s in kernel.statements))


def _increments(kernel: Kernel, var: str) -> list[tuple[Assignment, Expression]]:
    """The increments of `var` with their terms; zero writes are skipped, others refused."""
    out = []
    for s in kernel.statements:
        if var not in s.assignee_names():
            continue
        term = _increment_term(s, var)
        if term is None and not (isinstance(s, Assignment) and _is_zero(s.expression)):
            raise TransformError(f"{_WHAT}: statement {s.id!r} writes {var!r} but is neither "
                                 f"an increment ({var} = {var} + ...) nor a zero", s.span)
        if term is not None:
            out.append((s, term))
    return out


def _increment_term(s: Statement, var: str) -> Expression | None:
    if not isinstance(s, Assignment) or not isinstance(s.expression, p.Sum):
        return None
    rest = [c for c in s.expression.children if c != s.assignee]
    if len(rest) != len(s.expression.children) - 1 or not rest:
        return None
    term = rest[0] if len(rest) == 1 else p.Sum(tuple(rest))
    return None if var in dependencies(term) else term


def _is_zero(e: Expression) -> bool:
    return isinstance(e, (int, float, complex)) and e == 0


def _factors(term: Expression) -> list[Expression]:
    return list(term.children) if isinstance(term, p.Product) else [term]


def _common_factors(kernel: Kernel, terms: list[Expression]) -> list[Expression]:
    """The factors of the first term that every other term has too (with multiplicity) and
    that are the same at every point of the kernel."""
    if not terms:
        return []
    fixed = set(kernel.all_inames) | {n for s in kernel.statements for n in s.assignee_names()}
    common = [f for f in _factors(terms[0]) if not dependencies(f) & fixed]
    for term in terms[1:]:
        left = _factors(term)
        kept = []
        for f in common:
            if f in left:
                left.remove(f)
                kept.append(f)
        common = kept
    return common


def _without(s: Assignment, term: Expression, common: list[Expression]) -> Assignment:
    left = _factors(term)
    for f in common:
        left.remove(f)
    rest = left[0] if len(left) == 1 else p.Product(tuple(left)) if left else 1
    return replace(s, expression=p.Sum((s.assignee, rest)))


class _Scaled(IRIdentityMapper):
    """Every read of the variable multiplied by the collected factors."""

    def __init__(self, var: str, factors: list[Expression]) -> None:
        super().__init__()
        self.var, self.factors = var, tuple(factors)

    def map_variable(self, expr: p.Variable, *args: Any, **kwargs: Any) -> Expression:
        return p.Product((*self.factors, expr)) if expr.name == self.var else expr

    def map_subscript(self, expr: p.Subscript, *args: Any, **kwargs: Any) -> Expression:
        if getattr(expr.aggregate, "name", None) == self.var:
            return p.Product((*self.factors, expr))
        return super().map_subscript(expr, *args, **kwargs)


__all__ = ["collect_common_factors_on_increment"]
