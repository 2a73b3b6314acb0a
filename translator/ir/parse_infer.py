"""What `make_kernel` infers from parsed statements: ids, variable use, `within_inames`,
dependencies and no-sync sets (the reference's heuristics).

Variable use is collected once per statement, after expanding substitution rules, so that
reads through a rule count as reads of the statement.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np
import pymbolic.primitives as p

from translator.diagnostics import DomainError, KernelLanguageError
from translator.ir.expr import (Expression, IRIdentityMapper, IRWalkMapper, LinearSubscript,
                                Reduction, dependencies, substitute)
from translator.ir.kernel import Kernel, SubstitutionRule
from translator.ir.statements import map_expressions
from translator.ir.util import FrozenDict, UniqueNameGenerator
from translator.records import dataclass, replace

if TYPE_CHECKING:   # annotations only: code generation imports this module (`expand_rules`)
    from translator.ir.parse_statements import ParsedStatement

# ---------------------------------------------------------------------------------------------
# substitution rules


def expand_rules(kernel: Kernel) -> Kernel:
    """Every substitution rule expanded at its uses, and the rules dropped (for codegen)."""
    if not kernel.substitutions:
        return kernel
    expander = RuleExpander(kernel.substitutions)
    stmts = tuple(map_expressions(s, expander) for s in kernel.statements)
    return kernel.copy(statements=stmts, substitutions=FrozenDict())


class RuleExpander(IRIdentityMapper):
    """Replaces rule invocations ``f(a, b)`` (and ``f`` for argument-less rules) by the rule's
    expression with the arguments substituted."""

    def __init__(self, rules: Mapping[str, SubstitutionRule]) -> None:
        self.rules = rules
        self.active: tuple[str, ...] = ()

    def map_call(self, expr: p.Call, *args, **kwargs):
        f = expr.function
        if isinstance(f, p.Variable) and f.name in self.rules:
            return self._expand(self.rules[f.name], expr.parameters)
        return super().map_call(expr, *args, **kwargs)

    def map_variable(self, expr: p.Variable, *args, **kwargs):
        rule = self.rules.get(expr.name)
        if rule is not None and not rule.arguments:
            return self._expand(rule, ())
        return expr

    map_tagged_variable = map_variable

    def _expand(self, rule: SubstitutionRule, params: tuple) -> Expression:
        if rule.name in self.active:
            raise KernelLanguageError(f"substitution rule {rule.name!r} is recursive "
                                      f"({' -> '.join(self.active + (rule.name,))})", rule.span)
        if len(params) != len(rule.arguments):
            raise KernelLanguageError(f"substitution rule {rule.name!r} takes "
                                      f"{len(rule.arguments)} argument(s), got {len(params)}",
                                      rule.span)
        values = [self.rec(a) for a in params]
        body = substitute(rule.expression, dict(zip(rule.arguments, values)))
        self.active += (rule.name,)
        try:
            return self.rec(body)
        finally:
            self.active = self.active[:-1]


# ---------------------------------------------------------------------------------------------
# variable use of one statement

@dataclass(frozen=True, slots=True)
class Access:
    """One subscripted use of an array: the indices and the reduction inames around it."""

    name: str
    indices: tuple[Expression, ...]
    linear: bool
    scope: frozenset[str]
    is_write: bool


@dataclass(frozen=True, slots=True)
class StatementUse:
    """How one statement uses variables (rules expanded)."""

    names: tuple[str, ...]            # every variable name, in order of first appearance
    reads: frozenset[str]             # names read (free: reduction-bound inames excluded)
    writes: tuple[str, ...]           # assignee names
    lhs_names: frozenset[str]         # names in the assignees (aggregates and indices)
    free_names: frozenset[str]        # free names anywhere (reads and assignees)
    reduction_inames: frozenset[str]
    index_names: frozenset[str]       # free names in subscript indices
    accesses: tuple[Access, ...]


class _UseCollector(IRWalkMapper):
    def __init__(self) -> None:
        self.names: dict[str, None] = {}
        self.accesses: list[Access] = []
        self.index_names: set[str] = set()
        self.reduction_inames: set[str] = set()
        self.scope: frozenset[str] = frozenset()
        self.writing = False

    def map_variable(self, expr: p.Variable, *args, **kwargs) -> None:
        self.names.setdefault(expr.name)

    map_tagged_variable = map_variable

    def _access(self, expr, indices: tuple, linear: bool) -> None:
        agg = expr.aggregate
        if not isinstance(agg, p.Variable):
            raise KernelLanguageError(f"cannot subscript {agg} (in {expr}): only variables "
                                      "can be subscripted; write a[i, j], not a[i][j]")
        self.names.setdefault(agg.name)
        self.accesses.append(Access(agg.name, indices, linear, self.scope, self.writing))
        writing, self.writing = self.writing, False
        for index in indices:
            self.index_names |= dependencies(index)
            self.rec(index)
        self.writing = writing

    def map_subscript(self, expr: p.Subscript, *args, **kwargs) -> None:
        self._access(expr, tuple(expr.index_tuple), False)

    def map_linear_subscript(self, expr: LinearSubscript, *args, **kwargs) -> None:
        self._access(expr, (expr.index,), True)

    def map_reduction(self, expr: Reduction, *args, **kwargs) -> None:
        self.reduction_inames |= set(expr.inames)
        outer, self.scope = self.scope, self.scope | frozenset(expr.inames)
        self.rec(expr.expr)
        self.scope = outer

    def map_call(self, expr: p.Call, *args, **kwargs) -> None:
        for c in expr.parameters:   # the function name is not a variable
            self.rec(c)


#: Node classes `_walk_use` walks like `_UseCollector`'s walk, by class: the attributes
#: holding their operands in the walk's order, and whether each holds a tuple of them.
_USE_OPERANDS: dict[type, tuple[tuple[str, bool], ...]] = {
    p.Sum: (("children", True),), p.Product: (("children", True),),
    p.Comparison: (("left", False), ("right", False)),
    p.Quotient: (("numerator", False), ("denominator", False)),
    p.FloorDiv: (("numerator", False), ("denominator", False)),
    p.Remainder: (("numerator", False), ("denominator", False)),
    p.Power: (("base", False), ("exponent", False)), p.Call: (("parameters", True),),
}
#: Constants the walk passes (the expander's identity mapper takes them as operands); a
#: boolean is left to the mappers (the expander refuses one inside a sum or product).
_CONSTANTS = (int, float, complex, np.number)
_BOOLEANS = (bool, np.bool_)


def _walk_use(coll: _UseCollector, expr: Expression) -> bool:
    """`coll.rec(expr)` for the common nodes, walked directly (a pymbolic walk dispatches
    through several calls per node); False, with `coll` partly filled, at a node it does not
    know, a boolean, or a subscript of anything but a variable (the mappers then expand and
    walk the whole statement again on a fresh collector, and raise what they raise)."""
    cls = type(expr)
    if cls is p.Variable:
        coll.names.setdefault(expr.name)
        return True
    if cls is p.Subscript or cls is LinearSubscript:
        agg = expr.aggregate
        if type(agg) is not p.Variable:
            return False
        indices = (expr.index,) if cls is LinearSubscript else tuple(expr.index_tuple)
        coll.names.setdefault(agg.name)
        coll.accesses.append(Access(agg.name, indices, cls is LinearSubscript, coll.scope,
                                    coll.writing))
        writing, coll.writing = coll.writing, False
        for index in indices:
            coll.index_names |= dependencies(index)
            if not _walk_use(coll, index):
                return False
        coll.writing = writing
        return True
    operands = _USE_OPERANDS.get(cls)
    if operands is not None:
        for attr, many in operands:
            part = getattr(expr, attr)
            if many:
                if type(part) is not tuple:
                    return False
                for item in part:
                    if not _walk_use(coll, item):
                        return False
            elif not _walk_use(coll, part):   # (a tuple here is declined: not a node)
                return False
        return True
    if cls is Reduction:
        coll.reduction_inames |= set(expr.inames)
        outer, coll.scope = coll.scope, coll.scope | frozenset(expr.inames)
        if not _walk_use(coll, expr.expr):
            return False
        coll.scope = outer
        return True
    return isinstance(expr, _CONSTANTS) and not isinstance(expr, _BOOLEANS)


def _direct_use(assignees: Sequence[Expression], reads: Sequence[Expression]
                ) -> _UseCollector | None:
    """The collector `statement_use` fills for a statement without substitution rules,
    walked directly; None where `_walk_use` declines a node."""
    coll = _UseCollector()
    for a in assignees:
        coll.writing = True
        if not _walk_use(coll, a):
            return None
        coll.writing = False
    for e in reads:
        if not _walk_use(coll, e):
            return None
    return coll


def statement_use(assignees: Sequence[Expression], reads: Sequence[Expression],
                  expander: RuleExpander) -> StatementUse:
    """Collect the variable use of a statement with `assignees` evaluating `reads`.
    Without substitution rules the expander changes nothing, and a statement of common
    nodes is walked directly (`_direct_use`; `tests/unit/test_first_build_shortcuts.py`
    compares both ways)."""
    coll = None if expander.rules else _direct_use(assignees, reads)
    direct = coll is not None
    if not direct:
        assignees = [expander(a) for a in assignees]
        reads = [expander(e) for e in reads]
        coll = _UseCollector()
        for a in assignees:
            coll.writing = True
            coll.rec(a)
            coll.writing = False
    lhs: set[str] = set()
    read_names: set[str] = set()
    writes = []
    for a in assignees:
        lhs |= dependencies(a)
        base = a.aggregate if isinstance(a, (p.Subscript, LinearSubscript)) else a
        writes.append(base.name)
        for index in _indices(a):
            read_names |= dependencies(index)
    for e in reads:
        if not direct:
            coll.rec(e)
        read_names |= dependencies(e)
    return StatementUse(
        names=tuple(coll.names), reads=frozenset(read_names), writes=tuple(writes),
        lhs_names=frozenset(lhs), free_names=frozenset(read_names | lhs),
        reduction_inames=frozenset(coll.reduction_inames),
        index_names=frozenset(coll.index_names), accesses=tuple(coll.accesses))


def _indices(expr: Expression) -> tuple[Expression, ...]:
    if isinstance(expr, p.Subscript):
        return tuple(expr.index_tuple)
    if isinstance(expr, LinearSubscript):
        return (expr.index,)
    return ()


# ---------------------------------------------------------------------------------------------
# ids

def assign_ids(items: Sequence[ParsedStatement]) -> list[ParsedStatement]:
    """Explicit ids are checked for uniqueness; the others get ``insn``, ``insn_0``, ... (or
    their ``id_prefix``), in statement order."""
    seen: dict[str, ParsedStatement] = {}
    for st in items:
        if st.id is None:
            continue
        if st.id in seen:
            raise KernelLanguageError(f"duplicate statement id {st.id!r} (statements "
                                      f"{seen[st.id].text!r} and {st.text!r})", st.span)
        seen[st.id] = st
    gen = UniqueNameGenerator(seen)
    return [st if st.id is not None else replace(st, id=gen(st.id_prefix or "insn"))
            for st in items]


# ---------------------------------------------------------------------------------------------
# within_inames

def infer_within_inames(items: Sequence[ParsedStatement], uses: Mapping[str, StatementUse],
                        all_inames: frozenset[str],
                        domain_iname_params: Mapping[str, frozenset[str]],
                        temporaries: frozenset[str]) -> dict[str, frozenset[str]]:
    """The reference's heuristic: inames used by the statement, plus the inames common to
    all writers of each variable it reads (minus the inames those writers index their
    assignee with), plus inames that bound its loops' domains; iterated to a fixed point.
    Reduction inames are never added; ``inames=i:j`` (without ``+``) is final."""
    writers = writer_map(items, uses)
    current: dict[str, frozenset[str]] = {}
    open_ids = []
    for st in items:
        for name in sorted((st.inames or frozenset()) - all_inames):
            raise st.error(f"unknown iname {name!r} in 'inames='", DomainError)
        if st.inames is not None and not st.inames_additive:
            current[st.id] = st.inames
        else:
            current[st.id] = (uses[st.id].free_names & all_inames) | (st.inames or frozenset())
            open_ids.append(st.id)
    changed = True
    while changed:
        changed = False
        for sid in open_ids:
            use = uses[sid]
            new = current[sid] | (_from_writers(use, writers, uses, current, all_inames)
                                  - use.reduction_inames)
            new |= _from_domains(new, domain_iname_params, writers, current, temporaries)
            if new != current[sid]:
                current[sid] = new
                changed = True
    return current


def writer_map(items: Sequence[ParsedStatement],
               uses: Mapping[str, StatementUse]) -> dict[str, list[str]]:
    """Variable name -> ids of the statements writing it, in statement order."""
    writers: dict[str, list[str]] = {}
    for st in items:
        for name in uses[st.id].writes:
            writers.setdefault(name, []).append(st.id)
    return writers


def _from_writers(use: StatementUse, writers, uses, current, all_inames) -> frozenset[str]:
    result: set[str] = set()
    for name in use.reads:
        common = None
        for wid in writers.get(name, ()):
            implicit = current[wid] - (uses[wid].lhs_names & all_inames)
            common = implicit if common is None else common & implicit
        if common:
            result |= common
    return frozenset(result)


def _from_domains(inames, domain_iname_params, writers, current, temporaries) -> frozenset:
    result: set[str] = set()
    for iname in inames:
        for prm in domain_iname_params.get(iname, ()):
            if prm in temporaries:
                for wid in writers.get(prm, ()):
                    result |= current[wid]
            else:
                result.add(prm)
    return frozenset(result)


# ---------------------------------------------------------------------------------------------
# dependencies and no-sync sets

def _match_ids(st: ParsedStatement, key: str, pattern: str, ids: Sequence[str]) -> list[str]:
    if not any(ch in pattern for ch in "*?["):
        if pattern not in ids:
            raise st.error(f"{key}={pattern!r}: no statement has this id")
        if pattern == st.id and key == "dep":
            raise st.error("a statement cannot depend on itself")
        return [pattern]
    found = [i for i in ids if fnmatch.fnmatchcase(i, pattern) and i != st.id]
    if not found:
        raise st.error(f"{key}={pattern!r} matches no other statement")
    return found


def infer_dependencies(items: Sequence[ParsedStatement], uses: Mapping[str, StatementUse],
                       seq_dependencies: bool,
                       bound_reads: Mapping[str, frozenset[str]] | None = None,
                       ) -> dict[str, frozenset[str]]:
    """Explicit ``dep=`` (wildcards resolved) plus, unless ``dep=*...``, the single-writer
    heuristic: a reader depends on the only writer of each variable it reads.  `bound_reads`
    adds, per statement, the temporaries its loop bounds read (data-dependent domains)."""
    ids = [st.id for st in items]
    writers = writer_map(items, uses)
    result: dict[str, frozenset[str]] = {}
    previous: str | None = None
    for st in items:
        deps: set[str] = set()
        for pattern in st.dep:
            deps.update(_match_ids(st, "dep", pattern, ids))
        if not st.dep_exclusive:
            for name in uses[st.id].reads | (bound_reads or {}).get(st.id, frozenset()):
                w = writers.get(name, ())
                if len(w) == 1 and w[0] != st.id:
                    deps.add(w[0])
        if seq_dependencies and previous is not None:
            deps.add(previous)
        result[st.id] = frozenset(deps)
        previous = st.id
    return result


def resolve_nosync(items: Sequence[ParsedStatement]) -> dict[str, frozenset[tuple[str, str]]]:
    """``nosync=`` patterns resolved to (id, scope) pairs."""
    ids = [st.id for st in items]
    return {st.id: frozenset((i, scope) for pattern, scope in st.nosync
                             for i in _match_ids(st, "nosync", pattern, ids))
            for st in items}
