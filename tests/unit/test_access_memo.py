"""The access analysis asks for the kernel's parameter names once per kernel, not once per
statement: `_integer_names` (the names a guard of a read may use) walked every domain for
every statement, so a loop of 400 statements was quadratic (issue 24, session 13: 9,585 M ->
11,430 M instructions for bench_scale's `loops` 400)."""

from __future__ import annotations

import numpy as np
import pytest

import translator
from translator.analysis import access


def _guarded_kernel(count: int):
    """`count` statements, each reading its left neighbour under a guard."""
    insns = [f"t{s}[i] = if(i > 0, a[i - 1], {s}.0) + a[i]" for s in range(count)]
    args = [translator.GlobalArg("a", np.float64, shape="n")]
    args += [translator.GlobalArg(f"t{s}", np.float64, shape="n") for s in range(count)]
    return translator.make_kernel("{[i]: 0<=i<n}", insns, [*args, "..."], name="guarded")


@pytest.mark.parametrize("count", [3, 24])
def test_parameter_names_once_per_kernel(monkeypatch, count):
    calls = [0]
    real = access._param_names

    def counting(kernel):
        calls[0] += 1
        return real(kernel)
    monkeypatch.setattr(access, "_param_names", counting)
    knl = _guarded_kernel(count)
    found = [a for s in knl.statements for a in access.statement_accesses(knl, s)]
    guarded = [a for a in found if a.variable == "a" and a.conditions]
    assert len(guarded) == count        # each statement's guarded read kept its guard
    assert calls[0] <= 1
