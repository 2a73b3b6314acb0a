"""Fuzz the CLI's translation path with >= 10,000 mutated samples; append the result to
bench/RESULTS.md.

    .venv/bin/python bench/fuzz_cli.py [-n 10000] [--seed 0] [-j 2] [--no-record]

Same oracle as tests/build/test_fuzz.py (see tests/build/fuzzing.py): every input ends in
exit 0, or exit 1 with a diagnostic; never an internal error, a traceback, a hang, or output
left by a failed translation; every input that translates keeps each line outside its regions
byte for byte.  Mutations include CRLF, a byte order mark, Latin-1 comments and huge numbers.  Inputs are derived from --seed, so a run can be repeated; each
distinct problem is printed once with the mutation that reproduces it.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.build.fuzzing import SEEDS, mutate_bytes, random_ops, run_input  # noqa: E402


def one(k: int, base_seed: int) -> tuple[int, str, int, str, str]:
    rng = random.Random(base_seed * 1_000_003 + k)
    seed = rng.choice(SEEDS)
    ops = random_ops(rng)
    outcome = run_input(seed.name, mutate_bytes(seed.name, seed.read_text(), ops))
    tail = outcome.stderr.strip().splitlines()[-1:] if outcome.problem else []
    return k, seed.name, outcome.status, outcome.problem, f"{ops} {' '.join(tail)}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--no-record", action="store_true", help="do not append to RESULTS.md")
    ap.add_argument("--seconds", type=float, default=0,
                    help="stop after this many seconds (the inputs done so far are counted)")
    args = ap.parse_args()
    t0 = time.time()
    statuses: Counter = Counter()
    problems: dict[tuple[str, str], str] = {}
    done = 0
    with ProcessPoolExecutor(max_workers=args.j) as pool:
        for k, name, status, problem, detail in pool.map(
                one, range(args.n), [args.seed] * args.n, chunksize=50):
            statuses[status] += 1
            done += 1
            if problem and (problem, name) not in problems:
                problems[(problem, name)] = detail
                print(f"PROBLEM #{k} {name}: {problem}: {detail}", flush=True)
            if args.seconds and time.time() - t0 > args.seconds:
                pool.shutdown(wait=False, cancel_futures=True)
                break
    secs = time.time() - t0
    summary = (f"{done} inputs in {secs:.0f} s: exit 0: {statuses[0]}, exit 1: "
               f"{statuses[1]}, internal errors: {statuses[2]}, hangs: {statuses[-1]}, "
               f"byte-identity failures: {sum(1 for (pr, _) in problems if 'rewritten' in pr)}; "
               f"{len(problems)} distinct problems")
    print(summary)
    if not args.no_record:
        record(args, summary, problems)
    return 1 if problems else 0


def record(args: argparse.Namespace, summary: str, problems: dict) -> None:
    limit = f" --seconds {args.seconds:g}" if args.seconds else ""
    lines = [f"\n## CLI fuzzing, {datetime.date.today().isoformat()}\n",
             f"\nCommand: `.venv/bin/python bench/fuzz_cli.py -n {args.n} --seed {args.seed} "
             f"-j {args.j}{limit}` ({len(SEEDS)} sample sources, 1-3 mutations each: line/token "
             "edits (half of them confined to one translate region), huge numbers, CRLF line "
             "ends, a UTF-8 byte order mark, Latin-1 comment lines; byte identity outside the "
             "regions checked on every input that translates)\n",
             f"\nResult: {summary}.\n"]
    lines += [f"- {problem} ({name}): {detail}\n" for (problem, name), detail in
              sorted(problems.items())]
    path = REPO / "bench" / "RESULTS.md"
    if not path.exists():
        lines.insert(0, "# Benchmark and fuzzing results\n")
    with open(path, "a", encoding="utf-8") as f:
        f.writelines(lines)


if __name__ == "__main__":
    sys.exit(main())
