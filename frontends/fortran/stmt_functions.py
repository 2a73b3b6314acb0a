"""Statement functions: ``f(x, y) = expr`` before the executable statements of a procedure,
the FORTRAN 77 spelling of a one-expression function (``FLUX(U, V) = 0.5D0*(U*U - V)``).

fparser reads such a line as the first assignments of the execution part; `statement_functions`
finds them there (an assignment to a name that is not an array, with plain names as
subscripts, before any other executable statement).  A call of one in a region is its
expression with each dummy replaced by the actual argument in parentheses (`expanded`), read
by the expression builder like any expression and converted to the function's type."""

from __future__ import annotations

from typing import Any

from fparser.two import Fortran2003

from frontends.fortran.source import children, class_name, is_comment
from translator.records import dataclass


@dataclass(frozen=True)
class StatementFunction:
    """One statement function: its dummies, in order, and its expression as written."""

    name: str
    dummies: tuple[str, ...]
    text: str
    line: int


def statement_functions(scope: Any, exec_part: Any | None) -> dict[str, StatementFunction]:
    """The statement functions that open `exec_part` (a procedure's execution part), by
    name; `scope` is the procedure's (a name declared as an array is an element assignment)."""
    out: dict[str, StatementFunction] = {}
    for node in children(exec_part) if exec_part is not None else ():
        if is_comment(node):
            continue
        found = _definition(scope, node)
        if found is None:
            break
        out[found.name] = found
    return out


def _definition(scope: Any, node: Any) -> StatementFunction | None:
    if class_name(node) != "Assignment_Stmt" or class_name(node.items[0]) != "Part_Ref":
        return None
    lhs = node.items[0]
    name = str(lhs.items[0]).lower()
    sym = scope.lookup_declared(name)
    args = list(children(lhs.items[1]))
    if (sym is not None and sym.is_array) or not all(class_name(a) == "Name" for a in args):
        return None
    line = getattr(getattr(node, "item", None), "span", (0, 0))[0]
    return StatementFunction(name, tuple(str(a).lower() for a in args), str(node.items[2]),
                             line)


def expanded(function: StatementFunction, args: list[Any]) -> Any:
    """The expression of `function` with the actual argument nodes `args` in place of its
    dummies (each in parentheses), as an fparser node."""
    if len(args) != len(function.dummies):
        raise ValueError(f"statement function {function.name!r} takes "
                         f"{len(function.dummies)} arguments, not {len(args)}")
    actual = {d: Fortran2003.Parenthesis(f"({a})") for d, a in zip(function.dummies, args)}
    root = Fortran2003.Expr(function.text)
    if class_name(root) == "Name" and str(root).lower() in actual:
        return actual[str(root).lower()]
    _replace(root, actual)
    return root


def _replace(node: Any, actual: dict[str, Any]) -> None:
    items = getattr(node, "items", None)
    if not isinstance(items, tuple):
        return
    out = []
    for item in items:
        if class_name(item) == "Name" and str(item).lower() in actual:
            out.append(actual[str(item).lower()])
        else:
            _replace(item, actual)
            out.append(item)
    node.items = tuple(out)
