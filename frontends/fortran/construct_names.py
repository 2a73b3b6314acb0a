"""Names that a BLOCK or ASSOCIATE construct around a region introduces.

A ``block`` construct declares variables of its own, which hide the procedure's variables of
the same name; an ``associate`` construct names other data (``u => g%u``, ``s => w(n+1:)``).
The region builder knows the procedure's declarations only, so a region inside such a
construct that uses one of its names would take it for the procedure's variable of that name
(another shape, another type: wrong values) or for an unknown function.  Such a use is
refused at its line with the construct that introduces the name.
"""

from __future__ import annotations

import re
from typing import Any

from frontends.fortran.regions import RegionMarks, is_comment_line
from frontends.fortran.source import SourceLines, children, class_name, is_comment, node_lines
from translator.diagnostics import UnsupportedConstructError


def check_construct_names(exec_part: Any, m: RegionMarks, lines: SourceLines,
                          form: str) -> None:
    """Refuse the first use in region `m` of a name that an enclosing BLOCK declares or an
    enclosing ASSOCIATE associates."""
    names = _enclosing_names(exec_part, m)
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


def _message(name: str, kind: str, line: int, selector: str) -> str:
    if kind == "associate":
        return (f"{name!r} is an associate name of the ASSOCIATE construct at line {line} "
                f"around the region, which the region cannot use; write its selector "
                f"({selector}) in the region instead")
    return (f"{name!r} is a local variable of the BLOCK construct at line {line} around the "
            f"region, which the region cannot use; declare it in the procedure instead")


def _identifiers(text: str) -> list[str]:
    """The names on a line of code (not in strings or comments, not component names)."""
    code = re.sub(r"'[^']*'|\"[^\"]*\"", " ", text).split("!")[0].lower()
    return re.findall(r"(?<![%\w.])[a-z]\w*", code)


def _enclosing_names(node: Any, m: RegionMarks) -> dict[str, tuple[str, int, str]]:
    """name -> (construct kind, its line, the selector's text) for the constructs that hold
    region `m`, inner ones winning."""
    out: dict[str, tuple[str, int, str]] = {}
    for n in children(node) if node is not None else ():
        rng = None if is_comment(n) or n is None or isinstance(n, str) else node_lines(n)
        if rng is None or not (rng[0] < m.kernel_line and rng[1] > m.end_line):
            continue
        if class_name(n) == "Block_Construct":
            out.update({name: ("block", rng[0], "") for name in _block_names(n)})
        elif class_name(n) == "Associate_Construct":
            out.update(_associations(n, rng[0]))
        out.update(_enclosing_names(n, m))
    return out


def _block_names(construct: Any) -> list[str]:
    spec = next((c for c in children(construct) if class_name(c) == "Specification_Part"),
                None)
    return [str(e.items[0]).lower() for e in _walk(spec) if class_name(e) == "Entity_Decl"]


def _associations(construct: Any, line: int) -> dict[str, tuple[str, int, str]]:
    stmt = children(construct)[0]
    return {str(a.items[0]).lower(): ("associate", line, _compact(str(a.items[2])))
            for a in _walk(stmt) if class_name(a) == "Association"}


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
