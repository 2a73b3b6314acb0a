"""Repeated expression texts parsed once per file by fparser2 (issue 24).

fparser2 matches every subexpression of a statement afresh: ``u(nx + 1, j)`` in each of 56
halo subroutines, ``u3(i, j, k)`` in each of 400 statements, each through a dozen expression
classes.  While a file is parsed (`memo_scope`), a top-level ask of an expression class for
a text it was asked before answers from the first match: a copy of the tree it made, its
``None``, or its `NoMatchError` again (same message).

What makes the answer a function of the class and the text alone:
- only top-level asks (``parent_cls`` unset: fparser2's recursion guard then excludes
  nothing), of classes that are not statements or blocks (`Type_Declaration_Stmt` and
  `Use_Stmt` record names in fparser2's symbol tables as they match);
- no text naming an intrinsic function: `Intrinsic_Function_Reference` asks the symbol table
  of the current scope whether the name is shadowed there;
- per file: the memo starts empty with each parse (the tables are cleared then too).
The copy is made node by node, so every place in the tree has its own nodes (the frontend
keys facts by node identity, e.g. `frontends.fortran.source.node_lines`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

_IDENTIFIER = re.compile(r"[A-Za-z]\w*")


class _Memo:
    #: (class, text) -> the first match's tree, `_NONE` or a `_Failed`; None: not parsing.
    table: dict[tuple[type, str], Any] | None = None
    #: the classes whose asks are remembered, and the intrinsic names (upper case)
    classes: frozenset[type] = frozenset()
    intrinsics: frozenset[str] = frozenset()
    no_match: type = Exception
    #: fparser2's node class (`fparser.two.utils.Base`)
    node: type = object


_NONE = object()


class _Failed:
    """A remembered `NoMatchError`: its message."""

    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message


def install(expression_classes: set[type], intrinsic_names: set[str], no_match: type,
            node: type) -> None:
    """The classes to remember asks of, the intrinsic names that keep a text out of the memo
    (any case), fparser2's `NoMatchError` and node class (called once, by
    `frontends.fortran.chains`)."""
    _Memo.classes = frozenset(expression_classes)
    _Memo.intrinsics = frozenset(n.upper() for n in intrinsic_names)
    _Memo.no_match = no_match
    _Memo.node = node


@contextmanager
def memo_scope() -> Iterator[None]:
    """Remember matches while the body parses one file; forget them after."""
    _Memo.table = {}
    try:
        yield
    finally:
        _Memo.table = None


def remembers(cls: type) -> bool:
    """Whether asks of `cls` go through the memo now (a file is being parsed)."""
    return _Memo.table is not None and cls in _Memo.classes


def memoized(match: Callable[[type, str], Any], cls: type, text: str) -> Any:
    """`match(cls, text)`, or the answer it gave for this class and text earlier in the file."""
    table = _Memo.table
    key = (cls, text)
    hit = table.get(key) if table is not None else None
    if hit is None:
        if table is None or _names_intrinsic(text):
            return match(cls, text)
        try:
            node = match(cls, text)
        except _Memo.no_match as err:
            table[key] = _Failed(str(err))
            raise
        table[key] = _NONE if node is None else node
        return node
    if hit is _NONE:
        return None
    if isinstance(hit, _Failed):
        raise _Memo.no_match(hit.message)
    return copy_tree(hit)


def _names_intrinsic(text: str) -> bool:
    intrinsics = _Memo.intrinsics
    return any(w.upper() in intrinsics for w in _IDENTIFIER.findall(text))


#: The attributes of fparser2 nodes that hold their children.
_CHILDREN = ("items", "content")


def copy_tree(node: Any) -> Any:
    """A copy of an fparser2 tree, node by node: the same attributes, children copied; a
    child whose parent was its node has the copy of that node as parent; the root none."""
    new = object.__new__(type(node))
    attrs = node.__dict__.copy()
    if "parent" in attrs:
        attrs["parent"] = None
    for name in _CHILDREN:
        kids = attrs.get(name)
        if isinstance(kids, (tuple, list)):
            attrs[name] = _copy_children(kids, node, new)
    new.__dict__ = attrs
    return new


def _copy_children(kids: tuple | list, old: Any, new: Any) -> tuple | list:
    out = []
    for kid in kids:
        if isinstance(kid, _Memo.node):
            copied = copy_tree(kid)
            if getattr(kid, "parent", None) is old:
                copied.parent = new
            out.append(copied)
        elif isinstance(kid, (tuple, list)):
            out.append(_copy_children(kid, old, new))
        else:
            out.append(kid)
    return type(kids)(out)
