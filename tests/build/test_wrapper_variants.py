"""Variants of one source built at once: ``make -j8`` compiles ``v.c`` (and ``v.F90``) with
several ``-DSCALE=...`` into several objects through the wrappers; every program must run its
own variant (issue 28, item 1: the variants shared one work folder and got mixed)."""

from __future__ import annotations

from pathlib import Path

from tests.build.helpers import BIN, must, run, write

SCALES = (2, 3, 5, 7)

V_C = """\
void scale(int n, double *restrict y)
{
#pragma translate kernel scale_k
  for (int i = 0; i < n; i++)
    y[i] = SCALE * (double)i;
#pragma translate end kernel
}
"""

V_F = """\
subroutine fscale(n, y) bind(C, name="fscale")
  use iso_c_binding, only: c_int, c_double
  integer(c_int), value :: n
  real(c_double), intent(inout) :: y(n)
  integer :: i
  real(8) :: s
  s = SCALE   ! the Fortran frontend does not expand macros: keep SCALE outside the region
  !$translate kernel fscale_k
  do i = 1, n
     y(i) = s * dble(i - 1)
  end do
  !$translate end kernel
end subroutine
"""

MAIN_C = """\
#include <stdio.h>
void %(fn)s(int n, double *y);
int main(void)
{
  double y[64];
  %(fn)s(64, y);
  printf("%%g\\n", y[1]);
  return 0;
}
"""


def _makefile(source: str, compiler: str, linker: str) -> str:
    programs = " ".join(f"p{s}" for s in SCALES)
    rules = [f"all: {programs}\n"]
    for s in SCALES:
        rules.append(f"v{s}.o: {source}\n\t{compiler} -DSCALE={s} -c {source} -o v{s}.o\n"
                     f"p{s}: v{s}.o main.o\n\t{linker} v{s}.o main.o -o p{s}\n")
    rules.append(f"main.o: main.c\n\tgcc -c main.c -o main.o\n"
                 f"clean:\n\trm -rf *.o {programs} .translate\n")
    return "\n".join(rules)


def _build_variants(tmp_path: Path, source: str, text: str, fn: str, compiler: str,
                    linker: str, rounds: int) -> None:
    write(tmp_path, source, text)
    write(tmp_path, "main.c", MAIN_C % {"fn": fn})
    write(tmp_path, "Makefile", _makefile(source, compiler, linker))
    for _ in range(rounds):
        must(run(["make", "clean"], tmp_path))
        must(run(["make", "-j8"], tmp_path, timeout=600))
        printed = {s: run([f"./p{s}"], tmp_path).stdout.strip() for s in SCALES}
        assert printed == {s: str(s) for s in SCALES}


def test_parallel_make_keeps_c_variants_apart(tmp_path: Path) -> None:
    cc = f"{BIN}/translate-cc gcc -std=c99"
    _build_variants(tmp_path, "v.c", V_C, "scale", cc, cc, rounds=3)


def test_parallel_make_keeps_fortran_variants_apart(tmp_path: Path) -> None:
    fc = f"{BIN}/translate-fc gfortran"
    _build_variants(tmp_path, "v.F90", V_F, "fscale", fc, fc, rounds=2)
