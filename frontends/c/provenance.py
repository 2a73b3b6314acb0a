"""Where the pointers of a translated function come from (C memory model, DESIGN.md "Soundness
is about memory, not names").

A local pointer set once, at its declaration, to an array or pointer plus an offset
(``double *p = u + 1``, ``= &a[k]``, ``= a``, ``= q - 2`` for such a ``q``) is that array at an
offset: the region builder rewrites ``p[i]`` as ``u[1 + i]``, so the kernel sees one buffer and
dependence analysis sees the overlap.  The offset may use constants and parameters the function
never assigns (so it has the same value in the region).  Any other local or global pointer has
an unknown origin: it may point into any array of the region (`Provenance.unknown`).

Arrays whose address is taken (``u + 1``, ``f(u)``, ``&u[2]``) are *escaped*: a pointer may
reach them, so they are never privatised.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator

from pycparser import c_ast

from frontends.c.regions import RegionSite
from frontends.c.typemodel import FileScope
from translator.records import dataclass

ZERO = c_ast.Constant("int", "0")


@dataclass(frozen=True)
class Origin:
    """A pointer's value: `base` (an array, or a pointer the function never assigns) plus
    `offsets` (C integer expressions, summed; elements of the base's type)."""

    base: str
    offsets: tuple[c_ast.Node, ...]


class Provenance:
    """The origins of the pointers declared in one function (syntactic, whole function)."""

    def __init__(self, site: RegionSite, fscope: FileScope) -> None:
        self.site = site
        self.fscope = fscope
        self.assigned, self.address_taken, values = _names_of(site.function.body)
        #: Names used as values (not subscripted, not under sizeof) or under ``&``: an array
        #: among them has its address taken (a pointer may reach it).
        self.escaped = values | self.address_taken

    def origin(self, name: str) -> Origin | None:
        """The origin of the local pointer `name` visible at the region, if it is known."""
        return self._origin(name, 0)

    def unknown(self, name: str) -> bool:
        """Whether `name` (visible at the region) is a local or global pointer whose target
        cannot be told: it may point into any array."""
        storage, decl = self.site.visible[name]
        kind = self.fscope.resolve(decl.type).kind
        return kind == "pointer" and storage != "param" and self.origin(name) is None

    def _origin(self, name: str, depth: int) -> Origin | None:
        entry = self.site.visible.get(name)
        if entry is None or entry[0] != "local" or depth > 16:
            return None
        decl = entry[1]
        if (self.fscope.resolve(decl.type).kind != "pointer" or decl.init is None
                or name in self.assigned or name in self.address_taken):
            return None
        found = self._value(decl.init)
        if found is None:
            return None
        base, offsets = found
        inner = self._origin(base, depth + 1)
        if inner is not None:
            return Origin(inner.base, inner.offsets + offsets)
        return Origin(base, offsets) if self._is_base(base) else None

    def _value(self, node: c_ast.Node) -> tuple[str, tuple[c_ast.Node, ...]] | None:
        """``q``, ``q + k``, ``k + q``, ``q - k``, ``&q[k]`` -> (q, offsets)."""
        if isinstance(node, c_ast.ID):
            return node.name, ()
        if isinstance(node, c_ast.UnaryOp) and node.op == "&" and isinstance(
                node.expr, c_ast.ArrayRef) and isinstance(node.expr.name, c_ast.ID):
            return self._offset(node.expr.name.name, node.expr.subscript)
        if isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-"):
            left, right = node.left, node.right
            if node.op == "+" and not self._is_buffer(left):
                left, right = right, left
            if not self._is_buffer(left):
                return None
            if node.op == "-":
                right = c_ast.UnaryOp("-", right, right.coord)
            return self._offset(left.name, right)
        return None

    def _is_buffer(self, node: c_ast.Node) -> bool:
        if not isinstance(node, c_ast.ID) or node.name not in self.site.visible:
            return False
        return self.fscope.resolve(self.site.visible[node.name][1].type).is_buffer

    def _offset(self, base: str, offset: c_ast.Node) -> tuple[str, tuple[c_ast.Node, ...]] | None:
        if not all(self._invariant(n) for n in _ids(offset)):
            return None
        return base, (offset,)

    def _invariant(self, name: str) -> bool:
        """A name with the same value at the pointer's declaration and in the region."""
        if name in self.fscope.enum_values:
            return True
        entry = self.site.visible.get(name)
        return (entry is not None and entry[0] == "param" and name not in self.assigned
                and self.fscope.resolve(entry[1].type).kind == "scalar")

    def _is_base(self, name: str) -> bool:
        """A one-dimensional array, or a pointer parameter or global, that the function never
        assigns (an array parameter is a pointer: it can be assigned)."""
        entry = self.site.visible.get(name)
        if entry is None or name in self.assigned:
            return False
        ctype = self.fscope.resolve(entry[1].type)
        if ctype.kind == "array":
            return len(ctype.dims) == 1
        return ctype.kind == "pointer" and entry[0] != "local"


def _walk(node: c_ast.Node | None) -> Iterator[c_ast.Node]:
    if node is None:
        return
    yield node
    for _, child in node.children():
        yield from _walk(child)


def _ids(node: c_ast.Node) -> set[str]:
    return {n.name for n in _walk(node) if isinstance(n, c_ast.ID)}


#: `_function_names` per function body, while the body lives: a function of many regions is
#: walked once, not once per region.
_NAMES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _names_of(body: c_ast.Node | None) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """`_function_names` of `body`, remembered for the body's lifetime."""
    if body is None:
        return frozenset(), frozenset(), frozenset()
    found = _NAMES.get(body)
    if found is None:
        found = _NAMES[body] = tuple(frozenset(s) for s in _function_names(body))
    return found


def _function_names(body: c_ast.Node) -> tuple[set[str], set[str], set[str]]:
    """In one walk of the function body: the names assigned other than by their declaration
    (``=``, ``++``, ``--``), the names under ``&`` (``&x``, ``&u[k]``, ``&m[i][j]``), and
    the names used as values other than as the array of a subscript or the operand of
    sizeof."""
    assigned: set[str] = set()
    taken: set[str] = set()
    values: set[str] = set()
    todo = [body] if body is not None else []
    while todo:
        n = todo.pop()
        kids = [child for _, child in n.children()]
        todo += kids
        if isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ID):
            assigned.add(n.lvalue.name)
        elif isinstance(n, c_ast.UnaryOp):
            if n.op in ("++", "--", "p++", "p--") and isinstance(n.expr, c_ast.ID):
                assigned.add(n.expr.name)
            elif n.op == "&":
                _add_address_taken(n.expr, taken)
            elif n.op == "sizeof":
                continue
        values.update(k.name for k in kids if isinstance(k, c_ast.ID)
                      and not (isinstance(n, c_ast.ArrayRef) and k is n.name))
    return assigned, taken, values


def _add_address_taken(target: c_ast.Node, out: set[str]) -> None:
    """The name under ``&`` of ``&x``, ``&u[k]``, ``&m[i][j]``, into `out`."""
    while isinstance(target, c_ast.ArrayRef):
        target = target.name
    if isinstance(target, c_ast.ID):
        out.add(target.name)
