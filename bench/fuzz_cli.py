"""Fuzz the CLI's translation path with >= 10,000 mutated samples; append the result to
bench/RESULTS.md.

    .venv/bin/python bench/fuzz_cli.py [-n 10000] [--seed 0] [-j 2] [--no-record]
    .venv/bin/python bench/fuzz_cli.py --shapes [-n 200] [--time-bound 120] [--memory-bound 3072]

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


#: Sizes the shapes are drawn from (a few past each bound the translator states).
SHAPE_SIZES = {"statements": (1, 400), "sum": (1, 5000), "product": (1, 2000),
               "parens": (1, 260), "parens_outside": (1, 260)}


def one_shape(k: int, base_seed: int, seconds: int, memory: int
              ) -> tuple[int, str, int, str, str, float, float]:
    """Input `k` of ``--shapes``: an issue-28 shape (tests/build/shapes.py) of a random kind,
    language and size, half of them with one mutation inside the region; run in a child
    held to `seconds` and `memory` bytes."""
    from tests.build.fuzzing import KINDS, run_bounded
    from tests.build.shapes import KINDS as SHAPES
    from tests.build.shapes import shape
    rng = random.Random(base_seed * 1_000_003 + k)
    kind, lang = rng.choice(SHAPES), rng.choice(("c", "fortran"))
    low, high = SHAPE_SIZES[kind]
    size = int(low * (high / low) ** rng.random())   # log-uniform: small and large sizes
    name, text = shape(kind, lang, size)
    ops = [(rng.choice([x for x in KINDS if x.startswith("region_")]), rng.randrange(1 << 16),
            rng.randrange(1 << 16))] if rng.random() < 0.5 else []
    outcome, wall, rss = run_bounded(name, mutate_bytes(name, text, ops), seconds=seconds,
                                     memory=memory)
    tail = outcome.stderr.strip().splitlines()[-1:] if outcome.problem else []
    return (k, name, outcome.status, outcome.problem, f"{ops} {' '.join(tail)}", wall, rss)


def main_shapes(args: argparse.Namespace) -> int:
    """``--shapes``: the issue-28 shapes under a bound on time and memory per input."""
    t0 = time.time()
    statuses: Counter = Counter()
    problems: dict[tuple[str, str], str] = {}
    slowest: tuple[float, str] = (0.0, "")
    largest: tuple[float, str] = (0.0, "")
    n = args.n
    with ProcessPoolExecutor(max_workers=args.j) as pool:
        for k, name, status, problem, detail, wall, rss in pool.map(
                one_shape, range(n), [args.seed] * n, [args.time_bound] * n,
                [args.memory_bound << 20] * n):
            statuses[status] += 1
            slowest, largest = max(slowest, (wall, name)), max(largest, (rss, name))
            if problem and (problem, name) not in problems:
                problems[(problem, name)] = detail
                print(f"PROBLEM #{k} {name}: {problem}: {detail}", flush=True)
    summary = (f"{n} shape inputs in {time.time() - t0:.0f} s: exit 0: {statuses[0]}, exit 1: "
               f"{statuses[1]}, internal errors: {statuses[2]}, over the time bound: "
               f"{statuses[-1]}; slowest {slowest[0]:.1f} s ({slowest[1]}), largest peak RSS "
               f"{largest[0]:.0f} MB ({largest[1]}); {len(problems)} distinct problems")
    print(summary)
    if not args.no_record:
        record_shapes(args, summary, problems)
    return 1 if problems else 0


def record_shapes(args: argparse.Namespace, summary: str, problems: dict) -> None:
    lines = [f"\n## CLI fuzzing of the issue-28 shapes, {datetime.date.today().isoformat()}\n",
             f"\nCommand: `.venv/bin/python bench/fuzz_cli.py --shapes -n {args.n} --seed "
             f"{args.seed} -j {args.j} --time-bound {args.time_bound} --memory-bound "
             f"{args.memory_bound}` (tests/build/shapes.py: many statements on one pointer or "
             "assumed-size array, long sums and products, deep parentheses in and outside a "
             f"region, C and Fortran, sizes log-uniform in {SHAPE_SIZES}; half with one "
             "mutation inside the region; each in a child process held to the time bound and "
             "to RLIMIT_AS = the memory bound)\n", f"\nResult: {summary}.\n"]
    lines += [f"- {problem} ({name}): {detail}\n" for (problem, name), detail in
              sorted(problems.items())]
    with open(REPO / "bench" / "RESULTS.md", "a", encoding="utf-8") as f:
        f.writelines(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--no-record", action="store_true", help="do not append to RESULTS.md")
    ap.add_argument("--seconds", type=float, default=0,
                    help="stop after this many seconds (the inputs done so far are counted)")
    ap.add_argument("--shapes", action="store_true",
                    help="fuzz the issue-28 shapes (long sums, deep parentheses, many "
                         "statements on one array) under --time-bound and --memory-bound")
    ap.add_argument("--time-bound", type=int, default=120, metavar="S",
                    help="--shapes: seconds per input (default 120)")
    ap.add_argument("--memory-bound", type=int, default=3072, metavar="MB",
                    help="--shapes: address space per input, RLIMIT_AS (default 3072 MB)")
    args = ap.parse_args()
    if args.shapes:
        return main_shapes(args)
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
