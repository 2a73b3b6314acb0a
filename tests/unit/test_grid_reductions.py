"""Reductions over two group axes (issue 29 items 1 and 2): several values share one
work-group tree pass and one last-group finish; only the outer group axis is bounded; the
automatic mapping puts both loops of a 2-D reduction nest on the hardware where the result
does not depend on the order (or the user consented)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import transforms
import translator
from translator.codegen.bounded_groups import MAX_OUTER_REDUCTION_GROUPS
from translator.driver import translate_text
from translator.ir.parse import GlobalArg

RNG = np.random.default_rng(29)


def _three_values():
    """Two sums (float, integer) and a maximum over a 2-D nest, j on l.0/g.0, k on g.1."""
    knl = translator.make_kernel(
        "{[j, k]: 0 <= j < nx and 0 <= k < ny}",
        """
        s[0] = s[0] + sum([j, k], a[k, j])
        c[0] = c[0] + sum([j, k], b[k, j])
        m[0] = max(m[0], max([j, k], a[k, j]))
        """,
        [GlobalArg("a", np.float64, shape="ny, nx"), GlobalArg("b", np.int32, shape="ny, nx"),
         GlobalArg("s", np.float64, shape=(1,)), GlobalArg("c", np.int32, shape=(1,)),
         GlobalArg("m", np.float64, shape=(1,)), "..."])
    knl = transforms.split_iname(knl, "j", 64, outer_tag="g.0", inner_tag="l.0")
    return transforms.tag_inames(knl, "k:g.1")


def test_values_share_one_tree_pass_and_one_finish():
    text = translator.generate_code(_three_values()).device_code
    kernel = text[text.index("__kernel"):]
    # the store and six halvings of a 64-wide tree: one barrier per level for all three
    assert kernel.count("barrier(CLK_LOCAL_MEM_FENCE)") == 7, kernel
    assert kernel.count("_tr_finish_sum_float64_sum_int32_max_float64(&s[0], ") == 1, kernel
    helper = text[text.index("static inline void _tr_finish_sum_float64_sum_int32_max"):]
    helper = helper[:helper.index("\n}\n")]
    assert helper.count("barrier(") == 2 and helper.count("atomic_inc(") == 1, helper


def test_only_the_outer_group_axis_is_bounded():
    code = translator.generate_code(_three_values())
    text = code.device_code
    assert "k_grid" in text and "j_outer_grid" not in text, text
    assert f"k_grid + {MAX_OUTER_REDUCTION_GROUPS} * (" in text, text


@pytest.mark.parametrize("nx, ny", [(1, 1), (70, 133), (200, 3)])
def test_values_match(ctx, queue, nx: int, ny: int):
    a = RNG.uniform(-1, 1, (ny, nx))
    b = RNG.integers(-50, 50, (ny, nx)).astype(np.int32)
    run = translator.compile(_three_values(), ctx)
    for _ in range(2):      # the second launch reuses the partial buffers and their counter
        out = run(queue, a=a, b=b, s=np.array([0.5]), c=np.array([3], np.int32),
                  m=np.array([-2.0]), nx=nx, ny=ny)
        np.testing.assert_allclose(out["s"], [0.5 + a.sum()], rtol=1e-12, atol=1e-12)
        assert out["c"].tolist() == [3 + int(b.sum())]
        assert out["m"].tolist() == [max(-2.0, a.max())]


C_NEST = """
void f(int nx, int ny, const double a[ny][nx], double *r)
{
  double s = %s;
#pragma translate kernel f_k
%s
  for (int k = 0; k < ny; k++)
    for (int j = 0; j < nx; j++)
      s = %s;
#pragma translate end kernel
  *r = s;
}
"""

F_NEST = """
subroutine f(nx, ny, a, r)
  integer :: nx, ny, j, k
  real(8) :: a(nx, ny), r, s
  s = 0
  !$translate kernel f_k
  %s
  do k = 1, ny
    do j = 1, nx
      s = %s
    end do
  end do
  !$translate end kernel
  r = s
end subroutine
"""


def _mapping(path: str, text: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return translate_text(path, text).mappings[0]


@pytest.mark.parametrize("init, update, options", [
    ("1e300", "fmin(s, a[k][j])", ""),
    ("0.0", "a[k][j] > s ? a[k][j] : s", ""),   # a selection that never takes a NaN
    ("0.0", "s + a[k][j]", "#pragma translate set_options(reassociate=True)"),
])
def test_automap_puts_both_loops_of_a_c_reduction_on_the_hardware(init, update, options):
    done = _mapping("f.c", C_NEST % (init, options, update))
    assert done.auto_mapping == ('split_iname("j", 256, outer_tag="g.0", inner_tag="l.0")',
                                 'tag_inames("k:g.1")')
    assert done.auto_kind == "2-D group reduction (1 value, one pass)"


@pytest.mark.parametrize("update", ["min(s, a(j, k))", "max(s, abs(a(j, k)))"])
def test_automap_of_a_fortran_minimum_needs_no_consent(update):
    done = _mapping("f.f90", F_NEST % ("", update))
    assert done.auto_mapping == ('split_iname("j", 256, outer_tag="g.0", inner_tag="l.0")',
                                 'tag_inames("k:g.1")')


def test_a_floating_point_sum_without_consent_stays_exact():
    done = _mapping("f.f90", F_NEST % ("", "s + a(j, k)"))
    assert not done.auto_mapping
    assert "runs in parallel over" in done.sequential_reason
