"""translate-fc / translate-cc: `make FC="translate-fc gfortran" CC="translate-cc gcc"` on a
mixed Fortran and C project, run on the CPU OpenCL device."""

from __future__ import annotations

import os
import time
from pathlib import Path

from tests.build.helpers import (BIN, SAXPY, copy_project, must, reference_output, run,
                                 write)
from translator.build.wrappers import parse_command

MAKEFILE = """\
prog: main.o ops.o caxpy.o util.o
\t$(FC) $^ -o $@
main.o: main.f90 ops.o
\t$(FC) $(FFLAGS) -c $< -o $@
%.o: %.f90
\t$(FC) $(FFLAGS) -c $< -o $@
%.o: %.c
\t$(CC) $(CFLAGS) -c $< -o $@
"""

WRAPPED = [f"FC={BIN}/translate-fc gfortran", f"CC={BIN}/translate-cc gcc",
           "CFLAGS=-O1 -std=c99 -MMD"]


def test_make_with_wrappers(tmp_path: Path) -> None:
    proj = copy_project(tmp_path / "p")
    expected = reference_output(proj)
    write(proj, "Makefile", MAKEFILE)
    out = must(run(["make", *WRAPPED], proj))
    assert "translate-fc gfortran" in out
    r = run(["./prog"], proj, TRANSLATE_PROFILE="1")
    assert r.returncode == 0 and r.stdout == expected
    # both regions ran on the device (the runtime's profile names them)
    assert "scale_k" in r.stderr and "axpy_k" in r.stderr
    # translated into the build directory; the objects hold the glue
    build = proj / ".translate"
    assert sorted(p.name.split("-")[0] for p in build.iterdir()) == ["caxpy", "ops", "runtime"]
    symbols = must(run(["nm", "caxpy.o"], proj))
    assert " T translate_axpy_k" in symbols and " T c_axpy" in symbols
    # -MMD: the dependency file is where make expects it and names the original source
    assert "caxpy.c" in (proj / "caxpy.d").read_text()
    # up to date afterwards (make -q exits 0 only then)
    assert must(run(["make", "-q", *WRAPPED], proj)) == ""


def test_sources_without_regions_pass_through(tmp_path: Path) -> None:
    proj = copy_project(tmp_path / "p")
    must(run(["gcc", "-O1", "-c", "util.c", "-o", "direct.o"], proj))
    must(run([str(BIN / "translate-cc"), "gcc", "-O1", "-c", "util.c", "-o", "wrapped.o"],
             proj))
    assert (proj / "direct.o").read_bytes() == (proj / "wrapped.o").read_bytes()
    assert not (proj / ".translate").exists()


def test_misspelled_sentinel_is_warned_through_the_wrappers(tmp_path: Path) -> None:
    """A file whose only directive is a misspelled sentinel is not passed straight to the
    compiler: the translator sees it and warns (-Wunknown-sentinel), then it compiles."""
    src = write(tmp_path, "typo.f90", SAXPY.replace("!$translate", "!$tranlsate"))
    r = run([str(BIN / "translate-fc"), "gfortran", "-c", str(src), "-o", "typo.o"], tmp_path)
    assert r.returncode == 0 and "typo.f90:7:" in r.stderr, r.stderr
    assert "[-Wunknown-sentinel]" in r.stderr
    c = write(tmp_path, "typo.c", "void f(int n, double *restrict x)\n{\n"
              "#pragma tranlsate kernel\n  for (int i = 0; i < n; i++)\n    x[i] *= 2;\n"
              "#pragma tranlsate end kernel\n}\n")
    r = run([str(BIN / "translate-cc"), "gcc", "-c", str(c), "-o", "typo_c.o"], tmp_path)
    assert r.returncode == 0 and "typo.c:3:" in r.stderr and "[-Wunknown-sentinel]" in r.stderr


def test_compile_and_link_in_one_command(tmp_path: Path) -> None:
    proj = copy_project(tmp_path / "p")
    expected = reference_output(proj)
    must(run(["gcc", "-std=c99", "-c", "caxpy.c", "util.c"], proj))   # plain C objects
    must(run([str(BIN / "translate-fc"), "gfortran", "-O1", "ops.f90", "main.f90",
              "caxpy.o", "util.o", "-o", "prog"], proj))
    r = run(["./prog"], proj, TRANSLATE_PROFILE="1")
    assert r.stdout == expected and "scale_k" in r.stderr and "axpy_k" not in r.stderr


def test_build_dir_and_translator_flags(tmp_path: Path) -> None:
    src = write(tmp_path, "s.f90", SAXPY.replace('  !$translate split_iname("i", 128, '
                                                 'outer_tag="g.0", inner_tag="l.0")\n', ""))
    r = run([str(BIN / "translate-fc"), "gfortran", "-c", str(src), "-o", "s.o",
             "-Xtranslate", "--report"], tmp_path, TRANSLATE_BUILD_DIR=str(tmp_path / "tb"))
    assert r.returncode == 0, r.stderr
    assert "mapping (automatic" in r.stderr
    assert any(p.name.startswith("s-") for p in (tmp_path / "tb").iterdir())


def test_translator_errors_keep_their_exit_code(tmp_path: Path) -> None:
    src = write(tmp_path, "bad.f90", SAXPY.replace("split_iname(", "splt_iname("))
    r = run([str(BIN / "translate-fc"), "gfortran", "-c", str(src), "-o", "bad.o"], tmp_path)
    assert r.returncode == 1 and "bad.f90:8:" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "bad.o").exists()
    sum_c = write(tmp_path, "sum.c", "double f(int n, const double *x)\n{\n  double t = 0;\n"
                  "#pragma translate kernel\n  for (int i = 0; i < n; i++)\n    t += x[i];\n"
                  "#pragma translate end kernel\n  return t;\n}\n")
    r = run([str(BIN / "translate-cc"), "gcc", "-c", str(sum_c)], tmp_path,
            TRANSLATE_FLAGS="-Werror")
    assert r.returncode == 1 and "[-Werror=sequential-region]" in r.stderr
    r = run([str(BIN / "translate-cc"), "gcc", "-c", str(sum_c), "-o", "sum.o"], tmp_path)
    assert r.returncode == 0 and "warning:" in r.stderr


def test_compiler_errors_pass_through(tmp_path: Path) -> None:
    src = write(tmp_path, "oops.c", "int f(void) { return nope; }\n")
    r = run([str(BIN / "translate-cc"), "gcc", "-c", str(src)], tmp_path)
    assert r.returncode != 0 and "nope" in r.stderr


def test_runtime_built_once(tmp_path: Path) -> None:
    proj = copy_project(tmp_path / "p")
    write(proj, "Makefile", MAKEFILE)
    must(run(["make", *WRAPPED], proj))
    archive = proj / ".translate" / "runtime" / "libtranslate_rt.a"
    stamp = archive.stat().st_mtime
    time.sleep(1.1)
    os.remove(proj / "prog")
    must(run(["make", *WRAPPED], proj))
    assert archive.stat().st_mtime == stamp


def test_parse_command() -> None:
    cmd = parse_command(["gfortran", "-c", "-o", "x.o", "-I", "inc", "a.f90",
                         "-Xtranslate", "-Werror"], "gfortran")
    assert cmd.compiler == "gfortran" and cmd.output == "x.o" and cmd.compile_only
    assert [cmd.args[i] for i in cmd.sources] == ["a.f90"]
    assert cmd.translate_flags == ["-Werror"]
    assert parse_command(["-c", "a.c"], "gcc").compiler == "gcc"
    assert parse_command(["gcc", "-E", "a.c"], "gcc").passthrough


def test_openmp_directives_through_the_wrappers(tmp_path: Path) -> None:
    """``-Xtranslate --directives=openmp`` (or ``TRANSLATE_FLAGS``): a file holding only
    OpenMP directives is translated, and its loop runs on the device."""
    src = ("program p\n  integer, parameter :: n = 100\n  real(8) :: a(n)\n  integer :: i\n"
           "  !$omp parallel do\n  do i = 1, n\n     a(i) = 2*i\n  end do\n"
           "  print *, sum(a)\nend program\n")
    write(tmp_path, "p.f90", src)
    must(run([str(BIN / "translate-fc"), "gfortran", "p.f90", "-o", "plain"], tmp_path))
    assert not list((tmp_path / ".translate").glob("p-*"))   # not translated without it
    must(run([str(BIN / "translate-fc"), "gfortran", "-Xtranslate", "--directives=openmp",
              "p.f90", "-o", "prog"], tmp_path))
    assert list((tmp_path / ".translate").glob("p-*"))
    r = run(["./prog"], tmp_path, TRANSLATE_PROFILE="1")
    assert r.returncode == 0 and r.stdout == must(run(["./plain"], tmp_path))
    assert "p_0" in r.stderr   # the region ran on the device
