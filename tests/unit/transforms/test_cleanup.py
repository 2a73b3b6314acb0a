"""The clean-up transforms and queries loopy users call (transforms/cleanup.py): what each
changes, what each refuses, and that the transformed kernels compute what the originals do
(run on the CPU OpenCL device against the untransformed kernel; from pragmas in a Fortran and
a C program against the original program)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import transforms as tr
from translator import GlobalArg, TemporaryVariable, ValueArg, make_kernel, print_kernel
from translator.diagnostics import TransformError


def instructions(knl) -> list[str]:
    text = print_kernel(knl).split("instructions:\n", 1)[1]
    return [line.split("  {")[0].strip() for line in text.splitlines() if line.strip()]


def indexed():
    return make_kernel("{[i]: 0<=i<n}", "out[2*3*i + 1 - 1] = a[(i + 2) - 2] + a[i + 1 + i - 1]",
                       [GlobalArg("out", np.float64, shape="6*n"),
                        GlobalArg("a", np.float64, shape="2*n"), ValueArg("n", np.int32)])


def test_fold_constants_folds_integer_sums_and_products_only():
    assert instructions(tr.fold_constants(indexed())) == ["out[6*i] = a[i] + a[i + i]"]
    knl = make_kernel("{[i]: 0<=i<n}", "out[i] = 0.5*2.0*a[i]")
    assert instructions(tr.fold_constants(knl)) == ["out[i] = 0.5*2.0*a[i]"]


def test_simplify_indices_collects_terms_of_affine_subscripts():
    assert instructions(tr.simplify_indices(indexed())) == ["out[6*i] = a[i] + a[2*i]"]
    same = tr.simplify_indices(make_kernel("{[i]: 0<=i<n}", "out[i] = a[i]"))
    assert instructions(same) == ["out[i] = a[i]"]


def test_remove_unused_arguments_keeps_what_shapes_and_domains_name():
    knl = make_kernel("{[i]: 0<=i<n}", "out[i] = a[i]",
                      [GlobalArg("a", np.float64, shape="m"),
                       GlobalArg("out", np.float64, shape="n"),
                       GlobalArg("unused", np.float64, shape="n"),
                       ValueArg("n", np.int32), ValueArg("m", np.int32),
                       ValueArg("k", np.int32)])
    assert [a.name for a in tr.remove_unused_arguments(knl).args] == ["a", "out", "n", "m"]
    done = tr.remove_unused_arguments(knl)
    assert tr.remove_unused_arguments(done) is done


def test_remove_inames_from_insn_refuses_a_used_iname():
    knl = make_kernel("{[i,j]: 0<=i<n and 0<=j<2}", "out[i] = a[i]  {id=s, inames=i:j}")
    assert tr.remove_inames_from_insn(knl, "j").statement("s").within_inames == {"i"}
    with pytest.raises(TransformError, match="statement 's' uses iname 'i'"):
        tr.remove_inames_from_insn(knl, "i")


def temporaries():
    return make_kernel("{[i]: 0<=i<2}",
                       """t1[i] = i  {id=w1}
                          t2[i] = 2*i  {id=w2}
                          t2[2] = 7  {id=w3, inames=}
                          out[i] = t1[i] + t2[i] + t2[2]  {dep=w1:w2:w3}""",
                       [GlobalArg("out", np.float64, shape=(2,)),
                        TemporaryVariable("t1", np.float64, shape=(2,)),
                        TemporaryVariable("t2", np.float64, shape=(3,))])


def test_concatenate_arrays_shifts_each_part():
    knl = tr.concatenate_arrays(temporaries(), "t1, t2", "t")
    assert set(knl.temporaries) == {"t"} and knl.temporaries["t"].shape == (5,)
    assert instructions(knl)[-1] == "out[i] = t[i] + t[i + 2] + t[4]"


def test_concatenate_arrays_refusals():
    knl = temporaries()
    with pytest.raises(TransformError, match="'out' is not a temporary"):
        tr.concatenate_arrays(knl, "t1, out")
    other = replace(knl, temporaries={**knl.temporaries,
                                      "t2": replace(knl.temporaries["t2"], dtype=np.dtype(
                                          np.float32))})
    with pytest.raises(TransformError, match="differ in type"):
        tr.concatenate_arrays(other, "t1, t2")
    with pytest.raises(TransformError, match="axis_nr must be an axis"):
        tr.concatenate_arrays(knl, "t1, t2", axis_nr=1)


def test_find_and_map_instructions():
    knl = temporaries()
    assert [s.id for s in tr.find_instructions(knl, "id:w*")] == ["w1", "w2", "w3"]
    assert tr.find_instructions(knl, "id:none") == []
    tagged = tr.map_instructions(knl, "id:w1", lambda s: replace(s, tags=s.tags | {"hot"}))
    assert tagged.statement("w1").tags == {"hot"} and tagged.statement("w2").tags == set()
    with pytest.raises(TransformError, match="must return a statement with id 'w1'"):
        tr.map_instructions(knl, "id:w1", lambda s: replace(s, id="other"))


# ---------------------------------------------------------------------------------------------
# on the device

cl = pytest.importorskip("pyopencl")


@pytest.fixture(scope="module")
def ctx():
    try:
        return cl.create_some_context(interactive=False)
    except cl.Error as e:  # pragma: no cover - depends on the machine
        pytest.skip(f"no OpenCL device: {e}")


def test_transformed_kernels_compute_the_same(ctx):
    from translator.testing import auto_test_vs_ref
    ref = indexed()
    for test in (tr.fold_constants(ref), tr.simplify_indices(ref)):
        auto_test_vs_ref(ref, ctx, test, parameters={"n": 37})
    ref = temporaries()
    auto_test_vs_ref(ref, ctx, tr.concatenate_arrays(ref, "t1, t2", "t"), parameters={})


FORTRAN = """\
program p
  implicit none
  integer, parameter :: n = 50
  real(8) :: a(2*n), b(2*n)
  integer :: i
  do i = 1, 2*n
     a(i) = 0.5d0*i
  end do
  call step(n, a, b)
  print '(4es24.16)', b
contains
  subroutine step(n, a, b)
    integer, intent(in) :: n
    real(8), intent(in) :: a(2*n)
    real(8), intent(out) :: b(2*n)
    integer :: i
    !$translate kernel
    !$translate fold_constants()
    !$translate simplify_indices()
    do i = 1, n
       b(2*3*i - 5*i) = a(i + 1 + i - 1) + 1
       b(n + i) = a(i)
    end do
    !$translate end kernel
  end subroutine
end program
"""

C = """\
#include <stdio.h>
static void step(int n, const double *restrict a, double *restrict b) {
  #pragma translate kernel
  #pragma translate fold_constants()
  #pragma translate simplify_indices()
  for (int i = 0; i < n; i++)
    b[2*3*i - 5*i] = a[i + 1 + i - 1] + 1;
  #pragma translate end kernel
}
int main(void) {
  double a[100], b[50];
  for (int i = 0; i < 100; i++) a[i] = 0.5 * i;
  step(50, a, b);
  for (int i = 0; i < 50; i++) printf("%.17g\\n", b[i]);
  return 0;
}
"""


@pytest.mark.parametrize("name, text", [("cleanup.f90", FORTRAN), ("cleanup.c", C)])
def test_cleanup_pragmas_in_programs(tmp_path: Path, name: str, text: str):
    from tests.e2e.harness import check_sample
    src = tmp_path / name
    src.write_text(text)
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work)
