"""Data regions end to end on PoCL: results identical to the original, bytes moved (the
profile's total row) equal to what the data clauses and updates say, runtime misuse reported
clearly with exit status 1 and nothing leaked under AddressSanitizer, `translate check`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import (REPO, SANITIZER_SUPPRESSIONS, build_translated, check_sample,
                               sample_options)

SAMPLES = REPO / "samples"
F8 = 8

#: Bytes (to the device, from the device) each sample's clauses and updates move.
EXPECTED_BYTES = {
    # copy(u) + copyin(tmp), u and tmp of n+2 = 4002 doubles; u comes back once
    "data_timeloop": (2 * 4002 * F8, 4002 * F8),
    # copy(u) + copyin(unew) of 2000 doubles; 4 x update host(u) (2000), 4 x update
    # device(u(n/2:n/2)) (1); u back at end data
    "data_update": (2 * 2000 * F8 + 4 * 1 * F8, 4 * 2000 * F8 + 2000 * F8),
    # enter data copyin(f) create(g), exit data copyout(f) delete(g): 3000 doubles
    "data_module": (3000 * F8, 3000 * F8),
}


def _profile_rows(stderr: str) -> dict[str, list[str]]:
    rows = {}
    for line in stderr.splitlines():
        words = line.split()
        if words:
            rows.setdefault(words[0], words)
    return rows


@pytest.mark.parametrize("lang, suffix", [("fortran", ".f90"), ("c", ".c")])
@pytest.mark.parametrize("name", sorted(EXPECTED_BYTES))
def test_sample_results_and_bytes_moved(name: str, lang: str, suffix: str,
                                        tmp_path: Path) -> None:
    src = SAMPLES / lang / f"{name}{suffix}"
    expected = check_sample(src, tmp_path)
    proc = subprocess.run([str(tmp_path / "translated")], cwd=tmp_path, capture_output=True,
                          text=True, env={**os.environ, "TRANSLATE_DEVICE": "cpu",
                                          "TRANSLATE_PROFILE": "1"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == expected
    total = proc.stderr.strip().splitlines()[-1].split()
    assert total[0] == "total"
    assert (int(total[-2]), int(total[-1])) == EXPECTED_BYTES[name]
    # every region finds its arrays present: the region rows move nothing
    regions = [ln.split() for ln in proc.stderr.splitlines()
               if f"{src.name}:" in ln and ln.split()[0] not in ("data", "update", "end",
                                                                  "enter", "exit")]
    assert regions and all(r[-2:] == ["0", "0"] for r in regions)


MISUSE = r"""
#include <stdio.h>
#include <stdlib.h>

static void scale(int n, double *restrict u)
{
#pragma translate kernel
    for (int i = 0; i < n; i++)
        u[i] = 2.0 * u[i];
#pragma translate end kernel
}

int main(int argc, char **argv)
{
    int n = 100, mode = argc > 1 ? atoi(argv[1]) : 0;
    double *u = malloc(n * sizeof *u);
    for (int i = 0; i < n; i++)
        u[i] = i;
    if (mode == 1) {
#pragma translate data copy(u[0:n/2])
        scale(n, u);
#pragma translate end data
    } else if (mode == 2) {
#pragma translate update host(u[0:n])
    } else if (mode == 3) {
#pragma translate exit data copyout(u[0:n])
    } else if (mode == 4) {
#pragma translate enter data copyin(u[0:n])
        scale(n, u);
        scale(n, u);
#pragma translate exit data copyout(u[0:n])
    } else if (mode == 5) {
#pragma translate data present(u[0:n])
#pragma translate end data
    } else if (mode == 6) {
#pragma translate data copy(u[0:n])
#pragma translate data copy(u[0:n])
        scale(n, u);
#pragma translate end data
        scale(n, u);
#pragma translate end data
    } else {
        scale(n, u);
        scale(n, u);
        scale(n, u);
    }
    printf("%g %g %g\n", u[10], u[11], u[n - 1]);
    free(u);
    return 0;
}
"""

#: mode -> (exit status, what stderr must say)
MISUSE_CASES = {
    1: (1, "misuse.c:7: error: translate runtime: region 'scale_0': array 'u' (host bytes "),
    2: (1, "misuse.c:24: error: translate runtime: update: array 'u' ("),
    3: (1, "misuse.c:26: error: translate runtime: exit data: array 'u' ("),
    4: (0, ""),
    5: (1, "misuse.c:33: error: translate runtime: data: array 'u' ("),
    6: (0, ""),
}

SUPPRESSIONS = SANITIZER_SUPPRESSIONS


@pytest.fixture(scope="module")
def misuse_exe(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("misuse")
    src = work / "misuse.c"
    src.write_text(MISUSE)
    opts = sample_options(src)
    exe = build_translated(src, work, opts)
    # the same program built with AddressSanitizer (runtime, glue and program)
    rt = REPO / "translator" / "runtime"
    asan = work / "asan"
    subprocess.run(["gcc", "-std=c99", "-g", "-fsanitize=address", f"-I{rt}",
                    str(work / "out" / "misuse.c"), str(work / "out" / "misuse.host.c"),
                    str(rt / "translate_rt.c"), "-lOpenCL", "-o", str(asan)], check=True,
                   cwd=work, capture_output=True, text=True)
    (work / "lsan.supp").write_text(SUPPRESSIONS)
    return exe


@pytest.mark.parametrize("mode", sorted(MISUSE_CASES))
def test_runtime_misuse_is_a_clear_message(misuse_exe: Path, mode: int) -> None:
    status, message = MISUSE_CASES[mode]
    proc = subprocess.run([str(misuse_exe), str(mode)], capture_output=True, text=True,
                          env={**os.environ, "TRANSLATE_DEVICE": "cpu"})
    assert proc.returncode == status, proc.stderr
    if status:
        assert message in proc.stderr, proc.stderr
        assert "Segmentation" not in proc.stderr
    else:
        assert proc.stdout == "40 44 396\n"


def test_partly_present_names_both_ranges(misuse_exe: Path) -> None:
    proc = subprocess.run([str(misuse_exe), "1"], capture_output=True, text=True,
                          env={**os.environ, "TRANSLATE_DEVICE": "cpu"})
    assert "..+800) is only partly present on the device: 'u' entered at" in proc.stderr
    assert "misuse.c:20 holds host bytes " in proc.stderr and "..+400" in proc.stderr


@pytest.mark.parametrize("mode", sorted(MISUSE_CASES))
def test_no_leak_under_address_sanitizer(misuse_exe: Path, mode: int) -> None:
    asan = misuse_exe.parent / "asan"
    env = {**os.environ, "TRANSLATE_DEVICE": "cpu",
           "ASAN_OPTIONS": "detect_leaks=1",
           "LSAN_OPTIONS": f"suppressions={misuse_exe.parent / 'lsan.supp'}:print_suppressions=0"}
    proc = subprocess.run([str(asan), str(mode)], capture_output=True, text=True, env=env)
    assert proc.returncode == MISUSE_CASES[mode][0], proc.stderr
    assert "Sanitizer" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("src", ["fortran/data_update.f90", "c/data_timeloop.c"])
def test_translate_check_with_data_regions(src: str, tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "translator.cli", "check",
                           str(SAMPLES / src)], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "TRANSLATE_DEVICE": "cpu"})
    assert proc.returncode == 0, proc.stderr
    assert "region executions match" in proc.stderr + proc.stdout
