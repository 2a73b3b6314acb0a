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


def _flat_prints(monkeypatch) -> list[int]:
    """Identities of the flat indices the printers print (each occurrence)."""
    from translator.codegen.cexpr import CExpressionPrinter
    from translator.codegen import emit
    from translator.codegen.emit import TreeEmitter
    flats: set[int] = set()
    printed: list[int] = []
    real_flat, real_rec = TreeEmitter.flat_index, CExpressionPrinter.rec

    def flat_index(self, name, indices):
        flat = real_flat(self, name, indices)
        flats.add(id(flat))
        return flat

    def rec(self, expr, prec=0):
        if id(expr) in flats:
            printed.append(id(expr))
        return real_rec(self, expr, prec)
    real_integer = emit.integer_text

    def integer_text(printer, expr, prec):   # integer indices print without `rec` (h79)
        text = real_integer(printer, expr, prec)
        if text is not None and id(expr) in flats:
            printed.append(id(expr))
        return text
    monkeypatch.setattr(TreeEmitter, "flat_index", flat_index)
    monkeypatch.setattr(CExpressionPrinter, "rec", rec)
    monkeypatch.setattr(emit, "integer_text", integer_text)
    return printed


def test_flat_index_printed_once_per_subscript_not_per_statement(monkeypatch):
    """`deep` printed each statement's 3-D flat subscripts afresh: 2,400 prints of 8 distinct
    indices at 400 statements.  Now once per distinct index text of the process (h48: the
    four arrays' indices have one structure, and a text printed by an earlier kernel of the
    process is not printed again)."""
    from translator.codegen import emit
    emit.PLAIN_TEXTS.clear()
    printed = _flat_prints(monkeypatch)
    code = translator.generate_code(_deep_kernel(12)).device_code
    assert code.count("u1[") == 2 * 9    # u1 = u1 + s * u0 (3), u2 = u2 + s * u1 (3)
    assert len(printed) == 1, len(printed)   # u0..u3 [i, j, k]: one structure, one print
    printed.clear()
    again = translator.generate_code(_deep_kernel(12)).device_code
    assert again == code and printed == []


def _unrolled_kernel():
    """Flat indices over an unrolled iname (printed per copy: its value changes) beside
    plain ones, a 64-bit index (cast) and an integer array."""
    insns = ["a[i, r] = a[i, r] + 2.0 * b[i] {id=s0}",
             "c[i] = c[i] + b[i] * b[i] {id=s1, dep=s0}",
             "m[i] = m[i] + 3 {id=s2}"]
    args = [translator.GlobalArg("a", np.float32, shape="n, 4"),
            translator.GlobalArg("b", np.float64, shape="n"),
            translator.GlobalArg("c", np.float64, shape="n"),
            translator.GlobalArg("m", np.int32, shape="n")]
    knl = translator.make_kernel("{[i, r]: 0<=i<n and 0<=r<4}", insns, [*args, "..."],
                                 name="unr")
    knl = transforms.tag_inames(knl, "r:unr")
    return transforms.split_iname(knl, "i", 64, outer_tag="g.0", inner_tag="l.0")


@pytest.mark.parametrize("make", [lambda: _deep_kernel(12), _unrolled_kernel])
def test_remembered_index_texts_equal_printed_ones(monkeypatch, make):
    from translator.codegen.cexpr import CExpressionPrinter
    from translator.codegen.emit import DevicePrinter
    remembered = translator.generate_code(make())
    monkeypatch.setattr(DevicePrinter, "index_text", CExpressionPrinter.index_text)
    printed = translator.generate_code(make())
    assert remembered.device_code == printed.device_code
    assert "#pragma OPENCL EXTENSION cl_khr_fp64" in printed.device_code


def test_statement_contexts_once_per_loop_body(monkeypatch):
    """Each statement restricted the context of its loop body to its domain afresh (an isl
    intersection per statement); the statements of one body share it now."""
    counts = []
    for count in (3, 12):
        calls = _counted(monkeypatch, "restrict_context")
        translator.generate_code(_deep_kernel(count))
        counts.append(calls[0])
        monkeypatch.undo()
    assert counts[0] == counts[1]


def test_no_barrier_walk_without_local_memory(monkeypatch):
    """Barriers order accesses to local temporaries only: a kernel without any (`deep`: 400
    statements) is not walked for them; one with a prefetch tile still gets its barriers."""
    from translator.codegen import barriers
    calls = [0]
    real = barriers.statement_accesses

    def counting(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)
    monkeypatch.setattr(barriers, "statement_accesses", counting)
    translator.generate_code(_deep_kernel(12))
    assert calls[0] == 0
    knl = translator.make_kernel("{[i, k]: 0<=i<n and 0<=k<16}", "out[i] = sum(k, a[k]*b[i])",
                                 [translator.GlobalArg(v, np.float32, shape=s)
                                  for v, s in (("a", "16"), ("b", "n"), ("out", "n"))])
    knl = transforms.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.0")
    knl = transforms.add_prefetch(knl, "a", ["k"], default_tag="l.auto")
    code = translator.generate_code(knl).device_code
    assert "barrier(CLK_LOCAL_MEM_FENCE)" in code and calls[0] > 0
