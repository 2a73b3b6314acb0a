"""The catalogue of common questions asked of expressions, each answered by one mapper.

The base mappers that know the kernel language's nodes (`IRWalkMapper`, `IRCombineMapper`,
`IRIdentityMapper`, ...) are `translator.ir.expr`'s.  This module holds the mappers that several
layers use to find things in an expression, so that each question has one answer:

- `has_reduction`: whether an expression holds a reduction;
- `reductions_in`: the reductions under expressions, outermost first;
- `expression_reduction_inames` / `reduction_inames`: the inames the reductions of an
  expression (of a statement) range over, remembered by expression;
- `nodes_of`: the nodes of one class in an expression (both frontends ask it).
"""

from __future__ import annotations

from collections.abc import Iterable

from translator.ir.expr import Expression, IRCombineMapper, IRWalkMapper, Reduction, walk_nodes
from translator.ir.statements import Statement


class _HasReduction(IRCombineMapper):
    def combine(self, values) -> bool:
        return any(values)

    def map_reduction(self, expr, *args, **kwargs) -> bool:
        return True

    def map_constant(self, expr, *args, **kwargs) -> bool:
        return False

    map_variable = map_constant
    map_tagged_variable = map_constant
    map_numpy_scalar = map_constant

    def map_foreign(self, expr, *args, **kwargs) -> bool:
        # a multi-index subscript's index is a tuple: look inside it (`a[i, sum(k, b[k])]`)
        if isinstance(expr, (tuple, list)):
            return any(self.rec(e, *args, **kwargs) for e in expr)
        return False


def has_reduction(expr: Expression) -> bool:
    """Whether `expr` holds a `Reduction` anywhere."""
    return bool(_HasReduction()(expr))


class _ReductionWalk(IRWalkMapper):
    def __init__(self) -> None:
        self.found: list[Reduction] = []

    def visit(self, expr, *args, **kwargs) -> bool:
        if isinstance(expr, Reduction):
            self.found.append(expr)
        return True


def reductions_in(exprs: Iterable[Expression]) -> list[Reduction]:
    """The reductions under `exprs` (nested ones too), outermost first, in reading order."""
    walker = _ReductionWalk()
    for expr in exprs:
        nodes = walk_nodes(expr)
        if nodes is None:
            walker(expr)
        else:
            walker.found.extend(n for n in nodes if isinstance(n, Reduction))
    return walker.found


#: `expression_reduction_inames` answers by expression (immutable, compared by structure):
#: the splitter asks about every statement of each candidate kernel.
_REDUCTION_INAMES: dict[Expression, frozenset[str]] = {}


def expression_reduction_inames(expr: Expression) -> frozenset[str]:
    """The inames the reductions under `expr` range over."""
    try:
        return _REDUCTION_INAMES[expr]
    except (KeyError, TypeError):   # not asked yet, or unhashable
        pass
    found = frozenset(n for red in reductions_in([expr]) for n in red.inames)
    try:
        if len(_REDUCTION_INAMES) >= 1 << 15:
            _REDUCTION_INAMES.clear()
        _REDUCTION_INAMES[expr] = found
    except TypeError:
        pass
    return found


def reduction_inames(stmt: Statement) -> frozenset[str]:
    """Inames that reductions in `stmt` range over."""
    return frozenset().union(*(expression_reduction_inames(e)
                               for e in stmt.read_expressions()))


def nodes_of(e: Expression, cls: type) -> list:
    """Every node of class `cls` in `e` (reductions included), in walk order."""
    nodes = walk_nodes(e)
    if nodes is not None:
        return [n for n in nodes if isinstance(n, cls)]
    walker = _NodesOf(cls)
    walker(e)
    return walker.found


class _NodesOf(IRWalkMapper):
    def __init__(self, cls: type) -> None:
        self.cls = cls
        self.found: list = []

    def visit(self, expr, *args, **kwargs):
        if isinstance(expr, self.cls):
            self.found.append(expr)
        return True


__all__ = ["expression_reduction_inames", "has_reduction", "nodes_of", "reduction_inames",
           "reductions_in"]
