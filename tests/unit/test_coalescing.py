"""Coalescing from real strides: automatic mapping puts the stride-one loop on l.0, and a user
mapping whose l.0 loop is not stride one gets -Wuncoalesced (issue 13)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from pymbolic import parse

from tests.e2e.harness import check_sample
from translator.analysis.coalescing import polynomial, stride_of
from translator.cli import main
from translator.driver import translate_text

C_LINEARISED = """
void st(int n, const double *restrict a, double *restrict b)
{
#pragma translate kernel stencil
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      b[i*n + j] = 0.2 * (a[i*n + j] + a[(i-1)*n + j] + a[(i+1)*n + j]
                          + a[i*n + j - 1] + a[i*n + j + 1]);
#pragma translate end kernel
}
"""

# the loops in the other order: the stride-one loop is the outer one
C_LINEARISED_SWAPPED = C_LINEARISED.replace(
    "  for (int i = 1; i < n - 1; i++)\n    for (int j = 1; j < n - 1; j++)",
    "  for (int j = 1; j < n - 1; j++)\n    for (int i = 1; i < n - 1; i++)")

C_2D = """
#define N 64
void st(double a[N][N], double b[N][N])
{
#pragma translate kernel stencil
  for (int j = 1; j < N - 1; j++)
    for (int i = 1; i < N - 1; i++)
      b[i][j] = 0.2 * (a[i][j] + a[i-1][j] + a[i+1][j] + a[i][j-1] + a[i][j+1]);
#pragma translate end kernel
}
"""

F_2D = """
subroutine st(n, a, b)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n, n)
  real(8), intent(inout) :: b(n, n)
  integer :: i, j
  !$translate kernel stencil
  do i = 2, n - 1
     do j = 2, n - 1
        b(i, j) = 0.2d0 * (a(i, j) + a(i-1, j) + a(i+1, j) + a(i, j-1) + a(i, j+1))
     end do
  end do
  !$translate end kernel
end subroutine st
"""

F_LINEARISED = """
subroutine st(n, ld, a, b)
  implicit none
  integer, intent(in) :: n, ld
  real(8), intent(in) :: a(ld*n)
  real(8), intent(inout) :: b(ld*n)
  integer :: i, j
  !$translate kernel stencil
  !$translate assume("n <= ld")
  do i = 1, n
     do j = 2, n
        b(i + (j-1)*ld) = a(i + (j-1)*ld) + a(i + (j-2)*ld)
     end do
  end do
  !$translate end kernel
end subroutine st
"""


def auto_mapping(name: str, text: str) -> tuple[str, ...]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = translate_text(name, text)
    (mapping,) = result.mappings
    return mapping.auto_mapping


@pytest.mark.parametrize("name, text, stride_one, other", [
    ("lin.c", C_LINEARISED, "j", "i"),
    ("lin_swapped.c", C_LINEARISED_SWAPPED, "j", "i"),
    ("two_d.c", C_2D, "j", "i"),
    ("two_d.f90", F_2D, "i", "j"),
    ("lin.f90", F_LINEARISED, "i", "j"),
])
def test_automap_puts_the_stride_one_loop_on_local_axis_0(name: str, text: str,
                                                          stride_one: str, other: str) -> None:
    chosen = auto_mapping(name, text)
    assert any(f'split_iname("{stride_one}", 32, outer_tag="g.0", inner_tag="l.0")' in line
               for line in chosen), chosen
    assert any(f'split_iname("{other}", 8, outer_tag="g.1", inner_tag="l.1")' in line
               for line in chosen), chosen


def test_linearised_stencil_mapped_automatically_matches_original(tmp_path: Path) -> None:
    src = tmp_path / "lin.c"
    src.write_text("#include <stdio.h>\n" + C_LINEARISED + """
int main(void)
{
  int n = 45;
  static double a[45 * 45], b[45 * 45];
  for (int k = 0; k < n * n; k++) { a[k] = k % 13; b[k] = -1.0; }
  st(n, a, b);
  double s = 0.0;
  for (int k = 0; k < n * n; k++) s += b[k] * (k % 7);
  printf("%.17g %.17g %.17g\\n", s, b[n + 1], b[n * n - n - 2]);
  return 0;
}
""")
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work)


def test_strides_of_linearised_and_multi_dimensional_subscripts() -> None:
    offset = polynomial(parse("(i - 1)*n + j + 1"))
    assert stride_of(offset, "j") == {(): 1}
    assert stride_of(offset, "i") == {("n",): 1}
    assert stride_of(offset, "k") == {}
    assert stride_of(polynomial(parse("i*i + j")), "i") is None
    assert polynomial(parse("a[i] + j")) is None


# ---------------------------------------------------------------------------------------------
# -Wuncoalesced

USER_MAPPED = """
void st(int n, const double *restrict a, double *restrict b)
{
#pragma translate kernel stencil
#pragma translate split_iname("i", 16, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("j", 16, outer_tag="g.1", inner_tag="l.1")
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      b[i*n + j] = a[i*n + j] + a[(i-1)*n + j];
#pragma translate end kernel
}
"""


def _translate(capsys, tmp_path: Path, text: str, *flags: str) -> tuple[int, str, Path]:
    src = tmp_path / "user.c"
    src.write_text(text)
    code = main([str(src), "-o", str(tmp_path / "out"), *flags])
    return code, capsys.readouterr().err, src


def test_uncoalesced_user_mapping_warns_with_the_stride_one_loop(tmp_path: Path, capsys) -> None:
    code, err, src = _translate(capsys, tmp_path, USER_MAPPED)
    assert code == 0
    assert (f"{src}:9:7: warning: local axis 0 (l.0) runs the loop over i_inner, whose "
            "neighbouring values access elements far apart in 24 of the 24 bytes") in err
    assert "the loop over j_inner has stride one in 24 of them: map j_inner to l.0 instead " \
           "[-Wuncoalesced]" in err
    assert err.count("[-Wuncoalesced]") == 1


def test_uncoalesced_warning_can_be_silenced_or_promoted(tmp_path: Path, capsys) -> None:
    code, err, _ = _translate(capsys, tmp_path, USER_MAPPED, "-Wno-uncoalesced")
    assert code == 0 and "uncoalesced" not in err
    code, err, src = _translate(capsys, tmp_path, USER_MAPPED, "-Werror=uncoalesced")
    assert code == 1 and f"{src}:9:7: error: local axis 0 (l.0) runs the loop over i_inner" in err


def test_coalesced_user_mappings_do_not_warn(tmp_path: Path, capsys) -> None:
    good = USER_MAPPED.replace('"i", 16, outer_tag="g.0", inner_tag="l.0"',
                               '"i", 16, outer_tag="g.1", inner_tag="l.1"').replace(
        '"j", 16, outer_tag="g.1", inner_tag="l.1"', '"j", 16, outer_tag="g.0", inner_tag="l.0"')
    code, err, _ = _translate(capsys, tmp_path, good)
    assert code == 0 and "uncoalesced" not in err
    # a reduction over the stride-one loop, mapped to l.0: the accumulator is the same element
    # for every work item, so it scatters nothing
    rows = """
void rows(int m, int n, const double a[m][n], double *restrict r)
{
#pragma translate kernel rows_k
#pragma translate tag_inames("i:g.0")
#pragma translate split_iname("j", 32, inner_tag="l.0")
  for (int i = 0; i < m; i++) {
    r[i] = 0.0;
    for (int j = 0; j < n; j++)
      r[i] += a[i][j];
  }
#pragma translate end kernel
}
"""
    code, err, _ = _translate(capsys, tmp_path, rows)
    assert code == 0 and "uncoalesced" not in err, err



RUNS = """
void scale(int n, const float *restrict a, float *restrict b)
{
#pragma translate kernel scale_k
#pragma translate split_iname("i", 32, outer_tag="g.0", inner_tag="l.0")
#pragma translate tag_inames("c:unr")
  for (int i = 0; i < n; i++)
    for (int c = 0; c < RUN; c++)
      b[4*i + c] = 2.0f * a[4*i + c];
#pragma translate end kernel
}
"""


def test_runs_of_neighbouring_elements_per_work_item_coalesce(tmp_path: Path, capsys) -> None:
    """Each work item accesses 4 neighbouring elements (an unrolled stride-one loop) and its
    l.0 neighbour the next 4: together they cover the range without gaps (the register-
    blocked SGEMM's column runs), which is not an uncoalesced mapping."""
    code, err, _ = _translate(capsys, tmp_path, RUNS.replace("RUN", "4"))
    assert code == 0 and "uncoalesced" not in err, err


def test_runs_shorter_than_the_work_item_stride_still_warn(tmp_path: Path, capsys) -> None:
    """l.0 neighbours 4 elements apart, each work item accessing 2 of them: gaps remain."""
    code, err, src = _translate(capsys, tmp_path, RUNS.replace("RUN", "2"))
    assert code == 0, err
    assert (f"{src}:9:7: warning: local axis 0 (l.0) runs the loop over i_inner" in err
            and "map c to l.0 instead [-Wuncoalesced]" in err), err
