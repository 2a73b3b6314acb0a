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


#: `fix_parameters(n=5)`: the kernel is right for n = 5 only; the caller passes n from the
#: command line.
FIXED_F90 = """\
subroutine scale(n, a)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n)
  integer :: i
  !$translate kernel scale_k
  !$translate fix_parameters(n=5)
  do i = 1, n
     a(i) = 2*a(i)
  end do
  !$translate end kernel
end subroutine

program main
  real(8) :: a(8)
  character(len=8) :: arg
  integer :: i, n
  call get_command_argument(1, arg)
  read (arg, *) n
  a = [(real(i, 8), i = 1, 8)]
  call scale(n, a)
  print *, a
end program
"""

#: Two kernels (a host program) and two fixed values of two integer types.
FIXED_C = """\
#include <stdio.h>
#include <stdlib.h>
void scale(int n, long m, double *a)
{
#pragma translate kernel sk
#pragma translate fix_parameters(n=5, m=2)
  for (int i = 0; i < n; i++)
    a[i] = m * a[i];
#pragma translate end kernel
}
void twice(int n, double *restrict a, double *restrict b)
{
#pragma translate kernel tw
#pragma translate fix_parameters(n=4)
#pragma translate tag_inames("i:g.0, i_1:g.0")
  for (int i = 0; i < n; i++)
    a[i] = 2 * a[i];
  for (int i = 0; i < n; i++)
    b[i] = a[n - 1 - i] + 1;
#pragma translate end kernel
}
int main(int argc, char **argv)
{
  int n = atoi(argv[1]);
  double a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, b[8] = {0};
  twice(n - 1, a, b);
  scale(n, 2, a);
  for (int i = 0; i < 8; i++) printf("%g %g\\n", a[i], b[i]);
  return 0;
}
"""


def test_fixed_parameters_are_checked_at_run_time(tmp_path: Path) -> None:
    src = write(tmp_path, "fixed.f90", FIXED_F90)
    r = check(str(src), "--args", "5", cwd=tmp_path)
    assert r.returncode == 0 and "all 1 region executions match" in r.stdout, r.stderr
    r = check(str(src), "--args", "6", cwd=tmp_path)
    assert r.returncode == 1, r.stdout
    assert (f"{src}:5: error: translate runtime: region 'scale_k' was generated assuming "
            "n = 5, but n = 6\n") in r.stderr
    assert "the translated program exited with status 1 after 0 of 1 region" in r.stderr


def test_fixed_parameters_of_a_host_program_in_c(tmp_path: Path) -> None:
    src = write(tmp_path, "fixed.c", FIXED_C)
    r = check(str(src), "--args", "5", cwd=tmp_path)
    assert r.returncode == 0 and "all 2 region executions match (sk x1, tw x1)" in r.stdout, \
        r.stderr
    r = check(str(src), "--args", "6", cwd=tmp_path)
    assert r.returncode == 1, r.stdout
    assert (f"{src}:13: error: translate runtime: region 'tw' was generated assuming n = 4, "
            "but n = 5\n") in r.stderr


def test_output_differences_beyond_rounding() -> None:
    from translator.build.checkcompare import output_difference
    same = " 1.0000000000000000  2.5 n = 13\n"
    assert output_difference(same, " 1.0000000000000002  2.5 n = 13\n") == ""
    assert output_difference(same, " 1.0000000000000000  2.5 n = 0\n") == (
        "standard output line 1 differs: original '1.0000000000000000  2.5 n = 13', "
        "translated '1.0000000000000000  2.5 n = 0'")
    assert output_difference(same, same + "x\n") == (
        "the original program printed 1 lines, the translated program 2")
    assert output_difference(same, " 1.0000000000000000  2.5 13\n") != ""
    assert output_difference(same, " 1.0000000000000000  2.5 2.5 n = 13\n") != ""
    assert output_difference(" 9.9999E-02 T\n", " 1.0000E-01 F\n") != ""
    assert output_difference(" 9.9999E-02 T\n", " 0.10000 T\n") == ""


def test_check_reports_an_integer_printed_differently(tmp_path: Path) -> None:
    """The records match, but the program printed another integer: not a match."""
    from translator.build.check import Run
    from translator.build.checkcompare import compare_runs
    orig = Run(0, "iout = 13\n", "", [])
    text, ok = compare_runs(orig, Run(0, "iout = 0\n", "", []), {})
    assert not ok and text == ("translate check: error: standard output line 1 differs: "
                               "original 'iout = 13', translated 'iout = 0'\n")
    text, ok = compare_runs(orig, Run(0, "iout = 13\n", "", []), {})
    assert ok
    text, ok = compare_runs(Run(0, "x = 0.1\n", "", []), Run(0, "x = 0.10000001\n", "", []), {})
    assert ok and "differs in the digits of floating-point numbers only" in text


#: Values computed in float (sinf, powf, a float temporary) stored in a double array: the
#: device's float library differs from glibc's in the last float bits.
FLOAT_IN_DOUBLE = """\
#include <math.h>
#include <stdio.h>
#define N 4096
void f(int n, double *restrict y, const float *restrict x, double *restrict z)
{
#pragma translate kernel sf
  for (int i = 0; i < n; i++) {
    float t = sinf(x[i]) * 3.0f;
    y[i] = t + powf(x[i], 1.37f) + expf(x[i] * 0.01f) + tanf(x[i]);
    z[i] = sin((double)x[i]) + x[i];
  }
#pragma translate end kernel
}
int main(void)
{
  static float x[N];
  static double y[N], z[N];
  for (int i = 0; i < N; i++) x[i] = 0.37f * i + 0.001f;
  f(N, y, x, z);
  double s = 0, t = 0;
  for (int i = 0; i < N; i++) { s += y[i]; t += z[i]; }
  printf("%.6g %.12g\\n", s, t);
  return 0;
}
"""


def test_values_computed_in_float_get_the_float_tolerance(tmp_path: Path) -> None:
    """y was compared with the double tolerance (405 of 4096 elements 'differed' by one
    float ulp); z, computed in double from float inputs, keeps the double tolerance."""
    src = write(tmp_path, "f.c", FLOAT_IN_DOUBLE)
    r = check(str(src), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "translate check: all 1 region executions match (sf x1)\n"


def test_computed_precision_follows_operations_and_temporaries() -> None:
    import numpy as np

    from translator.build.checkcompare import computed_precision
    from translator.driver import translate_text
    (_, kernel, _), = translate_text("f.c", FLOAT_IN_DOUBLE).regions
    assert computed_precision(kernel, "y") == np.float32
    assert computed_precision(kernel, "z") == np.float64
