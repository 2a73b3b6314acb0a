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

Statements too (`statement_memoized`, fparser2's ``Line.parse_line``): a line's text asked of
a statement class with a match of its own and no subclasses (``Assignment_Stmt``,
``Nonlabel_Do_Stmt``, ``Type_Declaration_Stmt`` ...) answers from an earlier line of the same
text.  Such a try depends on the text alone: fparser2's recursion guard only gains the class
(done on a hit too), the class's match asks its parts with fresh guards.  Where it does not:
- a text naming an intrinsic function is matched afresh (as above: the scope decides);
- ``Use_Stmt`` records the module's names in the symbol table as it matches: only its "no
  match" is remembered; a declaration records its names too, which a hit does again
  (``add_to_symbol_table``);
- the nodes a try counts against the parse budget (`frontends.fortran.chains`) are those of
  a try with every expression text remembered: a hit counts what the second try of the text
  counted (which matches again, for that count), so the budget runs out where it did.
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
    #: statements: (class, text) -> a `_Statement`; None: not parsing
    statements: dict[tuple[type, str], Any] | None = None
    #: statement classes whose tries are remembered; those whose match is remembered only
    #: when it fails (it records names as it matches)
    statement_classes: frozenset[type] = frozenset()
    failures_only: frozenset[type] = frozenset()
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


class _Statement:
    """A remembered statement try: its tree (or `_Failed`), and the nodes its second try
    counted against the parse budget (None until a second try)."""

    __slots__ = ("answer", "nodes")

    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.nodes: int | None = None


def install_statements(classes: set[type], failures_only: set[type]) -> None:
    """The statement classes whose tries `statement_memoized` remembers (`failures_only`:
    only their failures); called once, by `frontends.fortran.chains`."""
    _Memo.statement_classes = frozenset(classes)
    _Memo.failures_only = frozenset(failures_only)


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
    _Memo.statements = {}
    try:
        yield
    finally:
        _Memo.table = None
        _Memo.statements = None


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


def remembers_statement(cls: type) -> bool:
    """Whether tries of statement class `cls` at a line go through `statement_memoized`."""
    return _Memo.statements is not None and cls in _Memo.statement_classes


def statement_memoized(match: Callable[[type, str, list], Any], cls: type, text: str,
                       parent_cls: list, nodes_left: Callable[[], int | None],
                       spend: Callable[[int], None]) -> Any:
    """`match(cls, text, parent_cls)` (a try of statement class `cls` at a line), or the
    answer an earlier line of this text got; `nodes_left` tells the parse budget left,
    `spend` counts nodes against it."""
    table = _Memo.statements
    key = (cls, text)
    entry = table.get(key) if table is not None else None
    if entry is None or entry.nodes is None:
        if table is None or _names_intrinsic(text):
            return match(cls, text, parent_cls)
        before = nodes_left()
        try:
            node = match(cls, text, parent_cls)
        except _Memo.no_match as err:
            _remember(table, key, entry, _Failed(str(err)), before, nodes_left())
            raise
        if cls not in _Memo.failures_only:
            _remember(table, key, entry, _NONE if node is None else node, before, nodes_left())
        return node
    if cls not in parent_cls:
        parent_cls.append(cls)
    if entry.nodes:
        spend(entry.nodes)
    answer = entry.answer
    if isinstance(answer, _Failed):
        raise _Memo.no_match(answer.message)
    if answer is _NONE:
        return None
    node = copy_tree(answer)
    record = getattr(cls, "add_to_symbol_table", None)
    if record is not None:
        record(node.items)   # the declaration's names, in the current scope's table
    return node


def _remember(table: dict, key: tuple[type, str], entry: _Statement | None, answer: Any,
              before: int | None, after: int | None) -> None:
    """Keep `answer` of a first try; the nodes of a second (`entry` the first's)."""
    if entry is None:
        table[key] = _Statement(answer)
    else:
        entry.nodes = before - after if before is not None and after is not None else 0


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
