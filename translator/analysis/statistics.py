"""Operation and memory-access counts of a kernel (loopy's `get_op_map` and
`get_mem_access_map`), per work item: how many times each kind of arithmetic runs and each
array is loaded or stored, as counts that evaluate for given parameter values.

A statement runs once per point of its domain (its loops and those of the reductions inside
it, for the operations there).  Counts are exact for the domain (isl counts its points for
the parameters given); predicates are ignored, so a conditional statement counts as if it
always ran (an upper bound), as in loopy.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pymbolic.primitives as p

from translator.ir import isl_glue
from translator.ir.expr import IRWalkMapper, Reduction, TypeCast
from translator.ir.kernel import Kernel
from translator.ir.statements import Assignment, Statement
from translator.ir.types import TypeOracle
from translator.records import dataclass


@dataclass(frozen=True)
class Op:
    """One kind of operation: result type, name (``add``, ``mul``, ``div``, ``pow``, ``cmp``,
    ``bw``, ``func:NAME``) and the granularity it is counted at (always ``workitem``)."""

    dtype: np.dtype | None
    name: str
    count_granularity: str = "workitem"


@dataclass(frozen=True)
class MemAccess:
    """Accesses of one array: memory type (``global``, ``local``, ``private``), element type,
    ``load`` or ``store``, the variable, and the granularity (always ``workitem``)."""

    mtype: str
    dtype: np.dtype | None
    direction: str
    variable: str
    count_granularity: str = "workitem"


class Count:
    """A count in the kernel's parameters: a sum of (multiplier, iteration domain) terms;
    `eval_with_dict` gives its value for given parameter values."""

    def __init__(self, terms: Iterable[tuple[int, Any]] = ()) -> None:
        self.terms = tuple(terms)

    def __add__(self, other: Count) -> Count:
        return Count(self.terms + other.terms)

    def eval_with_dict(self, params: Mapping[str, int]) -> int:
        return sum(k * isl_glue.count_points(domain, params) for k, domain in self.terms)

    def __repr__(self) -> str:
        return f"Count({len(self.terms)} term(s))"


class ToCountMap(dict):
    """Keys (`Op` or `MemAccess`) -> `Count`."""

    def filter_by(self, **wanted: Any) -> ToCountMap:
        """The entries whose fields take one of the given values (a value or a list)."""
        def keep(key: Any) -> bool:
            for field, value in wanted.items():
                allowed = value if isinstance(value, (list, tuple, set)) else [value]
                have = getattr(key, field)
                if field == "dtype":
                    allowed = [np.dtype(a) for a in allowed]
                if have not in allowed:
                    return False
            return True
        return ToCountMap({k: v for k, v in self.items() if keep(k)})

    def sum(self) -> Count:
        total = Count()
        for value in self.values():
            total = total + value
        return total

    def eval_and_sum(self, params: Mapping[str, int]) -> int:
        return self.sum().eval_with_dict(params)


def _add(table: dict, key: Any, times: int, domain: Any) -> None:
    table[key] = table.get(key, Count()) + Count([(times, domain)])


# ---------------------------------------------------------------------------------------------
# operations


class _OpCounter(IRWalkMapper):
    """Counts the operations of one expression; reductions add their inames' domain."""

    def __init__(self, kernel: Kernel, oracle: TypeOracle, inames: frozenset[str],
                 table: dict, within_subscripts: bool) -> None:
        super().__init__()
        self.kernel, self.oracle, self.table = kernel, oracle, table
        self.inames = inames
        self.within_subscripts = within_subscripts

    def _count(self, expr: Any, name: str, times: int = 1) -> None:
        if times <= 0:
            return
        domain = isl_glue.statement_domain(self.kernel.domains, self.inames)
        _add(self.table, Op(self.oracle(expr), name), times, domain)

    def visit(self, expr: Any, *args: Any, **kwargs: Any) -> bool:
        if isinstance(expr, p.Sum):
            self._count(expr, "add", len(expr.children) - 1)
        elif isinstance(expr, p.Product):
            self._count(expr, "mul", sum(1 for c in expr.children if c != -1) - 1)
        elif isinstance(expr, (p.Quotient, p.FloorDiv, p.Remainder)):
            self._count(expr, "div")
        elif isinstance(expr, p.Power):
            self._count(expr, "pow")
        elif isinstance(expr, p.Comparison):
            self._count(expr.left, "cmp")
        elif isinstance(expr, (p.BitwiseAnd, p.BitwiseOr, p.BitwiseXor, p.BitwiseNot,
                               p.LeftShift, p.RightShift)):
            self._count(expr, "bw", max(len(getattr(expr, "children", (0, 0))) - 1, 1))
        elif isinstance(expr, p.Call) and isinstance(expr.function, p.Variable):
            self._count(expr, f"func:{expr.function.name}")
        return True

    def map_subscript(self, expr: p.Subscript, *args: Any, **kwargs: Any) -> None:
        if self.within_subscripts:
            super().map_subscript(expr, *args, **kwargs)

    def map_reduction(self, expr: Reduction, *args: Any, **kwargs: Any) -> None:
        inner = _OpCounter(self.kernel, self.oracle, self.inames | set(expr.inames),
                           self.table, self.within_subscripts)
        inner._count(expr, _REDUCTION_OPS.get(expr.operation, f"func:{expr.operation}"))
        inner.rec(expr.expr)

    def map_type_cast(self, expr: TypeCast, *args: Any, **kwargs: Any) -> None:
        self.rec(expr.child)


_REDUCTION_OPS = {"sum": "add", "product": "mul", "max": "func:max", "min": "func:min"}


def get_op_map(kernel: Kernel, subgroup_size: Any = None, count_redundant_work: bool = False,
               count_within_subscripts: bool = True) -> ToCountMap:
    """Arithmetic operations per work item, by type and kind (see the module docstring).
    `subgroup_size` and `count_redundant_work` are accepted for loopy compatibility."""
    oracle = TypeOracle(kernel)
    table: dict = {}
    for stmt in kernel.statements:
        counter = _OpCounter(kernel, oracle, stmt.within_inames, table, count_within_subscripts)
        for expr in _evaluated(stmt, count_within_subscripts):
            counter(expr)
    return ToCountMap(table)


def _evaluated(stmt: Statement, within_subscripts: bool) -> tuple:
    if isinstance(stmt, Assignment):
        index = stmt.assignee.index_tuple if isinstance(stmt.assignee, p.Subscript) \
            and within_subscripts else ()
        return (stmt.expression, *index)
    return stmt.read_expressions()


# ---------------------------------------------------------------------------------------------
# memory accesses


class _AccessCounter(IRWalkMapper):
    def __init__(self, kernel: Kernel, inames: frozenset[str], table: dict) -> None:
        super().__init__()
        self.kernel, self.inames, self.table = kernel, inames, table

    def map_subscript(self, expr: p.Subscript, *args: Any, **kwargs: Any) -> None:
        _record(self.kernel, self.table, expr, "load", self.inames)
        for index in expr.index_tuple:
            self.rec(index)

    def map_reduction(self, expr: Reduction, *args: Any, **kwargs: Any) -> None:
        _AccessCounter(self.kernel, self.inames | set(expr.inames), self.table).rec(expr.expr)


def _record(kernel: Kernel, table: dict, expr: p.Subscript, direction: str,
            inames: frozenset[str]) -> None:
    if not isinstance(expr.aggregate, p.Variable):
        return
    name = expr.aggregate.name
    var = kernel.variable(name)
    if var is None:
        return
    space = getattr(var, "address_space", None)
    mtype = "global" if name in kernel.arg_names else str(getattr(space, "name", space)
                                                              or "private").lower()
    domain = isl_glue.statement_domain(kernel.domains, inames)
    dtype = None if var.dtype is None else np.dtype(var.dtype)
    _add(table, MemAccess(mtype, dtype, direction, name), 1, domain)


def get_mem_access_map(kernel: Kernel, subgroup_size: Any = None,
                       count_redundant_work: bool = False) -> ToCountMap:
    """Array loads and stores per work item, by memory type, element type, direction and
    variable (see the module docstring).  The extra arguments are accepted for loopy
    compatibility."""
    table: dict = {}
    for stmt in kernel.statements:
        counter = _AccessCounter(kernel, stmt.within_inames, table)
        for expr in stmt.read_expressions():
            counter(expr)
        if isinstance(stmt, Assignment) and isinstance(stmt.assignee, p.Subscript):
            _record(kernel, table, stmt.assignee, "store", stmt.within_inames)
    return ToCountMap(table)
