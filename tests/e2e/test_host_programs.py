"""Regions as host programs: several kernels, host loops, data kept on the device.

The samples (samples/*/heat_steps, two_matmul, normalise, trailing_scalar, fdtd2d) are run
against their originals by test_samples.py; here: the shape of the programs, the report, the
profile's byte counts, a truly sequential region, and the IR split itself.
"""

from __future__ import annotations

import os
import subprocess
import textwrap
import warnings
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, TRANSLATE, build_translated, check_sample, sample_options
from translator.driver import translate_text

SAMPLES = REPO / "samples"


def _translate(path: Path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = translate_text(str(path), path.read_text())
    return result, [str(w.message) for w in caught]


@pytest.mark.parametrize("name", ["heat_steps", "two_matmul", "normalise", "trailing_scalar",
                                  "fdtd2d"])
@pytest.mark.parametrize("lang", ["c", "fortran"])
def test_sample_is_a_parallel_host_program(lang: str, name: str) -> None:
    from translator.codegen.program import HostProgramCode
    path = SAMPLES / lang / (name + (".c" if lang == "c" else ".f90"))
    result, messages = _translate(path)
    assert not [m for m in messages if "single work item" in m], messages
    (_, _, code), = result.regions
    assert isinstance(code, HostProgramCode)
    launches = [launch for launch, _ in code.launches()]
    assert len(launches) >= 2
    # at least one kernel runs on many work items (an NDRange wider than one work item)
    assert any(launch.code.local_size != (1,) for launch in launches)
    glue = result.outputs[path.stem + ".host.c"]
    assert "TR_REGION_KERNELS(" in glue and glue.count("tr_region_begin(") == 1


def test_time_loop_becomes_a_host_loop() -> None:
    from translator.codegen.program import HostLoopCode
    result, _ = _translate(SAMPLES / "c" / "heat_steps.c")
    (_, _, code), = result.regions
    loop, = code.body
    assert isinstance(loop, HostLoopCode) and loop.iname == "t"
    assert [launch.loops for launch in loop.body] == [("i", "j"), ("i_1", "j_1")]
    # the time step is a value argument of the kernels; data moves once per call
    assert [p.name for p in loop.body[0].code.params][-1] == "t"
    glue = result.outputs["heat_steps.host.c"]
    assert "for (long long _tr_i_t = 0; _tr_i_t <= _tr_i_steps - 1; ++_tr_i_t) {" in glue
    assert glue.count("tr_arg_array(") == 2


def test_report_lists_the_host_program(tmp_path: Path) -> None:
    proc = subprocess.run([*TRANSLATE, "samples/c/heat_steps.c", "--report=-", "--emit", "ir",
                           "-o", str(tmp_path)], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    report = proc.stdout
    assert "host program: 2 kernels" in report
    assert "host loop t = 0 .. steps - 1:" in report
    assert "kernel heat_k0: loops i, j" in report and "kernel heat_k1: loops i_1, j_1" in report
    assert '#pragma translate split_iname("j", 32, outer_tag="g.0", inner_tag="l.0")' in report
    assert "data per call (at entry and exit only; nothing moves between launches):" in report
    assert "u: in/out, float64[96, 96], 73728 B" in report


def test_profile_counts_kernels_and_bytes_once_per_call(tmp_path: Path) -> None:
    """25 steps of 2 kernels, but u and v move once: in at entry, out at exit."""
    src = SAMPLES / "c" / "heat_steps.c"
    exe = build_translated(src, tmp_path, sample_options(src))
    proc = subprocess.run([str(exe)], capture_output=True, text=True,
                          env={**os.environ, "TRANSLATE_DEVICE": "cpu", "TRANSLATE_PROFILE": "1"})
    assert proc.returncode == 0, proc.stderr
    rows = {ln.split()[0]: ln.split() for ln in proc.stderr.splitlines()[2:]}
    assert rows["heat"][2] == "1"
    assert rows["heat_k0"][2] == rows["heat_k1"][2] == "25"
    both = str(2 * 96 * 96 * 8)
    assert rows["heat"][-2:] == [both, both]
    assert rows["total"][-2:] == [both, both]
    assert proc.stderr.splitlines()[-1].startswith("total ")


GAUSS_SEIDEL = """\
    #include <stdio.h>
    #define N 40
    static double u[N][N];
    void sweep(int n, int steps)
    {
    #pragma translate kernel gs
      for (int t = 0; t < steps; t++)
        for (int i = 1; i < n - 1; i++)
          for (int j = 1; j < n - 1; j++)
            u[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    #pragma translate end kernel
    }
    int main(void)
    {
      double s = 0.0;
      for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
          u[i][j] = (i == 0 || j == N - 1) ? 10.0 : (i * j) % 5;
      sweep(N, 7);
      for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
          s += u[i][j] * (1 + i % 3);
      printf("%.17g %.17g\\n", s, u[N / 2][N / 2]);
      return 0;
    }
"""


def test_in_place_gauss_seidel_stays_sequential_and_says_why(tmp_path: Path) -> None:
    src = tmp_path / "gs.c"
    src.write_text(textwrap.dedent(GAUSS_SEIDEL))
    result, messages = _translate(src)
    (_, _, code), = result.regions
    assert not hasattr(code, "body"), "no kernel of a host program would be parallel"
    warning, = [m for m in messages if "single work item" in m]
    assert "region gs runs as a single work item: mapping" in warning
    assert "races" in warning and "u[" in warning   # a witness naming the dependence
    work = tmp_path / "w"
    work.mkdir()
    check_sample(src, work)


WAVEFRONT = """\
    #include <stdio.h>
    #define N 64
    static double a[N][N];
    void rows(int n)
    {
    #pragma translate kernel rows
      for (int i = 1; i < n; i++)
        for (int j = 1; j < n - 1; j++)
          a[i][j] = 0.5 * a[i - 1][j - 1] + 0.25 * a[i - 1][j + 1] + a[i][j];
    #pragma translate end kernel
    }
    int main(void)
    {
      double s = 0.0;
      for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
          a[i][j] = (i + 3 * j) % 7;
      rows(N);
      for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
          s += a[i][j] * (1 + j % 4);
      printf("%.17g\\n", s);
      return 0;
    }
"""


def test_sequential_outer_loop_with_parallel_rows_is_a_host_loop(tmp_path: Path) -> None:
    """Row i reads row i-1 at other columns: no single kernel, a host loop over the rows."""
    from translator.codegen.program import HostLoopCode
    src = tmp_path / "rows.c"
    src.write_text(textwrap.dedent(WAVEFRONT))
    result, messages = _translate(src)
    assert not [m for m in messages if "single work item" in m], messages
    (_, _, code), = result.regions
    loop, = code.body
    assert isinstance(loop, HostLoopCode) and loop.iname == "i"
    work = tmp_path / "w"
    work.mkdir()
    check_sample(src, work)


def test_independent_nests_share_one_kernel() -> None:
    """Cutting starts a new kernel only where a dependence needs it (fdtd: ey, ex and the
    boundary row are independent, hz reads them)."""
    result, _ = _translate(SAMPLES / "c" / "fdtd2d.c")
    (_, _, code), = result.regions
    loop, = code.body
    assert [launch.loops for launch in loop.body] == [("j", "i", "j_1", "i_1", "j_2"),
                                                      ("i_2", "j_3")]


# ---------------------------------------------------------------------------------------------
# Python API: a kernel cut at a global barrier

def _barrier_kernel():
    import numpy as np

    import transforms
    import translator
    knl = translator.make_kernel(
        "{[i]: 0<=i<n}",
        ["b[i] = 2*a[i] {id=w}", "... gbarrier {id=gb, dep=w}",
         "out[i] = b[(i + 1) % n] + b[i] {id=r, dep=gb}"],
        [translator.GlobalArg("a", np.float64, shape="n"),
         translator.GlobalArg("b", np.float64, shape="n"), "..."])
    return transforms.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.0")


def test_generate_code_exposes_every_kernel_of_a_host_program() -> None:
    import translator
    from translator.codegen.program import HostProgramCode
    code = translator.generate_code(_barrier_kernel())
    assert isinstance(code, HostProgramCode)
    assert [k.kernel_name for k in code.kernels] == ["kernel_k0", "kernel_k1"]
    assert all("__kernel" in k.device_code for k in code.kernels)
    assert code.device_code.count("__kernel") == 2
    # the region's parameters: every array once, with the moves of the whole call; b is
    # written whole by the first kernel before anything reads it, so it is not copied in
    assert [(p.name, p.is_input, p.is_output) for p in code.params] == [
        ("a", True, False), ("b", False, True), ("out", False, True), ("n", True, False)]
    result = translator.generate_code_v2(_barrier_kernel())
    assert len(result.device_programs) == 2
    assert "TR_REGION_KERNELS(" in result.host_code()


def test_compile_runs_a_host_program(ctx, queue) -> None:
    import numpy as np

    import translator
    a = np.arange(40.0)
    out = translator.compile(_barrier_kernel(), ctx)(queue, a=a)
    np.testing.assert_array_equal(out["out"], 2 * np.roll(a, -1) + 2 * a)
    np.testing.assert_array_equal(out["b"], 2 * a)


def test_temporary_live_across_a_cut_barrier_is_an_error() -> None:
    import numpy as np
    import pytest

    import transforms
    import translator
    from translator.diagnostics import CodegenError
    knl = translator.make_kernel(
        "{[i]: 0<=i<n}",
        ["<> t = 2*a[i] {id=w}", "... gbarrier {id=gb, dep=w}",
         "out[i] = t {id=r, dep=gb}"],
        [translator.GlobalArg("a", np.float64, shape="n"), "..."])
    knl = transforms.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.0")
    with pytest.raises(CodegenError, match="temporary t is live across a global barrier"):
        translator.generate_code(knl)


FLOAT_SUM_AFTER_LOOP = """\
    #include <stdio.h>
    #define N 500
    static double x[N], y[N];
    void f(int n, double *s)
    {
    #pragma translate kernel f
      for (int i = 0; i < n; i++)
        y[i] = 2.0 * x[i] + 1.0;
      for (int i = 0; i < n; i++)
        *s += y[i] * y[i];
    #pragma translate end kernel
    }
    int main(void)
    {
      double s = 0.5;
      for (int i = 0; i < N; i++)
        x[i] = (i % 9) * 0.125;
      f(N, &s);
      printf("%.17g %.17g\\n", s, y[N - 1]);
      return 0;
    }
"""


def test_sequential_kernel_of_a_host_program_is_named(tmp_path: Path) -> None:
    """The floating-point sum stays sequential (bit-identical); the warning names the kernel
    and its region, the loop before it still runs in parallel."""
    src = tmp_path / "fs.c"
    src.write_text(textwrap.dedent(FLOAT_SUM_AFTER_LOOP))
    result, messages = _translate(src)
    warning, = [m for m in messages if "single work item" in m]
    assert warning.startswith("kernel f_k1 of region f runs as a single work item: ")
    assert "floating-point reduction" in warning
    (_, _, code), = result.regions
    first, second = [launch for launch, _ in code.launches()]
    assert first.code.local_size == (256,) and second.sequential_reason
    work = tmp_path / "w"
    work.mkdir()
    check_sample(src, work)


def test_private_accumulator_reused_by_independent_nests_stays_one_kernel(tmp_path: Path
                                                                          ) -> None:
    """`acc` is written before it is read in each nest: private per work item, no value flows
    between the nests, so no cut is needed."""
    src = tmp_path / "acc.c"
    src.write_text(textwrap.dedent("""\
        #include <stdio.h>
        #define N 50
        static double a[N][N], b[N], c[N];
        void f(int n)
        {
        #pragma translate kernel f
          double acc;
          for (int i = 0; i < n; i++) {
            acc = 0.0;
            for (int k = 0; k < n; k++)
              acc += a[i][k];
            b[i] = acc;
          }
          for (int i = 0; i < n; i++) {
            acc = 1.0;
            for (int k = 0; k < n; k++)
              acc += a[k][i];
            c[i] = acc;
          }
        #pragma translate end kernel
        }
        int main(void)
        {
          double s = 0;
          for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
              a[i][j] = (i * 3 + j) % 7;
          f(N);
          for (int i = 0; i < N; i++)
            s += b[i] * (i + 1) + c[i];
          printf("%.17g\\n", s);
        }
        """))
    result, messages = _translate(src)
    (_, _, code), = result.regions
    assert not hasattr(code, "body") and code.local_size == (256,)
    assert not [m for m in messages if "single work item" in m]
    work = tmp_path / "w"
    work.mkdir()
    check_sample(src, work)


DATA_REGION_AROUND_HOST_PROGRAM = """\
    #include <stdio.h>
    #define N 64
    static double u[N * N], v[N * N];
    void steps(int k)
    {
    #pragma translate kernel st
      for (int t = 0; t < k; t++) {
        for (int i = 1; i < N - 1; i++)
          for (int j = 1; j < N - 1; j++)
            v[i * N + j] = 0.25 * (u[(i - 1) * N + j] + u[(i + 1) * N + j]
                                   + u[i * N + j - 1] + u[i * N + j + 1]);
        for (int i = 1; i < N - 1; i++)
          for (int j = 1; j < N - 1; j++)
            u[i * N + j] = v[i * N + j];
      }
    #pragma translate end kernel
    }
    int main(void)
    {
      double s = 0.0;
      for (int i = 0; i < N * N; i++) {
        u[i] = (i % 17) * 0.5;
        v[i] = 0.0;
      }
    #pragma translate data copy(u[0:N*N], v[0:N*N])
      for (int c = 0; c < 4; c++)
        steps(3);
    #pragma translate end data
      for (int i = 0; i < N * N; i++)
        s += u[i] * (1 + i % 3);
      printf("%.17g\\n", s);
      return 0;
    }
"""


def test_data_region_around_a_host_program(tmp_path: Path) -> None:
    """Inside a data region the host program's slots are the present buffers: the 4 calls of
    6 launches each move nothing; u and v move once, at the data region's ends."""
    src = tmp_path / "dr.c"
    src.write_text(textwrap.dedent(DATA_REGION_AROUND_HOST_PROGRAM))
    work = tmp_path / "w"
    work.mkdir()
    check_sample(src, work)
    proc = subprocess.run([str(work / "translated")], capture_output=True, text=True,
                          env={**os.environ, "TRANSLATE_DEVICE": "cpu", "TRANSLATE_PROFILE": "1"})
    assert proc.returncode == 0, proc.stderr
    rows = {ln.split()[0]: ln.split() for ln in proc.stderr.splitlines()[2:]}
    assert rows["st"][2] == "4" and rows["st"][-2:] == ["0", "0"]
    assert rows["st_k0"][2] == rows["st_k1"][2] == "12"
    both = str(2 * 64 * 64 * 8)
    assert proc.stderr.splitlines()[-1].split()[-2:] == [both, both]
