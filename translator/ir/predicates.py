"""Statement predicates (the conditions of the ``if`` branches around a statement): which sets
of them hold together.  The frontends write an ``else`` branch as ``not c``; the predicates of
the two branches of an ``if``/``else`` combine into those they share, as do those of an ``else
if`` chain whose every branch is there.  Used to prove that a scalar is written on every path
(`frontends.privacy`, `translator.analysis.private_flow`)."""

from __future__ import annotations

import pymbolic.primitives as p

from translator.ir.expr import Expression

#: At most this many predicate sets in a closure (an ``else if`` chain of n branches needs n).
MAX_COMBINED = 64


def is_negation(x: Expression, y: Expression) -> bool:
    """Whether `x` is ``not y``."""
    return isinstance(x, p.LogicalNot) and x.child == y


def merge_complementary(a: frozenset[Expression], b: frozenset[Expression]
                        ) -> frozenset[Expression] | None:
    """``a & b`` when ``a - b`` is one condition and ``b - a`` its negation (one of the two
    sets holds whenever their shared conditions do); else None."""
    only_a, only_b = a - b, b - a
    if len(only_a) != 1 or len(only_b) != 1:
        return None
    (x,), (y,) = only_a, only_b
    if is_negation(x, y) or is_negation(y, x):
        return a & b
    return None


def combined(sets: set[frozenset[Expression]]) -> set[frozenset[Expression]]:
    """`sets` closed under `merge_complementary` (at most `MAX_COMBINED` sets)."""
    out = set(sets)
    changed = True
    while changed and len(out) < MAX_COMBINED:
        changed = False
        for a in sorted(out, key=len):
            for b in sorted(out, key=len):
                merged = merge_complementary(a, b)
                if merged is not None and merged not in out:
                    out.add(merged)
                    changed = True
    return out


_NEGATED = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}


def holding_comparisons(cond: Expression, value: bool) -> tuple[p.Comparison, ...]:
    """Comparisons that hold where `cond` is `value`: a conjunction's parts, a negated
    disjunction's parts negated; a disjunction (or a negated conjunction) gives none, so an
    access under it keeps all its instances.  The caller keeps the affine ones of integers,
    where a negation is exact (no NaN); the C frontend's footprints and the analysis' accesses
    use the same."""
    if isinstance(cond, p.LogicalNot):
        return holding_comparisons(cond.child, not value)
    if isinstance(cond, p.LogicalAnd if value else p.LogicalOr):
        return tuple(c for child in cond.children for c in holding_comparisons(child, value))
    if isinstance(cond, p.Comparison) and cond.operator in _NEGATED:
        return (cond if value else p.Comparison(cond.left, _NEGATED[cond.operator], cond.right),)
    return ()
