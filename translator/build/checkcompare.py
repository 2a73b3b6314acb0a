"""Reading the dumps of ``translate check`` and finding the first difference.

Values are compared exactly for integers and booleans; floating-point values within a
relative tolerance (default 1e-9 for double, 1e-4 for float: the device may contract
``a*b + c`` into one rounding, or sum in another order; the float tolerance also for a double
array whose values were computed in float, such as ``sinf`` results), NaN equal to NaN.
"""

from __future__ import annotations

import re
import signal
from collections import Counter
from dataclasses import field
from pathlib import Path
from typing import Any

import numpy as np
import pymbolic.primitives as p

from translator.ir.expr import IRWalkMapper
from translator.records import dataclass

DEFAULT_RTOL = {"float64": 1e-9, "float32": 1e-4, "float16": 1e-2}


@dataclass
class Record:
    """One region execution: its value arguments and the arrays it wrote."""

    region: str
    values: dict[str, np.ndarray] = field(default_factory=dict)
    arrays: dict[str, np.ndarray] = field(default_factory=dict)


def read_dump(path: Path) -> list[Record]:
    """Parse a dump file (format in `translator.build.checkglue`); a record cut short by a
    crash is dropped."""
    data = Path(path).read_bytes()
    records, pos, current = [], 0, None
    while pos < len(data):
        end = data.find(b"\n", pos)
        if end < 0:
            break
        head = data[pos:end].decode("ascii", "replace").split(" ")
        pos = end + 1
        if head[0] == "R":
            current = Record(region=head[1])
        elif head[0] == "E" and current is not None:
            records.append(current)
            current = None
        elif head[0] in ("V", "A") and current is not None:
            nbytes = int(head[-1])
            if pos + nbytes + 1 > len(data):
                break
            arr = np.frombuffer(data[pos:pos + nbytes], dtype=np.dtype(head[2]))
            (current.values if head[0] == "V" else current.arrays)[head[1]] = arr
            pos += nbytes + 1
        else:
            break
    return records


def _close(a: np.ndarray, b: np.ndarray, rtol: float | None, atol: float,
           computed: np.dtype | None = None) -> np.ndarray:
    """Elementwise agreement: exact for integers; for floating-point values within `rtol`,
    by default the tolerance of the narrower of the array's type and `computed` (the type the
    values were computed in: ``sinf`` results stored in a double array)."""
    if a.dtype.kind in "fc":
        tol = rtol if rtol is not None else max(
            DEFAULT_RTOL.get(_real_name(t), 1e-9) for t in (a.dtype, computed) if t is not None)
        return np.isclose(a, b, rtol=tol, atol=atol, equal_nan=True)
    return a == b


def _real_name(dtype: np.dtype) -> str:
    """The real type of a complex one (complex64 -> float32), else the type's own name."""
    dtype = np.dtype(dtype)
    return np.finfo(dtype).dtype.name if dtype.kind == "c" else dtype.name


def computed_precision(kernel: Any, name: str) -> np.dtype | None:
    """The narrowest floating-point type of an operation (arithmetic, a call) whose result
    flows into array `name` in `kernel`, through the temporaries it reads; None if none (a
    read of a float converted to double is exact and does not count)."""
    from translator.ir.expr import dependencies
    from translator.ir.types import TypeOracle
    if kernel is None:
        return None
    walker = _FloatOperations(TypeOracle(kernel))
    names, seen = [name], {name}
    while names:
        target = names.pop()
        for stmt in kernel.statements:
            if target in stmt.assignee_names() and hasattr(stmt, "expression"):
                walker(stmt.expression)
                for tmp in sorted(dependencies(stmt.expression) & set(kernel.temporaries)
                                  - seen):
                    seen.add(tmp)
                    names.append(tmp)
    return min(walker.found, key=lambda t: t.itemsize, default=None)


class _FloatOperations(IRWalkMapper):
    """The floating-point types of the arithmetic operations and calls of an expression."""

    _OPERATIONS = (p.Sum, p.Product, p.Quotient, p.Power, p.Call, p.FloorDiv, p.Remainder)

    def __init__(self, oracle: Any) -> None:
        super().__init__()
        self.oracle = oracle
        self.found: set[np.dtype] = set()

    def visit(self, expr: Any, *args: Any, **kwargs: Any) -> bool:
        if isinstance(expr, self._OPERATIONS):
            dtype = self.oracle.typed(expr).dtype
            if dtype is not None and np.dtype(dtype).kind in "fc":
                self.found.add(np.dtype(_real_name(dtype)))
        return True


def element_name(name: str, flat: int, kernel: Any, values: dict[str, np.ndarray],
                 language: str) -> str:
    """``a[2][3]`` (C) or ``a(3, 4)`` (Fortran: positions from 1 along each axis) for the
    element at `flat` of an array argument; ``a[flat]`` when the layout cannot be evaluated."""
    index = _multi_index(kernel, name, flat, values)
    if index is None:
        return f"{name}[{flat}]" if language == "c" else f"{name}(element {flat + 1})"
    if language == "c":
        return name + "".join(f"[{i}]" for i in index)
    return f"{name}({', '.join(str(i + 1) for i in index)})"


def _multi_index(kernel: Any, name: str, flat: int, values: dict[str, np.ndarray]
                 ) -> tuple[int, ...] | None:
    from pymbolic import evaluate

    from translator.ir.data import NestingTag, strides
    arg = kernel.arg(name) if kernel is not None else None
    if arg is None or not getattr(arg, "shape", None) or arg.dim_tags is None:
        return None
    if not all(isinstance(t, NestingTag) for t in arg.dim_tags):
        return None
    env = {k: v[0].item() for k, v in values.items() if v.size == 1}
    try:
        steps = [int(evaluate(s, env)) for s in strides(arg.shape, arg.dim_tags)]
        rest = flat - int(evaluate(arg.offset, env))
    except Exception:  # a size the dump cannot evaluate: fall back to the flat index
        return None
    index = [0] * len(steps)
    for axis in sorted(range(len(steps)), key=lambda k: -steps[k]):
        if steps[axis] <= 0:
            return None
        index[axis], rest = divmod(rest, steps[axis])
    return tuple(index) if rest == 0 else None


def _where(regions: dict[str, Any], name: str) -> str:
    region = regions.get(name, (None,))[0]
    span = getattr(region, "span", None)
    return f"{span.file}:{span.line}: " if span is not None else ""


def compare_record(k: int, total: Counter, seen: Counter, a: Record, b: Record,
                   regions: dict[str, Any], rtol: float | None, atol: float) -> str:
    """The first difference between two records of the same position, or ""."""
    run = f"execution {seen[a.region]} of {total[a.region]}"
    where = _where(regions, a.region)
    if a.region != b.region:
        return (f"{where}error: region execution {k + 1}: the original ran region "
                f"{a.region}, the translated program ran {b.region}\n")
    for name in sorted(a.values):
        if name in b.values and a.values[name].tobytes() != b.values[name].tobytes():
            first, second = a.values[name][0].item(), b.values[name][0].item()
            return (f"{where}error: region {a.region}, {run}: value argument {name} differs "
                    f"(original {first!r}, translated {second!r}): the programs took "
                    "different paths before this region\n")
    _, kernel, language = regions.get(a.region, (None, None, "c"))
    for name in a.arrays:
        x, y = a.arrays[name], b.arrays.get(name)
        if y is None or x.shape != y.shape or x.dtype != y.dtype:
            return (f"{where}error: region {a.region}, {run}: array {name} was dumped with "
                    "different sizes by the two programs\n")
        computed = computed_precision(kernel, name) if x.dtype.kind in "fc" else None
        bad = np.flatnonzero(~_close(x, y, rtol, atol, computed))
        if bad.size:
            i = int(bad[0])
            elem = element_name(name, i, kernel, a.values, language)
            return (f"{where}error: region {a.region}, {run}: {elem} differs: original "
                    f"{x[i].item()!r}, translated {y[i].item()!r} ({bad.size} of {x.size} "
                    f"elements of {name} differ; this is the first)\n")
    return ""


def ended(returncode: int) -> str:
    """How a program that did not succeed ended: its exit status, or the signal that killed it
    (a negative return code from subprocess)."""
    if returncode >= 0:
        return f"exited with status {returncode}"
    try:
        name = signal.Signals(-returncode).name
    except ValueError:
        name = "an unknown signal"
    return f"was killed by signal {-returncode} ({name})"


def compare_runs(orig: Any, tran: Any, regions: dict[str, Any], *, rtol: float | None = None,
                 atol: float = 0.0) -> tuple[str, bool]:
    """The verdict text and whether every region execution matched."""
    if orig.returncode != 0:
        return (f"translate check: error: the original program {ended(orig.returncode)}:\n"
                f"{orig.stderr[-4000:]}", False)
    total = Counter(r.region for r in orig.records)
    seen: Counter = Counter()
    for k, (a, b) in enumerate(zip(orig.records, tran.records)):
        seen[a.region] += 1
        diff = compare_record(k, total, seen, a, b, regions, rtol, atol)
        if diff:
            return diff, False
    if tran.returncode != 0:
        return (f"translate check: error: the translated program {ended(tran.returncode)} "
                f"after {len(tran.records)} of {len(orig.records)} region "
                f"executions:\n{tran.stderr[-4000:]}", False)
    if len(orig.records) != len(tran.records):
        return (f"translate check: error: the original program ran {len(orig.records)} region "
                f"executions, the translated program {len(tran.records)}\n", False)
    counts = ", ".join(f"{name} x{n}" for name, n in sorted(total.items()))
    text = (f"translate check: all {len(orig.records)} region executions match "
            f"({counts or 'no region ran'})\n")
    if orig.stdout != tran.stdout:
        diff = output_difference(orig.stdout, tran.stdout)
        if diff:
            return f"translate check: error: {diff}\n", False
        text += ("translate check: note: the programs' standard output differs in the digits "
                 "of floating-point numbers only (rounding in the device's arithmetic)\n")
    return text, True


#: A number as programs print it (Fortran's ``1.5D+00`` included); whatever lies between two
#: numbers is text.
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eEdD][+-]?\d+)?")


def output_difference(original: str, translated: str) -> str:
    """Why two standard outputs differ in more than the digits of floating-point numbers, or
    "" when they do not: other line or number counts, other text, or another integer (an
    integer is never a rounding difference)."""
    lines_a, lines_b = original.splitlines(), translated.splitlines()
    if len(lines_a) != len(lines_b):
        return (f"the original program printed {len(lines_a)} lines, the translated program "
                f"{len(lines_b)}")
    for k, (a, b) in enumerate(zip(lines_a, lines_b)):
        if a != b and not _same_but_rounding(a, b):
            return (f"standard output line {k + 1} differs: original {a.strip()!r}, "
                    f"translated {b.strip()!r}")
    return ""


def _same_but_rounding(a: str, b: str) -> bool:
    """Whether two lines differ only in floating-point numbers (same text between them, the
    same count of numbers, integers equal)."""
    if [t.split() for t in _NUMBER.split(a)] != [t.split() for t in _NUMBER.split(b)]:
        return False   # (the width of a number's field may change with its digits)
    nums_a, nums_b = _NUMBER.findall(a), _NUMBER.findall(b)
    if len(nums_a) != len(nums_b):
        return False
    return all(x == y or not (_is_integer(x) and _is_integer(y))
               for x, y in zip(nums_a, nums_b))


def _is_integer(token: str) -> bool:
    return token.lstrip("+-").isdigit()
