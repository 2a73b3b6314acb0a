"""The C runtime (translator/runtime): compiled with gcc, run on the PoCL CPU device.

Each test builds a small C program from host glue generated for a hand-written kernel (or, for
the runtime's own checks, hand-written glue), runs it and checks its output and diagnostics.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pymbolic.primitives as p
import pytest

from translator.codegen.host import HostUnit, generate_host_file, glue_signature
from translator.codegen.result import GeneratedCode, KernelParam

RT = Path(__file__).resolve().parents[2] / "translator" / "runtime"
WARN = ["-Wall", "-Wextra", "-Werror"]

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc not installed")

SAXPY_CL = """\
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void __attribute__((reqd_work_group_size(16, 1, 1)))
saxpy_k(__global const double *restrict x, __global double *restrict y, int const n,
        double const a)
{
  int const i = get_global_id(0);
  if (i < n)
    y[i] = a * x[i] + y[i];
}
"""

SAXPY_MAIN = r"""
#include <stdio.h>
void translate_saxpy_k(const double *x, double *y, int n, double a);
int main(void)
{
  double x[37], y[37];
  int i;
  for (i = 0; i < 37; ++i) { x[i] = i; y[i] = 1.0; }
  translate_saxpy_k(x, y, 37, 2.0);
  translate_saxpy_k(x, y, 37, 0.5);
  translate_saxpy_k(x, y, 0, 9.0);        /* empty grid: nothing runs */
  for (i = 0; i < 37; ++i) printf("%.17g\n", y[i]);
  return 0;
}
"""


def saxpy_code(source: str = SAXPY_CL) -> GeneratedCode:
    n = p.Variable("n")
    f8 = np.dtype("float64")
    return GeneratedCode(
        kernel_name="saxpy_k", device_code=source, uses_fp64=True,
        params=(KernelParam(name="x", kind="array", dtype=f8, size=n),
                KernelParam(name="y", kind="array", dtype=f8, is_output=True, size=n),
                KernelParam(name="n", kind="value", dtype=np.dtype("int32")),
                KernelParam(name="a", kind="value", dtype=f8)),
        global_size=(p.FloorDiv(n + 15, 16) * 16,), local_size=(16,))


def compile_runtime(build: Path) -> Path:
    """translate_rt.o in `build` (gcc -Wall -Wextra -Werror: the runtime must be warning-free)."""
    obj = build / "translate_rt.o"
    if not obj.exists():
        subprocess.run(["gcc", "-std=c99", *WARN, "-c", "-I", str(RT), str(RT / "translate_rt.c"),
                        "-o", str(obj)], check=True, capture_output=True, text=True)
    return obj


def build_program(build: Path, host_c: str, main_c: str, name: str = "prog") -> Path:
    """Compiles `host_c` (the glue) and `main_c`, links them with the runtime and libOpenCL."""
    rt_obj = compile_runtime(build)
    (build / f"{name}.host.c").write_text(host_c)
    (build / f"{name}.main.c").write_text(main_c)
    exe = build / name
    subprocess.run(["gcc", *WARN, "-I", str(RT), str(build / f"{name}.host.c"),
                    str(build / f"{name}.main.c"), str(rt_obj), "-lOpenCL", "-o", str(exe)],
                   check=True, capture_output=True, text=True)
    return exe


def run(exe: Path, **env: str) -> subprocess.CompletedProcess:
    """Runs `exe` with the TRANSLATE_* variables replaced by `env`."""
    full = {k: v for k, v in os.environ.items() if not k.startswith("TRANSLATE_")}
    full.update(env)
    return subprocess.run([str(exe)], capture_output=True, text=True, env=full, timeout=120)


def saxpy_expected() -> list[float]:
    x = np.arange(37, dtype=np.float64)
    return list(1.0 + 2.0 * x + 0.5 * x)


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("rt")


@pytest.fixture(scope="module")
def saxpy_exe(build: Path) -> Path:
    code = saxpy_code()
    unit = HostUnit("saxpy_k", glue_signature("saxpy_k", code), code, "saxpy.f90:7")
    return build_program(build, generate_host_file([unit], source_name="saxpy.f90"), SAXPY_MAIN,
                         "saxpy")


def test_runtime_compiles_without_warnings_as_c99_pedantic(build: Path) -> None:
    subprocess.run(["gcc", "-std=c99", "-pedantic", *WARN, "-c", "-I", str(RT),
                    str(RT / "translate_rt.c"), "-o", str(build / "pedantic.o")],
                   check=True, capture_output=True, text=True)


@pytest.mark.parametrize("choice", ["cpu", "CPU", "0:0", "portable", "pthread", ""])
def test_device_choice_runs_saxpy(saxpy_exe: Path, choice: str) -> None:
    proc = run(saxpy_exe, TRANSLATE_DEVICE=choice)
    assert proc.returncode == 0, proc.stderr
    got = [float(v) for v in proc.stdout.split()]
    assert got == saxpy_expected()
    assert proc.stderr == ""


def test_verbose_names_the_device_once(saxpy_exe: Path) -> None:
    proc = run(saxpy_exe, TRANSLATE_DEVICE="cpu", TRANSLATE_VERBOSE="1")
    assert proc.returncode == 0, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if "using device 0:0" in ln]
    assert len(lines) == 1 and "Portable Computing Language" in lines[0]


@pytest.mark.parametrize("choice", ["no-such-device-xyz", "7:0", "0:9"])
def test_invalid_device_choice_is_a_clear_error(saxpy_exe: Path, choice: str) -> None:
    proc = run(saxpy_exe, TRANSLATE_DEVICE=choice)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.startswith(
        f'saxpy.f90:7: error: translate runtime: no OpenCL device matches '
        f'TRANSLATE_DEVICE="{choice}"')
    assert "0:0  Portable Computing Language" in proc.stderr   # lists what is available


def test_profile_reports_calls_time_and_bytes(saxpy_exe: Path) -> None:
    proc = run(saxpy_exe, TRANSLATE_DEVICE="cpu", TRANSLATE_PROFILE="1")
    assert proc.returncode == 0, proc.stderr
    assert [float(v) for v in proc.stdout.split()] == saxpy_expected()
    row = next(ln for ln in proc.stderr.splitlines() if ln.startswith("saxpy_k "))
    name, where, calls, ms, to_dev, from_dev = row.split()
    assert (name, where, int(calls)) == ("saxpy_k", "saxpy.f90:7", 3)
    assert float(ms) >= 0.0
    # two calls with n=37 copy x and y in and y out; the n=0 call moves nothing
    assert (int(to_dev), int(from_dev)) == (2 * 2 * 37 * 8, 2 * 37 * 8)


def test_no_profile_without_the_variable(saxpy_exe: Path) -> None:
    proc = run(saxpy_exe, TRANSLATE_DEVICE="cpu", TRANSLATE_PROFILE="0")
    assert proc.returncode == 0 and "translate profile" not in proc.stderr


def test_broken_kernel_prints_build_log_with_region_location(build: Path) -> None:
    broken = SAXPY_CL.replace("y[i] = a * x[i] + y[i];", "y[i] = a * x[i] + undeclared_zz;")
    code = saxpy_code(broken)
    unit = HostUnit("saxpy_k", glue_signature("saxpy_k", code), code, "broken.f90:42")
    exe = build_program(build, generate_host_file([unit], source_name="broken.f90"),
                        SAXPY_MAIN, "broken")
    proc = run(exe, TRANSLATE_DEVICE="cpu")
    assert proc.returncode == 1
    # (some OpenCL compilers print their own diagnostics too: look for our line)
    ours = ("broken.f90:42: error: translate runtime: building the OpenCL program of region "
            "'saxpy_k' failed: CL_BUILD_PROGRAM_FAILURE (-11)")
    assert ours in proc.stderr.splitlines()
    assert "build log" in proc.stderr and "undeclared_zz" in proc.stderr


# Hand-written glue for the runtime's own checks: a kernel that writes only the interior of an
# output-only array, and a driver that can misuse the API on request.
INTERIOR_CL = """\
__kernel void interior(__global float *out, int const n)
{
  int const i = get_global_id(0);
  if (i >= 1 && i < n - 1)
    out[i] = 2.0f * i;
}
"""

INTERIOR_MAIN = r"""
#include <stdio.h>
#include <stdlib.h>
#include "translate_rt.h"
static const char src[] = "%s";
static tr_region region = TR_REGION("interior", "interior.c:3", "interior", src, 0);
int main(int argc, char **argv)
{
  cl_float out[10];
  cl_int n = 10, i;
  long long global[1] = {10}, local[1] = {5};
  int misuse = argc > 1 ? atoi(argv[1]) : 0;
  tr_call call;
  for (i = 0; i < n; ++i) out[i] = -1.0f;
  tr_region_begin(&call, &region, 2);
  tr_arg_array(&call, 0, out, n, sizeof(cl_float), TR_OUT);
  if (misuse != 1) tr_arg_value(&call, 1, &n, sizeof n);
  if (misuse == 2) tr_arg_value(&call, 1, &n, sizeof n);
  tr_launch(&call, 1, global, local);
  tr_region_end(&call);
  for (i = 0; i < n; ++i) printf("%%g\n", out[i]);
  return 0;
}
"""


@pytest.fixture(scope="module")
def interior_exe(build: Path) -> Path:
    literal = INTERIOR_CL.replace("\n", "\\n")
    rt_obj = compile_runtime(build)
    main = build / "interior.c"
    main.write_text(INTERIOR_MAIN % literal)
    exe = build / "interior"
    subprocess.run(["gcc", *WARN, "-I", str(RT), str(main), str(rt_obj), "-lOpenCL", "-o",
                    str(exe)], check=True, capture_output=True, text=True)
    return exe


def test_output_only_array_keeps_elements_the_kernel_does_not_write(interior_exe: Path) -> None:
    proc = subprocess.run([str(interior_exe)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert [float(v) for v in proc.stdout.split()] == [-1.0] + [2.0 * i for i in range(1, 9)] + [
        -1.0]


@pytest.mark.parametrize(("misuse", "message"), [
    ("1", "kernel argument 1 was not set before the launch"),
    ("2", "kernel argument 1 set twice"),
])
def test_api_misuse_is_reported_with_the_region_location(interior_exe: Path, misuse: str,
                                                         message: str) -> None:
    proc = subprocess.run([str(interior_exe), misuse], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 1
    assert proc.stderr == f"interior.c:3: error: translate runtime: {message}\n"
