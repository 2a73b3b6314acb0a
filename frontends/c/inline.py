"""Calls of functions of the same translation unit inside a region (C): inlined.

``y[i] = sq(a[i])`` and ``axpy(n, a, &x[i*n], y)`` are built as if the callee's body were
written at the call (every callee is inlined, also those with only scalar parameters: one
mechanism, and legality sees the callee's accesses as the region's).  The region builder
visits the callee's statements in a scope of their own (`Frame`), so legality and
privatisation see ordinary statements, with spans in the callee and a note at the call.

- A scalar parameter is a copy (C passes by value): the actual's value where the callee never
  assigns the parameter, the actual reads no array (a constant, a loop variable, ``n - 1``)
  and the call changes nothing it reads (`_changed_by_call`); otherwise a private temporary
  ``_tr_<callee>_<param>`` set at the call.
- A pointer (or one-dimensional array) parameter is a view of what the actual points into:
  ``&x[i*n]``, ``x + i*n``, ``x`` (an array, a pointer, another view) or ``&s`` (a scalar,
  reached as ``*p`` or ``p[0]``).  The callee's ``p[k]`` is the caller's ``x[i*n + k]``.
- The callee's locals are private temporaries (renamed where a name is taken); its loops get
  inames ``<callee>_<var>``; names it does not declare are file-scope variables, which the
  region's function must see under the same declaration.
- A function's value is the expression of its final ``return`` (one ``return``, the last
  statement: the result goes to a private temporary ``_tr_<callee>_result``).

Refused, naming the callee, at the call: recursion, calls through function pointers,
``return`` before the end, parameters of rank 2 or more, and (from the ordinary checks inside
the body) library calls other than math.h, I/O such as ``printf``.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np
import pymbolic.primitives as p
from pycparser import c_ast

from frontends.c.expressions import Binding, TExpr, View, convert, negate, through_view
from frontends.c.regions import _parameters
from translator.diagnostics import FrontendError, Note, SourceSpan, UnsupportedConstructError
from translator.ir.data import AddressSpace, TemporaryVariable
from translator.ir.mappers import nodes_of
from translator.records import dataclass

if TYPE_CHECKING:
    from frontends.c.build import RegionBuilder


@dataclass
class Frame:
    """One inlined call: its function, where it is called, where its scopes start."""

    name: str
    function: c_ast.FuncDef
    site: SourceSpan | None
    scope_base: int


def function_definitions(tree: c_ast.FileAST) -> dict[str, c_ast.FuncDef]:
    """The functions the translation unit defines (with a body), by name."""
    return {ext.decl.name: ext for ext in tree.ext
            if isinstance(ext, c_ast.FuncDef) and ext.decl is not None}


def inline_call(rb: RegionBuilder, node: c_ast.FuncCall, name: str,
                args: list[c_ast.Node]) -> TExpr:
    """Inline the call `node` of function `name`; its value (0 for a void function)."""
    func = rb.functions[name]
    site = rb.span(node, name)
    if any(f.name == name for f in rb.call_stack):
        path = " -> ".join([*(f.name for f in rb.call_stack), name][
            [f.name for f in rb.call_stack].index(name):])
        raise UnsupportedConstructError(
            f"recursive call of {name!r} ({path}) cannot be offloaded: a kernel cannot "
            "recurse, and inlining it would not end", site)
    body = _single_exit(rb, func, list(func.body.block_items or []))
    _check_returns(rb, name, body, site)
    params = [prm for prm in _parameters(func)
              if not (isinstance(prm, c_ast.Typename) or prm.name is None)]
    if len(params) != len(args):
        raise FrontendError(f"{name} takes {len(params)} argument(s), not {len(args)}", site)
    scope = _bind(rb, name, func, params, args, site)
    final = body.pop() if body and isinstance(body[-1], c_ast.Return) else None
    frame = Frame(name, func, site, len(rb.scopes))
    result: list[TExpr] = []
    rb.enter_callee(frame, scope, lambda: _run(rb, frame, body, final, result))
    return result[0] if result else TExpr(0, np.dtype(np.int32), True)


def _run(rb: RegionBuilder, frame: Frame, body: list[c_ast.Node], final: c_ast.Return | None,
         result: list[TExpr]) -> None:
    for item in body:
        rb.visit(item)
    if final is None or final.expr is None:
        return
    ctype = rb.fscope.resolve(_return_type(frame.function))
    value = rb.rvalue(final.expr)
    temp = rb.names(f"_tr_{frame.name}_result")
    rb.out.temporaries[temp] = TemporaryVariable(
        name=temp, dtype=ctype.dtype, address_space=AddressSpace.PRIVATE,
        span=rb.span(final, "return"))
    rb.emit(p.Variable(temp), convert(value, ctype.dtype), final, "return")
    result.append(TExpr(p.Variable(temp), ctype.dtype))


def _return_type(func: c_ast.FuncDef) -> c_ast.Node:
    node = func.decl.type
    while not isinstance(node, c_ast.FuncDecl):
        node = node.type
    return node.type


def _single_exit(rb: RegionBuilder, func: c_ast.FuncDef, body: list[c_ast.Node]
                 ) -> list[c_ast.Node]:
    """`body` with its early returns from ``if`` statements (``if (x < lo) return lo; ...``)
    turned into assignments to a result variable in if/else branches, the statements after
    such an ``if`` going into the branches that do not return, and one final ``return`` of
    the variable (h72).  Returns inside loops or other blocks are left for
    `_check_returns`; so is a body with no early return."""
    last = body[-1] if body else None
    if not any(isinstance(n, c_ast.Return) and n is not last
               for n in rb.nodes_in(c_ast.Compound(body))):
        return body
    result = "_tr_" + func.decl.name + "_return"
    rtype = _return_type(func)
    void = isinstance(rtype, c_ast.TypeDecl) and getattr(rtype.type, "names", None) == ["void"]
    rewritten = _without_returns(rb, body, None if void else result)
    if rewritten is None:
        return body
    if void:
        return rewritten
    decl_type = copy.deepcopy(rtype)
    decl_type.declname = result
    decl = c_ast.Decl(result, [], [], [], [], decl_type, None, None, coord=func.decl.coord)
    return [decl, *rewritten, c_ast.Return(c_ast.ID(result), coord=last.coord)]


def _without_returns(rb: RegionBuilder, items: list[c_ast.Node], result: str | None
                     ) -> list[c_ast.Node] | None:
    """`items` as statements that assign the returned value to `result` (None: a void
    function) instead of returning; None where a return is inside anything but an ``if``."""
    out: list[c_ast.Node] = []
    for k, item in enumerate(items):
        if isinstance(item, c_ast.Return):
            if item.expr is not None and result is not None:
                out.append(c_ast.Assignment("=", c_ast.ID(result), item.expr,
                                            coord=item.coord))
            return out
        returns = any(isinstance(n, c_ast.Return) for n in rb.nodes_in(item))
        if not returns:
            out.append(item)
            continue
        if not isinstance(item, c_ast.If):
            return None
        rest = items[k + 1:]
        then = _without_returns(rb, _branch(item.iftrue) + rest, result)
        other = _without_returns(rb, _branch(item.iffalse) + copy.deepcopy(rest), result)
        if then is None or other is None:
            return None
        out.append(c_ast.If(item.cond, c_ast.Compound(then, coord=item.coord),
                            c_ast.Compound(other, coord=item.coord), coord=item.coord))
        return out
    return out


def _branch(node: c_ast.Node | None) -> list[c_ast.Node]:
    if node is None:
        return []
    if isinstance(node, c_ast.Compound):
        return list(node.block_items or [])
    return [node]


def _check_returns(rb: RegionBuilder, name: str, body: list[c_ast.Node],
                   site: SourceSpan | None) -> None:
    last = body[-1] if body else None
    for node in rb.nodes_in(c_ast.Compound(body)):
        if isinstance(node, c_ast.Return) and node is not last:
            raise UnsupportedConstructError(
                f"function {name!r} cannot be offloaded: it returns from inside a loop or a "
                "nested block (returns at its end or in if statements can be inlined)", site,
                notes=(Note(f"in {name!r} here", rb.src.node_span(node, "return")),))


# ---------------------------------------------------------------------------------------------
# parameters

def _bind(rb: RegionBuilder, name: str, func: c_ast.FuncDef, params: list[c_ast.Decl],
          args: list[c_ast.Node], site: SourceSpan | None) -> dict[str, Binding]:
    """The callee's parameters, bound to the actuals (evaluated in the caller's scope)."""
    assigned = rb.assigned_in(func.body)
    changed = _changed_by_call(rb, func, params, args)
    scope: dict[str, Binding] = {}
    for prm, arg in zip(params, args):
        ctype = rb.fscope.resolve(prm.type)
        if ctype.is_scalar:
            scope[prm.name] = _scalar(rb, name, prm.name, ctype, arg,
                                      prm.name in assigned or bool(_ids(rb, arg) & changed))
        elif ctype.kind == "pointer" or (ctype.kind == "array" and len(ctype.dims) == 1):
            _check_offset_kept(rb, name, prm.name, arg, changed, site)
            scope[prm.name] = Binding("view", prm.name, ctype,
                                      value=_view(rb, name, prm.name, arg, site))
        elif ctype.kind == "array" and _same_rows(rb, ctype, arg):
            scope[prm.name] = Binding("view", prm.name, ctype,
                                      value=View(rb.lookup(arg.name, arg), (), 0))
        else:
            raise UnsupportedConstructError(
                f"function {name!r}: parameter {prm.name!r} "
                f"({ctype.description or 'an array of rank ' + str(len(ctype.dims))}) cannot "
                "be inlined: only numbers and pointers to numbers (or one-dimensional arrays, "
                "or an array whose extents after the first are constants its actual argument "
                "shares: pass the array itself)", site)
    return scope


def _changed_by_call(rb: RegionBuilder, func: c_ast.FuncDef, params: list[c_ast.Decl],
                     args: list[c_ast.Node]) -> set[str]:
    """C names of the caller a call of `func` may change: the names its body and the
    functions it calls (transitively) assign, increment or take the address of without
    declaring them, and, where one of them writes through a pointer parameter, the variables
    whose address the call passes (``&m``).  A scalar argument reading one of them is
    evaluated once, before the call (the callee would otherwise read the new value)."""
    changed: set[str] = set()
    seen: set[str] = set()
    pending = [func]
    through_pointers = False
    while pending:
        f = pending.pop()
        if f.decl.name in seen:
            continue
        seen.add(f.decl.name)
        prms = [prm for prm in _parameters(f)
                if not isinstance(prm, c_ast.Typename) and prm.name is not None]
        writes: set[str] = set()
        _outer_writes(f.body, frozenset(), writes)
        changed |= writes - {prm.name for prm in prms}   # a scalar parameter is a copy
        through_pointers |= any(prm.name in writes and not rb.fscope.resolve(prm.type).is_scalar
                                for prm in prms)
        pending += [rb.functions[n.name.name] for n in rb.nodes_in(f.body)
                    if isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID)
                    and n.name.name in rb.functions]
    if through_pointers:   # of an array, elements (an argument reading one is copied anyway)
        changed |= {arg.expr.name for arg in args if isinstance(arg, c_ast.UnaryOp)
                    and arg.op == "&" and isinstance(arg.expr, c_ast.ID)}
    return changed


def _outer_writes(node: c_ast.Node | None, declared: frozenset[str], out: set[str]) -> None:
    """Add to `out` the names `node` assigns (or an element of), increments or takes the
    address of, other than those declared inside it (`declared`: in scope there)."""
    if node is None:
        return
    if isinstance(node, (c_ast.Compound, c_ast.For)):
        local = set(declared)
        items = (node.block_items or []) if isinstance(node, c_ast.Compound) else [
            node.init, node.cond, node.next, node.stmt]
        for item in items:
            for decl in (item.decls if isinstance(item, c_ast.DeclList) else
                         [item] if isinstance(item, c_ast.Decl) else []):
                _outer_writes(decl.init, frozenset(local), out)
                local.add(decl.name)
            if not isinstance(item, (c_ast.Decl, c_ast.DeclList)):
                _outer_writes(item, frozenset(local), out)
        return
    target = (node.lvalue if isinstance(node, c_ast.Assignment) else
              node.expr if isinstance(node, c_ast.UnaryOp) and node.op in (
                  "++", "--", "p++", "p--", "&") else None)
    while isinstance(target, (c_ast.ArrayRef, c_ast.UnaryOp, c_ast.Cast, c_ast.StructRef)):
        target = target.name if isinstance(target, (c_ast.ArrayRef, c_ast.StructRef)) else (
            target.expr)
    if isinstance(target, c_ast.ID) and target.name not in declared:
        out.add(target.name)
    for _, child in node.children():
        _outer_writes(child, declared, out)


def _check_offset_kept(rb: RegionBuilder, callee: str, param: str, arg: c_ast.Node,
                       changed: set[str], site: SourceSpan | None) -> None:
    """Refuse a pointer argument whose offset reads a scalar the call changes (``f(a + k)``
    where ``f`` assigns ``k``): the view would move while the callee runs."""
    if isinstance(arg, c_ast.UnaryOp) and arg.op == "&" and isinstance(arg.expr, c_ast.ID):
        return   # &s: the callee writes s itself
    for name in sorted(_ids(rb, arg) & changed - set(rb.functions)):
        if not rb.lookup(name, arg).ctype.is_buffer:
            raise UnsupportedConstructError(
                f"function {callee!r} changes {name!r}, which the argument of pointer "
                f"parameter {param!r} reads: compute the offset into a variable the call does "
                "not change before the call", site)


def _ids(rb: RegionBuilder, node: c_ast.Node) -> set[str]:
    return {n.name for n in rb.nodes_in(node) if isinstance(n, c_ast.ID)}


def _same_rows(rb: RegionBuilder, ctype, arg: c_ast.Node) -> bool:
    """Whether `arg` is an array whose rank and constant extents after the first are those
    of the array parameter type `ctype` (``float (*cs)[5]`` given ``float clusters[4][5]``):
    the parameter is then that array, subscripted alike."""
    if not isinstance(arg, c_ast.ID):
        return False
    b = rb.lookup(arg.name, arg)
    if b.kind not in ("outer", "local") or b.ctype.kind != "array" or len(
            b.ctype.dims) != len(ctype.dims):
        return False
    extents = [(rb.fscope.constant_value(d) if isinstance(d, c_ast.Node) else d,
                rb.fscope.constant_value(e) if isinstance(e, c_ast.Node) else e)
               for d, e in zip(ctype.dims[1:], b.ctype.dims[1:])]
    return all(d is not None and d == e for d, e in extents)


def _scalar(rb: RegionBuilder, callee: str, param: str, ctype, arg: c_ast.Node,
            assigned: bool) -> Binding:
    value = rb.rvalue(arg)
    converted = convert(value, ctype.dtype)
    if not assigned and not nodes_of(converted, p.Subscript) and not nodes_of(converted,
                                                                               p.Call):
        return Binding("loop", param, ctype, value=converted)   # a read-only value
    temp = rb.names(f"_tr_{callee}_{param}")
    rb.out.temporaries[temp] = TemporaryVariable(
        name=temp, dtype=ctype.dtype, address_space=AddressSpace.PRIVATE, span=rb.span(arg))
    rb.emit(p.Variable(temp), converted, arg)
    return Binding("local", temp, ctype)


def _view(rb: RegionBuilder, callee: str, param: str, arg: c_ast.Node,
          site: SourceSpan | None) -> View:
    """What the actual `arg` of pointer parameter `param` points into."""
    if isinstance(arg, c_ast.Cast):
        return _view(rb, callee, param, arg.expr, site)
    if isinstance(arg, c_ast.ID):
        b = rb.lookup(arg.name, arg)
        if b.kind == "view":
            return b.value
        if b.ctype.kind == "pointer" or (b.ctype.kind == "array" and len(b.ctype.dims) == 1):
            return View(b, (), 0)
    elif isinstance(arg, c_ast.ArrayRef):
        row = _row_of(rb, arg)   # built once: its subscripts may call functions
        if row is not None:
            return row
    elif isinstance(arg, c_ast.UnaryOp) and arg.op == "&":
        if isinstance(arg.expr, c_ast.ID):
            b = rb.lookup(arg.expr.name, arg.expr)
            if b.ctype.is_scalar and b.kind in ("outer", "local"):
                return View(b, (), None)
        elif isinstance(arg.expr, c_ast.ArrayRef):
            b, index = rb.exprs.array_access(arg.expr)
            return View(b, tuple(index[:-1]), index[-1])
    elif isinstance(arg, c_ast.BinaryOp) and arg.op in ("+", "-"):
        pointer, step = (arg.left, arg.right) if arg.op == "-" or _is_pointer(
            rb, arg.left) else (arg.right, arg.left)
        inner = _view(rb, callee, param, pointer, site)
        k = rb.exprs.integer(step, "a pointer offset")
        if inner.offset is not None:
            return replace(inner, offset=p.Sum((inner.offset, k if arg.op == "+" else negate(k))))
    raise UnsupportedConstructError(
        f"function {callee!r}: the argument of pointer parameter {param!r} must point into an "
        "array of the region (x, &x[k], x + k) or be the address of a variable (&s)", site)


def pointer_view(rb: RegionBuilder, name: str, init: c_ast.Node,
                 span: SourceSpan | None) -> View:
    """What the local pointer `name`, declared in a region with the value `init`, points
    into (the forms of a pointer argument: ``x``, ``&x[k]``, ``x + k``, ``&s``)."""
    try:
        return _view(rb, "", name, init, span)
    except UnsupportedConstructError:
        raise UnsupportedConstructError(
            f"local pointer {name!r} must point into an array of the region where it is "
            "declared (x, &x[k], x + k) or at a variable (&s)", span) from None


def _row_of(rb: RegionBuilder, arg: c_ast.ArrayRef) -> View | None:
    """``x[i]`` of a two-dimensional array ``x`` (``x[i][j]`` of a three-dimensional one):
    the row it names, as a view; None for anything else."""
    subs, base = [], arg
    while isinstance(base, c_ast.ArrayRef):
        subs.append(base.subscript)
        base = base.name
    if not isinstance(base, c_ast.ID):
        return None
    b = rb.lookup(base.name, base)
    if b.kind not in ("outer", "local", "view") or b.ctype.kind != "array" or len(
            b.ctype.dims) != len(subs) + 1:
        return None
    indices = tuple(rb.exprs.integer(s, "an array subscript") for s in reversed(subs))
    if b.kind == "view":   # a row of an array parameter: of the array it is
        viewed, first = through_view(b.value, indices[0])
        return View(viewed, (*first, *indices[1:]), 0)
    return View(b, indices, 0)


def _is_pointer(rb: RegionBuilder, node: c_ast.Node) -> bool:
    if isinstance(node, c_ast.ID):
        b = rb.lookup(node.name, node)
        return b.kind == "view" or b.ctype.is_buffer
    return isinstance(node, (c_ast.UnaryOp, c_ast.BinaryOp, c_ast.Cast))


__all__ = ["Frame", "function_definitions", "inline_call", "pointer_view"]
