"""bench/gpu/compare.py reads the suite's raw lines: kernel time per call of each region next to
its reference, rows of the resident and the copies runs apart, and a second table of the
``e2e_call`` lines (wall time per plain call) with the copies run's kernel time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RAW = """\
machine NVIDIA H100 80GB HBM3, 580.159.04
e2e stream 1.76
profile stream translate profile (device "NVIDIA H100 80GB HBM3"):
profile stream region    location    calls    kernel ms    bytes to dev    bytes from dev
profile stream copy      stream.c:16    20    3.770    0    0
profile stream data      stream.c:107    1    9.100    805306368    805306368
profile stream total     -    20    3.770    805306368    805306368
e2e_call stream copy 24.7876 ms
profile stream_copies copy      stream.c:16    21    4.160    5637144576    5637144576
ref copy 0.185437
"""


def test_resident_copies_and_end_to_end(tmp_path: Path) -> None:
    raw = tmp_path / "gpu_suite.txt"
    raw.write_text(RAW)
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "gpu" / "compare.py"), str(raw)],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    resident = next(line.split() for line in out if line.startswith("stream "))
    copies = next(line.split() for line in out if line.startswith("stream_copies "))
    assert resident[1:] == ["copy", "0.1885", "0.1854", "0.98"], out
    assert copies[1:] == ["copy", "0.1981", "0.1854", "0.94"], out
    e2e = out[out.index("end to end per plain call (arrays copied in and out; wall time):"):]
    assert e2e[2].split() == ["stream", "copy", "24.788", "0.1981"], out
    assert not any(line.startswith(("data", "total")) for line in out), out


ACCEPTANCE = """\
machine NVIDIA H100 80GB HBM3, 580.159.04
args polybench 2048 16384 4096 10 256 10 3
profile polybench gemm_pb   polybench.c:28    3    4.800    0    0
profile polybench atax      polybench.c:124   3    3.000    0    0
ref gemm_pb 0.400000
ref atax 0.900000
profile stream dot_k     stream.c:50    20    2.000    0    0
profile stream_copies dot_k     stream.c:50    21    3.150    0    0
ref dot 0.120000
translated: 100 steps of 4096x4096: 33.000 ms (0.330 ms per step)  checksum 1  centre 2
translated: 100 steps of 4096x4096: 31.000 ms (0.310 ms per step)  checksum 1  centre 2
translated: 100 steps of 4096x4096: 32.000 ms (0.320 ms per step)  checksum 1  centre 2
dataonly: 0 steps of 4096x4096: 9.500 ms (inf ms per step)  checksum 1  centre 2
dataonly: 0 steps of 4096x4096: 9.000 ms (inf ms per step)  checksum 1  centre 2
dataonly: 0 steps of 4096x4096: 8.500 ms (inf ms per step)  checksum 1  centre 2
profiled: 100 steps of 4096x4096: 34.000 ms (0.340 ms per step)  checksum 1  centre 2
profile heat_data heat_step   heat_data.c:24   100   21.000   0   0
profile heat_data data        heat_data.c:57     1    5.000   268435456   0
profile heat_data end data    heat_data.c:60     1    3.000   0   134217728
openmp16: 100 steps of 4096x4096: 400.000 ms (4.000 ms per step)  checksum 1  centre 2
openmp16: 100 steps of 4096x4096: 300.000 ms (3.000 ms per step)  checksum 1  centre 2
openmp16: 100 steps of 4096x4096: 350.000 ms (3.500 ms per step)  checksum 1  centre 2
ref xfer_in 5.000000
ref xfer_out 3.000000
overhead calls 100000 per_call_us 21.500 check 1
overhead_data calls 100000 per_call_us 6.000 check 1
"""


def test_acceptance_summary_puts_each_figure_next_to_its_reference_and_goal(
        tmp_path: Path) -> None:
    raw = tmp_path / "gpu_suite.txt"
    raw.write_text(ACCEPTANCE)
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "gpu" / "compare.py"), str(raw)],
                         capture_output=True, text=True, check=True).stdout
    summary = out.split("issue 23 acceptance (one run; NVIDIA H100 80GB HBM3, 580.159.04)\n")[1]
    rows = {line[:34].strip(): line[34:].split() for line in summary.splitlines()[1:]}
    # medians 32 ms against 350 ms: 10.9x, goal 10x
    assert rows["heat 4096^2 x 100, e2e / OpenMP-16"] == [
        "32.0", "ms", "350.0", "ms", "(OpenMP-16)", "10.94x", ">=", "10x", "yes"]
    # 402.6 MB in 32 - 21 = 11 ms (the e2e median without the profile, minus the kernels):
    # 36.6 GB/s; pinned CUDA copies of the same bytes in 8 ms
    assert rows["heat data region in+out, GB/s"] == [
        "11.0", "ms", "8.0", "ms", "(CUDA", "pinned)", "36.60", ">=", "45", "no"]
    # the data region alone, 9 ms; the profiled run (it waits for every kernel) 34 - 21 ms
    assert rows["data region alone (0 steps)"] == ["9.0", "ms", "44.74", "-", "-"]
    assert rows["profiled run minus kernels"] == ["13.0", "ms", "30.97", "-", "-"]
    assert rows["CUDA pinned copies, GB/s"][0] == "50.33"
    assert rows["gemm_pb (automatic) / cuBLAS"] == [
        "1.600", "ms", "0.400", "ms", "0.25", ">=", "0.5", "no"]
    # 2 * 2048^3 flops in 1.6 ms: 10.7 TFLOP/s of 34
    assert rows["of FP64 CUDA-core peak 34 TF"] == ["10.7", "TF", "0.32", "-", "-"]
    assert rows["atax (automatic) / cuBLAS gemv"][-4:] == ["0.90", ">=", "0.8", "yes"]
    assert rows["host cost per plain call"] == ["21.5", "us", "21.50", "us", "<=", "10", "us",
                                                "no"]
    assert rows["host cost per call, data region"][-1] == "yes"
    # the resident run's dot (0.1 ms per call), not the copies run's (0.15)
    assert rows["dot (split) / CUDA dot"] == ["0.100", "ms", "0.120", "ms", "1.20", "-", "-"]
    assert rows["syrk (automatic) / cuBLAS"] == ["-", "-", "-", ">=", "0.5", "-"]   # not run
