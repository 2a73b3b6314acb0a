"""Times the engine (make_kernel + transforms + generate_code) per golden kernel and for a
500-statement kernel; prints a table.  Not a test: ``python bench/bench_engine.py``.

Targets: < 20 ms per small kernel; 500 statements well under 10 s.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import transforms  # noqa: E402
import translator  # noqa: E402
from translator.codegen.opencl import generate_code  # noqa: E402
from translator.ir.parse import GlobalArg  # noqa: E402


def golden_builders():
    from tests.unit.test_golden import KERNELS
    return {name: (lambda f=f: f()[0]) for name, f in KERNELS.items()}


def many_statements(count: int = 500):
    """`count` statements in one split, hardware-mapped loop, each reading the previous one."""
    insns = ["t0[i] = a[i] {id=s0}"]
    insns += [f"t{k}[i] = 0.5*t{k - 1}[i] + {k} {{id=s{k}, dep=s{k - 1}}}"
              for k in range(1, count)]
    data = [GlobalArg("a", np.float32, shape="n")]
    data += [GlobalArg(f"t{k}", np.float32, shape="n") for k in range(count)]
    knl = translator.make_kernel("{[i]: 0<=i<n}", insns, [*data, "..."], name="many")
    return transforms.split_iname(knl, "i", 128, outer_tag="g.0", inner_tag="l.0")


def time_one(build, repeat: int) -> tuple[float, float]:
    """(median ms of build, median ms of generate_code) over `repeat` runs."""
    builds, gens = [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        knl = build()
        t1 = time.perf_counter()
        generate_code(knl)
        t2 = time.perf_counter()
        builds.append((t1 - t0) * 1e3)
        gens.append((t2 - t1) * 1e3)
    return statistics.median(builds), statistics.median(gens)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--statements", type=int, default=500)
    ap.add_argument("--profile", action="store_true", help="cProfile the large kernel")
    args = ap.parse_args()
    rows = [(name, *time_one(b, args.repeat)) for name, b in sorted(golden_builders().items())]
    big = f"{args.statements} statements"
    rows.append((big, *time_one(lambda: many_statements(args.statements), 1)))
    print(f"{'kernel':<18} {'build+transform ms':>19} {'generate_code ms':>17} {'total ms':>9}")
    for name, b, g in rows:
        print(f"{name:<18} {b:>19.1f} {g:>17.1f} {b + g:>9.1f}")
    if args.profile:
        knl = many_statements(args.statements)
        prof = cProfile.Profile()
        prof.runcall(generate_code, knl)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
