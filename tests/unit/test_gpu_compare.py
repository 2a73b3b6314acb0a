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
