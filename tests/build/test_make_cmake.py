"""Build-system integration on the mixed Fortran/C project: translate.mk with make, and
Translator.cmake with CMake (Makefiles and Ninja); incremental rebuilds do only what changed."""

from __future__ import annotations

import shutil
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
