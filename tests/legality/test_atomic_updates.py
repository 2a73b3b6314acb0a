"""Conflicting atomic updates (h80): iterations mapped in parallel may update one element of
an array when every access to it in the kernel is an atomic update with one operator
(`translator.analysis.atomics`); a plain access, or a second operator, is checked as usual."""

from __future__ import annotations

import numpy as np
import pytest

import translator as tr
from transforms import split_iname
from translator.analysis.legality import check_kernel
from translator.diagnostics import LegalityError

ARGS = [tr.GlobalArg("h", np.float64, shape=("nb",)), tr.GlobalArg("key", np.int32, shape=("n",)),
        tr.GlobalArg("x", np.float64, shape=("n",)), tr.GlobalArg("y", np.float64, shape=("n",)),
        tr.ValueArg("n", np.int32), tr.ValueArg("nb", np.int32)]


def _mapped(body: str):
    knl = tr.make_kernel("{[i]: 0<=i<n}", body, ARGS)
    return split_iname(knl, "i", 64, outer_tag="g.0", inner_tag="l.0")


def test_atomic_updates_may_conflict() -> None:
    check_kernel(_mapped("""
        h[key[i]] = h[key[i]] + x[i]        {atomic}
        h[key[i] + 1] = h[key[i] + 1] - 1   {atomic}
        """))


ATOMIC = "h[key[i]] = h[key[i]] + x[i]   {atomic}"


def test_without_atomic_the_scatter_races() -> None:
    check_kernel(_mapped(ATOMIC))
    with pytest.raises(LegalityError, match="may race"):
        check_kernel(_mapped("h[key[i]] = h[key[i]] + x[i]"))


def test_a_plain_read_of_the_array_races() -> None:
    check_kernel(_mapped(ATOMIC + "\ny[i] = x[i]"))
    with pytest.raises(LegalityError, match="may race"):
        check_kernel(_mapped("""
            h[key[i]] = h[key[i]] + x[i]   {atomic}
            y[i] = h[key[i]]
            """))


def test_two_operators_race() -> None:
    check_kernel(_mapped(ATOMIC + "\nh[key[i]] = h[key[i]] + y[i]   {atomic}"))
    with pytest.raises(LegalityError, match="may race"):
        check_kernel(_mapped("""
            h[key[i]] = h[key[i]] + x[i]   {atomic}
            h[key[i]] = h[key[i]] * x[i]   {atomic}
            """))


def test_an_atomic_mark_on_another_form_is_refused() -> None:
    with pytest.raises(LegalityError, match="marked atomic, but an atomic update must have"):
        check_kernel(_mapped("h[key[i]] = x[i]   {atomic}"))
