"""Flat arrays with composite row strides (``a[(n+4)*k + j]``, ``a[k*ld + j]``, Fortran
``a(j + ld*(k-1))`` on 1-D dummies) are read back as rows when the inner index provably stays
inside its row: the nests map in parallel (the report shows it), the register-blocked SGEMM
recipe prefetches tiles of linear arrays, and each translated program prints what the
original prints on the CPU OpenCL device.  An inner index that reaches into the next row is
never taken for 2-D: the loop over rows stays sequential, and a pragma mapping it is
refused as a race."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.e2e.harness import (REPO, TRANSLATE, SampleOptions, build_original,
                               build_translated, check_sample, compare_outputs, run)

#: A padded copy and a 3-point stencil along padded rows of n + 4 (2 halo cells each side).
PADDED = (REPO / "samples" / "c" / "padded_rows.c").read_text()

#: j runs to n + 4 inclusive: the last element of row k is the first of row k + 1, which
#: iteration k + 1 writes too (with another value: the original leaves k + 1's).
OVERLAPPING = """\
#include <stdio.h>
#include <stdlib.h>

static void shift(int n, int m, const float *restrict a, float *restrict b)
{
#pragma translate kernel overlap
  for (int k = 0; k < m; k++)
    for (int j = 0; j <= n + 4; j++)
      b[(n + 4) * k + j] = a[(n + 4) * k + j] + (float)k;
#pragma translate end kernel
}

int main(void)
{
  int n = 9, m = 6, size = (9 + 4) * 6 + 1;
  float *a = malloc(sizeof(float) * size), *b = calloc(size, sizeof(float));
  for (int i = 0; i < size; i++)
    a[i] = (float)(i % 5);
  shift(n, m, a, b);
  for (int i = 0; i < size; i++)
    printf("%g ", b[i]);
  printf("\\n");
  return 0;
}
"""

#: The register-blocked SGEMM recipe of docs/pragmas.md on linear arrays.
SGEMM = """\
#include <stdio.h>
#include <stdlib.h>

static void sgemm(int n, const float *restrict a, const float *restrict b, float *restrict c)
{
#pragma translate kernel sgemm
#pragma translate set_options("fp_contract")
#pragma translate split_iname("i", 128, outer_tag="g.1")
#pragma translate split_iname("i_inner", 16, outer_tag="unr", inner_tag="l.1")
#pragma translate split_iname("j", 128, outer_tag="g.0")
#pragma translate split_iname("j_inner", 64, outer_tag="unr")
#pragma translate split_iname("j_inner_inner", 4, outer_tag="l.0", inner_tag="unr")
#pragma translate split_iname("k", 32)
#pragma translate split_iname("k_inner", 4, inner_tag="unr")
#pragma translate privatize_temporaries_with_inames("i_inner_outer,j_inner_outer,j_inner_inner_inner", "acc")
#pragma translate add_prefetch("a", ["i_inner_outer", "i_inner_inner", "k_inner_outer", "k_inner_inner"], default_tag="l.auto")
#pragma translate add_prefetch("b", ["k_inner_outer", "k_inner_inner", "j_inner_outer", "j_inner_inner_outer", "j_inner_inner_inner"], default_tag="l.auto")
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float acc = 0.0f;
      for (int k = 0; k < n; k++)
        acc += a[i * n + k] * b[k * n + j];
      c[i * n + j] = acc;
    }
#pragma translate end kernel
}

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 128;
  float *a = malloc((long)n * n * sizeof *a), *b = malloc((long)n * n * sizeof *b);
  float *c = malloc((long)n * n * sizeof *c);
  for (long i = 0; i < (long)n * n; i++) {
    a[i] = (float)(i % 7) - 3.0f;
    b[i] = (float)(i % 5) * 0.5f;
  }
  sgemm(n, a, b, c);
  double sum = 0.0;
  for (long i = 0; i < (long)n * n; i++)
    sum += c[i] * (i % 3 + 1);
  printf("checksum %.17g c[1] %.9g c[last] %.9g\\n", sum, c[1], c[(long)n * n - 1]);
  return 0;
}
"""

#: Fortran 1-D dummies addressed as rows of ld: whole rows (provable as written), the first n
#: of each row (provable under the region's assumption n <= ld), padded rows of n + 4.
FORTRAN = (REPO / "samples" / "fortran" / "flat_rows.f90").read_text()


def _translate(src: Path, out: Path, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([*TRANSLATE, str(src), "-o", str(out), *flags], cwd=REPO, check=False,
                          capture_output=True, text=True, timeout=300)


def _write(tmp_path: Path, name: str, text: str) -> Path:
    src = tmp_path / name
    src.write_text(text)
    return src


def test_composite_row_stride_maps_in_parallel_and_matches(tmp_path: Path) -> None:
    src = _write(tmp_path, "padded.c", PADDED)
    report = tmp_path / "report.txt"
    check_sample(src, tmp_path, ("-Werror=sequential-region", f"--report={report}"))
    text = report.read_text()
    assert "sequential" not in text, text
    assert "k_outer  g.1  legal" in text and "j_inner  l.0  legal" in text, text


def test_row_overlapping_the_next_is_not_taken_for_2d(tmp_path: Path) -> None:
    src = _write(tmp_path, "overlap.c", OVERLAPPING)
    report = tmp_path / "report.txt"
    check_sample(src, tmp_path, (f"--report={report}",))
    parallel = report.read_text().split("parallel inames:")[1].split("asserted")[0]
    assert not any(line.split()[0].startswith("k") for line in parallel.splitlines()
                   if line.strip()), parallel
    mapped = _write(tmp_path, "mapped.c", OVERLAPPING.replace(
        "#pragma translate kernel overlap",
        '#pragma translate kernel overlap\n#pragma translate tag_inames("k:g.0")'))
    proc = _translate(mapped, tmp_path / "out2")
    assert proc.returncode == 1, proc.stderr
    assert f"{mapped}:10:7: error: mapping k to g.0 may race" in proc.stderr, proc.stderr
    assert ("  b is addressed by rows of n + 4 elements, but 0 <= j < n + 4 is not proved (a "
            "row may reach into another)\n") in proc.stderr, proc.stderr


def test_sgemm_recipe_on_linear_arrays_prefetches_tiles_and_matches(tmp_path: Path) -> None:
    src = _write(tmp_path, "sgemm_linear.c", SGEMM)
    opts = SampleOptions(rtol=1e-6)
    original = build_original(src, tmp_path, opts)
    translated = build_translated(src, tmp_path, opts)
    code = (tmp_path / "out" / "sgemm_linear.cl").read_text()
    assert "__local float a_fetch[4096]" in code and "__local float b_fetch[4096]" in code
    for n in ("128", "256"):
        expected = run([str(original), n], tmp_path)
        actual = run([str(translated), n], tmp_path, env={"TRANSLATE_DEVICE": "cpu"})
        compare_outputs(expected, actual, opts.rtol)


def test_fortran_rows_of_a_one_dimensional_dummy_map_in_parallel(tmp_path: Path) -> None:
    src = _write(tmp_path, "rows.f90", FORTRAN)
    report = tmp_path / "report.txt"
    check_sample(src, tmp_path, ("-Werror=sequential-region", f"--report={report}"))
    text = report.read_text()
    assert "sequential" not in text, text
    assert text.count("k_outer  g.1  legal") == 3, text


#: A subscript that is neither affine nor rows of a parameter length (``i*j``).
PRODUCT = """\
subroutine prod(n, a)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(*)
  integer :: i, j
  !$translate kernel
  do i = 1, n
     do j = 1, n
        a(i*j) = 1d0
     end do
  end do
  !$translate end kernel
end subroutine prod
"""


def test_assumed_size_extent_of_a_product_of_loop_variables_is_an_error(tmp_path: Path
                                                                        ) -> None:
    src = _write(tmp_path, "prod.f90", PRODUCT)
    proc = _translate(src, tmp_path / "out")
    assert proc.returncode == 1, proc.stderr
    assert (f"{src}:8:9: error: cannot determine the extent of assumed-size array 'a' from "
            "its subscripts (non-affine product in i*j); declare its last dimension "
            "explicitly") in proc.stderr, \
        proc.stderr


def test_rows_of_ld_without_the_assumption_say_which_one_proves_them(tmp_path: Path) -> None:
    text = FORTRAN.replace('  !$translate assume("n <= ld")\n',
                           '  !$translate tag_inames("k:g.0")\n')
    src = _write(tmp_path, "rows.f90", text)
    proc = _translate(src, tmp_path / "out")
    assert proc.returncode == 1, proc.stderr
    line = text.splitlines().index("        b(j + ld*(k-1)) = 2d0*a(j + ld*(k-1)) "
                                   "+ a(1 + (j-1) + ld*(k-1))") + 1
    assert f"{src}:{line}:9: error: mapping k to g.0 may race (a subscript is not affine" \
        in proc.stderr, proc.stderr
    assert ("  b is addressed by rows of ld elements, but 0 <= j - 1 < ld is not proved (a row "
            "may reach into another); if n <= ld holds, say so with assume(\"n <= ld\") in the "
            "region\n") in proc.stderr, proc.stderr
