"""Is a variable's value after a region used by the rest of its function?

The answer decides whether a scalar the region writes can be a private temporary (its final
value is dead) or must come back to the caller, and whether names the region declares or loop
variables it leaves behind are a problem.  It is a syntactic approximation on the function's
references in source order: the first reference met after the region (continuing, when the
region sits in a loop, with the loop's own start) decides: a plain assignment or declaration
means "dead", anything else "used".
"""

from __future__ import annotations

from pycparser import c_ast

from frontends.c.regions import RegionSite
from translator.records import dataclass


@dataclass(frozen=True)
class Reference:
    line: int
    name: str
    write: bool   # a plain ``x = ...`` or a declaration: the old value is dead


class References:
    """The identifier references of one function, in source order."""

    def __init__(self, func: c_ast.FuncDef) -> None:
        self.refs: list[Reference] = []
        self._walk(func.body)

    def _add(self, node: c_ast.Node, name: str, write: bool) -> None:
        if node.coord is not None:
            self.refs.append(Reference(node.coord.line, name, write))

    def _walk(self, node: c_ast.Node | None) -> None:
        if node is None:
            return
        if isinstance(node, c_ast.Assignment) and node.op == "=" and isinstance(
                node.lvalue, c_ast.ID):
            self._walk(node.rvalue)
            self._add(node.lvalue, node.lvalue.name, True)
            return
        if isinstance(node, c_ast.Decl):
            self._walk(node.init)
            if node.name:
                self._add(node, node.name, True)
            return
        if isinstance(node, c_ast.ID):
            self._add(node, node.name, False)
            return
        for _, child in node.children():
            self._walk(child)

    def used_after(self, name: str, site: RegionSite) -> bool:
        """Whether the value `name` has when the region ends may be read later."""
        for ref in self._after(site):
            if ref.name == name:
                return not ref.write
        return False

    def referenced_after(self, name: str, site: RegionSite) -> bool:
        return any(ref.name == name for ref in self._after(site))

    def _after(self, site: RegionSite) -> list[Reference]:
        start, end = site.kernel.line, site.end.last_line
        if not site.enclosing_loops:
            return [r for r in self.refs if r.line > end]
        loop = site.enclosing_loops[0]
        first, last = loop.coord.line, last_line(loop)
        in_loop = [r for r in self.refs if end < r.line <= last]
        wrapped = [r for r in self.refs if first <= r.line < start]
        later = [r for r in self.refs if r.line > last]
        return in_loop + wrapped + later


def last_line(node: c_ast.Node) -> int:
    """The last source line holding a node of `node` (its closing brace may follow)."""
    line = node.coord.line if node.coord is not None else 0
    for _, child in node.children():
        line = max(line, last_line(child))
    return line
