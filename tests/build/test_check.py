"""``translate check``: original vs translated program, compared at every region exit."""

from __future__ import annotations

from pathlib import Path

from tests.build.helpers import REPO, copy_project, translate, write

#: A loop asserted independent that is not: each a(i) needs the new a(i+1).  The descending
#: loop makes the mismatch certain on any device: work items run in no particular order, and
#: even in ascending order each reads the old a(i+1).
WRONG = """\
subroutine chain(n, a)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n)
  integer :: i
  !$translate kernel chain_k
  !$translate independent("i")
  !$translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  do i = n-1, 1, -1
     a(i) = a(i+1) + 1.0d0
  end do
  !$translate end kernel
end subroutine chain

program main
  implicit none
  real(8) :: a(1000)
  character(len=16) :: arg
  integer :: n
  call get_command_argument(1, arg)
  read (arg, *) n
  a = 0.0d0
  call chain(2, a)          ! one iteration: right on any device
  a = 0.0d0
  call chain(n, a)
  print *, a(1)
end program main
"""

WRONG_C = """\
#include <stdio.h>
void chain(int n, double *a)
{
#pragma translate kernel chain_c
#pragma translate independent("i")
#pragma translate split_iname("i", 32, outer_tag="g.0", inner_tag="l.0")
  for (int i = n - 2; i >= 0; i--)
    a[i] = a[i + 1] + 1.0;
#pragma translate end kernel
}
int main(void)
{
  static double a[8][50];
  chain(50, a[3]);
  printf("%g\\n", a[3][0]);
  return 0;
}
"""


def check(*args: str, cwd: Path, **env: str):
    return translate("check", *args, cwd=cwd, timeout=600, **env)


def test_samples_match(tmp_path: Path) -> None:
    r = check(str(REPO / "samples/fortran/saxpy.f90"), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "translate check: all 1 region executions match (saxpy_k x1)\n"
    r = check(str(REPO / "samples/c/multi_region.c"), "-Wno-sequential-region", "--",
              "-O1", "-std=c99", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "all 3 region executions match (process_0 x1, process_1 x1, smooth x1)" in r.stdout
    assert r.stderr == ""


def test_mixed_multi_file_program(tmp_path: Path) -> None:
    proj = copy_project(tmp_path / "p")
    r = check("ops.f90", "caxpy.c", "util.c", "main.f90", "--", "-O1", cwd=proj)
    assert r.returncode == 0, r.stderr
    assert "all 2 region executions match (axpy_k x1, scale_k x1)" in r.stdout


def test_wrong_independent_assertion_is_caught(tmp_path: Path) -> None:
    src = write(tmp_path, "chain.f90", WRONG)
    r = check(str(src), "--args", "1000", cwd=tmp_path)
    assert r.returncode == 1, r.stdout + r.stderr
    # the translated value depends on the order work items ran in (1.0 on PoCL)
    assert r.stderr.startswith(f"{src}:6: error: region chain_k, execution 2 of 2: a(1) "
                               "differs: original 999.0, translated ")
    assert "elements of a differ; this is the first)\n" in r.stderr


def test_wrong_kernel_in_c_reports_the_element(tmp_path: Path) -> None:
    src = write(tmp_path, "chain.c", WRONG_C)
    r = check(str(src), "--keep", "build", cwd=tmp_path)
    assert r.returncode == 1
    assert "chain.c:4: error: region chain_c, execution 1 of 1: a[0] differs: original " \
           "49.0, translated " in r.stderr
    assert (tmp_path / "build" / "orig" / "program").exists()   # --keep keeps the build


def test_tolerance(tmp_path: Path) -> None:
    src = write(tmp_path, "chain.f90", WRONG)
    r = check(str(src), "--args", "1000", "--atol", "1000", cwd=tmp_path)
    assert r.returncode == 0 and "all 2 region executions match" in r.stdout


def test_failing_translated_program(tmp_path: Path) -> None:
    r = check(str(REPO / "samples/fortran/saxpy.f90"), cwd=tmp_path,
              TRANSLATE_DEVICE="no-such-device-xyz")
    assert r.returncode == 1
    assert "the translated program exited with status 1 after 0 of 1 region" in r.stderr
    assert "no OpenCL device matches" in r.stderr


def test_build_failure_and_bad_input(tmp_path: Path) -> None:
    r = check(str(REPO / "samples/fortran/saxpy.f90"), "--", "-fno-such-flag-xyz",
              cwd=tmp_path)
    assert r.returncode == 1
    assert "translate check: error: building the original program (instrumented) failed" \
        in r.stderr
    bad = write(tmp_path, "bad.f90", WRONG.replace("split_iname(", "splt_iname("))
    r = check(str(bad), cwd=tmp_path)
    assert r.returncode == 1 and "bad.f90:8:" in r.stderr and "Traceback" not in r.stderr
    plain = write(tmp_path, "plain.c", "int main(void) { return 0; }\n")
    r = check(str(plain), cwd=tmp_path)
    assert r.returncode == 1 and "nothing to check" in r.stderr


def test_element_names_follow_the_layout() -> None:
    import numpy as np

    from translator.build.checkcompare import element_name
    from translator.driver import translate_text
    fortran = """subroutine s(n, m, a)
  integer, intent(in) :: n, m
  real(8), intent(inout) :: a(n, m)
  integer :: i, j
  !$translate kernel s_k
  do j = 1, m
    do i = 1, n
      a(i, j) = 2 * a(i, j)
    end do
  end do
  !$translate end kernel
end subroutine
"""
    c = """void s(int n, int m, double a[n][m])
{
#pragma translate kernel s_c
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i][j] = 2 * a[i][j];
#pragma translate end kernel
}
"""
    values = {"n": np.array([4], np.int32), "m": np.array([3], np.int32)}
    kf = translate_text("s.f90", fortran).regions[0][1]
    assert element_name("a", 5, kf, values, "fortran") == "a(2, 2)"    # column-major
    kc = translate_text("s.c", c).regions[0][1]
    assert element_name("a", 5, kc, values, "c") == "a[1][2]"          # row-major
    assert element_name("zz", 5, kc, values, "c") == "zz[5]"


KINDS_F90 = """\
program kinds
  implicit none
#ifdef SP
  integer, parameter :: wp = 4
#else
  integer, parameter :: wp = 8
#endif
  real(wp) :: a(300), b(300)
  integer :: i
  a = [(real(i, wp) / 7, i = 1, 300)]
  !$translate kernel kinds_k
  do i = 1, 300
     b(i) = a(i) * a(i) + 1
  end do
  !$translate end kernel
  print *, sum(b)
end program kinds
"""


def test_preprocessed_fortran_with_the_compile_flags(tmp_path: Path) -> None:
    """The -D and -cpp after ``--`` reach the translator: a float kernel under -DSP."""
    for name, flags in (("kinds.F90", ["-DSP"]), ("plain.f90", ["-cpp", "-DSP"])):
        src = write(tmp_path, name, KINDS_F90)
        r = check(str(src), "--", "-O1", *flags, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert r.stdout == "translate check: all 1 region executions match (kinds_k x1)\n"


def test_a_killed_translated_program_is_a_mismatch() -> None:
    """A translated program killed by a signal after every region matched is a mismatch, and
    the verdict names the signal (subprocess gives it as a negative return code)."""
    from translator.build.check import Run
    from translator.build.checkcompare import Record, compare_runs

    records = [Record("k")]
    text, ok = compare_runs(Run(0, "a\n", "", records), Run(-11, "", "", records), {})
    assert not ok
    assert text.startswith("translate check: error: the translated program was killed by "
                           "signal 11 (SIGSEGV) after 1 of 1 region executions")
    text, ok = compare_runs(Run(0, "", "", records), Run(3, "", "", records), {})
    assert not ok and "the translated program exited with status 3 after 1 of 1" in text
