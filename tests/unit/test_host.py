"""Host glue generation (translator/codegen/host.py): generated C compiled and run on PoCL."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pymbolic.primitives as p
import pytest

from tests.unit.test_runtime import RT, WARN, build_program, run, saxpy_code
from translator.codegen.host import (
    HostUnit,
    c_string_literal,
    generate_host_file,
    glue_signature,
    host_type,
)
from translator.codegen.result import GeneratedCode, KernelParam
from translator.diagnostics import CodegenError

F4, I4, I8 = np.dtype("float32"), np.dtype("int32"), np.dtype("int64")
N, M = p.Variable("n"), p.Variable("m")

# A 2-D kernel with an 8x4 work group over an n x m grid (n, m not multiples of the tile), an
# int64 and an int32 size, and a value parameter whose name is a C keyword (Fortran allows it).
TILE_CL = """\
__kernel void __attribute__((reqd_work_group_size(8, 4, 1)))
tile2d(__global const float *restrict a, __global float *restrict b, long const n,
       int const m, float const _tr_int)
{
  long const i = get_global_id(0);
  int const j = get_global_id(1);
  if (i < n && j < m)
    b[j * n + i] = _tr_int * a[j * n + i] + get_local_id(0) * 1000 + get_local_id(1) * 100000;
}
"""

# No hardware axes: one work item sums `a` into a written scalar (a 1-element array).
TOTAL_CL = """\
__kernel void total_k(__global const float *restrict a, __global float *restrict total,
                      long const n, int const m)
{
  float acc = 0.0f;
  for (long k = 0; k < n * m; ++k)
    acc += a[k];
  total[0] = acc;
}
"""

TWO_REGIONS_MAIN = r"""
#include <stdio.h>
void translate_tile2d(const float *a, float *b, long long n, int m, float f);
void translate_total(const float *a, float *total, long long n, int m);
int main(void)
{
  enum { NN = 13, MM = 10 };
  float a[NN * MM], b[NN * MM], total = -1.0f;
  int i, j;
  for (j = 0; j < MM; ++j)
    for (i = 0; i < NN; ++i) { a[j * NN + i] = i + 0.5f * j; b[j * NN + i] = -7.0f; }
  translate_tile2d(a, b, NN, MM, 2.0f);
  translate_total(a, &total, NN, MM);
  for (i = 0; i < NN * MM; ++i) printf("%.9g\n", b[i]);
  printf("%.9g\n", total);
  return 0;
}
"""


def tile_code() -> GeneratedCode:
    return GeneratedCode(
        kernel_name="tile2d", device_code=TILE_CL,
        params=(KernelParam(name="a", kind="array", dtype=F4, size=N * M),
                KernelParam(name="b", kind="array", dtype=F4, is_input=False, is_output=True,
                            size=N * M),
                KernelParam(name="n", kind="value", dtype=I8),
                KernelParam(name="m", kind="value", dtype=I4),
                KernelParam(name="int", kind="value", dtype=F4)),
        global_size=(p.FloorDiv(N + 7, 8) * 8, p.FloorDiv(M + 3, 4) * 4), local_size=(8, 4))


def total_code() -> GeneratedCode:
    return GeneratedCode(
        kernel_name="total_k", device_code=TOTAL_CL,
        params=(KernelParam(name="a", kind="array", dtype=F4, size=N * M),
                KernelParam(name="total", kind="array", dtype=F4, is_input=False,
                            is_output=True, size=1),
                KernelParam(name="n", kind="value", dtype=I8),
                KernelParam(name="m", kind="value", dtype=I4)),
        global_size=(1,), local_size=(1,))


def unit(name: str, code: GeneratedCode, where: str) -> HostUnit:
    return HostUnit(name, glue_signature(name, code), code, where)


def two_region_file() -> str:
    return generate_host_file([unit("tile2d", tile_code(), "tiles.f90:12"),
                               unit("total", total_code(), "tiles.f90:30")],
                              source_name="tiles.f90")


def expected_two_regions() -> list[float]:
    n, m = 13, 10
    i, j = np.meshgrid(np.arange(n), np.arange(m))       # j-major, like the C arrays
    a = (i + 0.5 * j).astype(np.float32)
    b = 2.0 * a + (i % 8) * 1000 + (j % 4) * 100000
    total = np.float32(0)
    for value in a.ravel():
        total = np.float32(total + value)
    return [float(v) for v in b.ravel()] + [float(total)]


def test_two_regions_2d_local_size_and_written_scalar(tmp_path: Path) -> None:
    exe = build_program(tmp_path, two_region_file(), TWO_REGIONS_MAIN, "tiles")
    proc = run(exe, TRANSLATE_DEVICE="cpu", TRANSLATE_PROFILE="1")
    assert proc.returncode == 0, proc.stderr
    assert [float(v) for v in proc.stdout.split()] == expected_two_regions()
    rows = [ln.split()[:3] for ln in proc.stderr.splitlines()[2:-1]]   # the last: the total row
    assert rows == [["tile2d", "tiles.f90:12", "1"], ["total", "tiles.f90:30", "1"]]
    assert proc.stderr.splitlines()[-1].split()[0] == "total"


def test_glue_signature_follows_kernel_params() -> None:
    sig = glue_signature("tile2d", tile_code())
    assert (sig.region, sig.symbol) == ("tile2d", "translate_tile2d")
    assert [(g.name, g.kind, g.dtype, g.is_output) for g in sig.params] == [
        ("a", "array", F4, False), ("b", "array", F4, True), ("n", "value", I8, False),
        ("m", "value", I4, False), ("int", "value", F4, False)]


def test_glue_function_text() -> None:
    text = two_region_file()
    assert '#include "translate_rt.h"' in text
    assert ("void translate_tile2d(const cl_float *a, cl_float *b, cl_long n, cl_int m, "
            "cl_float _tr_int)") in text
    # sizes are computed in long long so that n*m cannot overflow int
    assert "const long long _tr_i_m = (long long)m;" in text
    assert "tr_arg_array(&_tr_call, 1, b, _tr_i_n * _tr_i_m, sizeof(cl_float), TR_OUT);" in text
    assert "tr_arg_value(&_tr_call, 4, &_tr_int, sizeof(cl_float));" in text
    assert "const long long _tr_local[2] = {8, 4};" in text
    assert 'TR_REGION("total", "tiles.f90:30", "total_k", _tr_source_total, 0)' in text


def test_glue_compiles_without_warnings(tmp_path: Path) -> None:
    src = tmp_path / "tiles.host.c"
    src.write_text(two_region_file())
    proc = subprocess.run(["gcc", "-std=c99", "-pedantic", *WARN, "-Wmissing-prototypes",
                           "-c", "-I", str(RT), str(src), "-o", str(tmp_path / "tiles.host.o")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_output_is_deterministic_across_hash_seeds() -> None:
    script = ("from tests.unit.test_host import two_region_file; "
              "import sys; sys.stdout.write(two_region_file())")
    outs = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           check=True, env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"},
                           cwd=Path(__file__).resolve().parents[2]).stdout
            for seed in ("0", "1", "12345")}
    assert outs == {two_region_file()}


ESCAPE_MAIN = r"""
#include <stdio.h>
static const char text[] =
%s;
int main(void) { fwrite(text, 1, sizeof text - 1, stdout); return 0; }
"""


def test_string_literal_keeps_every_byte(tmp_path: Path) -> None:
    text = ('quote " backslash \\ ??= ??/ trigraphs\ttab\r\n'
            "octal \x01" "7 then digit, é ü non-ASCII, \x7f del\n"
            "#line 3 \"dir\\\\file.f90\"\n\nno final newline")
    (tmp_path / "esc.c").write_text(ESCAPE_MAIN % c_string_literal(text))
    subprocess.run(["gcc", "-std=c99", *WARN, str(tmp_path / "esc.c"), "-o",
                    str(tmp_path / "esc")], check=True, capture_output=True, text=True)
    out = subprocess.run([str(tmp_path / "esc")], capture_output=True, check=True).stdout
    assert out == text.encode("utf-8")
    assert c_string_literal("") == '    ""'


def test_empty_arrays_and_grids_run(tmp_path: Path) -> None:
    main = r"""
#include <stdio.h>
void translate_saxpy_k(const double *x, double *y, int n, double a);
int main(void) { translate_saxpy_k(0, 0, 0, 1.0); translate_saxpy_k(0, 0, -3, 1.0);
                 puts("ok"); return 0; }
"""
    code = saxpy_code()
    exe = build_program(tmp_path, generate_host_file([unit("saxpy_k", code, "e.c:1")],
                                                     source_name="e.c"), main, "empty")
    proc = run(exe, TRANSLATE_DEVICE="cpu")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "ok\n", "")


def _with(code: GeneratedCode, index: int, **changes) -> GeneratedCode:
    from dataclasses import replace
    params = list(code.params)
    params[index] = replace(params[index], **changes)
    return replace(code, params=tuple(params))


@pytest.mark.parametrize(("code", "message"), [
    (_with(tile_code(), 0, size=None), "array argument 'a' has no size"),
    (_with(tile_code(), 1, size=N * p.Variable("k")), "uses k, which are not value arguments"),
    (_with(tile_code(), 4, dtype=np.dtype("complex256")), "cannot pass values of type complex256"),
])
def test_bad_generated_code_is_a_codegen_error(code: GeneratedCode, message: str) -> None:
    with pytest.raises(CodegenError, match=message):
        generate_host_file([unit("tile2d", code, "t.f90:1")], source_name="t.f90")


def test_duplicate_region_and_mismatched_signature_are_errors() -> None:
    code = total_code()
    with pytest.raises(CodegenError, match="two regions named 'total'"):
        generate_host_file([unit("total", code, "a.c:1"), unit("total", code, "a.c:9")],
                           source_name="a.c")
    bad = HostUnit("total", glue_signature("tile2d", tile_code()), code, "a.c:1")
    with pytest.raises(CodegenError, match="do not match the kernel's"):
        generate_host_file([bad], source_name="a.c")


def test_host_types() -> None:
    assert [host_type(np.dtype(t)) for t in ("float32", "float64", "int32", "int64", "uint8")] \
        == ["cl_float", "cl_double", "cl_int", "cl_long", "cl_uchar"]


GENERATED_MAIN = r"""
#include <stdio.h>
void translate_scale(const float *a, float *out, float s, int m, int n);
int main(void)
{
  enum { NN = 13, MM = 10 };
  float a[NN][MM], out[NN][MM];
  int i, j;
  for (i = 0; i < NN; ++i)
    for (j = 0; j < MM; ++j) { a[i][j] = i - 0.25f * j; out[i][j] = -7.0f; }
  translate_scale(&a[0][0], &out[0][0], 0.5f, MM, NN);
  for (i = 0; i < NN; ++i)
    for (j = 0; j < MM; ++j) printf("%.9g\n", out[i][j]);
  return 0;
}
"""


def test_glue_for_a_kernel_from_generate_code(tmp_path: Path) -> None:
    """The whole chain: kernel language -> transforms -> generate_code -> glue -> PoCL."""
    import transforms
    import translator
    from translator.ir.parse_data import GlobalArg, ValueArg

    knl = translator.make_kernel(
        "{[i, j]: 0 <= i < n and 0 <= j < m}", "out[i, j] = 2*a[i, j] + s",
        [GlobalArg("a", "float32", shape=("n", "m")),
         GlobalArg("out", "float32", shape=("n", "m")), ValueArg("s", "float32"), "..."])
    knl = transforms.split_iname(knl, "i", 8, outer_tag="g.0", inner_tag="l.0")
    knl = transforms.split_iname(knl, "j", 4, outer_tag="g.1", inner_tag="l.1")
    code = translator.generate_code(knl)
    assert [kp.name for kp in code.params] == ["a", "out", "s", "m", "n"]  # the main's order
    host = generate_host_file([unit("scale", code, "scale.c:4")], source_name="scale.c")
    exe = build_program(tmp_path, host, GENERATED_MAIN, "scale")
    proc = run(exe, TRANSLATE_DEVICE="cpu")
    assert proc.returncode == 0, proc.stderr
    i, j = np.meshgrid(np.arange(13), np.arange(10), indexing="ij")
    a = (i - 0.25 * j).astype(np.float32)
    expected = (np.float32(2) * a + np.float32(0.5)).ravel()
    assert [float(v) for v in proc.stdout.split()] == [float(v) for v in expected]
