"""The common subset's fast parser (`translator.ir.parse_fast`) against pymbolic's parser
extended (`KernelExpressionParser`): the same tree, node for node and type for type, on
hand-written and random texts; None (so the full parser runs) outside the subset."""

from __future__ import annotations

import random

import pytest

from translator.diagnostics import DomainError, KernelLanguageError
from translator.ir.expr import typed_key
from translator.ir.parse_expr import _PARSED, KernelExpressionParser, parse_expression
from translator.ir.parse_fast import parse_common

INAMES = ("i", "j", "k")

#: Texts of the common subset: the fast parser must answer, with the full parser's tree.
COMMON = [
    "a", "n", "0", "17", "1.5", "2.", "0.25", "out[i,j]", "n,n", "n, m, 4",
    "u[i-1,j] + u[i+1,j] + u[i,j-1] + u[i,j+1] - 4*u[i,j]",
    "sum(k, a[i,k]*b[k,j])", "a*x[i] + y[i]", "0.5*t3[i] + 3", "-x", "- 4", "-4*x", "-x*y",
    "+x", "--x", "- -3", "a - b - c", "a - (b - c)", "(a + b) + c", "a + (b + c)",
    "a*b/c", "a/b*c", "a/b/c", "a/(b/c)", "(a*b)*c", "a*(b*c)", "-(a + b)", "a*-b",
    "a + -b", "a - -b", "a - 1", "a + -1", "a[i][j]", "a[i + 1, 2*j - k]", "f()", "f(x)",
    "f(x, y + 1)", "sin(a[i])*cos(b)", "product(k, a[k])", "max(i, a[i])", "max(a, b)",
    "min(k, a[k] + 1)", "max(x, y, z)", "float32(0.5)", "int64(3)", "float(1)",
    "cast(float32, a[i])", "complex64(1.0, 2.0)", "float32(-1.5)", "float(inf)",
    "float(-inf)", "a[f(i)]", "2*(i + j)/3", "((a))", "a[(i + 1)]", "x\t+\ny",
    "abs(a[i] - b[i])", "sum(k, sum(j, a[k, j]))", "a[i]*(b[i] + c[i])*d",
    "1.0 - 2.0", "100000000000000000000000 + i", "x1 + _y + y_2",
]

#: Texts outside the subset: None from the fast parser (the full one reads or refuses them).
OUTSIDE = [
    "a ** 2", "a // b", "a % b", "1.5f", "1e3", "2.5e-3", "1d0", "3j", "a$t[i]", "a[[8*i]]",
    "(i, j)", "sum((i, j), a[i, j])", "sum([i, j], a[i, j])", "f(x,)", "a[i,]", "f(x=1)",
    "a < b", "a and b", "not a", "if(a, b, c)", "a if b else c", "True", "Trueish + 1",
    "a.b", "a[1:2]", "x @ y", "2x", "a & b", "~a", "a == b", "[i]", "a[]", "",
    "a +", "f(,x)", ")", "(a + b", "a b", "sum(q, a[q])",
]


def _full(text: str, inames=INAMES):
    return KernelExpressionParser(inames)(text)


def _fast(text: str, inames=INAMES):
    return parse_common(text, KernelExpressionParser(inames)._special_call)


@pytest.mark.parametrize("text", COMMON)
def test_common_texts_read_as_the_full_parser_reads_them(text):
    fast = _fast(text)
    assert fast is not None, text
    full = _full(text)
    assert typed_key(fast) == typed_key(full), text
    assert fast == full


@pytest.mark.parametrize("text", OUTSIDE)
def test_texts_outside_the_subset_are_left_to_the_full_parser(text):
    assert _fast(text) is None


def test_without_inames_max_is_the_function():
    assert typed_key(_fast("max(i, a[i])", None)) == typed_key(_full("max(i, a[i])", None))


def _random_expression(rng: random.Random, depth: int) -> str:
    """A random text of the subset (with random spacing and parentheses)."""
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(["i", "j", "k", "n", "a", "x1", "_t",
                           str(rng.randrange(0, 40)), f"{rng.randrange(0, 9)}.{rng.randrange(10)}"])
    sp = rng.choice(["", " ", "  ", "\t"])
    kind = rng.randrange(8)
    sub = lambda: _random_expression(rng, depth - 1)
    if kind <= 2:
        op = rng.choice(["+", "-", "*", "/"])
        return f"{sub()}{sp}{op}{sp}{sub()}"
    if kind == 3:
        return f"{rng.choice(['-', '+'])}{sp}{sub()}"
    if kind == 4:
        return f"({sp}{sub()}{sp})"
    if kind == 5:
        idx = f",{sp}".join(sub() for _ in range(rng.randrange(1, 4)))
        return f"{rng.choice(['a', 'u', 'b'])}[{idx}]"
    if kind == 6:
        args = f",{sp}".join(sub() for _ in range(rng.randrange(0, 3)))
        return f"{rng.choice(['f', 'sin', 'g2'])}({args})"
    return f"{rng.choice(['sum', 'product', 'max', 'min'])}({rng.choice(INAMES)},{sp}{sub()})"


def test_random_texts_read_as_the_full_parser_reads_them():
    rng = random.Random(66)
    for _ in range(3000):
        text = _random_expression(rng, rng.randrange(1, 6))
        fast = _fast(text)
        assert fast is not None, text
        assert typed_key(fast) == typed_key(_full(text)), text


def test_parse_expression_results_and_errors_unchanged():
    _PARSED.clear()
    assert typed_key(parse_expression("u[i-1,j] - 4*u[i,j]", INAMES)) == \
        typed_key(_full("u[i-1,j] - 4*u[i,j]"))
    with pytest.raises(DomainError, match="unknown reduction iname 'q'"):
        parse_expression("sum(q, a[q])", INAMES)
    with pytest.raises(KernelLanguageError, match=r"malformed expression 'a \+'"):
        parse_expression("a + ", INAMES)
    with pytest.raises(KernelLanguageError, match=r"cast\(\) takes two arguments"):
        parse_expression("cast(a[i])", INAMES)
