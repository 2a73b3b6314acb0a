"""Work per statement that grew with the square of a region's statements, or asked isl once
per statement where a look at the expression answers (issue 24, the `statements` shape:
hundreds of statements ``y[k*n + i] = ...`` on one pointer, each depending on every earlier
one)."""

from __future__ import annotations

import random

import numpy as np
import pymbolic.primitives as p

from tests.build.shapes import shape
from translator.driver import translate_text
from translator.ir import statements
from translator.ir.isl_glue import core


def test_written_temporaries_found_once_per_statement(monkeypatch) -> None:
    """The scheduler's check that values stay in their iteration read what each statement
    writes once, not once per dependence (40 statements: 780 dependences)."""
    from translator import schedule
    calls = [0]
    real = statements.Assignment.assignee_names

    def counting(self, *args, **kwargs):
        calls[0] += 1
        return real(self, *args, **kwargs)
    name, text = shape("statements", "c", 40)
    check = schedule._check_values_stay_in_iteration

    def counted_check(*args, **kwargs):
        monkeypatch.setattr(statements.Assignment, "assignee_names", counting)
        try:
            return check(*args, **kwargs)
        finally:
            monkeypatch.setattr(statements.Assignment, "assignee_names", real)
    monkeypatch.setattr(schedule, "_check_values_stay_in_iteration", counted_check)
    translate_text(name, text)
    assert 0 < calls[0] <= 2 * 40


def test_plain_subscripts_are_affine_without_isl(monkeypatch) -> None:
    calls = [0]
    real = core.aff_from_expr

    def counting(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)
    monkeypatch.setattr(core, "aff_from_expr", counting)
    n, i = p.Variable("n"), p.Variable("i")
    for k in range(1000, 1040):     # expressions no earlier test has remembered
        assert core.is_affine(k * n + i, ("n", "i"))
        assert core.is_affine(p.Product((k, p.Sum((n, -1)))) + 2 * i - 3, ("n", "i"))
    assert calls[0] == 0
    assert not core.is_affine(p.Product((n, i)), ("n", "i"))
    assert not core.is_affine(n + 1.5, ("n",))
    assert not core.is_affine(p.Sum((n, True)), ("n",))


def _random_expression(rng: random.Random, depth: int) -> object:
    leaves = [rng.randint(-3, 3), p.Variable(rng.choice("ijn")), True, 1.5, np.int64(2)]
    if depth == 0 or rng.random() < 0.3:
        return rng.choice(leaves)
    kind = rng.choice([p.Sum, p.Product, p.Product, "floor"])
    if kind == "floor":
        return p.FloorDiv(_random_expression(rng, depth - 1), 2)
    return kind(tuple(_random_expression(rng, depth - 1) for _ in range(rng.randint(2, 3))))


def test_the_shortcut_never_calls_affine_what_isl_refuses() -> None:
    """Whatever the look at the expression calls affine, isl converts (random expressions,
    products of two variables, floats, booleans and floor divisions among them)."""
    rng = random.Random(24)
    plain = 0
    for _ in range(3000):
        expr = _random_expression(rng, 3)
        if core._plainly_affine(expr):
            plain += 1
            assert core._is_affine(expr), expr
    assert plain > 300
