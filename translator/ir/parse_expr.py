"""The expression part of the kernel language: pymbolic's parser, extended.

Extensions over pymbolic (docs/kernel-language.md):

- ``a[[8*i + j]]`` -> `LinearSubscript`; ``a$tag`` -> `TaggedVariable`;
- ``if(c, a, b)`` -> pymbolic ``If`` (Python's ``a if c else b`` also works);
- reductions ``sum(k, e)``, ``sum((i, j), e)``, ``sum([i, j], e)``, ``product``, ``max``,
  ``min``, ``reduce(op, [k], e)``, ``simul_reduce(op, [k], e)`` -> `Reduction`.  ``max`` and
  ``min`` are reductions only when their first argument is a list/tuple of inames or (with
  `bare_reductions`) a known iname; otherwise they are the IR functions;
- ``cast(float32, e)`` -> `TypeCast`; ``float32(0.5)``, ``int64(-3)``, ``complex64(1.0, 2.0)``
  -> typed numpy constants; ``float(inf)`` / ``complex(1.0, 2.0)`` -> Python constants;
  ``1.5f`` -> float32.

Operator chains without parentheses become one n-ary node (``a + b + c`` is one `Sum`),
parenthesised operands stay nested, and ``a*b/c`` groups left to right as in C and Python.
``-x`` is ``(-1)*x`` and ``a - b`` is ``a + (-1)*b`` (a negated number literal is folded).
These rules are what makes the printer's output parse back to the identical tree.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

import numpy as np
import pymbolic.primitives as p
import pytools.lex
from pymbolic.parser import FinalizedList, FinalizedTuple, Parser

from translator.diagnostics import DomainError, KernelLanguageError
from translator.ir.expr import (BUILTIN_REDUCTIONS, REDUCTION_NAMES, Expression, LinearSubscript,
                                Reduction, TaggedVariable, TypeCast)
from translator.ir.parse_fast import parse_common
from translator.patterns import LazyPattern

# Precedences of pymbolic's parser (the printer in expr.py mirrors them).
PREC_OR, PREC_AND = 80, 90
PREC_BIT_OR, PREC_BIT_AND = 120, 130
PREC_PLUS, PREC_TIMES, PREC_UNARY = 210, 220, 230

#: Operator token -> (precedence, node class) of the chains that become one n-ary node.
_CHAINS: dict[str, tuple[int, type]] = {
    "plus": (PREC_PLUS, p.Sum), "minus": (PREC_PLUS, p.Sum), "times": (PREC_TIMES, p.Product),
    "and": (PREC_AND, p.LogicalAnd), "or": (PREC_OR, p.LogicalOr),
    "bitwiseor": (PREC_BIT_OR, p.BitwiseOr), "bitwisexor": (PREC_BIT_OR, p.BitwiseXor),
    "bitwiseand": (PREC_BIT_AND, p.BitwiseAnd),
}

#: numpy scalar types that may be written as ``name(literal)``.
SCALAR_TYPE_NAMES = frozenset({
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
})

# pymbolic's token table as one regular expression (pytools' rule-by-rule lexer is the main
# cost of parsing a small kernel).  Alternatives are tried in order, as pytools does.
_FLOAT = (r"(?:[0-9]+\.[0-9]*(?:[eEdD][+-]?[0-9]+)?[a-zA-Z]*"
          r"|[0-9]+(?:\.[0-9]*)?[eEdD][+-]?[0-9]+[a-zA-Z]*\b"
          r"|[0-9]*\.[0-9]+(?:[eEdD][+-]?[0-9]+)?[a-zA-Z]*"
          r"|[0-9]+[a-zA-Z]+)")
_TOKENS = (
    ("equal", r"=="), ("notequal", r"!="), ("leftshift", r"<<"), ("rightshift", r">>"),
    ("lessequal", r"<="), ("greaterequal", r">="), ("less", r"<"), ("greater", r">"),
    ("assign", r"="), ("and", r"and\b"), ("or", r"or\b"), ("not", r"not\b"),
    ("if", r"if\b"), ("else", r"else\b"), ("imaginary", _FLOAT + "j"), ("float", _FLOAT),
    ("int", r"[0-9]+"), ("plus", r"\+"), ("minus", r"-"), ("exp", r"\*\*"), ("times", r"\*"),
    ("floordiv", r"//"), ("over", r"/"), ("modulo", r"%"), ("bitwiseand", r"&"),
    ("bitwiseor", r"\|"), ("bitwisenot", r"~"), ("bitwisexor", r"\^"), ("openpar", r"\("),
    ("closepar", r"\)"), ("openbracket", r"\["), ("closebracket", r"\]"), ("True", r"True"),
    ("False", r"False"), ("identifier", r"[@$a-zA-Z_][@$a-zA-Z_0-9]*"),
    ("whitespace", r"[ \n\t]+"), ("comma", r","), ("dot", r"\."), ("colon", r":"),
)
_TOKEN_RE = LazyPattern("|".join(f"(?P<t{k}>{rx})" for k, (_, rx) in enumerate(_TOKENS)))
_TOKEN_TAGS = {f"t{k}": sys.intern(tag) for k, (tag, _) in enumerate(_TOKENS)}


def _lex(text: str) -> list[tuple]:
    """Tokens as pytools' lexer returns them: (tag, text, index, match), whitespace dropped."""
    out, pos = [], 0
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if m is None:
            raise pytools.lex.InvalidTokenError(text, pos)
        tag = _TOKEN_TAGS[m.lastgroup]
        if tag != "whitespace":
            out.append((tag, m.group(), pos, m))
        pos = m.end()
    return out
_SPECIAL_VALUES = {"inf": float("inf"), "nan": float("nan")}
_FLOAT_RE = LazyPattern(r"([0-9.]*(?:[eEdD][+-]?[0-9]+)?)([a-zA-Z]*)")


def is_literal(value: object) -> bool:
    """A Python number literal (not bool, not a typed numpy constant)."""
    return type(value) in (int, float, complex)


def negate(value: Expression) -> Expression:
    """``-value`` as the parser builds it: folded for literals, else ``(-1)*value``."""
    if is_literal(value):
        return -value
    return p.Product((-1, value))


class KernelExpressionParser(Parser):
    """pymbolic's parser with the kernel language's extensions (see the module docstring).

    `inames`: the kernel's inames, used to tell ``max(i, e)`` (a reduction over ``i``) from
    ``max(a, b)`` and to reject unknown reduction inames; None when unknown.
    `bare_reductions`: accept a bare iname as first argument of ``max``/``min``.
    """

    def __init__(self, inames: Iterable[str] | None = None, *,
                 bare_reductions: bool = True) -> None:
        self.inames = None if inames is None else frozenset(inames)
        self.bare_reductions = bare_reductions

    def __call__(self, expr_str: str, min_precedence: int = 0):
        pstate = pytools.lex.LexIterator(_lex(expr_str), expr_str)
        result = self.parse_expression(pstate, min_precedence)
        if not pstate.is_at_end():
            pstate.raise_parse_error("leftover input after completed parse")
        return result

    # -- terminals ------------------------------------------------------------------------

    def parse_float(self, s: str):
        m = _FLOAT_RE.fullmatch(s)
        if m is None or m.group(2) not in ("", "f", "F"):
            raise KernelLanguageError(f"malformed number literal {s!r}")
        value = float(m.group(1).replace("d", "e").replace("D", "e"))
        return np.float32(value) if m.group(2) else value

    def parse_terminal(self, pstate):
        if pstate.next_tag() == "identifier":
            name = pstate.next_str_and_advance()
            if "@" in name:
                raise KernelLanguageError(f"unexpected '@' in name {name!r}")
            if "$" in name:
                base, _, tag = name.partition("$")
                if not base or not tag or "$" in tag:
                    raise KernelLanguageError(f"malformed tagged variable {name!r}")
                return TaggedVariable(base, tag)
            return p.Variable(name)
        return super().parse_terminal(pstate)

    def parse_prefix(self, pstate):
        pstate.expect_not_end()
        if pstate.next_tag() == "if" and not pstate.is_at_end(1) \
                and pstate.next_tag(1) == "openpar":
            pstate.advance()
            pstate.advance()
            args, kwargs = self.parse_arglist(pstate)
            if kwargs or len(args) != 3:
                raise KernelLanguageError("if() takes exactly three arguments: "
                                          "if(condition, then, else)")
            return p.If(*args)
        if pstate.is_next("minus"):
            pstate.advance()
            return negate(self.parse_expression(pstate, PREC_UNARY))
        if pstate.is_next("plus"):
            pstate.advance()
            return self.parse_expression(pstate, PREC_UNARY)
        return super().parse_prefix(pstate)

    # -- operators ------------------------------------------------------------------------

    def parse_expression(self, pstate, min_precedence: int = 0):
        left = self.parse_prefix(pstate)
        built = None   # the chain node this loop built last: only it may be extended
        while not pstate.is_at_end():
            tag = pstate.next_tag()
            chain = _CHAINS.get(tag)
            if chain is not None and min_precedence < chain[0]:
                left = self._extend_chain(pstate, left, left is built, tag, chain)
                built = left
                continue
            if tag == "comma" and min_precedence < 5 and not pstate.is_at_end(1) \
                    and pstate.next_tag(1) == "closebracket":
                # 'a[i,]': a one-element index tuple (pymbolic only allows this before ')')
                pstate.advance()
                if not (isinstance(left, tuple) and not isinstance(left, FinalizedTuple)):
                    left = (left,)
                continue
            if tag == "openbracket" and not pstate.is_at_end(1) \
                    and pstate.next_tag(1) == "openbracket" and min_precedence < 250:
                left = self._linear_subscript(pstate, left)
                built = None
                continue
            left, did_something = self.parse_postfix(pstate, min_precedence, left)
            if not did_something:
                break
            built = None
        if isinstance(left, FinalizedTuple):
            return tuple(left)
        return left

    def _extend_chain(self, pstate, left, extend: bool, tag: str, chain: tuple[int, type]):
        prec, cls = chain
        pstate.advance()
        right = self.parse_expression(pstate, prec)
        if tag == "minus":
            right = negate(right)
        if extend and type(left) is cls:
            return cls((*left.children, right))
        return cls((left, right))

    def _linear_subscript(self, pstate, left):
        pstate.advance()
        pstate.advance()
        index = self.parse_expression(pstate)
        for _ in range(2):
            pstate.expect("closebracket")
            pstate.advance()
        return LinearSubscript(left, index)

    def parse_postfix(self, pstate, min_precedence, left_exp):
        result, did_something = super().parse_postfix(pstate, min_precedence, left_exp)
        if did_something and type(result) is p.Call and isinstance(result.function, p.Variable):
            result = self._special_call(result)
        return result, did_something

    # -- calls with a meaning of their own --------------------------------------------------

    def _special_call(self, call: p.Call) -> Expression:
        name, args = call.function.name, call.parameters
        if type(call.function) is not p.Variable:
            return call
        if name in BUILTIN_REDUCTIONS and self._is_reduction(name, args):
            if len(args) != 2:
                raise KernelLanguageError(f"reduction {name}() takes two arguments: "
                                          f"{name}(inames, expression)")
            return Reduction(name, self._iname_spec(args[0], name), args[1])
        if name in ("reduce", "simul_reduce"):
            return self._reduce(name, args)
        if name == "cast":
            return self._cast(args)
        if name in SCALAR_TYPE_NAMES or name in ("float", "complex"):
            return self._typed_constant(name, args, call)
        if any(isinstance(a, list) for a in args):
            raise KernelLanguageError(f"{name}(): a list ('[...]') is only allowed as the "
                                      "inames of a reduction")
        return call

    def _is_reduction(self, name: str, args: tuple) -> bool:
        if name in ("sum", "product"):
            return True
        if not args:
            return False
        first = args[0]
        if isinstance(first, (tuple, FinalizedList)):
            return True
        return (self.bare_reductions and self.inames is not None
                and isinstance(first, p.Variable) and first.name in self.inames)

    def _iname_spec(self, spec, where: str) -> tuple[str, ...]:
        items = tuple(spec) if isinstance(spec, (tuple, list)) else (spec,)
        names = []
        for item in items:
            if type(item) is not p.Variable:
                raise KernelLanguageError(f"{where}(): expected an iname or a list of inames "
                                          f"as first argument, got {item!r}")
            if self.inames is not None and item.name not in self.inames:
                raise DomainError(f"{where}(): unknown reduction iname {item.name!r}")
            names.append(item.name)
        return tuple(names)

    def _reduce(self, name: str, args: tuple) -> Reduction:
        if len(args) != 3 or type(args[0]) is not p.Variable:
            raise KernelLanguageError(f"{name}() takes three arguments: "
                                      f"{name}(operation, inames, expression)")
        op = args[0].name
        if op not in REDUCTION_NAMES:
            known = ", ".join(sorted(REDUCTION_NAMES))
            raise KernelLanguageError(f"unknown reduction operation {op!r} (known: {known})")
        return Reduction(op, self._iname_spec(args[1], name), args[2],
                         name == "simul_reduce")

    def _cast(self, args: tuple) -> TypeCast:
        if len(args) != 2 or type(args[0]) is not p.Variable:
            raise KernelLanguageError("cast() takes two arguments: cast(type, expression)")
        return TypeCast(parse_dtype(args[0].name), args[1])

    def _typed_constant(self, name: str, args: tuple, call: p.Call) -> Expression:
        values = [_literal_value(a) for a in args]
        if any(v is None for v in values) or not 1 <= len(values) <= 2:
            return call   # not a constant: an ordinary function call
        if len(values) == 2:
            if name not in ("complex", "complex64", "complex128"):
                raise KernelLanguageError(f"{name}() takes one literal argument")
            values = [complex(values[0], values[1])]
        value = values[0]
        if name == "float":
            return float(value)
        if name == "complex":
            return complex(value)
        return np.dtype(name).type(value)


def _literal_value(arg: Expression):
    if is_literal(arg) or type(arg) is bool:
        return arg
    if type(arg) is p.Variable and arg.name in _SPECIAL_VALUES:
        return _SPECIAL_VALUES[arg.name]
    if type(arg) is p.Product and len(arg.children) == 2 and arg.children[0] == -1 \
            and type(arg.children[1]) is p.Variable and arg.children[1].name == "inf":
        return float("-inf")
    return None


def parse_dtype(name: str) -> np.dtype:
    """A numpy dtype from its name (``float32``, ``int64``, ...); KernelLanguageError if unknown."""
    try:
        return np.dtype(name.strip())
    except TypeError:
        raise KernelLanguageError(f"unknown type {name.strip()!r} (expected a numpy type "
                                  "name such as float32, float64, int32)") from None


def parse_expression(text: str, inames: Iterable[str] | None = None, *,
                     bare_reductions: bool = True) -> Expression:
    """Parse one kernel-language expression (see the module docstring).

    Raises `KernelLanguageError` naming the text for anything malformed.
    """
    key = (text, None if inames is None else frozenset(inames), bare_reductions)
    found = _PARSED.get(key)
    if found is None:
        found = _parse_expression(text, inames, bare_reductions)
        if len(_PARSED) >= _PARSED_SIZE:
            _PARSED.clear()
        _PARSED[key] = found
    return found


#: Parsed expressions by (text, inames, bare_reductions): expressions are immutable, and a
#: kernel built again (or argument shapes such as ``"n,n"``) parses the same texts.  Errors
#: are not remembered; registering a reduction only turns errors into results.
_PARSED: dict[tuple, Expression] = {}
_PARSED_SIZE = 4096


def _parse_expression(text: str, inames: Iterable[str] | None,
                      bare_reductions: bool) -> Expression:
    parser = KernelExpressionParser(inames, bare_reductions=bare_reductions)
    result = parse_common(text, parser._special_call)
    if result is not None:   # the common subset, read without pymbolic's parser
        return _check_no_lists(result, text)
    try:
        result = parser(text)
    except KernelLanguageError as e:
        raise type(e)(f"in expression {text.strip()!r}: {e.message}") from None
    except (pytools.lex.ParseError, pytools.lex.InvalidTokenError) as e:
        raise KernelLanguageError(
            f"malformed expression {text.strip()!r}: {_lex_message(e)}") from None
    except (AssertionError, TypeError, ValueError, IndexError):
        raise KernelLanguageError(f"malformed expression {text.strip()!r}") from None
    return _check_no_lists(result, text)


def _lex_message(e: Exception) -> str:
    msg = str(e).strip().splitlines()
    return msg[0] if msg else "syntax error"


def _check_no_lists(expr: Expression, text: str) -> Expression:
    if isinstance(expr, list):
        raise KernelLanguageError(f"malformed expression {text.strip()!r}: a list "
                                  "('[...]') is only allowed as the inames of a reduction")
    return expr
