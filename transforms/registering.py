"""Registering library routines (docs/transforms.md, "Registering Library
Routines"): user functions, user reductions, preamble generators and symbol manglers.

Each transform records what it registers in the kernel's options (`translator.ir.registrations`
and `translator.ir.reduction_ops` say how), so the kernel stays immutable and printable; code
generation then finds it there.
Every one of them is also a pragma, with literal arguments::

    !$translate register_function("exp", "double my_exp(double x) { ... }", ["float64"], &
    !$translate&   "float64", c_name="my_exp")
    #pragma translate register_reduction("bxor", 0, "a ^ b", accumulations="writes:h")
    #pragma translate register_preamble_generators([("defs", "#define SCALE 2.0")])

(Python callables — preamble generators, symbol manglers — can only be passed from Python.)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np
import pymbolic.primitives as p

from translator.diagnostics import TransformError
from translator.ir.data import ValueArg
from translator.ir.expr import IRStringifier, IRWalkMapper, Reduction, dependencies
from translator.ir import isl_glue, reduction_ops, registrations
from translator.ir.kernel import Kernel
from translator.ir.statements import Assignment, Statement

from transforms.common import kernel_names
from transforms.match import parse_match
from transforms.registry import transform

# ---------------------------------------------------------------------------------------------
# functions


@transform()
def register_function(kernel: Kernel, name: str, definition: str, arg_dtypes: Iterable[Any],
                      result_dtype: Any, *, c_name: str | None = None) -> Kernel:
    """Make `name` callable from the kernel's statements, implemented by OpenCL C.

    `definition` defines `c_name` (default: `name`); it is emitted once, before the kernel,
    when a statement calls the function.  An empty definition names a function the OpenCL
    target already has (``register_function("erf", "", ["float64"], "float64")``).  Arguments
    are converted to `arg_dtypes`; the call has type `result_dtype`.  A function named like an
    IR function (``exp``, ``sqrt``, ...) replaces that function in this kernel: that is how a
    Fortran or C region, whose intrinsics become IR functions, uses its own implementation.

    Before: ``out[i] = sq(a[i])`` does not compile (``sq`` is unknown).
    After ``register_function("sq", "double sq(double x) { return x*x; }", ["float64"],
    "float64")``: ``out[i] = sq(a[i]);`` calls the function defined above the kernel.
    """
    fn = registrations.make_user_function(name, definition, arg_dtypes, result_dtype, c_name)
    clash = kernel_names(kernel) & {fn.c_name, fn.name}
    if clash:
        raise TransformError(f"register_function: {sorted(clash)[0]!r} is already a variable or "
                             f"iname of kernel {kernel.name!r}", kernel.span)
    for other in registrations.functions(kernel).values():
        if other.name != fn.name and other.c_name == fn.c_name and (
                other.definition != fn.definition or other.arg_dtypes != fn.arg_dtypes):
            raise TransformError(f"register_function: {fn.name} and {other.name} would both "
                                 f"be the C function {fn.c_name}", kernel.span)
    _check_arity(kernel, fn)
    return registrations.with_function(kernel, fn)


def _check_arity(kernel: Kernel, fn: registrations.UserFunction) -> None:
    for stmt in kernel.statements:
        for call in _calls(stmt, fn.name):
            if len(call.parameters) != len(fn.arg_dtypes):
                raise TransformError(
                    f"register_function: statement {stmt.id!r} calls {fn.name} with "
                    f"{len(call.parameters)} argument(s), but it takes {len(fn.arg_dtypes)}",
                    stmt.span)


class _CallFinder(IRWalkMapper):
    def __init__(self, name: str) -> None:
        self.name = name
        self.found: list[p.Call] = []

    def visit(self, expr, *args, **kwargs) -> bool:
        if (isinstance(expr, p.Call) and isinstance(expr.function, p.Variable)
                and expr.function.name == self.name):
            self.found.append(expr)
        return True


def _calls(stmt: Statement, name: str) -> list[p.Call]:
    finder = _CallFinder(name)
    for expr in stmt.read_expressions():
        finder(expr)
    return finder.found


# ---------------------------------------------------------------------------------------------
# reductions


@transform()
def register_reduction(kernel: Kernel, name: str, neutral: Any, combine: str, *,
                       associative: bool = True, commutative: bool = True,
                       accumulations: str | None = None) -> Kernel:
    """Define the reduction `name`, usable as ``reduce(name, [i], e)``: start from `neutral`
    (a number, or constant text such as ``"float(-inf)"``) and fold each term with `combine`,
    kernel-language text in ``a`` (the value so far) and ``b`` (the next term).

    Sequential reductions keep the loop order; across work items (inames on ``l.N``) the terms
    are combined in a tree, which needs `associative` and `commutative` (say False for either
    when it does not hold, and such a reduction stays sequential).  The name is also entered
    in this process's table of reductions, so the printed kernel parses back.

    `accumulations` (a match expression) rewrites matched statements that accumulate with the
    combine, ``x[k] = COMBINE(x[k], e)`` inside loops that nothing else in them touches x in,
    into ``x[k] = COMBINE(x[k], reduce(name, [those loops], e))`` (needs `associative`).

    Before: ``h[0] = h[0] ^ a[i]  {inames=i}``.
    After ``register_reduction("bxor", 0, "a ^ b", accumulations="writes:h")``:
    ``h[0] = h[0] ^ reduce(bxor, [i], a[i])  {inames=}``.
    """
    red = reduction_ops.make_user_reduction(name, neutral, combine, associative=associative,
                                       commutative=commutative)
    reduction_ops.announce_reduction(red)
    kernel = reduction_ops.with_reduction(kernel, red)
    if accumulations is None:
        return kernel
    return _rewrite_accumulations(kernel, red, accumulations)


def _rewrite_accumulations(kernel: Kernel, red: reduction_ops.UserReduction,
                           selector: str) -> Kernel:
    if not red.associative:
        raise TransformError(f"register_reduction: accumulations= regroups the terms of "
                             f"{red.name}, which needs an associative combine", kernel.span)
    new: dict[str, Statement] = {}
    for stmt in parse_match(selector).filter(kernel):
        rewritten = _as_reduction(kernel, stmt, red)
        if rewritten is not None:
            new[stmt.id] = rewritten
    if not new:
        form = IRStringifier()(red.combine_expr(p.Variable("x"), p.Variable("b")))
        raise TransformError(
            f"register_reduction: no statement matched by {selector!r} accumulates with "
            f"{red.name} (expected x = {form} for a term b, inside loops where nothing else "
            "uses x)", kernel.span)
    return kernel.copy(statements=tuple(new.get(s.id, s) for s in kernel.statements))


def _as_reduction(kernel: Kernel, stmt: Statement, red: reduction_ops.UserReduction
                  ) -> Statement | None:
    """`stmt` with its accumulation over the loops it may leave written as a reduction."""
    if not isinstance(stmt, Assignment) or stmt.atomicity:
        return None
    term = _accumulated_term(red, stmt.expression, stmt.assignee)
    if term is None:
        return None
    target = stmt.assignee_names()[0]
    touched = _aliases(kernel, target)
    if dependencies(term) & touched:
        return None
    indexed = set().union(*(dependencies(i) for i in _indices(stmt.assignee)))
    guarded = set().union(*(dependencies(c) for c in stmt.predicates))
    inames = {n for n in stmt.within_inames - indexed - guarded
              if _alone_in_loop(kernel, stmt, n, touched)}
    if not inames:
        return None
    reduction = Reduction(red.name, tuple(sorted(inames)), term)
    return dataclasses.replace(stmt, expression=red.combine_expr(stmt.assignee, reduction),
                               within_inames=stmt.within_inames - inames)


def _accumulated_term(red: reduction_ops.UserReduction, expression, target):
    """The term b when `expression` is the combine with a := `target` (or, for a commutative
    combine, b := `target`)."""
    template = red.combine_template()
    orders = [("a", "b"), ("b", "a")] if red.commutative else [("a", "b")]
    for mine, other in orders:
        env = {mine: target}
        if _unify(template, expression, env) and other in env:
            return env[other]
    return None


def _unify(tpl, expr, env: dict) -> bool:
    """Whether `expr` is `tpl` with its operands a and b bound consistently in `env`."""
    if type(tpl) is p.Variable and tpl.name in reduction_ops.COMBINE_OPERANDS:
        if tpl.name in env:
            return env[tpl.name] == expr
        env[tpl.name] = expr
        return True
    if isinstance(tpl, tuple):
        return (isinstance(expr, tuple) and len(tpl) == len(expr)
                and all(_unify(a, b, env) for a, b in zip(tpl, expr)))
    if isinstance(tpl, p.ExpressionNode):
        return type(tpl) is type(expr) and all(
            _unify(getattr(tpl, f.name), getattr(expr, f.name), env)
            for f in dataclasses.fields(tpl))
    numbers = (int, float, np.number)
    if isinstance(tpl, numbers) and isinstance(expr, numbers):
        return not isinstance(expr, bool) and tpl == expr
    return type(tpl) is type(expr) and tpl == expr


def _indices(target) -> tuple:
    return tuple(target.index_tuple) if isinstance(target, p.Subscript) else ()


def _aliases(kernel: Kernel, name: str) -> set[str]:
    arg = kernel.arg(name)
    out = {name} | set(getattr(arg, "may_alias", ()))
    return out | {a.name for a in kernel.array_args if name in a.may_alias}


def _alone_in_loop(kernel: Kernel, stmt: Statement, iname: str, touched: set[str]) -> bool:
    """No other statement inside the loop over `iname` reads or writes `touched`."""
    for other in kernel.statements:
        if other.id == stmt.id or iname not in other.within_inames:
            continue
        used = set(other.assignee_names())
        for expr in other.read_expressions():
            used |= dependencies(expr)
        if used & touched:
            return False
    return True


# ---------------------------------------------------------------------------------------------
# preambles and symbols


@transform()
def register_preamble_generators(kernel: Kernel, preamble_generators: Iterable[Any]) -> Kernel:
    """Add text to the top of the generated device code.

    Each entry is a ``(sort_key, code)`` pair (static text, usable in a pragma), or a callable
    ``generator(preamble_info)`` yielding such pairs when code is generated (Python only; see
    `translator.codegen.registry.PreambleInfo` for what it is told).  Preambles are emitted in
    sort-key order, each key once.

    Before: ``out[i] = SCALE*a[i]`` has no definition of SCALE.
    After ``register_preamble_generators([("scale", "#define SCALE 2.0")])``: the device code
    starts with ``#define SCALE 2.0``.
    """
    if isinstance(preamble_generators, (str, bytes)) or not isinstance(
            preamble_generators, Iterable):
        raise TransformError("register_preamble_generators: expected a list of callables or "
                             "(sort_key, code) pairs", kernel.span)
    static = dict(registrations.preambles(kernel))
    names = set(registrations.generator_names(kernel))
    for item in preamble_generators:
        if callable(item):
            names.add(registrations.register_preamble_generator(item))
            continue
        key, code = _preamble_pair(item)
        if static.get(key, code) != code:
            raise TransformError(f"register_preamble_generators: preamble {key!r} is already "
                                 "registered with different code", kernel.span)
        static[key] = code
    kernel = registrations.set_entries(kernel, registrations.PREAMBLES_KEY, static.items())
    return registrations.set_entries(kernel, registrations.GENERATORS_KEY, names)


def _preamble_pair(item: Any) -> tuple[str, str]:
    if (isinstance(item, (tuple, list)) and len(item) == 2
            and all(isinstance(x, str) for x in item)):
        return item[0], item[1]
    raise TransformError(f"register_preamble_generators: {item!r} is neither a callable nor a "
                         "(sort_key, code) pair of strings")


Mangler = Callable[[Kernel, str], "tuple[Any, str] | None"]


@transform()
def register_symbol_manglers(kernel: Kernel, manglers: Any) -> Kernel:
    """Give names the statements use but the kernel does not declare a type and a C text.

    `manglers` is a dict ``name -> (dtype, c_text)``, a list of ``(name, dtype, c_text)``
    triples, or (from Python) callables ``mangler(kernel, name) -> (dtype, c_text) | None``,
    asked about every undeclared name the statements use now (the answers are stored).  Such
    names stop being value arguments.

    Before: ``out[i] = pi*a[i]`` takes ``pi`` as a value argument.
    After ``register_symbol_manglers({"pi": ("float64", "M_PI")})``: ``pi`` is OpenCL's
    ``M_PI`` and the kernel has no argument ``pi``.
    """
    table = {s.name: s for s in registrations.symbols(kernel).values()}
    for name, dtype, c_text in _mangler_entries(kernel, manglers):
        table[name] = _symbol(kernel, name, dtype, c_text)
    kernel = _drop_value_args(kernel, set(table))
    return registrations.set_entries(kernel, registrations.SYMBOLS_KEY,
                                (s.to_literal() for s in table.values()))


def _mangler_entries(kernel: Kernel, manglers: Any) -> list[tuple[str, Any, Any]]:
    if isinstance(manglers, Mapping):
        items = [(n, *_pair(n, v)) for n, v in manglers.items()]
        return sorted(items, key=lambda it: str(it[0]))
    if isinstance(manglers, (str, bytes)) or not isinstance(manglers, Iterable):
        raise TransformError("register_symbol_manglers: expected a dict, a list of "
                             "(name, dtype, c_text) triples or callables", kernel.span)
    out: list[tuple[str, Any, Any]] = []
    candidates = _undeclared_names(kernel)
    for item in manglers:
        if callable(item):
            out.extend(_ask(kernel, item, candidates, {e[0] for e in out}))
        elif isinstance(item, (tuple, list)) and len(item) == 3:
            out.append(tuple(item))
        else:
            raise TransformError(f"register_symbol_manglers: {item!r} is neither a callable "
                                 "nor a (name, dtype, c_text) triple", kernel.span)
    return out


def _pair(name: Any, value: Any) -> tuple[Any, Any]:
    if isinstance(value, (tuple, list)) and len(value) == 2:
        return value[0], value[1]
    raise TransformError(f"register_symbol_manglers: symbol {name!r} needs (dtype, c_text), "
                         f"got {value!r}")


def _ask(kernel: Kernel, mangler: Mangler, names: list[str], answered: set[str]) -> list:
    out = []
    for name in names:
        if name in answered:
            continue
        try:
            answer = mangler(kernel, name)
        except Exception as e:  # user code: report it, never a bare traceback
            raise TransformError(f"register_symbol_manglers: mangler {mangler!r} failed on "
                                 f"{name!r}: {type(e).__name__}: {e}", kernel.span) from None
        if answer is not None:
            out.append((name, *_pair(name, answer)))
    return out


def _undeclared_names(kernel: Kernel) -> list[str]:
    """Names the statements read that are no iname, array, temporary or domain parameter."""
    used: set[str] = set()
    for stmt in kernel.statements:
        for expr in stmt.read_expressions():
            used |= dependencies(expr)
    fixed = kernel_names(kernel) - {a.name for a in kernel.value_args}
    return sorted(used - fixed - set(_structural_names(kernel)))


def _symbol(kernel: Kernel, name: Any, dtype: Any, c_text: Any) -> registrations.Symbol:
    registrations.check_identifier(name, "register_symbol_manglers: symbol")
    dt = registrations.check_dtype(dtype, f"register_symbol_manglers: symbol {name!r}")
    if not isinstance(c_text, str) or not c_text.strip() or "\n" in c_text:
        raise TransformError(f"register_symbol_manglers: symbol {name!r} needs one line of C "
                             f"text, got {c_text!r}", kernel.span)
    declared = kernel.variable(name)
    if name in kernel.all_inames or (declared is not None
                                     and not isinstance(declared, ValueArg)):
        raise TransformError(f"register_symbol_manglers: {name!r} is already an iname, array or "
                             f"temporary of kernel {kernel.name!r}", kernel.span)
    if name in _structural_names(kernel) or name in _written_names(kernel):
        raise TransformError(f"register_symbol_manglers: {name!r} is a domain parameter, shape "
                             "or written variable of the kernel and cannot be a symbol",
                             kernel.span)
    return registrations.Symbol(name=name, dtype=np.dtype(dt), c_text=c_text.strip())


def _structural_names(kernel: Kernel) -> set[str]:
    """Domain parameters and names in array shapes: these must stay value arguments."""
    names: set[str] = set()
    for d in kernel.domains:
        names |= set(isl_glue.params_of(d))
    for var in (*kernel.array_args, *kernel.temporaries.values()):
        for extent in var.shape or ():
            if extent is not None:
                names |= dependencies(extent)
    return names


def _written_names(kernel: Kernel) -> set[str]:
    return {n for s in kernel.statements for n in s.assignee_names()}


def _drop_value_args(kernel: Kernel, names: set[str]) -> Kernel:
    args = tuple(a for a in kernel.args
                 if not (isinstance(a, ValueArg) and a.name in names))
    return kernel if len(args) == len(kernel.args) else kernel.copy(args=args)


__all__ = ["register_function", "register_preamble_generators", "register_reduction",
           "register_symbol_manglers"]
