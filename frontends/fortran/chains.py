"""Long operator chains for fparser2: ``a + b + ... + z`` split in one pass; a bound on the
work of one parse.

fparser2 matches a left-associative chain by splitting at its rightmost operator and matching
the left part again, which re-scans the whole left text at each operator (quadratic: a sum of
5,000 terms took minutes) and recurses once per operator (past the recursion limit).  This
module gives `Level_2_Expr` (``+ -``) and `Add_Operand` (``* /``) a match that finds every
operator of the chain in one text, matches each operand once, and builds the same left-nested
tree fparser2 would.  Where an operand does not match, the chain does not match, and fparser2
goes on to the other forms of the text as it does after its own matching fails.

A bare name (``i`` in ``u(i, j, k)``) asked of one of the expression classes in `NAME_CLASSES`
becomes a `Name` at once: fparser2 would reach the same node through some twenty classes
(`Expr`, the five expression levels, `Primary`, `Constant` and eight kinds of literal ...)
that all fail before `Name` matches: for a line like
``u0(i, j, k) = u0(i, j, k) + 5.0d0 * u1(i, j, k)`` fparser2 made 526 nodes, now 88.  Only top-level asks take the short cut
(``parent_cls`` unset: fparser2's recursion guard, which skips classes already being tried,
then excludes nothing).
"""

from __future__ import annotations

import re
from typing import Any

from frontends.fortran.parse_memo import install, memoized, remembers
from frontends.fortran.stmt_filter import (
    RULED_OUT,
    TRY,
    Filter,
    answer_at_reader,
    install_alternatives,
    install_known_takes,
    try_alternatives,
    try_at_reader,
    try_block,
)
from frontends.fortran.stmt_filter import install as install_filter

_INSTALLED = False

#: fparser2 classes whose match of a bare name is that `Name` (checked against the full
#: search over every sample and test input: tests/unit/test_fortran_chains.py).
NAME_CLASSES = frozenset({
    "Expr", "Level_1_Expr", "Level_2_Expr", "Level_3_Expr", "Level_4_Expr", "Level_5_Expr",
    "Add_Operand", "Mult_Operand", "Section_Subscript", "Subscript", "Part_Name",
    "Actual_Arg_Spec", "Int_Expr", "Scalar_Int_Expr", "Upper_Bound", "Variable",
})
_BARE_NAME = re.compile(r"[A-Za-z]\w*\Z")


class ParserGaveUp(BaseException):
    """fparser2 made more nodes than `parse_budget` allows (a BaseException: fparser2 catches
    its own errors, and a budget must end the parse)."""


class _Budget:
    left: int | None = None
    #: fparser2's own `Base.__new__`, before `_install_budget` wraps it
    fparser_new: Any = None


def parse_budget(nodes: int | None) -> None:
    """Let fparser2 make at most `nodes` parse-tree nodes (tries included) until the next
    call; None: no bound.  Valid code takes 3 to 6 per character of source; a syntax error
    deep in nested parentheses makes fparser2 try alternatives exponentially in the depth."""
    _Budget.left = nodes


def _spend(nodes: int) -> None:
    """Count `nodes` fparser2 would have made against the budget (`parse_budget`)."""
    if _Budget.left is not None:
        _Budget.left -= nodes
        if _Budget.left < 0:
            raise ParserGaveUp()


def _install_budget() -> None:
    # here: fparser loads with the parser (`frontends.fortran.source._parser`)
    from fparser.common.readfortran import Comment as CommentLine
    from fparser.common.readfortran import FortranReaderBase, Line
    from fparser.two.Fortran2003 import Comment, Name
    from fparser.two.utils import Base, BlockBase, NoMatchError
    original = _Budget.fparser_new = Base.__new__
    classes = _all_subclasses(Base)
    short = {cls for cls in classes if cls.__name__ in NAME_CLASSES}
    _install_memo(classes)
    install_filter(classes, Base.subclasses, Line)
    install_alternatives(classes, Base, BlockBase, Comment, NoMatchError, FortranReaderBase)
    install_known_takes(FortranReaderBase)
    Filter.comment_line = CommentLine
    alternatives, line_tries, blocks = Filter.alternatives, Filter.line_tries, Filter.blocks

    def counted_new(cls, string=None, parent_cls=None, *args, **kwargs):
        if _Budget.left is not None:
            _Budget.left -= 1
            if _Budget.left < 0:
                raise ParserGaveUp()
        if args or kwargs:
            pass
        elif isinstance(string, str):
            if parent_cls is None:
                if cls in short and _BARE_NAME.match(string):
                    return original(Name, string)
                if remembers(cls):
                    return memoized(original, cls, string)
        elif Filter.seen is None:
            pass
        elif cls in Filter.classes:
            result = try_at_reader(original, cls, string, parent_cls)
            if result is not RULED_OUT:
                return result
            if _Budget.left is not None:
                _Budget.left -= 1   # fparser2's failed try makes two nodes: reader, text
            return None
        elif cls in alternatives and isinstance(string, FortranReaderBase):
            return try_alternatives(original, cls, string, parent_cls, _spend)
        elif cls in blocks and isinstance(string, FortranReaderBase):
            return try_block(original, cls, string, parent_cls, _spend)
        elif cls in line_tries and isinstance(string, FortranReaderBase):
            answer = answer_at_reader(cls, string, parent_cls)
            if answer is not TRY:
                return answer
        return original(cls, string, parent_cls, *args, **kwargs)
    Base.__new__ = counted_new


def _install_memo(classes: set[type]) -> None:
    """Let `frontends.fortran.parse_memo` remember the matches of expression classes (every
    class but statements and blocks), unless the text names an intrinsic function."""
    # here: fparser loads with the parser (`frontends.fortran.source._parser`)
    from fparser.two import Fortran2003
    from fparser.two.Fortran2008.intrinsics_f08 import Intrinsic_Name
    from fparser.two.utils import Base, BlockBase, NoMatchError, StmtBase
    expressions = {c for c in classes if not issubclass(c, (StmtBase, BlockBase))}
    names = set(Intrinsic_Name.function_names) | set(Fortran2003.Intrinsic_Name.function_names)
    install(expressions, names, NoMatchError, Base)


def _all_subclasses(cls: type) -> set[type]:
    found: set[type] = set()
    todo = [cls]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    return found


def install_chain_matching() -> None:
    """Replace the match of fparser2's additive and multiplicative chains, and count the
    nodes it makes against `parse_budget` (once)."""
    global _INSTALLED
    if _INSTALLED:
        return
    # here: fparser loads with the parser (`frontends.fortran.source._parser`)
    from fparser.two import Fortran2003
    from fparser.two import pattern_tools as pattern
    Fortran2003.Level_2_Expr.match = staticmethod(_matcher(
        Fortran2003.Level_2_Expr, pattern.add_op.named(), Fortran2003.Add_Operand))
    Fortran2003.Add_Operand.match = staticmethod(_matcher(
        Fortran2003.Add_Operand, pattern.mult_op.named(), Fortran2003.Mult_Operand))
    _install_intrinsic_names()
    _install_named_patterns()
    _install_budget()
    _INSTALLED = True


def _install_named_patterns() -> None:
    """fparser2's expression matches name their operator patterns afresh at each ask
    (``pattern.power_op.named()``: a new pattern, its regular expression compiled again); the
    named pattern of a pattern is now made once (patterns are not changed once made)."""
    # here: fparser loads with the parser (`frontends.fortran.source._parser`)
    from fparser.two.pattern_tools import Pattern
    fparser_named = Pattern.named
    made: dict[tuple[int, str | None], tuple[Any, Any]] = {}

    def named(self: Any, name: str | None = None) -> Any:
        key = (id(self), name)
        hit = made.get(key)
        if hit is not None and hit[0] is self:
            return hit[1]
        if len(made) >= 4096:
            made.clear()
        result = fparser_named(self, name)
        made[key] = (self, result)
        return result
    Pattern.named = named


def _install_intrinsic_names() -> None:
    """fparser2 asks whether a name is an intrinsic function's (at every array reference:
    ``t0(i)`` may be a call) by comparing it with each of some 250 names in turn, a call per
    name; a set of the names answers the same: the name in upper case, or None."""
    # here: fparser loads with the parser (`frontends.fortran.source._parser`)
    from fparser.two import Fortran2003
    from fparser.two.utils import InternalError
    names: dict[type, frozenset[str]] = {}

    def match(cls: type, string: Any) -> tuple[str] | None:
        if string is None:
            return None
        if not isinstance(string, str):
            raise InternalError(
                f"Supplied string should be of type str, but found {type(string)}")
        known = names.get(cls)
        if known is None:
            known = names[cls] = frozenset(cls.function_names)
        upper = string.upper()
        # (fparser2 compares a name's length with the text's before upper-casing it)
        return (upper,) if upper in known and len(upper) == len(string) else None
    Fortran2003.Intrinsic_Name.match = classmethod(match)


def _matcher(cls: type, op_pattern: Any, operand_cls: type):
    # here: fparser loads with the parser (`frontends.fortran.source._parser`)
    from fparser.two.utils import NoMatchError

    def match(string: str):
        try:
            return _chain(cls, op_pattern, operand_cls, string)
        except NoMatchError:
            # an operand that does not match fails the chain as a whole; fparser2 then tries
            # the other forms of the whole text, as after its own failed match (it would also
            # try them for every prefix of the chain: quadratic, and no form of a prefix can
            # match where the chain did not)
            return None
    return match


def _chain(cls: type, op_pattern: Any, operand_cls: type, string: str):
    """`BinaryOpBase.match` for the whole chain at once: (left tree, operator, last operand)
    or None when `string` has no operator to split at."""
    # here: fparser loads with the parser (`frontends.fortran.source._parser`)
    from fparser.common.splitline import string_replace_map
    line, repmap = string_replace_map(string)
    rights: list[tuple[str, str]] = []
    while True:
        split = op_pattern.rsplit(line)
        if not split or len(split) != 3:
            break
        lhs, oper, rhs = split[0].rstrip(), split[1], split[2].lstrip()
        if not lhs or not rhs:
            break
        rights.append((oper.upper().replace(" ", ""), rhs))
        line = lhs
    if not rights:
        return None
    node = cls(repmap(line))
    for oper, rhs in reversed(rights[1:]):
        node = _node(cls, (node, oper, operand_cls(repmap(rhs))))
    oper, rhs = rights[0]
    return (node, oper, operand_cls(repmap(rhs)))


def _node(cls: type, items: tuple) -> Any:
    """A node of `cls` with `items`, as `Base.__new__` makes one from a match."""
    # here: fparser loads with the parser (`frontends.fortran.source._parser`)
    from fparser.two.utils import _set_parent
    obj = object.__new__(cls)
    obj.string = None
    obj.item = None
    obj.parent = None
    _set_parent(obj, items)
    obj.init(*items)
    return obj
