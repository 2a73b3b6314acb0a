"""precompute: compute a substitution rule's values over a swept footprint into a temporary.

The footprint, storage and tagging machinery lives in `transforms.footprint` (shared with
`add_prefetch` and `buffer_array`); this module finds and replaces rule invocations and builds
the compute statement.  `precompute_rule` is the core that `add_prefetch` calls after it has
extracted its fetch rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import field, replace
from typing import Any

import numpy as np
import pymbolic.primitives as p

from translator.diagnostics import KernelLanguageError, TransformError
from translator.ir import isl_glue
from translator.ir.expr import (Expression, IRIdentityMapper, Reduction, TaggedVariable,
                                dependencies, substitute)
from translator.ir.kernel import Kernel, SubstitutionRule
from translator.ir.statements import Assignment
from translator.ir.util import FrozenDict, UniqueNameGenerator

from transforms.common import (check_iname, collect, kernel_names, map_statement_expressions,
                               name_list, new_name, statement_expressions, suggestion)
from transforms.footprint import (StoragePlan, Use, add_dependency, add_storage, glue_call,
                                  guess_outer_inames, plan_storage, storage_dim_tags,
                                  strided_dim_tags, temporary_ref, unique_statement_id,
                                  writer_dependencies)
from transforms.inames import check_tag_syntax
from transforms.match import parse_stack_match
from transforms.registry import transform
from translator.ir.parse_expr import parse_expression
from translator.records import dataclass

# ---------------------------------------------------------------------------------------------
# rule invocations


#: Whether an expression node is a use, and then its arguments (indices).
Matcher = Callable[[Expression], "tuple[Expression, ...] | None"]


class UseMapper(IRIdentityMapper):
    """Replaces each node that `match` accepts (rule invocations, array subscripts) by
    ``replace_fn(args, reduction_inames)``: its arguments, already mapped, and the inames of
    the reductions around it."""

    def __init__(self, match: Matcher,
                 replace_fn: Callable[[tuple[Expression, ...], frozenset[str]], Expression]
                 ) -> None:
        self.match = match
        self.replace_fn = replace_fn
        self.reductions: frozenset[str] = frozenset()

    def _use(self, expr: Expression, default: Callable[[], Expression]) -> Expression:
        args = self.match(expr)
        if args is None:
            return default()
        return self.replace_fn(tuple(self.rec(a) for a in args), self.reductions)

    def map_call(self, expr: p.Call, *args: Any, **kwargs: Any) -> Expression:
        return self._use(expr, lambda: super(UseMapper, self).map_call(expr))

    def map_subscript(self, expr: p.Subscript, *args: Any, **kwargs: Any) -> Expression:
        return self._use(expr, lambda: super(UseMapper, self).map_subscript(expr))

    def map_linear_subscript(self, expr: Any, *args: Any, **kwargs: Any) -> Expression:
        return self._use(expr, lambda: super(UseMapper, self).map_linear_subscript(expr))

    def map_variable(self, expr: p.Variable, *args: Any, **kwargs: Any) -> Expression:
        return self._use(expr, lambda: expr)

    map_tagged_variable = map_variable

    def map_reduction(self, expr: Reduction, *args: Any, **kwargs: Any) -> Expression:
        outer = self.reductions
        self.reductions = outer | frozenset(expr.inames)
        try:
            return super().map_reduction(expr, *args, **kwargs)
        finally:
            self.reductions = outer


def rule_matcher(rule: str, tag: str | None) -> Matcher:
    """Invocations ``rule(...)`` (``rule`` alone for a rule without arguments), with tag
    `tag` or, if None, with any tag."""
    def named(f: Expression) -> bool:
        if not isinstance(f, p.Variable) or f.name != rule:
            return False
        return tag is None or (isinstance(f, TaggedVariable) and f.tag == tag)

    def match(expr: Expression) -> tuple[Expression, ...] | None:
        if isinstance(expr, p.Call) and named(expr.function):
            return tuple(expr.parameters)
        return () if isinstance(expr, p.Variable) and named(expr) else None
    return match


def find_uses(kernel: Kernel, ids: Iterable[str], match: Matcher) -> list[Use]:
    """Every use that `match` accepts in the statements `ids` (assignees included)."""
    found: list[Use] = []
    stmts = kernel.id_to_statement
    for sid in ids:
        stmt = stmts[sid]

        def record(args, reductions, stmt=stmt):
            found.append(Use(stmt.id, args, stmt.within_inames | reductions,
                             stmt.predicates))
            return p.Variable("_tr_unused")
        mapper = UseMapper(match, record)
        for e in statement_expressions(stmt):
            mapper(e)
    return found


def replace_uses(kernel: Kernel, ids: Iterable[str], match: Matcher,
                 fn: Callable[[tuple[Expression, ...]], Expression]) -> Kernel:
    """The statements `ids` with each use that `match` accepts replaced by ``fn(args)``."""
    mapper = UseMapper(match, lambda args, _reds: fn(args))
    ids = set(ids)
    stmts = tuple(map_statement_expressions(s, mapper) if s.id in ids else s
                  for s in kernel.statements)
    return replace(kernel, statements=stmts)


def drop_rule_if_unused(kernel: Kernel, rule: str) -> Kernel:
    """Remove substitution rule `rule` when no statement or other rule invokes it."""
    others = [r.expression for n, r in kernel.substitutions.items() if n != rule]
    exprs = others + [e for s in kernel.statements for e in statement_expressions(s)]
    if rule in collect(exprs, [rule]).invoked:
        return kernel
    return replace(kernel, substitutions=FrozenDict(
        (n, r) for n, r in kernel.substitutions.items() if n != rule))


# ---------------------------------------------------------------------------------------------
# the core


@dataclass(frozen=True, slots=True, kw_only=True)
class PrecomputeRequest:
    """Everything `precompute_rule` needs, already checked.

    `label` names what is stored in messages (the rule, or the prefetched array).
    `generators` (instance set, arguments) define the footprint instead of the uses.
    `shape` clips the footprint to an array's bounds; `layout` gives each argument's nesting
    level in memory (0: fastest) for the temporary's layout and the ``l.auto`` order.
    `memory` (argument positions, outermost first) and `padding` (unused elements after each
    row of the innermost axis) lay the temporary out otherwise, with fixed strides; the
    ``l.auto`` order still follows `layout` (add_prefetch's ``storage_axes`` and
    ``storage_padding``).
    """

    what: str
    rule: SubstitutionRule
    tag: str | None
    label: str
    statements: tuple[str, ...]
    sweep: tuple[str, ...]
    iname_bases: tuple[str, ...]
    outer: frozenset[str] | None = None
    generators: tuple | None = None
    order: tuple[int, ...] | None = None
    axis_tags: Mapping[Any, Any] = field(default_factory=dict)
    default_tag: Any = None
    dtype: Any = None
    bounding_box: bool = False
    address_space: Any = None
    temporary: str | None = None
    insn_id: str | None = None
    shape: tuple[Expression, ...] | None = None
    layout: tuple[int, ...] | None = None
    memory: tuple[int, ...] | None = None
    padding: int = 0


def precompute_rule(kernel: Kernel, req: PrecomputeRequest) -> Kernel:
    """Store the values of `req.rule` over the footprint of its uses in `req.statements`."""
    match = rule_matcher(req.rule.name, req.tag)
    uses = find_uses(kernel, req.statements, match)
    if not uses:
        raise TransformError(f"{req.what}: no use of {req.label!r} matches"
                             + _nested_hint(kernel, req.rule.name))
    outer = req.outer
    if outer is None:
        reads = dependencies(req.rule.expression) - set(req.rule.arguments)
        sources = uses if req.generators is None else [
            Use("subst_use", tuple(args), frozenset(dependencies_of(args, kernel)))
            for _, args in req.generators]
        outer = guess_outer_inames(kernel, sources, req.sweep, reads)
    plan = plan_storage(kernel, req.what, req.label, uses, req.sweep, outer, req.iname_bases,
                        generators=req.generators, bounding_box=req.bounding_box,
                        shape=req.shape, order=req.order)
    temp = new_name(kernel, req.temporary, req.rule.name, req.what, "temporary_name", set())
    insn = unique_statement_id(kernel, req.insn_id, req.rule.name, req.what)
    use_ids = {u.statement for u in uses}
    stmt = _compute_statement(kernel, req.rule, plan, temp, insn, use_ids)
    kernel = replace_uses(kernel, use_ids, match,
                          lambda args: temporary_ref(temp, plan.index(args)))
    kernel = add_dependency(kernel, use_ids, insn)
    kernel = add_storage(kernel, req.what, temp, [(plan, [stmt])], dtype=req.dtype,
                         address_space=req.address_space, tags=_axis_tags(req, plan),
                         default_tag=req.default_tag,
                         dim_tags=storage_dim_tags(plan, req.layout))
    if req.memory is not None or req.padding:
        strided = strided_dim_tags(plan, req.memory, req.layout, req.padding)
        kernel = replace(kernel, temporaries=kernel.temporaries.set(
            temp, replace(kernel.temporaries[temp], dim_tags=strided)))
    return drop_rule_if_unused(kernel, req.rule.name)


def dependencies_of(args: Sequence[Expression], kernel: Kernel) -> set[str]:
    """The kernel inames that `args` depend on."""
    return set().union(*(dependencies(a) for a in args)) & kernel.all_inames if args else set()


def _nested_hint(kernel: Kernel, rule: str) -> str:
    users = sorted(n for n, r in kernel.substitutions.items()
                   if n != rule and rule in collect([r.expression], [rule]).invoked)
    if not users:
        return ""
    return (f" in the statements (it is invoked inside rule(s) {', '.join(users)}; expand "
            "those first)")


def _axis_tags(req: PrecomputeRequest, plan: StoragePlan) -> dict[int, Any]:
    """`req.axis_tags` keyed by argument position (keys may be argument names or positions,
    or the new inames)."""
    out: dict[int, Any] = {}
    by_iname = {ax.iname: ax.position for ax in plan.stored}
    for key, spec in req.axis_tags.items():
        check_tag_syntax(spec, req.what, f"tag of storage axis {key!r}")
        if isinstance(key, str) and key in by_iname:
            out[by_iname[key]] = spec
        else:
            out[_axis_position(req.what, req.rule.arguments, key)] = spec
    return out


def _compute_statement(kernel: Kernel, rule: SubstitutionRule, plan: StoragePlan, temp: str,
                       insn: str, use_ids: set[str]) -> Assignment:
    values = dict(zip(rule.arguments, plan.point()))
    expression = substitute(rule.expression, values)
    deps = writer_dependencies(kernel, use_ids, dependencies(expression))
    first = next(s for s in kernel.statements if s.id in use_ids)
    span = rule.span or first.span
    target = temporary_ref(temp, tuple(p.Variable(i) for i in plan.new_inames))
    return Assignment(id=insn, assignee=target, expression=expression,
                      within_inames=plan.outer | set(plan.new_inames), depends_on=deps,
                      predicates=frozenset(plan.predicates), span=span)


# ---------------------------------------------------------------------------------------------
# precompute


@transform()
def precompute(kernel: Kernel, subst_use: Any, sweep_inames: Any = (), within: Any = None,
               storage_axes: Any = None, temporary_name: str | None = None,
               precompute_inames: Any = None, precompute_outer_inames: Any = None,
               storage_axis_to_tag: Mapping[Any, Any] | None = None, default_tag: Any = None,
               dtype: Any = None, fetch_bounding_box: bool = False,
               temporary_address_space: Any = None, compute_insn_id: str | None = None
               ) -> Kernel:
    """Compute a substitution rule's values, swept over `sweep_inames`, into a temporary.

    `subst_use` is the rule's name, ``name$tag`` (only invocations carrying that tag), or a
    list of invocations such as ``["f(i_inner)", "f(i_inner + 1)"]`` that define the
    footprint (the uses must lie inside it).  Example, with i split by 16::

        before: f(x) := 2*a[x]
                out[i_inner + 16*i_outer, j] = f(i_inner + 16*i_outer) + f(...+ 1)
        precompute(knl, "f", "i_inner")
        after:  f_0[x] = 2*a[16*i_outer + x]  {id=f, inames=i_outer:x, if=16*i_outer + x <= n}
                out[i_inner + 16*i_outer, j] = f_0[i_inner] + f_0[i_inner + 1]  {dep=f}
                with x a new iname over 0 <= x < 17 and f_0 a private array of 17 values.

    The storage axes are the rule's arguments (`storage_axes` orders them, by name or
    position); an argument with one value per outer iteration gets no axis.  The new inames
    are named after `precompute_inames` (default: the rule's argument names) and tagged by
    `storage_axis_to_tag` (keys: argument names or positions, or the new inames) or
    `default_tag` (``l.auto`` maps them onto local axes, splitting to fit).  The compute
    statement runs inside `precompute_outer_inames` (default: the inames the footprint
    depends on, see `transforms.footprint.guess_outer_inames`).
    """
    what = "precompute"
    rule, tag, generators = _parse_subst_use(kernel, what, subst_use)
    sweep = name_list(sweep_inames, what, "sweep_inames")
    for iname in sweep:
        check_iname(kernel, iname, what)
    check_tag_syntax(default_tag, what, "default_tag")
    match = parse_stack_match(within)
    req = PrecomputeRequest(
        what=what, rule=rule, tag=tag, label=rule.name,
        statements=tuple(s.id for s in kernel.statements if match(kernel, s)), sweep=sweep,
        iname_bases=_iname_bases(kernel, what, rule.arguments, precompute_inames),
        outer=_outer_arg(kernel, what, precompute_outer_inames),
        generators=None if generators is None else tuple(
            (_generator_domain(kernel, what, g), g) for g in generators),
        order=storage_order(what, rule.arguments, storage_axes),
        axis_tags=dict(storage_axis_to_tag or {}), default_tag=default_tag,
        dtype=dtype_arg(what, dtype),
        bounding_box=bool(fetch_bounding_box), address_space=temporary_address_space,
        temporary=temporary_name, insn_id=compute_insn_id)
    return precompute_rule(kernel, req)


def _parse_subst_use(kernel: Kernel, what: str, subst_use: Any):
    """(rule, tag, footprint generators or None) from the accepted forms of `subst_use`."""
    items = [subst_use] if isinstance(subst_use, (str, p.ExpressionNode)) else subst_use
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable) or not list(items):
        raise TransformError(f"{what}: subst_use must be a rule name or invocations, got "
                             f"{subst_use!r}")
    exprs = []
    for item in items:
        try:
            exprs.append(parse_expression(item) if isinstance(item, str) else item)
        except KernelLanguageError as e:
            raise TransformError(f"{what}: bad subst_use {item!r}: {e.message}") from None
    heads = [e.function if isinstance(e, p.Call) else e for e in exprs]
    if not all(isinstance(h, p.Variable) for h in heads):
        raise TransformError(f"{what}: subst_use must name a substitution rule, got "
                             f"{subst_use!r}")
    if len({h.name for h in heads}) != 1:
        raise TransformError(f"{what}: the invocations in subst_use must all be of one rule")
    name = heads[0].name
    if name not in kernel.substitutions:
        raise TransformError(f"{what}: unknown substitution rule {name!r}"
                             + suggestion(name, kernel.substitutions))
    tags = {h.tag for h in heads if isinstance(h, TaggedVariable)}
    tag = tags.pop() if len(tags) == 1 else None
    generators = [tuple(e.parameters) for e in exprs if isinstance(e, p.Call)] or None
    return kernel.substitutions[name], tag, generators


def _generator_domain(kernel: Kernel, what: str, args: Sequence[Expression]):
    inames = dependencies_of(args, kernel)
    return glue_call(what, "subst_use", lambda: isl_glue.use_domain(kernel.domains, inames))


def _outer_arg(kernel: Kernel, what: str, given: Any) -> frozenset[str] | None:
    if given is None:
        return None
    names = name_list(given, what, "precompute_outer_inames")
    for iname in names:
        check_iname(kernel, iname, what)
    return frozenset(names)


def storage_order(what: str, arguments: Sequence[str], storage_axes: Any
                  ) -> tuple[int, ...] | None:
    """`storage_axes` (argument names or positions, a list or comma-separated string) as
    argument positions; None stays None."""
    if storage_axes is None:
        return None
    items = storage_axes.split(",") if isinstance(storage_axes, str) else list(storage_axes)
    order = [_axis_position(what, arguments, a) for a in items]
    if sorted(order) != list(range(len(arguments))):
        raise TransformError(f"{what}: storage_axes {storage_axes!r} must list each of the "
                             f"rule's arguments ({', '.join(arguments)}) exactly once")
    return tuple(order)


def _axis_position(what: str, arguments: Sequence[str], key: Any) -> int:
    if isinstance(key, str) and key.strip() in arguments:
        return list(arguments).index(key.strip())
    if isinstance(key, int) and not isinstance(key, bool) and 0 <= key < len(arguments):
        return key
    raise TransformError(f"{what}: {key!r} is not an argument of the rule (name or position; "
                         f"arguments: {', '.join(arguments) or 'none'})")


def explicit_inames(kernel: Kernel, what: str, given: Any, arg: str,
                    reuse: bool = False) -> tuple[str, ...]:
    """New iname names given by the user: identifiers not used in the kernel yet (with
    `reuse`, existing inames too: the storage plan checks their bounds)."""
    names = name_list(given, what, arg)
    taken = kernel_names(kernel) - (set(kernel.all_inames) if reuse else set())
    for n in names:
        if not n.isidentifier():
            raise TransformError(f"{what}: {arg} must be identifiers, got {n!r}")
        if n in taken:
            raise TransformError(f"{what}: {arg}: {n!r} is already used in kernel "
                                 f"{kernel.name!r}")
    if len(set(names)) != len(names):
        raise TransformError(f"{what}: {arg} {list(names)!r} repeats a name")
    return names


def _iname_bases(kernel: Kernel, what: str, arguments: Sequence[str], given: Any
                 ) -> tuple[str, ...]:
    # a default name (the rule's argument) that is an iname already is not a request to
    # reuse that iname: only names given in precompute_inames are
    gen = UniqueNameGenerator(kernel_names(kernel))
    names = [gen(a) if a in kernel.all_inames else a for a in arguments]
    for k, n in enumerate(explicit_inames(kernel, what, given, "precompute_inames",
                                          reuse=True)[:len(names)]):
        names[k] = n
    return tuple(names)


def dtype_arg(what: str, dtype: Any) -> Any:
    """`dtype` as a numpy dtype (None stays None: type inference decides)."""
    if dtype is None:
        return None
    try:
        return np.dtype(dtype)
    except TypeError:
        raise TransformError(f"{what}: unknown dtype {dtype!r}") from None


__all__ = ["PrecomputeRequest", "UseMapper", "find_uses", "precompute", "precompute_rule",
           "replace_uses", "rule_matcher"]
