"""The random-region soundness oracle at scale: N seeded C regions (default 5,000), each
translated through the C frontend and the legality analysis and checked by brute force
(tests/legality/random_regions.py); the kernel of every legal verdict is generated and built on
the CPU OpenCL device (PoCL) unless --no-build.  Prints the counts; exits 1 on any unsound
verdict or kernel that fails to build.

    PYTHONPATH=. python bench/oracle.py [--cases N] [--start S] [--no-build]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.legality.random_regions import check_case  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=5000)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--no-build", action="store_true", help="do not build legal kernels")
    args = ap.parse_args()
    counts: Counter[str] = Counter()
    t0 = time.perf_counter()
    for seed in range(args.start, args.start + args.cases):
        outcome = check_case(seed, build=not args.no_build)
        if outcome.conflict == "skip":
            counts["skipped (frontend or transform error)"] += 1
            continue
        counts["legal" if outcome.legal else "refused"] += 1
        if not outcome.legal and "private" in outcome.message:
            counts["refused on a private scalar"] += 1
        if outcome.unsound:
            counts["UNSOUND"] += 1
            print(f"UNSOUND seed {seed}: {outcome.conflict}\n{outcome.text}", flush=True)
        if outcome.build_error and outcome.build_error.startswith("code generation:"):
            # a located error at translation (exit 1), not an emitted kernel that fails
            counts["legal verdicts code generation refuses"] += 1
            print(f"CODEGEN seed {seed}: {outcome.build_error}", flush=True)
        elif outcome.build_error:
            counts["KERNELS THAT FAIL TO BUILD"] += 1
            print(f"BUILD seed {seed}: {outcome.build_error}", flush=True)
        if "g[" in outcome.text.split("kernel k")[1]:
            counts["cases with the 2-D array g (columns may leave 0..3)"] += 1
        if "= 2*" in outcome.text or "= 4*" in outcome.text:
            counts["cases with a loop whose bounds name the enclosing loop"] += 1
        if outcome.over_conservative:
            counts["over-conservative refusals"] += 1
            print(f"over-conservative seed {seed}: {outcome.message}", flush=True)
    print(f"cases {args.cases} (seeds {args.start}..{args.start + args.cases - 1}) in "
          f"{time.perf_counter() - t0:.0f} s")
    for key in sorted(counts):
        print(f"  {key}: {counts[key]}")
    return 1 if counts["UNSOUND"] or counts["KERNELS THAT FAIL TO BUILD"] else 0


if __name__ == "__main__":
    sys.exit(main())
