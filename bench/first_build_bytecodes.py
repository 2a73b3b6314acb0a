"""Python bytecodes executed by the first build of one of `bench_loopy.py`'s kernels in a
warm process, per function (issue 24).

Not a test.  The process imports every module and builds every other kernel twice (as
``bench_loopy.py --warm-first`` does), then runs the target's build under `sys.settrace`
with ``f_trace_opcodes``: the count is the same to the bytecode from run to run, so it ranks
the Python costs of a build on a loaded machine, where cProfile's times move by a factor of
three.  It does not see C code (isl, pymbolic's cached hashes): cachegrind counts those::

    python bench/first_build_bytecodes.py stencil [--top 40]
    python bench/first_build_bytecodes.py "20 statements"

Printed: the total, then the functions by bytecodes of their own (count, calls, function),
then by bytecodes of themselves and everything they called (a recursive function counted
once per outermost call).
"""

from __future__ import annotations

import argparse
import collections
import gc
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_loopy  # noqa: E402 - beside this file


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernel", help="saxpy, stencil, matmul, matmul_prefetch, '20 statements'")
    ap.add_argument("--top", type=int, default=40)
    args = ap.parse_args()
    lib = bench_loopy.ours()
    kernels = [bench_loopy.saxpy, bench_loopy.stencil, bench_loopy.matmul,
               bench_loopy.matmul_prefetch, bench_loopy.many(20)]
    build = next(k for k in kernels if k.__name__ == args.kernel)
    bench_loopy.import_everything(lib)
    bench_loopy.measure(lib, bench_loopy.warm_up, 2)
    for other in kernels:
        if other is not build:
            bench_loopy.measure(lib, other, 2)
    own: collections.Counter = collections.Counter()
    inclusive: collections.Counter = collections.Counter()
    calls: collections.Counter = collections.Counter()
    stack: list[tuple[object, int]] = []
    total = [0]

    def tracer(frame, event, arg):
        if event == "call":
            frame.f_trace_opcodes = True
            stack.append((frame.f_code, total[0]))
            calls[frame.f_code] += 1
        elif event == "opcode":
            total[0] += 1
            own[frame.f_code] += 1
        elif event == "return" and stack:
            code, start = stack.pop()
            if all(c is not code for c, _ in stack):
                inclusive[code] += total[0] - start
        return tracer

    gc.collect()
    sys.settrace(tracer)
    lib.code(build(lib, "bytecodes"))
    sys.settrace(None)
    print(f"total bytecodes: {total[0]}")
    for title, table in (("own", own), ("inclusive", inclusive)):
        print(f"--- {title}")
        for code, count in table.most_common(args.top):
            print(f"{count:9d} {calls[code]:6d}  {code.co_filename}:{code.co_firstlineno}"
                  f"({code.co_name})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
