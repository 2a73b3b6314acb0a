"""A fast path for the common subset of the kernel language's expressions.

Most statement texts (``out[i,j] = u[i-1,j] + 4*u[i,j]``, ``sum(k, a[i,k]*b[k,j])``, array
shapes such as ``n,n``) use names, integer and plain decimal literals, ``+ - * /``,
parentheses, subscripts and calls only.  Lexing and parsing those through pytools' token
iterator and pymbolic's parser costs about half of ``make_kernel`` on a kernel seen for the
first time (h66); this module reads that subset with one regular expression and a
precedence climber that builds *the same tree* as `KernelExpressionParser` (n-ary chains,
``a - b`` as ``a + (-1)*b``, folded negative literals, left-grouped ``/``), and calls the
parser's own handling of special calls (reductions, ``cast``, typed constants).

Anything else (other operators, ``**``, ``//``, comparisons, tuples in parentheses, lists,
tagged variables, keyword arguments, literals with a suffix or an exponent, any error) makes
`parse_common` answer None, and the caller uses pymbolic's parser, which then also gives
the error message.  ``tests/unit/test_parse_fast.py`` compares both on many texts.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pymbolic.primitives as p

from translator.diagnostics import TranslatorError
from translator.ir.expr import Expression
from translator.patterns import LazyPattern

# Precedences as in parse_expr (pymbolic's): comma, + -, * /, unary, call/subscript.
_PREC_COMMA, _PREC_PLUS, _PREC_TIMES, _PREC_UNARY, _PREC_CALL = 5, 210, 220, 230, 250

#: Tokens of the subset; a number directly followed by a letter, ``_``, ``.`` or a digit
#: (``1.5f``, ``1e3``, ``2x``) is not in it, nor ``**``, ``//`` or any other character.
_TOKEN_RE = LazyPattern(r"""
    [ \t\n]*(?:
      (?P<name>[a-zA-Z_][a-zA-Z_0-9]*)(?![@$])
    | (?P<float>[0-9]+\.[0-9]*)(?![0-9a-zA-Z_.@$])
    | (?P<int>[0-9]+)(?![0-9a-zA-Z_.@$])
    | (?P<op>\*\*|//|[-+*/()\[\],])
    )""", re.VERBOSE)
_TRAILING_SPACE = re.compile(r"[ \t\n]*")

#: Names the full lexer reads as keywords (``True``/``False`` even as a name's prefix).
_KEYWORDS = frozenset({"and", "or", "not", "if", "else"})

#: Chain operators: token -> (precedence, n-ary class).
_CHAINS = {"+": (_PREC_PLUS, p.Sum), "-": (_PREC_PLUS, p.Sum), "*": (_PREC_TIMES, p.Product)}


class _Unsupported(Exception):
    """The text leaves the subset: the caller falls back to pymbolic's parser."""


def _tokens(text: str) -> list[tuple[str, object]]:
    """(kind, value) pairs: kind "name", "num" or the operator itself."""
    out: list[tuple[str, object]] = []
    pos, end = 0, len(text)
    while True:
        pos = _TRAILING_SPACE.match(text, pos).end()
        if pos == end:
            return out
        m = _TOKEN_RE.match(text, pos)
        if m is None:
            raise _Unsupported
        out.append(_token(m))
        pos = m.end()


def _token(m: re.Match) -> tuple[str, object]:
    kind = m.lastgroup
    value = m.group(kind)
    if kind == "name":
        if value in _KEYWORDS or value.startswith(("True", "False")):
            raise _Unsupported
        return "name", value
    if kind == "int":
        return "num", int(value)
    if kind == "float":
        return "num", float(value)
    if value in ("**", "//"):
        raise _Unsupported
    return value, value


def _negate(value: Expression) -> Expression:
    """``-value`` as `parse_expr.negate` builds it."""
    if type(value) in (int, float, complex):
        return -value
    return p.Product((-1, value))


class _Climber:
    """Precedence climbing over the subset's tokens, mirroring
    `KernelExpressionParser.parse_expression` step for step."""

    def __init__(self, tokens: list[tuple[str, object]],
                 special_call: Callable[[p.Call], Expression]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.special_call = special_call

    def peek(self, ahead: int = 0) -> str | None:
        k = self.pos + ahead
        return self.tokens[k][0] if k < len(self.tokens) else None

    def expect(self, kind: str) -> None:
        if self.peek() != kind:
            raise _Unsupported
        self.pos += 1

    def expression(self, min_prec: int) -> Expression:
        left = self.prefix()
        built = None   # the chain node built last: only it may be extended
        while self.pos < len(self.tokens):
            kind = self.tokens[self.pos][0]
            chain = _CHAINS.get(kind)
            if chain is not None:
                if min_prec >= chain[0]:
                    break
                left = built = self.extend_chain(left, left is built, kind, chain)
                continue
            step = self.postfix(left, kind, min_prec)
            if step is None:
                break
            left, built = step, None
        return left

    def postfix(self, left: Expression, kind: str, min_prec: int) -> Expression | None:
        """`left` extended by the postfix operator `kind`, or None when none applies here."""
        if kind == "[" and min_prec < _PREC_CALL:
            return self.subscript(left)
        if kind == "(" and min_prec < _PREC_CALL:
            return self.call(left)
        if kind == "/" and min_prec < _PREC_TIMES:
            self.pos += 1
            right = self.expression(_PREC_TIMES)
            if isinstance(left, tuple) or isinstance(right, tuple):
                raise _Unsupported   # pymbolic asserts arithmetic operands
            return p.Quotient(left, right)
        if kind == "," and min_prec < _PREC_COMMA:
            return self.comma(left)
        return None

    def extend_chain(self, left: Expression, extend: bool, kind: str,
                     chain: tuple[int, type]) -> Expression:
        prec, cls = chain
        self.pos += 1
        right = self.expression(prec)
        if kind == "-":
            right = _negate(right)
        if extend and type(left) is cls:
            return cls((*left.children, right))
        return cls((left, right))

    def prefix(self) -> Expression:
        if self.pos >= len(self.tokens):
            raise _Unsupported
        kind, value = self.tokens[self.pos]
        self.pos += 1
        if kind == "name":
            return p.Variable(value)
        if kind == "num":
            return value
        if kind == "-":
            return _negate(self.expression(_PREC_UNARY))
        if kind == "+":
            return self.expression(_PREC_UNARY)
        if kind == "(" and self.peek() != ")":
            inner = self.expression(0)
            self.expect(")")
            if isinstance(inner, tuple):
                raise _Unsupported   # a parenthesised tuple
            return inner
        raise _Unsupported

    def subscript(self, left: Expression) -> Expression:
        self.pos += 1
        if self.peek() in ("[", "]", None):
            raise _Unsupported   # linear subscript, empty index, end of text
        index = self.expression(0)
        self.expect("]")
        return p.Subscript(left, index)

    def call(self, left: Expression) -> Expression:
        self.pos += 1
        args: list[Expression] = []
        while self.peek() != ")":
            if args:
                self.expect(",")
            if self.peek() in (",", ")", None):
                raise _Unsupported   # a stray or trailing comma
            args.append(self.expression(_PREC_COMMA))
        self.pos += 1
        result = p.Call(left, tuple(args))
        if type(left) is p.Variable:
            return self.special_call(result)
        return result

    def comma(self, left: Expression) -> Expression:
        self.pos += 1
        if self.peek() in (")", "]", None):
            raise _Unsupported   # a trailing comma
        new = self.expression(_PREC_COMMA)
        if isinstance(left, tuple):
            return (*left, new)
        return (left, new)


def parse_common(text: str, special_call: Callable[[p.Call], Expression]) -> Expression | None:
    """`text` parsed as `KernelExpressionParser` would, or None where it leaves the common
    subset (or is malformed: the full parser then reports it).  `special_call` gives a call
    of a plain name its meaning (the full parser's ``_special_call``)."""
    try:
        climber = _Climber(_tokens(text), special_call)
        result = climber.expression(0)
    except (_Unsupported, TranslatorError):
        return None
    if climber.pos != len(climber.tokens):
        return None
    return result
