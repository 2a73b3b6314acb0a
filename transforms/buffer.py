"""buffer_array: work on a temporary copy of the part of an array a loop nest reads and
writes, loaded before the nest and stored back after it.

The footprint and storage come from `transforms.footprint`, as for `precompute`; the
difference is that the array may be written: every access in the selected statements (reads
and writes) goes to the buffer, an *init* statement fills the buffer first and a *store*
statement writes it back after the last access.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pymbolic.primitives as p

from translator.diagnostics import KernelLanguageError, TransformError
from translator.ir.data import ArrayArg, TemporaryVariable
from translator.ir.expr import Expression, dependencies, substitute
from translator.ir.kernel import Kernel
from translator.ir.statements import Assignment
from translator.ir.util import UniqueNameGenerator

from transforms.common import (check_iname, kernel_names, name_list, statement_expressions,
                               suggestion)
from transforms.footprint import (StoragePlan, add_dependency, add_storage, array_levels,
                                  guess_outer_inames, plan_storage, rename_plan,
                                  storage_dim_tags, temporary_ref, unique_statement_id,
                                  writer_dependencies)
from transforms.inames import check_tag_syntax
from transforms.match import parse_stack_match
from transforms.precompute import find_uses, replace_uses
from transforms.prefetch import subscript_matcher
from transforms.registry import transform
from translator.ir.parse_expr import parse_expression

_WHAT = "buffer_array"


@transform()
def buffer_array(kernel: Kernel, var_name: str, buffer_inames: Any,
                 init_expression: Any = None, store_expression: Any = None, within: Any = None,
                 default_tag: Any = "l.auto", temporary_address_space: Any = None,
                 fetch_bounding_box: bool = False) -> Kernel:
    """Replace the accesses to `var_name` in the selected statements by a buffer covering
    their footprint swept over `buffer_inames`.

    `init_expression` fills the buffer (``base``: the array element; default ``base``),
    `store_expression` writes it back (``base``: the array element, ``buffer``: the buffer
    element; default ``buffer``; False: no store).  Example (an accumulation kept in a
    buffer and added to the array once)::

        before: {[i, k]: 0<=i<n and 0<=k<m}    c[i] = c[i] + a[i, k]   with i split by 16
        buffer_array(knl, "c", "i_inner", init_expression="0",
                     store_expression="base + buffer", default_tag=None)
        after:  c_buf[c_init0] = 0                          {id=init_c, inames=c_init0:i_outer}
                c_buf[i_inner] = c_buf[i_inner] + a[...]    {dep=init_c}
                c[c_store0 + 16*i_outer] = c[c_store0 + 16*i_outer] + c_buf[c_store0]
                                                            {id=store_c, dep=<the accesses>}

    The buffer's inames are tagged `default_tag` (``l.auto``: the kernel's local axes, split
    to fit); the buffer is local when they are local-parallel, else private (or
    `temporary_address_space`).  Later statements that access the array wait for the store.
    """
    var = _variable(kernel, var_name)
    name, ndim = var.name, len(var.shape)
    sweep = name_list(buffer_inames, _WHAT, "buffer_inames")
    for iname in sweep:
        check_iname(kernel, iname, _WHAT)
    check_tag_syntax(default_tag, _WHAT, "default_tag")
    init = _expression_arg("init_expression", init_expression, "base", {"base"})
    store = None if store_expression is False else _expression_arg(
        "store_expression", store_expression, "buffer", {"base", "buffer"})
    match = subscript_matcher(_WHAT, name, None, ndim)
    chosen = parse_stack_match(within)
    candidates = [s.id for s in kernel.statements if chosen(kernel, s)]
    uses = find_uses(kernel, candidates, match)
    if not uses:
        raise TransformError(f"{_WHAT}: no access to {name!r} in the selected statements")
    use_ids = tuple(dict.fromkeys(u.statement for u in uses))
    outer = guess_outer_inames(kernel, uses, sweep, {name}, ignore_writers=use_ids)
    gen = UniqueNameGenerator(kernel_names(kernel))
    plan = plan_storage(kernel, _WHAT, name, uses, sweep, outer,
                        [gen(f"{name}_init{k}") for k in range(ndim)],
                        bounding_box=bool(fetch_bounding_box), shape=tuple(var.shape))
    for ax in plan.stored:
        gen.add(ax.iname)
    store_plan = rename_plan(plan, gen, f"{name}_store")
    temp = gen(f"{name}_buf")
    levels = array_levels(var)
    return _apply(kernel, name, plan, store_plan, temp, init, store, use_ids,
                  dtype=var.dtype, address_space=temporary_address_space,
                  default_tag=default_tag, dim_tags=storage_dim_tags(plan, levels))


def _apply(kernel: Kernel, name: str, plan: StoragePlan, store_plan: StoragePlan, temp: str,
           init: Expression, store: Expression | None, use_ids: Sequence[str], **storage: Any
           ) -> Kernel:
    init_id = unique_statement_id(kernel, None, f"init_{name}", _WHAT)
    init_stmt = _storage_statement(kernel, init_id, plan, temporary_ref(temp, _inames(plan)),
                                   substitute(init, {"base": _element(name, plan)}), use_ids)
    # the buffered statements' own writes go to the buffer: the init waits for the others
    writers = writer_dependencies(kernel, use_ids, dependencies(init_stmt.expression))
    init_stmt = _with_deps(init_stmt, writers - set(use_ids))
    dependents = _dependents(kernel, name, use_ids)
    match = subscript_matcher(_WHAT, name, None, len(plan.axes))
    kernel = replace_uses(kernel, use_ids, match,
                          lambda index: temporary_ref(temp, plan.index(index)))
    kernel = add_dependency(kernel, use_ids, init_id)
    parts = [(plan, [init_stmt])]
    if store is not None:
        store_id = unique_statement_id(kernel, None, f"store_{name}", _WHAT)
        target = _element(name, store_plan)
        values = {"base": target, "buffer": temporary_ref(temp, _inames(store_plan))}
        store_stmt = _with_deps(_storage_statement(kernel, store_id, store_plan, target,
                                                   substitute(store, values), use_ids),
                                frozenset(use_ids))
        kernel = add_dependency(kernel, dependents, store_id)
        parts.append((store_plan, [store_stmt]))
    return add_storage(kernel, _WHAT, temp, parts, tags={}, **storage)


def _storage_statement(kernel: Kernel, sid: str, plan: StoragePlan, assignee: Expression,
                       expression: Expression, use_ids: Sequence[str]) -> Assignment:
    return Assignment(id=sid, assignee=assignee, expression=expression,
                      within_inames=plan.outer | set(plan.new_inames),
                      predicates=frozenset(plan.predicates),
                      span=kernel.id_to_statement[use_ids[0]].span)


def _with_deps(stmt: Assignment, deps: frozenset[str]) -> Assignment:
    return replace(stmt, depends_on=frozenset(deps))


def _inames(plan: StoragePlan) -> tuple[Expression, ...]:
    return tuple(p.Variable(i) for i in plan.new_inames)


def _element(name: str, plan: StoragePlan) -> Expression:
    """The array element that the storage statement's instance stands for."""
    return temporary_ref(name, plan.point())


def _dependents(kernel: Kernel, name: str, use_ids: Sequence[str]) -> list[str]:
    """Statements outside the buffered ones that access the array after one of them: they
    must wait for the store.  One that a buffered statement waits for in turn would need
    the store in the middle of the accesses: an error."""
    uses = set(use_ids)
    stmts = kernel.id_to_statement
    after = [s.id for s in kernel.statements if s.id not in uses and s.depends_on & uses
             and _accesses(s, name)]
    for sid in after:
        if any(sid in _ancestors(kernel, u) for u in use_ids):
            raise TransformError(f"{_WHAT}: statement {sid!r} accesses {name!r} between "
                                 "buffered statements; include it in within=", stmts[sid].span)
    return after


def _ancestors(kernel: Kernel, sid: str) -> set[str]:
    stmts = kernel.id_to_statement
    seen: set[str] = set()
    todo = list(stmts[sid].depends_on)
    while todo:
        d = todo.pop()
        if d not in seen and d in stmts:
            seen.add(d)
            todo.extend(stmts[d].depends_on)
    return seen


def _accesses(stmt: Any, name: str) -> bool:
    return any(name in dependencies(e) for e in statement_expressions(stmt))


def _variable(kernel: Kernel, name: Any) -> ArrayArg | TemporaryVariable:
    if not isinstance(name, str):
        raise TransformError(f"{_WHAT}: var_name must be an array name, got {name!r}")
    var = kernel.variable(name)
    if var is None:
        names = [a.name for a in kernel.array_args] + list(kernel.temporaries)
        raise TransformError(f"{_WHAT}: unknown array {name!r}" + suggestion(name, names))
    if not isinstance(var, (ArrayArg, TemporaryVariable)) or not var.shape or \
            any(e is None for e in var.shape):
        raise TransformError(f"{_WHAT}: {name!r} is not an array with a known shape")
    return var


def _expression_arg(what: str, value: Any, default: str, allowed: set[str]) -> Expression:
    if value is None:
        value = default
    try:
        expr = parse_expression(value) if isinstance(value, str) else value
    except KernelLanguageError as e:
        raise TransformError(f"{_WHAT}: bad {what} {value!r}: {e.message}") from None
    if isinstance(expr, bool) or not isinstance(expr, (int, float, p.ExpressionNode)):
        raise TransformError(f"{_WHAT}: {what} must be an expression, got {value!r}")
    unknown = sorted(dependencies(expr) - allowed)
    if unknown:
        raise TransformError(f"{_WHAT}: {what} {value!r} may only use "
                             f"{' and '.join(sorted(allowed))}, not {', '.join(unknown)}")
    return expr


__all__ = ["buffer_array"]
