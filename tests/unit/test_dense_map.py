"""Dense tiling (automatic), issue 23 item 2: the automatic mapper recognises gemm-like nests
(an array read along a loop that does not index it) in every layout and gives them the
register-blocked, local-memory recipe of docs/pragmas.md; gemv-like nests stage the matrix
and the vector in local memory, the matrix loaded along its contiguous axis; shapes that do
not fit keep the simple mapping.  The e2e tests (tests/e2e/test_dense_automap.py) run them on
PoCL."""

from __future__ import annotations

import functools
import re
import warnings

import pytest

from translator.dense_map import REASON
from translator.driver import translate_text
from translator.ir.data import FixedStrideTag
from translator.ir.expr import dependencies
from translator.ir.tags import LocalTag

C_GEMM = """
void gemm(int n, int m, int p, double alpha, double beta, const double a[n][p],
          const double b[p][m], double c[n][m])
{
#pragma translate kernel gemm
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      double acc = beta * c[i][j];
      for (int k = 0; k < p; k++)
        acc += alpha * a[i][k] * b[k][j];
      c[i][j] = acc;
    }
#pragma translate end kernel
}
"""

# c = a^T b^T: both operands transposed
C_TRANSPOSED = """
void gemm_tt(int n, int m, int p, const float at[p][n], const float bt[m][p], float c[n][m])
{
#pragma translate kernel gemm_tt
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      float acc = 0.0f;
      for (int k = 0; k < p; k++)
        acc += at[k][i] * bt[j][k];
      c[i][j] = acc;
    }
#pragma translate end kernel
}
"""

C_LINEARISED = """
void gemm_lin(int n, const double *restrict a, const double *restrict b, double *restrict c)
{
#pragma translate kernel gemm_lin
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double acc = 0.0;
      for (int k = 0; k < n; k++)
        acc += a[i*n + k] * b[k*n + j];
      c[i*n + j] = acc;
    }
#pragma translate end kernel
}
"""

F_GEMM = """
subroutine gemm(n, m, p, a, b, c)
  implicit none
  integer, intent(in) :: n, m, p
  real(8), intent(in) :: a(n, p), b(p, m)
  real(8), intent(inout) :: c(n, m)
  real(8) :: acc
  integer :: i, j, k
  !$translate kernel gemm
  do j = 1, m
     do i = 1, n
        acc = 0d0
        do k = 1, p
           acc = acc + a(i, k) * b(k, j)
        end do
        c(i, j) = acc
     end do
  end do
  !$translate end kernel
end subroutine gemm
"""

# accumulating straight into the output (no scalar to keep in registers)
F_GEMM_IN_PLACE = """
subroutine gemm(n, a, b, c)
  implicit none
  integer, intent(in) :: n
  real(4), intent(in) :: a(n, n), b(n, n)
  real(4), intent(inout) :: c(n, n)
  integer :: i, j, k
  !$translate kernel gemm
  do j = 1, n
     do i = 1, n
        do k = 1, n
           c(i, j) = c(i, j) + a(i, k) * b(k, j)
        end do
     end do
  end do
  !$translate end kernel
end subroutine gemm
"""

C_SMALL = """
#define N 40
void gemm(double a[N][N], double b[N][N], double c[N][N])
{
#pragma translate kernel gemm
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double acc = 0.0;
      for (int k = 0; k < N; k++)
        acc += a[i][k] * b[k][j];
      c[i][j] = acc;
    }
#pragma translate end kernel
}
"""

C_GEMV = """
void gemv(int n, int m, const double a[n][m], const double x[m], double y[n])
{
#pragma translate kernel gemv
  for (int i = 0; i < n; i++) {
    double acc = 0.0;
    for (int j = 0; j < m; j++)
      acc += a[i][j] * x[j];
    y[i] = acc;
  }
#pragma translate end kernel
}
"""

C_GEMV_T = """
void gemvt(int n, int m, const double a[m][n], const double x[m], double y[n])
{
#pragma translate kernel gemvt
  for (int i = 0; i < n; i++) {
    double acc = 0.0;
    for (int j = 0; j < m; j++)
      acc += a[j][i] * x[j];
    y[i] = acc;
  }
#pragma translate end kernel
}
"""

F_GEMV = """
subroutine gemv(n, a, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n, n), x(n)
  real(8), intent(inout) :: y(n)
  integer :: i, j
  !$translate kernel gemv
  do i = 1, n
     do j = 1, n
        y(i) = y(i) + a(i, j) * x(j)
     end do
  end do
  !$translate end kernel
end subroutine gemv
"""


def test_matrix_vector_loops_from_one_keep_the_simple_mapping() -> None:
    """Fortran's ``do i = 1, n``: a 1-D group with the vector prefetched computes garbage on
    PoCL (also from hand-written pragmas), so `dense_map._from_zero` keeps the simple one."""
    done = region_mapping("gemv.f90", F_GEMV)
    assert done.auto_kind == ""
    assert done.auto_mapping == ('split_iname("i", 256, outer_tag="g.0", inner_tag="l.0")',)


@functools.lru_cache(maxsize=None)
def _translated(name: str, text: str):
    """`translate_text` of one program, once per test process: several tests read the same
    translation (syr2k's four, gemm's and gemm_tt's two each) and none changes it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return translate_text(name, text)


def region_mapping(name: str, text: str):
    """The one region's result (its automatic mapping and what chose it)."""
    result = _translated(name, text)
    (done,) = result.mappings
    return done


@pytest.mark.parametrize("name, text, rows, cols, k, fetched, tile", [
    ("gemm.c", C_GEMM, "i", "j", "k", ("a", "b"), (128, 64, 16)),
    # bt[j][k]'s tile is stored transposed and padded: k steps of 16 (32 would need 33280
    # bytes of local memory with the padding)
    ("gemm_tt.c", C_TRANSPOSED, "i", "j", "k", ("at", "bt"), (128, 128, 16)),
    # linearised operands: delinearised rows, fetched as 2-D tiles (transforms/prefetch.py)
    ("gemm_lin.c", C_LINEARISED, "i", "j", "k", ("a", "b"), (128, 64, 16)),
    ("gemm.f90", F_GEMM, "j", "i", "k", ("a", "b"), (128, 64, 16)),
    ("gemm_in_place.f90", F_GEMM_IN_PLACE, "j", "i", "k", ("a", "b"), (128, 128, 32)),
])
def test_gemm_like_nests_get_the_tiled_local_memory_mapping(
        name: str, text: str, rows: str, cols: str, k: str, fetched: tuple[str, ...],
        tile: tuple[int, int, int]) -> None:
    done = region_mapping(name, text)
    chosen = done.auto_mapping
    group_rows, group_cols, k_step = tile
    assert done.auto_kind == REASON == "dense tiling (automatic)"
    assert f'split_iname("{rows}", {group_rows}, outer_tag="g.1")' in chosen, chosen
    assert f'split_iname("{rows}_inner", 16, outer_tag="unr", inner_tag="l.1")' in chosen
    assert f'split_iname("{cols}", {group_cols}, outer_tag="g.0")' in chosen
    assert f'split_iname("{k}", {k_step})' in chosen
    prefetched = {line.split('"')[1] for line in chosen if line.startswith("add_prefetch")}
    assert prefetched == set(fetched)
    kernel = done.kernel
    local = {n for n, t in kernel.temporaries.items() if "local" in str(t.address_space).lower()}
    assert local == {f"{name}_fetch" for name in fetched}
    privatized = [line for line in chosen if line.startswith("privatize_temporaries")]
    if "acc" in text:
        assert privatized and kernel.temporaries["acc"].shape, chosen
    else:
        assert not privatized
    assert "set_options" not in " ".join(chosen)   # no fp_contract: exact by default


C_NT_LINEARISED = """
void gemm_nt(int n, const double *restrict a, const double *restrict b, double *restrict c)
{
#pragma translate kernel gemm_nt
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double acc = 0.0;
      for (int k = 0; k < n; k++)
        acc += a[i*n + k] * b[j*n + k];
      c[i*n + j] = acc;
    }
#pragma translate end kernel
}
"""

# c = a^T b, column-major: a(k, i) is the column operand (i runs along c's columns) and is
# contiguous along k
F_GEMM_TN = """
subroutine gemm_tn(n, a, b, c)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n, n), b(n, n)
  real(8), intent(inout) :: c(n, n)
  integer :: i, j, k
  !$translate kernel gemm_tn
  do j = 1, n
     do i = 1, n
        do k = 1, n
           c(i, j) = c(i, j) + a(k, i) * b(k, j)
        end do
     end do
  end do
  !$translate end kernel
end subroutine gemm_tn
"""


@pytest.mark.parametrize("name, text, transposed, others, axes, strides", [
    ("gemm_tt.c", C_TRANSPOSED, "bt", ("at",), [1, 0], (1, 132)),
    ("gemm_nt.c", C_NT_LINEARISED, "b", ("a",), [1, 0], (1, 66)),
    ("gemm_tn.f90", F_GEMM_TN, "a", ("b",), [0, 1], (66, 1)),
    ("syr2k.c", None, "a$col", ("a$row", "b$row"), [1, 0], (1, 66)),
])
def test_column_tiles_contiguous_along_k_are_stored_transposed_and_padded(
        name: str, text: str | None, transposed: str, others: tuple[str, ...],
        axes: list[int], strides: tuple[int, int]) -> None:
    """The column operand's tile is read by neighbouring work items along the column loop;
    where the array is contiguous along k (``bt[j][k]``, syrk's ``a[j][k]``, a flat
    ``b[j*n + k]``, Fortran's ``a(k, i)``) the tile as laid out in the array would put those
    reads one tile row apart, all in one local-memory bank.  It is stored with the column
    axis innermost and 16 bytes of padding per row; the copy stays coalesced (the fetch axis
    of k on l.0), the other tiles keep the array's layout."""
    done = region_mapping(name, text or C_SYR2K)
    chosen = done.auto_mapping
    assert done.auto_kind == REASON
    fetches = {line.split('"')[1]: line for line in chosen if line.startswith("add_prefetch")}
    pad = 4 if name == "gemm_tt.c" else 2
    assert fetches[transposed].endswith(
        f', storage_axes={axes}, storage_padding={pad})'), fetches[transposed]
    for other in others:
        assert "storage_axes" not in fetches[other], fetches[other]
    kernel = done.kernel
    local = {n: t for n, t in kernel.temporaries.items()
             if "local" in str(t.address_space).lower()}
    strided = {n: tuple(tag.stride for tag in t.dim_tags) for n, t in local.items()
               if isinstance(t.dim_tags[0], FixedStrideTag)}
    assert list(strided.values()) == [strides] * (2 if name == "syr2k.c" else 1), strided
    for temp in strided:   # the copy: the fetch iname of k (fastest in the array) on l.0
        (fetch,) = [st for st in kernel.statements if st.assignee_names() == (temp,)]
        k_index = fetch.assignee.index_tuple[axes[0]]
        (k_iname,) = [n for n in dependencies(k_index) if kernel.tag_of(n, LocalTag)]
        assert kernel.tag_of(k_iname, LocalTag).axis == 0


C_SYR2K = """
void syr2k(int n, int m, const double a[n][m], const double b[n][m], double c[n][n])
{
#pragma translate kernel syr2k
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      double acc = c[i][j];
      for (int k = 0; k < m; k++)
        acc += a[j][k] * b[i][k] + b[j][k] * a[i][k];
      c[i][j] = acc;
    }
#pragma translate end kernel
}
"""


def test_operands_read_along_both_loops_get_a_tile_each() -> None:
    """syr2k reads a and b along i and along j: their reads are told apart (tag_reads) and
    each of the four gets its local-memory tile, within the same 32 KiB (k in steps of 8)."""
    done = region_mapping("syr2k.c", C_SYR2K)
    chosen = done.auto_mapping
    assert done.auto_kind == REASON
    assert chosen[:4] == tuple(f'tag_reads("{a}", "{t}", "{n}")' for a in "ab"
                               for t, n in (("row", "i"), ("col", "j")))
    assert 'split_iname("k", 8)' in chosen
    prefetched = [line.split('"')[1] for line in chosen if line.startswith("add_prefetch")]
    assert prefetched == ["a$row", "b$row", "a$col", "b$col"]
    local = {n for n, t in done.kernel.temporaries.items()
             if "local" in str(t.address_space).lower()}
    assert len(local) == 4


F_SYRK_UPPER = """
subroutine syrk_up(n, m, a, c)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: a(n, m)
  real(8), intent(inout) :: c(n, n)
  integer :: i, j, k
  !$translate kernel syrk_up
  do j = 1, n
     do i = 1, j
        do k = 1, m
           c(i, j) = c(i, j) + a(i, k) * a(j, k)
        end do
     end do
  end do
  !$translate end kernel
end subroutine syrk_up
"""


def _summed_loop(name: str, text: str) -> str:
    """The header of the device kernel's loop over the steps of k (the one holding the
    barriers)."""
    result = _translated(name, text)
    cl = result.outputs[name.rsplit(".", 1)[0] + ".cl"]
    (header,) = [line.strip() for line in cl.splitlines() if "for (int k_outer" in line]
    return header


@pytest.mark.parametrize("name, text, test", [
    # rows i in groups of 128 (g.1), columns j <= i in groups of 64 (g.0)
    ("syr2k.c", C_SYR2K, "j_outer <= 2 * i_outer + 1"),
    # column-major upper triangle: rows j (g.1), columns i <= j (g.0)
    ("syrk_up.f90", F_SYRK_UPPER, "i_outer <= 2 * j_outer + 1"),
])
def test_groups_without_outputs_skip_the_summed_loop(name: str, text: str, test: str) -> None:
    """A triangle's rectangular grid: the groups above the diagonal own no output; the loop
    over k (its tile copies and barriers) runs only where the group has some, a test on the
    group ids alone (the same for every work item: the barriers stay uniform)."""
    header = _summed_loop(name, text)
    assert header.endswith(f" && {test}; ++k_outer)"), header


def test_groups_of_a_rectangle_run_the_summed_loop_untested() -> None:
    """Every group of a gemm's grid owns outputs: nothing to test."""
    assert _summed_loop("gemm.c", C_GEMM) == "for (int k_outer = 0; 16 * k_outer <= p - 1; " \
        "++k_outer)"


def _device_code(name: str, text: str) -> str:
    result = _translated(name, text)
    return result.outputs[name.rsplit(".", 1)[0] + ".cl"]


F_SYRK_ACC = """
subroutine syrk_acc(n, m, a, c)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: a(n, m)
  real(8), intent(inout) :: c(n, n)
  real(8) :: acc
  integer :: i, j, k
  !$translate kernel syrk_acc
  do j = 1, n
     do i = 1, j
        acc = c(i, j)
        do k = 1, m
           acc = acc + a(i, k) * a(j, k)
        end do
        c(i, j) = acc
     end do
  end do
  !$translate end kernel
end subroutine syrk_acc
"""


def _triangle_guards(text: str) -> int:
    """Guards relating a row and a column of the work items (the triangle)."""
    return sum(1 for line in text.splitlines() if line.strip().startswith("if (")
               and re.search(r"\bi_inner", line) and re.search(r"\bj_inner", line))


@pytest.mark.parametrize("name, text", [("syr2k.c", C_SYR2K), ("syrk_acc.f90", F_SYRK_ACC)])
def test_diagonal_groups_update_the_whole_block(name: str, text: str) -> None:
    """The groups on the diagonal sum their whole register block (the accumulators outside
    the triangle are never stored): no multiply-add of the summed loop tests the triangle;
    the accumulators' initialisation and the stores of c still do."""
    cl = _device_code(name, text)
    start = cl.index("for (int k_outer")
    end = start + re.search(r"^\s*c\[.*\] = acc\[", cl[start:], re.MULTILINE).start()  # the stores
    assert _triangle_guards(cl[start:end]) == 0, cl[start:end][:3000]
    assert _triangle_guards(cl[:start]) > 0 and _triangle_guards(cl[end:]) > 0


def test_updates_of_the_output_itself_keep_their_guards() -> None:
    """``c(i, j) = c(i, j) + ...`` writes global memory: no speculative update, the triangle is
    tested in the summed loop."""
    cl = _device_code("syrk_up.f90", F_SYRK_UPPER)
    start = cl.index("for (int k_outer")
    assert _triangle_guards(cl[start:]) > 0


def test_sizes_smaller_than_one_tile_keep_the_simple_mapping() -> None:
    done = region_mapping("small.c", C_SMALL)
    assert done.auto_kind == ""
    assert done.auto_mapping == ('split_iname("j", 32, outer_tag="g.0", inner_tag="l.0")',
                                 'split_iname("i", 8, outer_tag="g.1", inner_tag="l.1")')


C_GEMV_LIN = """
void gemv_lin(int n, int m, const double *restrict a, const double *restrict x,
              double *restrict y)
{
#pragma translate kernel gemv_lin
  for (int i = 0; i < n; i++) {
    double acc = 0.0;
    for (int j = 0; j < m; j++)
      acc += a[i*m + j] * x[j];
    y[i] = acc;
  }
#pragma translate end kernel
}
"""


@pytest.mark.parametrize("name, text, row, k, k_step, tags", [
    # row-major y = A x: the matrix is contiguous along j; an odd step of j (123: 32 x 123
    # doubles of a and 123 of x in 32 KiB), one loading work item per column of the tile
    ("gemv.c", C_GEMV, "i", "j", 123, 'tag_inames("a_j_dim_1:l.0, a_j_dim_0:unr")'),
    # y = A^T x: contiguous along the rows i; 64 steps of j, one loading work item per row
    ("gemvt.c", C_GEMV_T, "i", "j", 64, 'tag_inames("a_j_dim_1:l.0, a_j_dim_0:unr")'),
    # a linearised matrix: its tile is fetched as add_prefetch places it (l.auto)
    ("gemv_lin.c", C_GEMV_LIN, "i", "j", 123, None),
])
def test_gemv_like_nests_stage_the_matrix_in_local_memory(name: str, text: str, row: str,
                                                          k: str, k_step: int,
                                                          tags: str | None) -> None:
    done = region_mapping(name, text)
    chosen = done.auto_mapping
    assert done.auto_kind == REASON
    assert chosen[:2] == (f'split_iname("{row}", 32, outer_tag="g.0", inner_tag="l.0")',
                          f'split_iname("{k}", {k_step})')
    prefetched = {line.split('"')[1] for line in chosen if line.startswith("add_prefetch")}
    assert prefetched == {"a", "x"}
    assert [line for line in chosen if line.startswith("tag_inames")] == ([tags] if tags else [])
    local = {n for n, t in done.kernel.temporaries.items()
             if "local" in str(t.address_space).lower()}
    assert local == {"a_fetch", "x_fetch"}


# the inner loop carries a recurrence over a written row: not a matrix-vector product, and a
# local copy of `a` would go stale
C_PREFIX_ROWS = """
void prefix(int n, int m, double a[n][m], const double x[m])
{
#pragma translate kernel prefix
  for (int i = 0; i < n; i++)
    for (int j = 1; j < m; j++)
      a[i][j] = a[i][j - 1] + a[i][j] * x[j];
#pragma translate end kernel
}
"""


def test_operands_written_in_the_region_keep_the_simple_mapping() -> None:
    done = region_mapping("prefix.c", C_PREFIX_ROWS)
    assert done.auto_kind == ""
    assert done.auto_mapping == ('split_iname("i", 256, outer_tag="g.0", inner_tag="l.0")',)
