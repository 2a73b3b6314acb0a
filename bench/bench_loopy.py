"""The Python API against loopy, per kernel, in one process: ``make_kernel`` + transforms +
code generation for the same kernels written once for both (their APIs share names).

Not a test.  Needs loopy (2025.2 was measured) next to the translator's own dependencies::

    python -m venv /tmp/lv && /tmp/lv/bin/pip install loopy==2025.2 fparser pycparser
    PYTHONPATH=<checkout> /tmp/lv/bin/python bench/bench_loopy.py [--repeat 7]

Each kernel is built ``--repeat`` times under a new name each time (so that no cache keyed
by the kernel answers a repeat: loopy's persistent cache is off, and equal kernels are never
built twice).  Printed per kernel and library: the CPU milliseconds of the first build (the
first time this process sees that shape) and the median of the others, and the ratio of
the medians.  A warm-up kernel of another shape runs first in each library, so module
imports count in neither.

The translator remembers pure answers for the whole process by what they are about, not by
the kernel (since h48: isl questions by the text of the sets asked about, parsed expression
and domain texts, the texts of plain guards and subscripts), so a repeat of a shape finds
them: the median is the cost of a kernel like one built before (a file of many similar
regions, a kernel rebuilt with other parameters), the first build the cold cost.

The column "first, warm process" is the first build of a shape in a process that has
imported every module of the library and built every *other* kernel of this benchmark
twice (warm-up kernel included) before: module imports and one-time set-up excluded, the
process-wide memos holding only unrelated shapes.  Each number is the median over
``--first-runs`` fresh processes (this script run with ``--warm-first KERNEL``), loopy's
measured the same way.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np


def ours() -> SimpleNamespace:
    import transforms
    import translator
    return SimpleNamespace(
        name="translator", make_kernel=translator.make_kernel, GlobalArg=translator.GlobalArg,
        ValueArg=translator.ValueArg,
        split_iname=transforms.split_iname, add_prefetch=transforms.add_prefetch,
        code=lambda k: translator.generate_code(k).device_code)


def loopy() -> SimpleNamespace:
    import loopy as lp
    lp.set_caching_enabled(False)

    def make_kernel(domains, instructions, data=None, name="knl"):
        return lp.make_kernel(domains, instructions, data or ["..."], name=name,
                              lang_version=(2018, 2))
    return SimpleNamespace(
        name="loopy", make_kernel=make_kernel, GlobalArg=lp.GlobalArg, ValueArg=lp.ValueArg,
        split_iname=lp.split_iname, add_prefetch=lp.add_prefetch,
        code=lambda k: lp.generate_code_v2(k).device_code())


def saxpy(lib: SimpleNamespace, name: str):
    knl = lib.make_kernel("{[i]: 0<=i<n}", "y[i] = a*x[i] + y[i]",
                          [lib.ValueArg("a", np.float32), lib.GlobalArg("x", np.float32, shape="n"),
                           lib.GlobalArg("y", np.float32, shape="n"), "..."], name=name)
    return lib.split_iname(knl, "i", 128, outer_tag="g.0", inner_tag="l.0")


def stencil(lib: SimpleNamespace, name: str):
    knl = lib.make_kernel(
        "{[i,j]: 1<=i<n-1 and 1<=j<n-1}",
        "out[i,j] = u[i-1,j] + u[i+1,j] + u[i,j-1] + u[i,j+1] - 4*u[i,j]",
        [lib.GlobalArg("u", np.float32, shape="n,n"),
         lib.GlobalArg("out", np.float32, shape="n,n"), "..."], name=name)
    knl = lib.split_iname(knl, "i", 16, outer_tag="g.1", inner_tag="l.1")
    return lib.split_iname(knl, "j", 16, outer_tag="g.0", inner_tag="l.0")


def matmul(lib: SimpleNamespace, name: str):
    knl = lib.make_kernel(
        "{[i,j,k]: 0<=i<n and 0<=j<n and 0<=k<n}", "c[i,j] = sum(k, a[i,k]*b[k,j])",
        [lib.GlobalArg(v, np.float32, shape="n,n") for v in "abc"] + ["..."], name=name)
    knl = lib.split_iname(knl, "i", 16, outer_tag="g.1", inner_tag="l.1")
    return lib.split_iname(knl, "j", 16, outer_tag="g.0", inner_tag="l.0")


def matmul_prefetch(lib: SimpleNamespace, name: str):
    """loopy's tutorial matmul: 16x16 tiles, both inputs prefetched into local memory."""
    knl = lib.make_kernel(
        "{[i,j,k]: 0<=i,j,k<n}", "c[i,j] = sum(k, a[i,k]*b[k,j])",
        [lib.GlobalArg(v, np.float32, shape="n,n") for v in "abc"] + ["..."], name=name)
    knl = lib.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.1")
    knl = lib.split_iname(knl, "j", 16, outer_tag="g.1", inner_tag="l.0")
    knl = lib.split_iname(knl, "k", 16)
    outer = "i_outer,j_outer,k_outer"
    knl = lib.add_prefetch(knl, "a", ["k_inner", "i_inner"], default_tag="l.auto",
                           fetch_outer_inames=outer)
    return lib.add_prefetch(knl, "b", ["j_inner", "k_inner"], default_tag="l.auto",
                            fetch_outer_inames=outer)


def many(count: int):
    def build(lib: SimpleNamespace, name: str):
        insns = ["t0[i] = a[i] {id=s0}"]
        insns += [f"t{k}[i] = 0.5*t{k - 1}[i] + {k} {{id=s{k}, dep=s{k - 1}}}"
                  for k in range(1, count)]
        data = [lib.GlobalArg("a", np.float32, shape="n")]
        data += [lib.GlobalArg(f"t{k}", np.float32, shape="n") for k in range(count)]
        knl = lib.make_kernel("{[i]: 0<=i<n}", insns, [*data, "..."], name=name)
        return lib.split_iname(knl, "i", 128, outer_tag="g.0", inner_tag="l.0")
    build.__name__ = f"{count} statements"
    return build


def warm_up(lib: SimpleNamespace, name: str):
    knl = lib.make_kernel("{[q]: 0<=q<m}", "w[q] = 2*v[q]",
                          [lib.GlobalArg("v", np.float64, shape="m"),
                           lib.GlobalArg("w", np.float64, shape="m"), "..."], name=name)
    return lib.split_iname(knl, "q", 64, outer_tag="g.0", inner_tag="l.0")


def cpu_ms(lib: SimpleNamespace, build, name: str) -> float:
    t0 = time.process_time()
    text = lib.code(build(lib, name))
    assert "__kernel" in text
    return (time.process_time() - t0) * 1e3


def measure(lib: SimpleNamespace, build, repeat: int) -> tuple[float, float]:
    """(first build, median of the others) in CPU ms."""
    base = build.__name__.replace(" ", "_")
    runs = [cpu_ms(lib, build, f"{base}_{k}") for k in range(repeat)]
    return runs[0], statistics.median(runs[1:] or runs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--statements", type=int, default=200)
    ap.add_argument("--only", choices=("translator", "loopy"),
                    help="time one library (e.g. loopy under another islpy than ours needs)")
    ap.add_argument("--first-runs", type=int, default=3,
                    help="fresh processes per kernel for the warm-process first build")
    ap.add_argument("--warm-first", metavar="KERNEL",
                    help="(internal) print the first build of KERNEL in a warm process")
    args = ap.parse_args()
    kernels = [saxpy, stencil, matmul, matmul_prefetch, many(args.statements)]
    if args.warm_first:
        lib = ours() if args.only != "loopy" else loopy()
        print(f"{warm_first_ms(lib, kernels, args.warm_first):.3f}")
        return 0
    if args.only:
        return _one_library(ours() if args.only == "translator" else loopy(), kernels,
                            args.repeat)
    libs = [ours(), loopy()]
    for lib in libs:
        measure(lib, warm_up, 2)
    print("| kernel | translator first / median (ms) | loopy first / median (ms) "
          "| loopy / translator (median) | first, warm process: translator / loopy (ms) "
          "| loopy / translator (warm first) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for build in kernels:
        f1, m1 = measure(libs[0], build, args.repeat)
        w1 = fresh_first_ms("translator", build.__name__, args)
        try:
            f2, m2 = measure(libs[1], build, args.repeat)
        except Exception as err:  # noqa: BLE001 - a library that fails a kernel is a row too
            print(f"| {build.__name__} | {f1:.1f} / {m1:.1f} | failed: "
                  f"{type(err).__name__}: {str(err)[:60]} | | {w1:.1f} / | |", flush=True)
            continue
        w2 = fresh_first_ms("loopy", build.__name__, args)
        print(f"| {build.__name__} | {f1:.1f} / {m1:.1f} | {f2:.1f} / {m2:.1f} "
              f"| {m2 / m1:.1f}x | {w1:.1f} / {w2:.1f} | {w2 / w1:.1f}x |", flush=True)
    return 0


def import_everything(lib: SimpleNamespace) -> None:
    """Import every module of the library's packages (those that import at all), so that a
    first build pays no module import."""
    roots = ("translator", "transforms") if lib.name == "translator" else ("loopy",)
    for root in roots:
        package = importlib.import_module(root)
        for info in pkgutil.walk_packages(package.__path__, root + "."):
            if info.name.startswith(("translator.server", "translator.cli")) or \
                    info.name.rsplit(".", 1)[-1] in ("cli", "__main__"):
                continue   # entry points, not the API (loopy's parses sys.argv on import)
            try:
                importlib.import_module(info.name)
            except Exception:  # noqa: BLE001, S112 - optional parts (another backend's deps)
                continue


def warm_first_ms(lib: SimpleNamespace, kernels: list, target: str) -> float:
    """CPU ms of the first build of `target` after every other kernel was built twice."""
    import_everything(lib)
    measure(lib, warm_up, 2)
    for build in kernels:
        if build.__name__ != target:
            try:
                measure(lib, build, 2)
            except Exception:  # noqa: BLE001, S112 - loopy fails one kernel (see the table)
                continue
    build = next(b for b in kernels if b.__name__ == target)
    return cpu_ms(lib, build, "warm_first")


def fresh_first_ms(library: str, kernel: str, args: argparse.Namespace) -> float:
    """The median over `args.first_runs` fresh processes of `warm_first_ms`."""
    command = [sys.executable, __file__, "--warm-first", kernel, "--only", library,
               "--statements", str(args.statements)]
    runs = [float(subprocess.run(command, check=True, capture_output=True,
                                 text=True).stdout.split()[-1])
            for _ in range(args.first_runs)]
    return statistics.median(runs)


def _one_library(lib: SimpleNamespace, kernels: list, repeat: int) -> int:
    measure(lib, warm_up, 2)
    print(f"| kernel | {lib.name} first / median (ms) |")
    print("| --- | ---: |")
    for build in kernels:
        try:
            first, median = measure(lib, build, repeat)
        except Exception as err:  # noqa: BLE001
            print(f"| {build.__name__} | failed: {type(err).__name__}: {str(err)[:60]} |")
            continue
        print(f"| {build.__name__} | {first:.1f} / {median:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
