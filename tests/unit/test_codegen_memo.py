"""Code generation asks each isl question once per distinct argument: the statements of one
loop body share their context and domain, so a body of many statements costs one question,
not one per statement (issue 24: `deep` 400 asked `guard_free_set` 400 times)."""

from __future__ import annotations

import numpy as np
import pytest

import transforms
import translator
from translator.ir import isl_glue as glue


def _deep_kernel(count: int):
    """`count` statements on four 3-D arrays in one sequential k loop of a 16x16 tile."""
    insns = [f"u{s % 4}[i, j, k] = u{s % 4}[i, j, k] + {s}.0 * u{(s + 1) % 4}[i, j, k]"
             for s in range(count)]
    args = [translator.GlobalArg(f"u{a}", np.float64, shape="n,n,n") for a in range(4)]
    knl = translator.make_kernel("{[i,j,k]: 0<=i,j,k<n}", insns, [*args, "..."], name="deep")
    knl = transforms.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.0")
    return transforms.split_iname(knl, "j", 16, outer_tag="g.1", inner_tag="l.1")


def _counted(monkeypatch, name: str) -> list[int]:
    calls = [0]
    real = getattr(glue, name)

    def counting(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)
    monkeypatch.setattr(glue, name, counting)
    return calls


@pytest.mark.parametrize("count", [3, 12])
def test_guard_free_set_once_per_loop_body(monkeypatch, count):
    calls = _counted(monkeypatch, "guard_free_set")
    code = translator.generate_code(_deep_kernel(count)).device_code
    assert "full tile" in code
    assert calls[0] == 1


def test_loop_bounds_once_per_loop_and_context(monkeypatch):
    calls = _counted(monkeypatch, "loop_bound_constraints")
    code = translator.generate_code(_deep_kernel(3)).device_code
    # the k loop in three contexts: probed, then printed in the full tile, and in the general
    # copy under the hoisted test of the tile's bounds; each probe asked them again before
    assert code.count("for (int k = 0; k <= n - 1; ++k)") == 2
    assert calls[0] == 3


def _many_arrays(count: int):
    """`count` statements, each writing its own array (bench/bench_loopy.py's kernel)."""
    insns = ["t0[i] = a[i] {id=s0}"]
    insns += [f"t{k}[i] = 0.5*t{k - 1}[i] + {k} {{id=s{k}, dep=s{k - 1}}}"
              for k in range(1, count)]
    args = [translator.GlobalArg("a", np.float32, shape="n")]
    args += [translator.GlobalArg(f"t{k}", np.float32, shape="n") for k in range(count)]
    knl = translator.make_kernel("{[i]: 0<=i<n}", insns, [*args, "..."], name="many")
    return transforms.split_iname(knl, "i", 128, outer_tag="g.0", inner_tag="l.0")


@pytest.mark.parametrize("prop", ["arg_names", "array_args"])
def test_argument_lists_built_once_per_kernel_not_per_statement(monkeypatch, prop):
    """Code generation built the list of every argument once per statement (`finish_run`)
    and per parameter (`_may_alias`): quadratic in a kernel of hundreds of arrays."""
    from translator.ir.kernel import Kernel
    knl = _many_arrays(40)
    calls = [0]
    real = getattr(Kernel, prop)

    def counting(self):
        calls[0] += 1
        return real.fget(self)
    monkeypatch.setattr(Kernel, prop, property(counting))
    code = translator.generate_code(knl).device_code
    assert "t39[" in code
    assert calls[0] < 10


def test_arg_finds_each_argument_by_name():
    knl = _many_arrays(5)
    assert [knl.arg(a.name) for a in knl.args] == list(knl.args)
    assert knl.arg("nothing") is None
    assert knl.copy(args=knl.args[:2]).arg("t1") is None
