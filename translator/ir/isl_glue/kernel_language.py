"""isl glue for the kernel language (translator/ir/parse*.py): assumptions, domain
checks, access footprints.
"""

from __future__ import annotations

from collections.abc import Sequence
import re

import islpy as isl

from translator.diagnostics import DomainError
from translator.ir.expr import Expression, dependencies
from translator.ir.isl_glue.core import (
    _align_params, _isl_reason, aff_from_expr, dim_type, expr_from_pwaff, inames_of,
)


_KL_KEYWORDS = frozenset({"and", "or", "not", "mod", "exists", "floor", "ceil", "min", "max",
                          "true", "false", "infty"})


def kl_free_names(text: str) -> list[str]:
    """Identifiers of an ISL condition text that are neither keywords nor `exists`-bound."""
    bound = {b.strip() for group in re.findall(r"exists\s*\(?\s*([\w\s,]+?)\s*:", text)
             for b in group.split(",")}
    bound |= set(re.findall(r"([A-Za-z_]\w*)\s*=\s*floor\s*\(", text))  # isl's printed divs
    found = dict.fromkeys(re.findall(r"[A-Za-z_]\w*", text))
    return [n for n in found if n not in _KL_KEYWORDS and n not in bound]


def kl_parse_assumptions(text: str) -> isl.BasicSet:
    """A parameter-only BasicSet from ``n >= 1 and m > 0``, ``{ : n >= 1 }`` or
    ``[n] -> { : n >= 1 }``.  Raises DomainError for malformed or non-convex text."""
    full = text.strip()
    if "{" not in full:
        full = f"{{ : {full} }}"
    if "->" not in full.split("{", 1)[0]:
        full = f"[{', '.join(sorted(kl_free_names(full)))}] -> {full}"
    try:
        s = isl.Set(full)
    except isl.Error as e:
        hint = "write equality as '='" if "==" in text else (
            "expected affine conditions on parameters joined by 'and', e.g. 'n >= 1'")
        raise DomainError(f"malformed assumptions {text.strip()!r}: {_isl_reason(e)} "
                          f"({hint})") from None
    if s.dim(dim_type.set):
        raise DomainError(f"assumptions {text.strip()!r} may only constrain parameters "
                          "(write them as '{ : n >= 1 }' or 'n >= 1')")
    bsets = s.coalesce().get_basic_sets()
    if len(bsets) > 1:
        raise DomainError(f"assumptions {text.strip()!r} are not convex (a disjunction)")
    return bsets[0] if bsets else isl.BasicSet.empty(s.get_space())


def kl_unbounded_inames(domain: isl.BasicSet) -> tuple[str, ...]:
    """Inames of `domain` lacking a lower or an upper bound (loop domains must be finite)."""
    s = isl.Set.from_basic_set(domain)
    if s.is_empty() or s.is_bounded():
        return ()
    out = []
    for k, name in enumerate(inames_of(s)):
        if not (s.dim_has_any_lower_bound(dim_type.set, k)
                and s.dim_has_any_upper_bound(dim_type.set, k)):
            out.append(name)
    return tuple(out) or inames_of(s)


def kl_index_range(domain: isl.BasicSet, index: Expression) -> isl.Set | None:
    """The values of `index` over `domain`: a 1-D set in the parameters (free names of
    `index` that are not dims become parameters); None if `index` is not affine."""
    s = _align_params(isl.Set.from_basic_set(domain), dependencies(index))
    try:
        aff = aff_from_expr(s.get_space(), index)
    except DomainError:
        return None
    return isl.Map.from_pw_aff(aff).intersect_domain(s).range()


def kl_range_bounds(ranges: Sequence[isl.Set]) -> tuple[Expression, Expression] | None:
    """``(min, max + 1)`` over the union of 1-D `ranges`, as expressions in the parameters;
    None when empty or unbounded."""
    union = None
    for r in ranges:
        if union is None:
            union = r
        else:
            union = union.align_params(r.get_space())
            union = union.union(r.align_params(union.get_space()))
    if union is None or union.is_empty():
        return None
    try:
        lo, hi = union.dim_min(0), union.dim_max(0)
    except isl.Error:
        return None
    hi = hi.add_constant_val(isl.Val.one(hi.get_ctx()))
    try:
        return expr_from_pwaff(lo.coalesce(), combine="min"), expr_from_pwaff(hi.coalesce())
    except DomainError:
        return None
