"""Names that a BLOCK or ASSOCIATE construct around a region introduces.

A ``block`` construct declares variables of its own, which hide the procedure's variables of
the same name: the region builder's scope holds them (`frontends.fortran.blocks.block_scope`),
and the region's call, inside the construct, passes them by name.  An ``associate`` construct
names other data (``u => g%u``, ``s => w(n+1:)``): a name of a whole variable or component
that hides no variable of the procedure is an alias the builder enters (`aliased`); a use of
any other would take it for the procedure's variable of that name (another shape, another
type: wrong values) or for an unknown function, and is refused at its line with the
construct that introduces the name.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from frontends.fortran.regions import RegionMarks, is_comment_line
from frontends.fortran.source import SourceLines, children, class_name, is_comment, node_lines
from translator.diagnostics import UnsupportedConstructError


def check_construct_names(exec_part: Any, m: RegionMarks, lines: SourceLines,
                          form: str, declared: Callable[[str], bool],
                          local: Callable[[str], bool]) -> None:
    """Refuse the first use in region `m` of a name that an enclosing BLOCK declares or an
    enclosing ASSOCIATE associates (but an alias the region builder enters: `aliased`;
    `declared`: whether the procedure declares a name, `local`: whether it is a local
    variable, dummy or named constant of the procedure)."""
    names = _enclosing_names(exec_part, m, declared, local)
    if not names:
        return
    for k in range(m.kernel_line + 1, m.end_line):
        text = lines.line(k)
        if is_comment_line(text, form):
            continue
        for name in _identifiers(text):
            if name in names:
                raise UnsupportedConstructError(_message(name, *names[name]),
                                                lines.span(k, word=name))


def enclosing_constructs(node: Any, m: RegionMarks, kind: str) -> list[Any]:
    """The constructs of class `kind` (``Associate_Construct``, ``Block_Construct``) that
    hold region `m`, outermost first."""
    out: list[Any] = []
    for n in children(node) if node is not None else ():
        rng = None if is_comment(n) or n is None or isinstance(n, str) else node_lines(n)
        if rng is None or not (rng[0] < m.kernel_line and rng[1] > m.end_line):
            continue
        if class_name(n) == kind:
            out.append(n)
        out += enclosing_constructs(n, m, kind)
    return out


def aliased(association: Any, declared: Callable[[str], bool],
            held: Callable[[str], bool] = lambda name: False) -> bool:
    """Whether an association of a construct around a region is an alias the region can use:
    its name hides no name of the procedure (the region's call, inside the construct, passes
    the procedure's variables by name), and its selector names a variable or component without
    subscripts (``u => grid%u``, ``nx => grid%nx``: the same data wherever the region is), or
    an element or section whose subscripts read only names `held` (``col => a(:, j)``, ``j``
    unchanged between the construct's start and the region: the region evaluates them
    again)."""
    name, selector = str(association.items[0]).lower(), association.items[2]
    if declared(name):
        return False
    whole = class_name(selector) == "Name" or (
        class_name(selector) == "Data_Ref"
        and all(class_name(part) == "Name" for part in selector.items))
    if whole:
        return True
    if class_name(selector) not in ("Part_Ref", "Data_Ref"):
        return False   # an expression: its value at the construct's start
    return all(held(n) for n in subscript_names(selector))


def subscript_names(selector: Any) -> set[str]:
    """The names the subscripts of a designator read."""
    parts = [selector] if class_name(selector) == "Part_Ref" else [
        p for p in _walk(selector) if class_name(p) == "Part_Ref"]
    return {str(n).lower() for part in parts for n in _walk(part.items[1])
            if class_name(n) == "Name"}


def held_names(construct: Any, m: RegionMarks, local: Callable[[str], bool]
               ) -> Callable[[str], bool]:
    """Whether a name holds its value from the start of `construct` to region `m`: a local
    variable of the procedure (`local`; no module or COMMON variable, which a call may
    change) that no statement of the construct outside the region mentions."""
    mentioned: set[str] = set()
    for n in children(construct)[1:]:
        rng = None if is_comment(n) or n is None or isinstance(n, str) else node_lines(n)
        if rng is not None and rng[0] >= m.kernel_line and rng[1] <= m.end_line:
            continue
        if rng is not None and rng[0] < m.kernel_line and rng[1] > m.end_line:
            mentioned |= _mentioned_around(n, m)
            continue
        mentioned |= {str(x).lower() for x in _walk(n) if class_name(x) == "Name"}
    return lambda name: local(name) and name not in mentioned


def _mentioned_around(node: Any, m: RegionMarks) -> set[str]:
    """The names a construct holding region `m` mentions outside it (its DO variable too)."""
    out: set[str] = set()
    for n in children(node):
        rng = None if is_comment(n) or n is None or isinstance(n, str) else node_lines(n)
        if rng is not None and rng[0] >= m.kernel_line and rng[1] <= m.end_line:
            continue
        if rng is not None and rng[0] < m.kernel_line and rng[1] > m.end_line:
            out |= _mentioned_around(n, m)
        else:
            out |= {str(x).lower() for x in _walk(n) if class_name(x) == "Name"}
    return out


def _message(name: str, kind: str, line: int, selector: str) -> str:
    return (f"{name!r} is an associate name of the ASSOCIATE construct at line {line} "
            f"around the region, which the region cannot use; write its selector "
            f"({selector}) in the region instead")


def _identifiers(text: str) -> list[str]:
    """The names on a line of code (not in strings or comments, not component names)."""
    code = re.sub(r"'[^']*'|\"[^\"]*\"", " ", text).split("!")[0].lower()
    return re.findall(r"(?<![%\w.])[a-z]\w*", code)


def _enclosing_names(node: Any, m: RegionMarks, declared: Callable[[str], bool],
                     local: Callable[[str], bool]) -> dict[str, tuple[str, int, str]]:
    """name -> (construct kind, its line, the selector's text) for the constructs that hold
    region `m`, inner ones winning."""
    out: dict[str, tuple[str, int, str]] = {}
    for n in children(node) if node is not None else ():
        rng = None if is_comment(n) or n is None or isinstance(n, str) else node_lines(n)
        if rng is None or not (rng[0] < m.kernel_line and rng[1] > m.end_line):
            continue
        if class_name(n) == "Block_Construct":   # the region's scope (`block_scope`)
            for name in _block_names(n):
                out.pop(name, None)
        elif class_name(n) == "Associate_Construct":
            out.update(_associations(n, rng[0], declared, held_names(n, m, local)))
        out.update(_enclosing_names(n, m, declared, local))
    return out


def _block_names(construct: Any) -> list[str]:
    spec = next((c for c in children(construct) if class_name(c) == "Specification_Part"),
                None)
    return [str(e.items[0]).lower() for e in _walk(spec) if class_name(e) == "Entity_Decl"]


def _associations(construct: Any, line: int, declared: Callable[[str], bool],
                  held: Callable[[str], bool]) -> dict[str, tuple[str, int, str]]:
    stmt = children(construct)[0]
    return {str(a.items[0]).lower(): ("associate", line, _compact(str(a.items[2])))
            for a in _walk(stmt) if class_name(a) == "Association"
            and not aliased(a, declared, held)}   # those the region builder enters


def _compact(selector: str) -> str:
    """fparser's text of a selector as one writes it (``g%v``, ``w(n + 1:2 * n)``)."""
    return re.sub(r"\s*([%:])\s*", r"\1", selector)


def _walk(node: Any) -> list[Any]:
    if node is None or isinstance(node, str):
        return []
    out = [node]
    for c in children(node):
        out += _walk(c)
    return out
