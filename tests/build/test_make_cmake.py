"""Build-system integration on the mixed Fortran/C project: translate.mk with make, and
Translator.cmake with CMake (Makefiles and Ninja); incremental rebuilds do only what changed."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.build.helpers import copy_project, must, reference_output, run, write

MAKEFILE = """\
FC = gfortran
CC = gcc
CFLAGS = -O1 -std=c99
include $(shell translate --make-dir)/translate.mk
OFFLOAD := ops.f90 caxpy.c
$(call translate_sources,$(OFFLOAD))
prog: main.o util.o $(call translate_objects,$(OFFLOAD)) $(TRANSLATE_RUNTIME)
\t$(FC) $(filter %.o,$^) $(TRANSLATE_LIBS) -o $@
main.o: main.f90 $(call translate_objects,ops.f90)
\t$(FC) $(FFLAGS) -c $< -o $@
%.o: %.c
\t$(CC) $(CFLAGS) -c $< -o $@
"""

CMAKELISTS = """\
cmake_minimum_required(VERSION 3.16)
project(offload_demo C Fortran)
execute_process(COMMAND translate --cmake-dir OUTPUT_VARIABLE TRANSLATOR_CMAKE_DIR
                OUTPUT_STRIP_TRAILING_WHITESPACE)
include("${TRANSLATOR_CMAKE_DIR}/Translator.cmake")
add_executable(prog main.f90 ops.f90 caxpy.c util.c)
set_property(TARGET prog PROPERTY C_STANDARD 99)
translator_offload(prog SOURCES ops.f90 caxpy.c)
"""


def tick() -> None:
    time.sleep(1.1)   # file times must move on for make


def test_make_include(tmp_path: Path) -> None:
    proj = copy_project(tmp_path / "p")
    expected = reference_output(proj)
    write(proj, "Makefile", MAKEFILE)
    log = must(run(["make", "prog"], proj))
    assert "translate" in log and "--all-outputs -MD -MP" in log
    r = run(["./prog"], proj, TRANSLATE_PROFILE="1")
    assert r.stdout == expected and "scale_k" in r.stderr and "axpy_k" in r.stderr
    assert "up to date" in must(run(["make", "prog"], proj))
    # a header the C region includes: translate runs again, the glue is not recompiled
    tick()
    (proj / "caxpy.h").touch()
    log = must(run(["make", "prog"], proj))
    assert "translate  caxpy.c -o" in log and "translate  ops.f90" not in log
    assert "-c .translate/caxpy.host.c" not in log and "-c .translate/caxpy.c " in log
    # a change inside a Fortran region: new glue; the rewritten source is unchanged
    tick()
    text = (proj / "ops.f90").read_text().replace("+ 1.0d0", "+ 2.0d0")
    (proj / "ops.f90").write_text(text)
    log = must(run(["make", "prog"], proj))
    assert "-c .translate/ops.host.c" in log and "-c .translate/ops.f90 " in log
    assert must(run(["./prog"], proj)) != expected


@pytest.mark.parametrize("generator", ["Unix Makefiles", "Ninja"])
def test_cmake(tmp_path: Path, generator: str) -> None:
    if generator == "Ninja" and shutil.which("ninja") is None:
        pytest.skip("ninja is not installed")
    proj = copy_project(tmp_path / "p")
    expected = reference_output(proj)
    write(proj, "CMakeLists.txt", CMAKELISTS)
    build = proj / "build"
    must(run(["cmake", "-G", generator, "-S", ".", "-B", "build"], proj))
    log = must(run(["cmake", "--build", "build"], proj))
    assert "Translating ops.f90" in log and "Translating caxpy.c" in log
    r = run(["./build/prog"], proj, TRANSLATE_PROFILE="1")
    assert r.stdout == expected and "scale_k" in r.stderr and "axpy_k" in r.stderr
    log = must(run(["cmake", "--build", "build"], proj))
    assert "Translating" not in log
    tick()
    (proj / "caxpy.h").touch()   # found through the translator's dependency file
    log = must(run(["cmake", "--build", "build"], proj))
    assert "Translating caxpy.c" in log and "Translating ops.f90" not in log
    assert "caxpy.host.c" not in log
    log = must(run(["cmake", "--build", "build"], proj))
    assert "Translating" not in log
    assert (build / "translate" / "prog" / "caxpy.c.stamp.d").exists()


# ---------------------------------------------------------------------------------------------
# same-named sources in two folders of one program (issue 15), plain make, missing translate

OPS = """\
void {fn}(int n, double *x)
{{
#pragma translate kernel ops_k
  for (int i = 0; i < n; i++)
    x[i] = {expr};
#pragma translate end kernel
}}
"""

MAIN_C = """\
#include <stdio.h>
void ops1(int n, double *x);
void ops2(int n, double *x);
int main(void)
{
  double x[64], s = 0;
  for (int i = 0; i < 64; i++) x[i] = i;
  ops1(64, x);
  ops2(64, x);
  for (int i = 0; i < 64; i++) s += x[i];
  printf("%g\\n", s);
  return 0;
}
"""

#: Documented in docs/build.md: a clear error when translate is not installed.
FIND_TRANSLATE = """\
find_program(TRANSLATOR_EXECUTABLE translate)
if(NOT TRANSLATOR_EXECUTABLE)
  message(FATAL_ERROR "translate not found: install the translator, put it on PATH or set "
                      "TRANSLATOR_EXECUTABLE")
endif()
execute_process(COMMAND "${TRANSLATOR_EXECUTABLE}" --cmake-dir
                OUTPUT_VARIABLE TRANSLATOR_CMAKE_DIR OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE translate_status)
if(NOT translate_status EQUAL 0)
  message(FATAL_ERROR "${TRANSLATOR_EXECUTABLE} --cmake-dir failed: ${translate_status}")
endif()
include("${TRANSLATOR_CMAKE_DIR}/Translator.cmake")
"""


def two_ops_project(folder: Path) -> Path:
    """main.c and sub1/ops.c, sub2/ops.c: same file name, same region name ops_k."""
    write(folder, "main.c", MAIN_C)
    write(folder, "sub1/ops.c", OPS.format(fn="ops1", expr="x[i] + 1.0"))
    write(folder, "sub2/ops.c", OPS.format(fn="ops2", expr="2.0 * x[i]"))
    return folder


def test_cmake_same_named_sources_in_two_folders(tmp_path: Path) -> None:
    proj = two_ops_project(tmp_path / "p")
    write(proj, "CMakeLists.txt", "cmake_minimum_required(VERSION 3.16)\nproject(two C)\n"
          + FIND_TRANSLATE + "add_executable(prog main.c sub1/ops.c sub2/ops.c)\n"
          "set_property(TARGET prog PROPERTY C_STANDARD 99)\n"
          "translator_offload(prog SOURCES sub1/ops.c sub2/ops.c)\n")
    must(run(["cmake", "-S", ".", "-B", "build"], proj))
    log = must(run(["cmake", "--build", "build"], proj))
    assert "Translating sub1/ops.c" in log and "Translating sub2/ops.c" in log
    out = proj / "build" / "translate" / "prog"
    assert (out / "sub1" / "ops.host.c").exists() and (out / "sub2" / "ops.host.c").exists()
    r = run(["./build/prog"], proj, TRANSLATE_PROFILE="1")
    assert r.stdout == "4160\n", r.stdout + r.stderr   # sum of 2*(i+1): both regions ran
    assert r.stderr.count("ops_k") >= 2


def test_cmake_refuses_two_sources_of_one_stem(tmp_path: Path) -> None:
    proj = two_ops_project(tmp_path / "p")
    write(proj, "ops.c", OPS.format(fn="ops1", expr="x[i] + 1.0"))
    write(proj, "ops.f90", "subroutine s\nend subroutine\n")
    write(proj, "CMakeLists.txt", "cmake_minimum_required(VERSION 3.16)\nproject(two C)\n"
          + FIND_TRANSLATE + "add_executable(prog main.c ops.c ops.f90)\n"
          "translator_offload(prog SOURCES ops.c ops.f90)\n")
    r = run(["cmake", "-S", ".", "-B", "build"], proj)
    assert r.returncode != 0
    assert "translator_offload(prog): ops.f90 and another source would both write" in \
        r.stderr.replace("\n", " ").replace("  ", " "), r.stderr


def test_cmake_without_translate_says_so(tmp_path: Path) -> None:
    """The documented snippet, translate not on PATH: a clear message, not 'include could not
    find /Translator.cmake'."""
    proj = two_ops_project(tmp_path / "p")
    write(proj, "CMakeLists.txt", "cmake_minimum_required(VERSION 3.16)\nproject(two C)\n"
          + FIND_TRANSLATE + "add_executable(prog main.c)\n")
    path = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep)
                           if not (Path(p) / "translate").exists())
    r = subprocess.run(["cmake", "-S", ".", "-B", "build"], cwd=proj, capture_output=True,
                       text=True, env={**os.environ, "PATH": path})
    assert r.returncode != 0
    assert "translate not found: install the translator" in r.stderr, r.stderr
    assert "include could not find" not in r.stderr


def test_make_plain_make_builds_the_first_target(tmp_path: Path) -> None:
    """translate.mk adds no default goal (plain `make` used to build only the runtime), and
    same-named sources of two folders build into one program."""
    proj = two_ops_project(tmp_path / "p")
    write(proj, "Makefile", "CC = gcc\nCFLAGS = -O1 -std=c99\n"
          "include $(shell translate --make-dir)/translate.mk\n"
          "OFFLOAD := sub1/ops.c sub2/ops.c\n"
          "$(call translate_sources,$(OFFLOAD))\n"
          "prog: main.o $(call translate_objects,$(OFFLOAD)) $(TRANSLATE_RUNTIME)\n"
          "\t$(CC) $(filter %.o,$^) $(TRANSLATE_LIBS) -o $@\n")
    must(run(["make"], proj))
    assert (proj / "prog").exists()
    assert must(run(["./prog"], proj)) == "4160\n"
    write(proj, "sub1/ops.f90", "subroutine s\nend subroutine\n")
    write(proj, "Makefile", (proj / "Makefile").read_text().replace(
        "OFFLOAD := sub1/ops.c", "OFFLOAD := sub1/ops.f90 sub1/ops.c"))
    r = run(["make"], proj)
    assert r.returncode != 0
    assert "translate.mk: sub1/ops.c and another source both translate to" in r.stderr, r.stderr
