"""End-to-end random differential fuzzing: random whole programs in C and Fortran (loop nests,
arrays of four types and three ranks, temporaries, IF/ELSE, reductions, intrinsics, transform
pragmas and OpenMP claims, some of them false), each translated, built as written and as
translated, run on the CPU OpenCL device and compared bit for bit
(tests/e2e/random_programs.py, tests/e2e/e2e_fuzzing.py).  Deterministic from the seeds.

    PYTHONPATH=. .venv/bin/python bench/e2e_fuzz.py [--cases N] [--start S] [--batch B]
        [--lang c|fortran|both] [--keep DIR] [--minutes M] [--features all|NAME,NAME...]

`--features` adds the shapes of the second round (random_programs.FEATURES: math, guard,
stencil, swap, modulo, implicit) and of the third (pow: real and integer powers, Fortran's
``**``; atan2) and of the fourth (gather: reads through index tables, C pointers, a table
filled on the device inside a data region; varying: trip counts read from a table, private
row sums, cutoff conditions; indexvar: integer locals set from loop variables as subscripts;
branches: nested IF/ELSE; atomic: OpenMP atomic updates and compares of a histogram;
components: Fortran arrays of a derived type's array component); without it a seed is the
program it always was.  With it, the classes are also
counted per feature the cases use.

Prints one line per DIFF, UNSOUND or FAIL (with the seed that reproduces it) and per WITHIN,
then the count of each class and of each kind of refusal.  Exits 1 if any case is DIFF, UNSOUND or FAIL.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.e2e.e2e_fuzzing import CLASSES, GOOD, run_batch
from tests.e2e.random_programs import FEATURES


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=200, help="cases per language")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--batch", type=int, default=10, help="cases linked into one program")
    ap.add_argument("--lang", choices=("c", "fortran", "both"), default="both")
    ap.add_argument("--keep", type=Path, help="write each DIFF/UNSOUND/FAIL program here")
    ap.add_argument("--show", default="", help="print the refusals whose kind holds this text")
    ap.add_argument("--minutes", type=float, default=0, help="stop after this long (0: never)")
    ap.add_argument("--features", default="", help="'all' or names of FEATURES, commas")
    args = ap.parse_args()
    features = frozenset(FEATURES if args.features == "all" else
                         [f for f in args.features.split(",") if f])
    unknown = features - set(FEATURES)
    if unknown:
        ap.error(f"unknown features {sorted(unknown)}; known: {', '.join(FEATURES)}")
    per_feature: Counter[tuple[str, str]] = Counter()
    langs = ("c", "fortran") if args.lang == "both" else (args.lang,)
    counts: Counter[str] = Counter()
    refusals: Counter[str] = Counter()
    t0 = time.perf_counter()
    done = 0
    for first in range(args.start, args.start + args.cases, args.batch):
        seeds = list(range(first, min(first + args.batch, args.start + args.cases)))
        for lang in langs:
            for r in run_batch(seeds, lang, args.keep, features):
                counts[f"{lang} {r.cls}"] += 1
                counts[r.cls] += 1
                for f in r.used:
                    per_feature[f, r.cls] += 1
                if r.cls == "REFUSED":
                    refusals[r.detail] += 1
                    if args.show and args.show in r.detail:
                        print(f"REFUSED {r.name}: {r.detail}", flush=True)
                elif r.cls == "WITHIN":
                    print(f"WITHIN {r.name}", flush=True)
                elif r.cls not in GOOD:
                    print(f"{r.cls} {r.name}: {r.detail.splitlines()[0] if r.detail else ''}",
                          flush=True)
        done += len(seeds)
        if args.minutes and time.perf_counter() - t0 > 60 * args.minutes:
            break
    print(f"{done} seeds x {len(langs)} languages in {time.perf_counter() - t0:.0f} s")
    for key in CLASSES:
        by_lang = ", ".join(f"{lang} {counts[f'{lang} {key}']}" for lang in langs)
        print(f"  {key}: {counts[key]} ({by_lang})")
    if features:
        print("per feature (cases using it): " + " ".join(CLASSES))
        for f in sorted(features):
            row = [per_feature[f, k] for k in CLASSES]
            total = sum(row)
            refused = f"{100 * per_feature[f, 'REFUSED'] / total:.0f} % refused" if total else ""
            print(f"  {f:9s} {total:4d}: {' '.join(map(str, row))}  {refused}")
    print("refusals by message:")
    for text, n in refusals.most_common():
        print(f"  {n:5d}  {text}")
    return 1 if counts["DIFF"] or counts["UNSOUND"] or counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
