"""Kernels stay right on PoCL whatever the order of their guards' conjuncts (h75).

With h73's gist of a guard's domain (session 12), `samples/c/covariance.c` gave the same guards
with their conjuncts in another order, and PoCL 3.1 (LLVM 15) computed it wrongly: LLVM's jump
threading cloned the latch of the barriered `k_outer` loop into the guarded statements after
it, and PoCL's work-group code then ran them again for some work items or wrote outside its
buffers (bench/RESULTS.md, "PoCL and the order of guard conjuncts (h75)").  The translator now
puts a barrier first after each loop that holds one (`translator/codegen/barriers.py`), which
no pass may clone.

The test translates the sample, shuffles the conjuncts of every guard in the kernels the
program builds (integer comparisons only: the same program in any order), and runs each
shuffled program against the original.  Without the barrier the seeds below crash PoCL or give
wrong sums.
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest

from tests.e2e.harness import (REPO, build_original, compare_outputs, run, runtime_dir,
                               runtime_object, sample_options, translate)

SAMPLE = REPO / "samples" / "c" / "covariance.c"

#: A guard line of a kernel embedded in the host glue: ``"  if (a < b && c <= d)\n"``, each
#: conjunct a comparison of integer expressions (no call, no array read, no ``||``).
_COMPARISON = r"[\w +*-]+ (?:<|<=|>|>=|==|!=) [\w +*-]+"
_GUARD = re.compile(rf'^(\s*"\s*if \()({_COMPARISON}(?: && {_COMPARISON})+)(\)\\n"\s*)$',
                    re.M)

#: Shuffles that made PoCL crash or compute covariance wrongly before the barrier after the
#: `k_outer` loop.
SEEDS = (1, 2, 9, 11)


def shuffled_guards(host: str, seed: int) -> tuple[str, int]:
    """`host` with the conjuncts of each kernel guard in a random order; the number of guards
    whose order changed."""
    rng = random.Random(seed)
    changed = 0

    def shuffle(m: re.Match) -> str:
        nonlocal changed
        parts = m.group(2).split(" && ")
        order = parts[:]
        rng.shuffle(order)
        changed += order != parts
        return m.group(1) + " && ".join(order) + m.group(3)

    return _GUARD.sub(shuffle, host), changed


def build_from(out: Path, src: Path, work: Path) -> Path:
    """Compile the translated program in `out` (as `harness.build_translated` does)."""
    rt = runtime_dir()
    exe = work / "translated"
    run(["gcc", "-c", "-O1", f"-I{rt}", str(out / f"{src.stem}.host.c")], work)
    run(["gcc", "-O1", "-std=c99", str(out / src.name), str(work / f"{src.stem}.host.o"),
         str(runtime_object()), "-lOpenCL", "-lm", "-o", str(exe)], work)
    return exe


@pytest.fixture(scope="module")
def covariance(tmp_path_factory: pytest.TempPathFactory, programs_build) -> tuple[str, Path]:
    """The original's output and the translated sample (translated once for every seed)."""
    folder = tmp_path_factory.mktemp("covariance")
    expected = run([str(build_original(SAMPLE, folder, sample_options(SAMPLE)))], folder)
    translate(SAMPLE, folder / "out", sample_options(SAMPLE))
    programs_build(folder / "out")
    return expected, folder / "out"


@pytest.mark.parametrize("seed", SEEDS)
def test_covariance_is_right_with_its_guards_in_any_order(tmp_path: Path, seed: int,
                                                          covariance: tuple[str, Path]) -> None:
    expected, translated = covariance
    out = tmp_path / "out"
    shutil.copytree(translated, out)
    host = out / f"{SAMPLE.stem}.host.c"
    text, changed = shuffled_guards(host.read_text(), seed)
    assert changed >= 20, f"only {changed} guards reordered"
    host.write_text(text)
    work = tmp_path / "build"
    work.mkdir()
    exe = build_from(out, SAMPLE, work)
    actual = run([str(exe)], work, env={"TRANSLATE_DEVICE": "cpu",
                                        "TRANSLATE_KERNEL_CACHE": "off"})
    compare_outputs(expected, actual, sample_options(SAMPLE).rtol)


def test_a_barrier_follows_the_barriered_loop(covariance: tuple[str, Path]) -> None:
    lines = (covariance[1] / "covariance.cl").read_text().split("covariance_k2(")[1].splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("  for (int k_outer"))
    end = lines.index("  }", start)       # the loop's closing brace, at the kernel's depth
    assert lines[end + 1].startswith("  barrier(CLK_LOCAL_MEM_FENCE);"), lines[end + 1]


def test_the_shuffle_keeps_calls_and_reads_in_place() -> None:
    host = ('    "  if (a < n && b[i] > 0)\\n"\n'
            '    "  if (f(x) < 1 && y < 2)\\n"\n'
            '    "  if (4 * j < m - 1 && i <= 4 * j + 1)\\n"\n')
    for seed in range(8):
        text, changed = shuffled_guards(host, seed)
        lines = text.splitlines()
        assert lines[:2] == host.splitlines()[:2]     # a read or a call: left as written
        conjuncts = lines[2].split("(", 1)[1].rsplit(")", 1)[0].split(" && ")
        assert sorted(conjuncts) == ["4 * j < m - 1", "i <= 4 * j + 1"]
        assert changed == (conjuncts[0] != "4 * j < m - 1")
