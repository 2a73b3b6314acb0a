"""Substitution rules: extract_subst, assignment_to_subst, expand_subst,
find_rules_matching, find_one_rule_matching.

A rule ``f(x, y) := expr`` is invoked as ``f(a, b)`` (``f`` alone when it has no arguments);
names in `expr` other than its arguments are free and resolve where the rule is expanded.
Code generation needs rules expanded (`expand_subst`).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pymbolic.primitives as p

from translator.diagnostics import KernelLanguageError, TransformError, TranslatorError
from translator.ir.expr import (Expression, IRIdentityMapper, LinearSubscript, TaggedVariable,
                                TypeCast, dependencies, expr_key, substitute)
from translator.ir.kernel import Kernel, SubstitutionRule
from translator.ir.parse_infer import RuleExpander
from translator.ir.statements import Assignment, Statement
from translator.ir.util import FrozenDict, UniqueNameGenerator

from transforms.common import (collect, kernel_names, map_statement_expressions, name_list,
                               statement_expressions, suggestion)
from transforms.match import glob_matches, parse_stack_match
from transforms.registry import transform
from transforms.statements import remove_statements
from translator.ir.parse_expr import parse_expression
from translator.ir.types import TypeOracle

# ---------------------------------------------------------------------------------------------
# unification of a template with an expression


class _Template:
    """A template expression whose `variables` unify with any subexpression.

    `bindings` holds the values of `fixed` variables (wildcards), which must be the same in
    every match once bound."""

    def __init__(self, expr: Expression, variables: Sequence[str], fixed: Sequence[str]) -> None:
        self.expr = expr
        self.variables = frozenset(variables) | frozenset(fixed)
        self.fixed = frozenset(fixed)
        self.bindings: dict[str, Expression] = {}

    def match(self, target: Expression) -> dict[str, Expression] | None:
        """Bindings under which the template equals `target` (None: no match)."""
        found = _unify(self.expr, target, self.variables, dict(self.bindings))
        if found is not None:
            self.bindings.update({k: v for k, v in found.items() if k in self.fixed})
        return found


def _unify(pattern: Expression, target: Expression, variables: frozenset[str],
           env: dict[str, Expression]) -> dict[str, Expression] | None:
    if isinstance(pattern, p.Variable) and not isinstance(pattern, TaggedVariable) \
            and pattern.name in variables:
        if pattern.name in env:
            return env if env[pattern.name] == target else None
        return {**env, pattern.name: target}
    if isinstance(pattern, (p.Sum, p.Product)) and type(target) is type(pattern):
        return _unify_commutative(pattern.children, target.children, variables, env)
    if isinstance(pattern, tuple) and isinstance(target, tuple):
        return _unify_sequence(pattern, target, variables, env)
    if isinstance(pattern, p.ExpressionNode) and type(target) is type(pattern):
        return _unify_sequence(_children(pattern), _children(target), variables, env)
    return env if (type(pattern) is type(target) and pattern == target) else None


def _children(expr: p.ExpressionNode) -> tuple:
    return tuple(getattr(expr, f.name) for f in dataclasses.fields(expr))


def _unify_sequence(pattern: Sequence, target: Sequence, variables: frozenset[str],
                    env: dict[str, Expression]) -> dict[str, Expression] | None:
    if len(pattern) != len(target):
        return None
    for a, b in zip(pattern, target):
        env = _unify(a, b, variables, env)
        if env is None:
            return None
    return env


def _unify_commutative(pattern: Sequence, target: Sequence, variables: frozenset[str],
                       env: dict[str, Expression]) -> dict[str, Expression] | None:
    """Sums and products match in any order of their terms (tried in order first)."""
    if len(pattern) != len(target):
        return None
    found = _unify_sequence(pattern, target, variables, env)
    if found is not None or len(target) > 5:
        return found
    for perm in itertools.permutations(target):
        found = _unify_sequence(pattern, perm, variables, env)
        if found is not None:
            return found
    return None


class _Extractor(IRIdentityMapper):
    """Replaces every outermost subexpression matching the template by a rule invocation."""

    def __init__(self, template: _Template, rule: str, parameters: Sequence[str]) -> None:
        self.template = template
        self.rule = rule
        self.parameters = tuple(parameters)
        self.count = 0

    def rec(self, expr: Expression, *args: Any, **kwargs: Any) -> Expression:
        if not isinstance(expr, (int, float, complex, tuple)):
            env = self.template.match(expr)
            if env is not None:
                self.count += 1
                return _invocation(self.rule, [env[n] for n in self.parameters])
        return super().rec(expr, *args, **kwargs)

    __call__ = rec


def _invocation(rule: str, arguments: Sequence[Expression]) -> Expression:
    if not arguments:
        return p.Variable(rule)
    return p.Call(p.Variable(rule), tuple(arguments))


# ---------------------------------------------------------------------------------------------
# extract_subst

_WILDCARD = re.compile(r"(?<=[\[(,])\s*\*\s*(?=[\]),])")


def _parse_template(template: Any, name: str) -> tuple[Expression, list[str]]:
    """The template expression; each ``*`` standing for a whole subscript or argument becomes
    a wildcard variable ``_tr_wild<k>``."""
    if not isinstance(template, str):
        return template, []
    wildcards: list[str] = []

    def wildcard(_: re.Match) -> str:
        wildcards.append(f"_tr_wild{len(wildcards)}")
        return wildcards[-1]

    text = _WILDCARD.sub(wildcard, template)
    try:
        return parse_expression(text), wildcards
    except TranslatorError as e:
        raise TransformError(f"{name}: bad template {template!r}: {e.message}") from None


def _check_new_rule_name(kernel: Kernel, rule: Any, name: str) -> str:
    if not isinstance(rule, str) or not rule.isidentifier():
        raise TransformError(f"{name}: the rule name must be an identifier, got {rule!r}")
    if rule in kernel_names(kernel):
        raise TransformError(f"{name}: {rule!r} is already used in kernel {kernel.name!r}")
    return rule


@transform()
def extract_subst(kernel: Kernel, subst_name: str, template: Any,
                  parameters: str | Iterable[str] = (), within: Any = None) -> Kernel:
    """Make a substitution rule of `template` and use it wherever an expression matches.

    Names in `parameters` match any subexpression (they become the rule's arguments); a
    ``*`` matches any subscript or argument, the same one in every match.  Sums and products
    match in any order.  Only right-hand sides and conditions of the statements matched by
    `within` are searched.  Example::

        before: out[i] = a[i]**2 + b[i]**2
        extract_subst(knl, "sq", "x**2", parameters="x")
        after:  sq(x) := x**2
                out[i] = sq(a[i]) + sq(b[i])
    """
    name = "extract_subst"
    _check_new_rule_name(kernel, subst_name, name)
    params = name_list(parameters, name, "parameters")
    expr, wildcards = _parse_template(template, name)
    missing = [prm for prm in params if prm not in dependencies(expr)]
    if missing:
        raise TransformError(f"{name}: parameter {missing[0]!r} does not occur in the "
                             f"template {template!r}")
    tmpl = _Template(expr, params, wildcards)
    extractor = _Extractor(tmpl, subst_name, params)
    match = parse_stack_match(within)
    stmts = tuple(_extract_in(s, extractor) if match(kernel, s) else s
                  for s in kernel.statements)
    if not extractor.count:
        raise TransformError(f"{name}: no expression in the selected statements matches the "
                             f"template {template!r}")
    unbound = [w for w in wildcards if w not in tmpl.bindings]
    body = substitute(expr, {w: tmpl.bindings[w] for w in wildcards if w not in unbound})
    rule = SubstitutionRule(name=subst_name, arguments=params, expression=body)
    return replace(kernel, statements=stmts,
                   substitutions=kernel.substitutions.set(subst_name, rule))


def _extract_in(stmt: Statement, extractor: _Extractor) -> Statement:
    """Apply `extractor` to the right-hand side and the conditions (never to assignees)."""
    changes: dict[str, Any] = {}
    if hasattr(stmt, "expression"):
        new = extractor(stmt.expression)
        if new is not stmt.expression:
            changes["expression"] = new
    preds = {pr: extractor(pr) for pr in stmt.predicates}
    if any(n is not o for o, n in preds.items()):
        changes["predicates"] = frozenset(preds.values())
    return replace(stmt, **changes) if changes else stmt


# ---------------------------------------------------------------------------------------------
# assignment_to_subst


class _UsageReplacer(IRIdentityMapper):
    """``t[i, j]`` -> ``rule(i, j, extra...)`` and ``t`` -> ``rule(extra...)``."""

    def __init__(self, var: str, rule: str, nargs: int, extra: Sequence[str]) -> None:
        self.var = var
        self.rule = rule
        self.nargs = nargs
        self.extra = tuple(p.Variable(e) for e in extra)

    def map_variable(self, expr: p.Variable, *args: Any, **kwargs: Any) -> Expression:
        if expr.name != self.var:
            return expr
        if self.nargs:
            raise TransformError(f"assignment_to_subst: {self.var!r} is read without its "
                                 f"{self.nargs} subscript(s)")
        return _invocation(self.rule, self.extra)

    map_tagged_variable = map_variable

    def map_subscript(self, expr: p.Subscript, *args: Any, **kwargs: Any) -> Expression:
        if getattr(expr.aggregate, "name", None) != self.var:
            return super().map_subscript(expr, *args, **kwargs)
        index = tuple(self.rec(i) for i in expr.index_tuple)
        if len(index) != self.nargs:
            raise TransformError(f"assignment_to_subst: {expr_key(expr)} has {len(index)} "
                                 "subscript(s); "
                                 f"the definition of {self.var!r} has {self.nargs}")
        return _invocation(self.rule, index + self.extra)

    def map_linear_subscript(self, expr: LinearSubscript, *args: Any, **kwargs: Any):
        if getattr(expr.aggregate, "name", None) == self.var:
            raise TransformError(f"assignment_to_subst: {expr_key(expr)}: a linear subscript of "
                                 f"{self.var!r} cannot become a rule invocation")
        return super().map_linear_subscript(expr, *args, **kwargs)


def _definitions(kernel: Kernel, lhs_name: str,
                 name: str) -> list[tuple[Assignment, tuple[str, ...]]]:
    """The statements assigning `lhs_name`, each with its subscripts (the rule's arguments)."""
    writers = [s for s in kernel.statements if lhs_name in s.assignee_names()]
    if not writers:
        raise TransformError(f"{name}: no statement assigns {lhs_name!r}")
    return [_definition(d, lhs_name, name) for d in writers]


def _definition(d: Statement, lhs_name: str, name: str) -> tuple[Assignment, tuple[str, ...]]:
    """One plain assignment of `lhs_name`, and its subscripts (distinct inames)."""
    if not isinstance(d, Assignment) or d.predicates or d.atomicity:
        raise TransformError(f"{name}: statement {d.id!r} is not a plain unconditional "
                             "assignment", d.span)
    if lhs_name in dependencies(d.expression):
        raise TransformError(f"{name}: statement {d.id!r} reads {lhs_name!r} while defining "
                             "it", d.span)
    indices = tuple(d.assignee.index_tuple) if isinstance(d.assignee, p.Subscript) else ()
    shifted = [_iname_plus_constant(i) for i in indices]
    names = [sh[0] for sh in shifted if sh is not None]
    if isinstance(d.assignee, LinearSubscript) or None in shifted or len(set(names)) != len(names):
        raise TransformError(f"{name}: statement {d.id!r}: the subscripts of "
                             f"{expr_key(d.assignee)} "
                             "must be distinct inames, each plus a constant at most (perhaps use "
                             "affine_map_inames first)", d.span)
    offsets = {n: c for n, c in shifted if c}
    if offsets:  # t[i + c] = f(i) defines t(k) = f(k - c)
        d = replace(d, expression=substitute(
            d.expression, {n: p.Variable(n) - c for n, c in offsets.items()}))
    return d, tuple(names)


def _iname_plus_constant(index: Expression) -> tuple[str, int] | None:
    """``i`` -> (i, 0); ``i + c`` / ``c + i`` with an integer c -> (i, c); else None."""
    if isinstance(index, p.Variable):
        return index.name, 0
    if isinstance(index, p.Sum):
        names = [c for c in index.children if isinstance(c, p.Variable)]
        consts = [c for c in index.children if isinstance(c, int | np.integer)
                  and not isinstance(c, bool)]
        if len(names) == 1 and len(names) + len(consts) == len(index.children):
            return names[0].name, int(sum(consts))
    return None


def _reads(stmt: Statement, var: str) -> bool:
    return any(var in dependencies(e) for e in stmt.read_expressions())


@transform()
def assignment_to_subst(kernel: Kernel, lhs_name: str, extra_arguments: Any = (),
                        within: Any = None, force_retain_argument: bool = False) -> Kernel:
    """Turn the assignments defining `lhs_name` into substitution rules used where it is read.

    The definition's subscripts (distinct inames) become the rule's arguments, followed by
    `extra_arguments`.  Readers matched by `within` invoke the rule of the definition that
    reaches them; when no other statement reads `lhs_name`, the definitions and the temporary
    (or the argument, unless `force_retain_argument`) are removed.  With several definitions
    (``a = x; out = 5*a; a = y; out2 = 6*a``), each becomes its own rule; a reader's
    definition is the last one before it in the same loops that it depends on.  Example::

        before: <> t[i] = 2*a[i]  {id=d} ; out[i] = t[i] + 1
        assignment_to_subst(knl, "t")
        after:  t(i) := 2*a[i]
                out[i] = t(i) + 1
    """
    name = "assignment_to_subst"
    if kernel.variable(lhs_name) is None:
        raise TransformError(f"{name}: unknown variable {lhs_name!r}"
                             + suggestion(str(lhs_name), kernel_names(kernel)))
    defs = _definitions(kernel, lhs_name, name)
    extra = name_list(extra_arguments, name, "extra_arguments")
    match = parse_stack_match(within)
    reaching = _reaching_definitions(kernel, lhs_name, [d for d, _ in defs], name)
    users = [s for s in kernel.statements if s.id in reaching and match(kernel, s)]
    if not users:
        raise TransformError(f"{name}: no statement (matched by within) reads {lhs_name!r}")
    for d, args in defs:
        _check_free_inames(kernel, d, args, extra,
                           [u for u in users if reaching[u.id] == d.id], name)
    user_ids = {u.id for u in users}
    still_read = {d for r, d in reaching.items() if r not in user_ids}
    removed = {d.id for d, _ in defs if d.id not in still_read
               and any(reaching[u.id] == d.id for u in users)}
    drop_var = len(removed) == len(defs) and not (kernel.arg(lhs_name) is not None
                                                  and force_retain_argument)
    return _substituted(kernel, lhs_name, defs, users, reaching, extra, removed, drop_var)


def _substituted(kernel: Kernel, lhs_name: str, defs: list[tuple[Assignment, tuple[str, ...]]],
                 users: list[Statement], reaching: dict[str, str], extra: tuple[str, ...],
                 removed: set[str], drop_var: bool) -> Kernel:
    """`kernel` with one rule per used definition, readers invoking theirs."""
    taken = kernel_names(kernel) - ({lhs_name} if drop_var else set())
    gen = UniqueNameGenerator(taken)
    rules = dict(kernel.substitutions)
    replacers = {}
    for d, args in defs:
        if not any(reaching[u.id] == d.id for u in users):
            continue
        rule = gen(lhs_name if drop_var else f"{lhs_name}_subst")
        rules[rule] = SubstitutionRule(name=rule, arguments=args + extra, span=d.span,
                                       expression=_stored_value(kernel, lhs_name, d.expression))
        replacers[d.id] = _UsageReplacer(lhs_name, rule, len(args), extra)
    by_user = {u.id: replacers[reaching[u.id]] for u in users}
    stmts = tuple(map_statement_expressions(s, by_user[s.id]) if s.id in by_user else s
                  for s in kernel.statements)
    result = replace(kernel, statements=stmts, substitutions=FrozenDict(rules))
    result = remove_statements(result, removed)
    if not drop_var:
        return result
    if kernel.arg(lhs_name) is not None:
        return replace(result, args=tuple(a for a in result.args if a.name != lhs_name))
    return replace(result, temporaries=result.temporaries.delete(lhs_name))


def _reaching_definitions(kernel: Kernel, lhs_name: str, defs: list[Assignment],
                          name: str) -> dict[str, str]:
    """Reader id -> id of the definition it reads: the only one, or (several) the last one
    before the reader in kernel order that runs in the reader's loops and that the reader
    depends on.  A reader no definition provably reaches is an error."""
    readers = [s for s in kernel.statements
               if s.id not in {d.id for d in defs} and _reads(s, lhs_name)]
    if len(defs) == 1:
        return {r.id: defs[0].id for r in readers}
    order = {s.id: k for k, s in enumerate(kernel.statements)}
    closure = kernel.dependency_closure()
    out = {}
    for r in readers:
        before = [d for d in defs if order[d.id] < order[r.id]]
        d = before[-1] if before else None
        if d is None or d.within_inames != r.within_inames or d.id not in closure[r.id]:
            raise TransformError(
                f"{name}: {lhs_name!r} is assigned by several statements "
                f"({', '.join(d.id for d in defs)}) and statement {r.id!r} does not read one "
                "of them that runs before it in the same loops (with a dependency on it)",
                r.span)
        out[r.id] = d.id
    return out


def _stored_value(kernel: Kernel, var: str, expr: Expression) -> Expression:
    """`expr` converted to the type of `var` where storing it there converted it."""
    dtype = kernel.variable_dtype(var)
    if dtype is None or TypeOracle(kernel)(expr) == dtype:
        return expr
    return TypeCast(np.dtype(dtype), expr)


def _check_free_inames(kernel: Kernel, d: Assignment, args: tuple[str, ...],
                       extra: tuple[str, ...], users: list[Statement], name: str) -> None:
    """Inames free in the rule body resolve at each use: every user must be inside them."""
    free = (dependencies(d.expression) & kernel.all_inames) - set(args) - set(extra)
    for s in users:
        outside = sorted(free - s.within_inames)
        if outside:
            raise TransformError(f"{name}: the definition of {d.assignee_names()[0]!r} uses "
                                 f"iname {outside[0]!r}, but statement {s.id!r} is not inside "
                                 "it (pass it in extra_arguments, or use the same iname)",
                                 s.span)


# ---------------------------------------------------------------------------------------------
# expand_subst and queries


def rules_in_use(kernel: Kernel, statements: Iterable[Statement] | None = None) -> set[str]:
    """Rules invoked by `statements` (default: all), directly or through other rules."""
    rules = kernel.substitutions
    stmts = kernel.statements if statements is None else statements
    todo = set(collect([e for s in stmts for e in statement_expressions(s)], rules).invoked)
    seen: set[str] = set()
    while todo:
        n = todo.pop()
        if n not in seen:
            seen.add(n)
            todo |= collect([rules[n].expression], rules).invoked
    return seen


@transform()
def expand_subst(kernel: Kernel, within: Any = None) -> Kernel:
    """Expand the rule invocations in the statements matched by `within` (default: all);
    rules no longer invoked anywhere are removed.  Example::

        before: f(x) := 2*x        out[i] = f(a[i])
        expand_subst(knl)
        after:  out[i] = 2*a[i]
    """
    if not kernel.substitutions:
        return kernel
    match = parse_stack_match(within)
    expander = RuleExpander(kernel.substitutions)
    try:
        stmts = tuple(map_statement_expressions(s, expander) if match(kernel, s) else s
                      for s in kernel.statements)
    except KernelLanguageError as e:
        raise TransformError(f"expand_subst: {e.message}", e.span) from None
    result = replace(kernel, statements=stmts)
    used = rules_in_use(result)
    if len(used) != len(kernel.substitutions):
        result = replace(result, substitutions=FrozenDict(
            (n, r) for n, r in kernel.substitutions.items() if n in used))
    if all(a is b for a, b in zip(stmts, kernel.statements)) and \
            result.substitutions == kernel.substitutions:
        return kernel
    return result


def find_rules_matching(kernel: Kernel, pattern: str) -> list[str]:
    """Names of the substitution rules matching the shell-style glob `pattern` (sorted)."""
    if not isinstance(pattern, str):
        raise TransformError(f"find_rules_matching: pattern must be a string, got {pattern!r}")
    return sorted(n for n in kernel.substitutions if glob_matches(pattern, n))


def find_one_rule_matching(kernel: Kernel, pattern: str) -> str:
    """The one rule matching `pattern`; none or several is a TransformError."""
    found = find_rules_matching(kernel, pattern)
    if len(found) != 1:
        what = "no rule" if not found else f"{len(found)} rules ({', '.join(found)})"
        raise TransformError(f"find_one_rule_matching: {what} match {pattern!r}, expected "
                             "exactly one" + ("" if found else suggestion(pattern,
                                                                          kernel.substitutions)))
    return found[0]


__all__ = ["assignment_to_subst", "expand_subst", "extract_subst", "find_one_rule_matching",
           "find_rules_matching", "rules_in_use"]
