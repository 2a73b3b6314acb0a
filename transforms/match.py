"""The match language (docs/transforms.md, "Matching contexts").

Statement matches, for ``within=`` and ``insn_match=`` arguments::

    id:yoink and writes:a_temp
    id:yoink and (not writes:a_temp or tag:input)
    insn_*                      # a bare glob matches ids
    *                           # every statement

Terms: ``id:GLOB``, ``tag:GLOB``, ``writes:GLOB``, ``reads:GLOB``, ``iname:GLOB`` (one of the
statement's `within_inames`), ``in_kernel:GLOB``; combined with ``and``, ``or``, ``not`` and
parentheses (``not`` binds tightest, then ``and``, then ``or``).  Globs use ``*``, ``?`` and
``[...]`` as in `fnmatch`.  ``None`` (or an empty string) matches every statement.

Stack matches (`parse_stack_match`) are ``a > b > c`` with ``...`` for any number of levels
and a trailing ``$`` anchoring the innermost level.  In the reference a stack is a statement
followed by the substitution-rule invocations it is inside.  Our transforms apply `within=` at
statement level, so the stack they match against is just ``(statement,)``: ``id:s1``,
``... > id:s1`` and ``id:s1 $`` match statement ``s1``; a pattern naming a rule level
(``id:s1 > rule``) matches nothing.
"""

from __future__ import annotations

import fnmatch
import functools
import re
from collections.abc import Iterable, Mapping
from typing import Any

from translator.diagnostics import TransformError
from translator.ir.expr import dependencies
from translator.ir.kernel import Kernel
from translator.ir.statements import NoOpInstruction, Statement
from translator.patterns import LazyPattern
from translator.records import dataclass


@functools.lru_cache(maxsize=512)
def _glob_re(glob: str) -> re.Pattern[str]:
    return re.compile(fnmatch.translate(glob))


def glob_matches(glob: str, name: str) -> bool:
    """Whether `name` matches the shell-style `glob` (case-sensitive)."""
    return _glob_re(glob).match(name) is not None


# ---------------------------------------------------------------------------------------------
# match expressions

class MatchExpression:
    """Base of statement matchers: ``matcher(kernel, statement) -> bool``."""

    def __call__(self, kernel: Kernel, statement: Statement) -> bool:  # pragma: no cover
        raise NotImplementedError

    def filter(self, kernel: Kernel) -> tuple[Statement, ...]:
        """The kernel's statements this expression matches, in kernel order."""
        return tuple(s for s in kernel.statements if self(kernel, s))


@dataclass(frozen=True, slots=True)
class All(MatchExpression):
    """Matches every statement (``*`` or ``None``)."""

    def __call__(self, kernel: Kernel, statement: Statement) -> bool:
        return True

    def __str__(self) -> str:
        return "*"


@dataclass(frozen=True, slots=True)
class And(MatchExpression):
    children: tuple[MatchExpression, ...]

    def __call__(self, kernel: Kernel, statement: Statement) -> bool:
        return all(c(kernel, statement) for c in self.children)

    def __str__(self) -> str:
        return "(" + " and ".join(str(c) for c in self.children) + ")"


@dataclass(frozen=True, slots=True)
class Or(MatchExpression):
    children: tuple[MatchExpression, ...]

    def __call__(self, kernel: Kernel, statement: Statement) -> bool:
        return any(c(kernel, statement) for c in self.children)

    def __str__(self) -> str:
        return "(" + " or ".join(str(c) for c in self.children) + ")"


@dataclass(frozen=True, slots=True)
class Not(MatchExpression):
    child: MatchExpression

    def __call__(self, kernel: Kernel, statement: Statement) -> bool:
        return not self.child(kernel, statement)

    def __str__(self) -> str:
        return f"(not {self.child})"


@dataclass(frozen=True, slots=True)
class _GlobTerm(MatchExpression):
    glob: str
    prefix = ""

    def __str__(self) -> str:
        return f"{self.prefix}:{self.glob}"

    def _any(self, names: Iterable[str]) -> bool:
        return any(glob_matches(self.glob, n) for n in names)


class Id(_GlobTerm):
    """``id:GLOB``: the statement id."""

    prefix = "id"

    def __call__(self, kernel: Kernel, statement: Statement) -> bool:
        return glob_matches(self.glob, statement.id)


class Tagged(_GlobTerm):
    """``tag:GLOB``: one of the statement's tags."""

    prefix = "tag"

    def __call__(self, kernel: Kernel, statement: Statement) -> bool:
        return self._any(statement.tags)


class Writes(_GlobTerm):
    """``writes:GLOB``: a variable the statement assigns."""

    prefix = "writes"

    def __call__(self, kernel: Kernel, statement: Statement) -> bool:
        return self._any(statement.assignee_names())


class Reads(_GlobTerm):
    """``reads:GLOB``: a variable the statement reads (right-hand side, subscripts,
    predicates)."""

    prefix = "reads"

    def __call__(self, kernel: Kernel, statement: Statement) -> bool:
        return self._any(n for e in statement.read_expressions() for n in dependencies(e))


class Iname(_GlobTerm):
    """``iname:GLOB``: one of the statement's `within_inames`."""

    prefix = "iname"

    def __call__(self, kernel: Kernel, statement: Statement) -> bool:
        return self._any(statement.within_inames)


class InKernel(_GlobTerm):
    """``in_kernel:GLOB``: the kernel's name."""

    prefix = "in_kernel"

    def __call__(self, kernel: Kernel, statement: Statement) -> bool:
        return glob_matches(self.glob, kernel.name)


_TERMS: dict[str, type[_GlobTerm]] = {
    cls.prefix: cls for cls in (Id, Tagged, Writes, Reads, Iname, InKernel)}

_GLOB = r"[\w*?\[\]!.$-]+"
_TOKEN = LazyPattern(
    rf"\s*(?:(?P<par>[()])|(?P<term>(?P<kind>[a-z_]+):(?P<glob>{_GLOB}))"
    rf"|(?P<word>{_GLOB}))")


def _tokenize(text: str) -> list[tuple[str, Any, int]]:
    """(kind, value, position) tokens; kinds: '(', ')', 'and', 'or', 'not', 'term'."""
    out: list[tuple[str, Any, int]] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise _bad(text, len(text) - len(text[pos:].lstrip()), "unexpected character")
        start = m.start("par") if m.group("par") else m.start("term") if m.group("term") \
            else m.start("word")
        if m.group("par"):
            out.append((m.group("par"), None, start))
        elif m.group("term"):
            kind = m.group("kind")
            if kind not in _TERMS:
                raise _bad(text, start, f"unknown match term '{kind}:' (expected one of "
                           f"{', '.join(k + ':' for k in sorted(_TERMS))})")
            out.append(("term", _TERMS[kind](m.group("glob")), start))
        elif m.group("word") in ("and", "or", "not"):
            out.append((m.group("word"), None, start))
        else:
            out.append(("term", Id(m.group("word")), start))
        pos = m.end()
    return out


def _bad(text: str, pos: int, why: str) -> TransformError:
    return TransformError(f"malformed match expression {text!r}: {why} at "
                          f"{text[pos:pos + 12]!r} (position {pos})" if pos < len(text) else
                          f"malformed match expression {text!r}: {why} at the end")


class _Parser:
    """Recursive descent: or_expr := and_expr ('or' and_expr)*, and so on."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokenize(text)
        self.k = 0

    def peek(self) -> str | None:
        return self.tokens[self.k][0] if self.k < len(self.tokens) else None

    def pos(self) -> int:
        return self.tokens[self.k][2] if self.k < len(self.tokens) else len(self.text)

    def parse(self) -> MatchExpression:
        if not self.tokens:
            return All()
        result = self.or_expr()
        if self.k != len(self.tokens):
            raise _bad(self.text, self.pos(), "expected 'and', 'or' or the end")
        return result

    def or_expr(self) -> MatchExpression:
        children = [self.and_expr()]
        while self.peek() == "or":
            self.k += 1
            children.append(self.and_expr())
        return children[0] if len(children) == 1 else Or(tuple(children))

    def and_expr(self) -> MatchExpression:
        children = [self.not_expr()]
        while self.peek() == "and":
            self.k += 1
            children.append(self.not_expr())
        return children[0] if len(children) == 1 else And(tuple(children))

    def not_expr(self) -> MatchExpression:
        if self.peek() == "not":
            self.k += 1
            return Not(self.not_expr())
        return self.atom()

    def atom(self) -> MatchExpression:
        kind = self.peek()
        if kind == "(":
            self.k += 1
            inner = self.or_expr()
            if self.peek() != ")":
                raise _bad(self.text, self.pos(), "expected ')'")
            self.k += 1
            return inner
        if kind == "term":
            term = self.tokens[self.k][1]
            self.k += 1
            return All() if isinstance(term, Id) and term.glob == "*" else term
        raise _bad(self.text, self.pos(), "expected a match term")


@functools.lru_cache(maxsize=256)
def _parse_text(text: str) -> MatchExpression:
    return _Parser(text).parse()


def parse_match(expr: str | MatchExpression | Iterable[str] | None) -> MatchExpression:
    """Parse a match expression (see the module docstring).

    ``None``/``""`` match everything; a `MatchExpression` is returned as is; a collection of
    strings matches a statement matched by any of them.  Bad text raises `TransformError`
    naming it.
    """
    if expr is None:
        return All()
    if isinstance(expr, MatchExpression):
        return expr
    if isinstance(expr, str):
        return _parse_text(expr.strip())
    if isinstance(expr, Mapping):
        raise TransformError(f"match expression must be a string such as 'id:s1 or tag:t', "
                             f"not a dict ({expr!r})")
    if isinstance(expr, Iterable):
        items = list(expr)
        if not all(isinstance(i, str) for i in items):
            raise TransformError(f"match expression must be a string, got {items!r}")
        children = tuple(parse_match(i) for i in sorted(set(items)))
        return children[0] if len(children) == 1 else Or(children)
    raise TransformError(f"match expression must be a string, got {expr!r}")


# ---------------------------------------------------------------------------------------------
# stack matches

@dataclass(frozen=True, slots=True)
class StackMatch:
    """A parsed stack match: components outermost first; ``...`` entries are `None`.

    ``matcher(kernel, statement, rule_stack=())`` matches the stack ``(statement, *rules)``;
    `rule_stack` holds (name, tags) of rule invocations, outermost first (see module
    docstring for how our transforms use it).
    """

    components: tuple[MatchExpression | None, ...]
    anchored_bottom: bool = False

    def __call__(self, kernel: Kernel, statement: Statement,
                 rule_stack: tuple[tuple[str, frozenset[str]], ...] = ()) -> bool:
        frames: tuple[Statement, ...] = (statement, *(_rule_frame(n, t) for n, t in rule_stack))
        return self._match(kernel, 0, frames)

    def _match(self, kernel: Kernel, k: int, frames: tuple[Statement, ...]) -> bool:
        if k == len(self.components):
            return not frames if self.anchored_bottom else True
        comp = self.components[k]
        if comp is None:
            return any(self._match(kernel, k + 1, frames[j:]) for j in range(len(frames) + 1))
        return bool(frames) and comp(kernel, frames[0]) and self._match(kernel, k + 1,
                                                                         frames[1:])

    def is_all(self) -> bool:
        """Whether this matches every statement (no restriction)."""
        return (not self.anchored_bottom
                and all(c is None or isinstance(c, All) for c in self.components))

    def __str__(self) -> str:
        parts = ["..." if c is None else str(c) for c in self.components]
        return " > ".join(parts) + (" $" if self.anchored_bottom else "")


def _rule_frame(name: str, tags: frozenset[str]) -> Statement:
    """A rule invocation as something id:/tag: terms can match."""
    return NoOpInstruction(id=name, tags=frozenset(tags))


def parse_stack_match(smatch: str | StackMatch | MatchExpression | None) -> StackMatch:
    """Parse ``outer > ... > inner $`` (see the module docstring); ``None`` matches all."""
    if isinstance(smatch, StackMatch):
        return smatch
    if smatch is None:
        return StackMatch(())
    if isinstance(smatch, MatchExpression):
        return StackMatch((smatch,))
    if not isinstance(smatch, str):
        return StackMatch((parse_match(smatch),))
    return _parse_stack_text(smatch.strip())


@functools.lru_cache(maxsize=256)
def _parse_stack_text(text: str) -> StackMatch:
    anchored = text.endswith("$")
    body = text[:-1].strip() if anchored else text
    if not body:
        return StackMatch((), anchored)
    components: list[MatchExpression | None] = []
    for part in body.split(">"):
        part = part.strip()
        if not part:
            raise TransformError(f"malformed stack match {text!r}: empty level between '>'")
        components.append(None if part == "..." else parse_match(part))
    return StackMatch(tuple(components), anchored)
