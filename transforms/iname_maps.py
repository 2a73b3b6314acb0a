"""Mapping inames through affine relations: affine_map_inames, map_domain.

The relation must be one-to-one on the iname's domain; each old iname becomes one affine
expression of the new ones (and of the other inames and parameters) in every statement, rule
and reduction.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from translator.diagnostics import DomainError, TransformError, TranslatorError
from translator.ir import isl_glue
from translator.ir.expr import Expression
from translator.ir.kernel import Kernel

from transforms.common import (Rewriter, check_iname, kernel_names, map_within_inames,
                               name_list, new_name, replace_in_priorities, rewrite_statements)
from transforms.statement_inames import check_no_nested
from transforms.registry import transform
from translator.ir.parse_expr import parse_expression


@transform()
def affine_map_inames(kernel: Kernel, old_inames: str | Iterable[str],
                      new_inames: str | Iterable[str], equations: Any) -> Kernel:
    """Replace `old_inames` by `new_inames` related to them by affine `equations`.

    Each equation is ``"lhs = rhs"`` or a pair ``(lhs, rhs)``.  The relation must be one-to-one
    on the domain (every old point has exactly one new point).  Example::

        before: {[i]: 0<=i<n}       out[i] = a[i]
        affine_map_inames(knl, "i", "j", "j = i + 1")
        after:  {[j]: 0<j<=n}       out[j - 1] = a[j - 1]
    """
    name = "affine_map_inames"
    olds = name_list(old_inames, name, "old_inames")
    news = name_list(new_inames, name, "new_inames")
    if not olds or not news:
        raise TransformError(f"{name}: old_inames and new_inames must not be empty")
    for old in olds:
        check_iname(kernel, old, name)
    taken: set[str] = set()
    for new in news:
        new_name(kernel, new, new, name, "new iname", taken)
    eqs = _equations(equations, name)
    try:
        rel = isl_glue.relation_from_equations(olds, news, eqs)
    except DomainError as e:
        raise TransformError(f"{name}: {e.message}") from None
    return _map_inames(kernel, rel, name)


def _equations(equations: Any, name: str) -> list[tuple[Expression, Expression]]:
    items = [equations] if isinstance(equations, (str, tuple)) else list(equations)
    out = []
    for eq in items:
        if isinstance(eq, str):
            if eq.count("=") != 1 or re.search(r"[<>!]=", eq):
                raise TransformError(f"{name}: equation {eq!r} must have one '=' between its "
                                     "sides")
            eq = tuple(eq.split("="))
        if not (isinstance(eq, (tuple, list)) and len(eq) == 2):
            raise TransformError(f"{name}: expected 'lhs = rhs' or (lhs, rhs), got {eq!r}")
        try:
            out.append(tuple(parse_expression(s) if isinstance(s, str) else s for s in eq))
        except TranslatorError as e:
            raise TransformError(f"{name}: bad equation {eq!r}: {e.message}") from None
    return out


@transform()
def map_domain(kernel: Kernel, transform_map: Any) -> Kernel:
    """Apply a bijective map (an islpy Map or its text) from existing inames to new inames.

    All input inames must be defined by one domain.  Example::

        before: {[i]: 0<=i<n}       out[i] = a[i]
        map_domain(knl, "{[i] -> [io, ii]: i = 4*io + ii and 0 <= ii < 4}")
        after:  {[io, ii]: 0<=ii<4 and 0<=4*io+ii<n}    out[4*io + ii] = a[4*io + ii]
    """
    name = "map_domain"
    try:
        rel = isl_glue.as_relation(transform_map)
        if rel is None:
            raise TransformError(f"{name}: expected an islpy Map or its text, got "
                                 f"{transform_map!r}")
        ins, outs, _ = isl_glue.relation_dims(rel)
    except DomainError as e:
        raise TransformError(f"{name}: {e.message}") from None
    for old in ins:
        check_iname(kernel, old, name, "input iname of the map")
    taken: set[str] = set()
    for new in outs:
        new_name(kernel, new, new, name, "output iname of the map", taken)
    return _map_inames(kernel, rel, name)


def _map_inames(kernel: Kernel, rel: Any, name: str) -> Kernel:
    ins, outs, params = isl_glue.relation_dims(rel)
    unknown = sorted(set(params) - kernel_names(kernel))
    if unknown:
        raise TransformError(f"{name}: unknown name(s) {', '.join(unknown)} in the map (not "
                             "a parameter or iname of the kernel)")
    homes = {kernel.domain_index_of(i) for i in ins}
    if len(homes) != 1:
        raise TransformError(f"{name}: inames {', '.join(ins)} are defined by different "
                             "domains; the map must apply to exactly one domain")
    for old in ins:
        if kernel.tags_of(old):
            raise TransformError(f"{name}: iname {old!r} is tagged "
                                 f"{str(next(iter(kernel.tags_of(old))))!r}; untag it first")
        check_no_nested(kernel, old, name)
    home = homes.pop()
    try:
        domain, subst = isl_glue.map_domain_inames(kernel.domains[home], rel)
    except DomainError as e:
        raise TransformError(f"{name}: {e.message}") from None
    result = _substitute_inames(kernel, subst, outs, name)
    domains = tuple(domain if k == home else d for k, d in enumerate(result.domains))
    prios = replace_in_priorities(result.loop_priority, {i: tuple(outs) for i in ins})
    return replace(result, domains=domains, loop_priority=prios)


def _substitute_inames(kernel: Kernel, subst: dict[str, Expression], news: tuple[str, ...],
                       name: str) -> Kernel:
    olds = set(subst)

    def replaced(inames: Iterable[str], what: str) -> tuple[str, ...] | None:
        inames = tuple(inames)
        inside = olds & set(inames)
        if not inside:
            return None
        if inside != olds:
            raise TransformError(f"{name}: {what} uses only some of the mapped inames "
                                 f"({', '.join(sorted(inside))}), not all of them")
        out = [i for i in inames if i not in olds]
        return tuple(out + [n for n in news if n not in out])

    rewriter = Rewriter(subst, reduction_inames=lambda red: replaced(red.inames,
                                                                    f"reduction {red}"))
    result = rewrite_statements(kernel, rewriter, lambda s: True)
    return map_within_inames(result, lambda s: frozenset(
        replaced(s.within_inames, f"statement {s.id!r}") or s.within_inames))
