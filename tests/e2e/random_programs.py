"""Random whole programs in C and Fortran for the end-to-end differential fuzzer
(bench/e2e_fuzz.py, tests/e2e/test_e2e_fuzz.py).

`make_case(seed, lang, k)` draws one program: a procedure ``p<k>`` with 1-3 regions, each a
loop nest of depth 1-3 (constant, parametric and triangular bounds, negative and non-unit
steps) over arrays of rank 1-3 and types float, double, int and int64, with affine, indirect
and integer-division subscripts, private temporaries, IF/ELSE setting scalars, reductions
(+ * max min), intrinsic calls (sqrt, abs, min, max, mod), integer division, and a random
choice of transform pragmas (split, tag, unroll, prefetch) or OpenMP claims (some true, some
false); plus a driver ``run<k>`` that fills the arrays, calls it and prints every output.

Values stay exact where the translator may reorder: a reduction's term reads only read-only
inputs (dyadic values, small integers) so that a parallel sum or product gives the same bits;
integer expressions add at most one value that the region computed, so nothing overflows.
Every subscript is proved inside its array's extent by interval arithmetic over the loop
variables' values.

A case also renders a *reversed* original: each loop the pragmas or directives claim parallel
as a whole runs its iterations backwards.  If that program prints something else, the claim is
false (its iterations depend on their order), and a translation that accepted it is unsound
even where the CPU device happened to print the right numbers.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

DTYPES = ("f32", "f64", "i32", "i64")
C_TYPE = {"f32": "float", "f64": "double", "i32": "int", "i64": "long"}
F_TYPE = {"f32": "real(4)", "f64": "real(8)", "i32": "integer", "i64": "integer(8)"}
EXTENTS = {1: (40,), 2: (24, 24), 3: (12, 12, 12)}
IX_EXTENT, IX_VALUES = 16, 8
RES = 8
LOOP_VARS = ("i", "j", "k", "l", "v", "w", "q", "r", "z")

# Shapes of the second round (h76), each drawn only where `make_case` is given its name, so
# that a seed without features is the program it always was:
#   math      exp, log (of a positive value), sin, cos, floor, fmod of exact arguments; the
#             outputs of such a case are compared with a tolerance (OpenCL's ulps), and no
#             condition reads a computed value (a branch must not flip on an ulp)
#   guard     reductions under an IF, and the legacy max/min ``if (e > s) s = e``
#   stencil   writes of neighbour sums of a read-only array (3, 5 or 7 points)
#   swap      two arrays written by one group of statements (``t = a(s); a(s) = b(s); b(s) = t``)
#   modulo    Fortran ``modulo`` (C ``((a % b) + b) % b``): the sign of the divisor, in
#             expressions and periodic subscripts
#   implicit  widening conversions and assignment conversions left implicit (C's usual
#             arithmetic conversions, Fortran's mixed-kind rules), single-precision literals
#             in double expressions
# Shapes of the third round (h84), drawn alike only where asked:
#   pow       powers: a real to a real exponent (C pow/powf of a positive base, Fortran
#             ``**``), a real to an integer exponent (Fortran ``x**n``, C ``pow(x, n)``), and
#             Fortran's integer ``i**k`` (exact: small bases and exponents, negative ones too)
#   atan2     atan2 of exact arguments
# Real powers and atan2 are compared with a tolerance, as `math`'s built-ins are.
# Shapes of the fourth round (h91): the features of sessions 14-15, drawn alike only where asked:
#   gather    reads through index tables: ``b(ix(i))``, C pointers (``const T *restrict``)
#             read through a table, ``b[ix[i]*w + j]`` (srad's rows); a table ``tw`` filled by a
#             region of its own at the start of the procedure (values in range), held on the
#             device by a data region (``create``) in translate mode: the gathers' run-time
#             scans must read the device's copy
#   varying   loops whose trip count varies per iteration (``do k = 0, ix(i) - 1``), a private
#             per-row sum in them stored after the loop, cutoff conditions on a private value
#             (``if (r2 < 3) s = s + e``) around reductions
#   indexvar  integer locals set from loop variables (``t = 2*j - 2``) used as subscripts
#   branches  nested IF/ELSE setting a private scalar, a scalar set before an IF and reset in
#             it, an early exit (``if (c) cycle`` / ``continue;``) before a loop body's writes
#   components (Fortran) arrays of rank 2 and 3 passed as an array of a derived type whose
#             component holds the other axes: ``b0(j)%v(i)``
#   atomic    (OpenMP claims) ``#pragma omp atomic`` / ``!$omp atomic`` updates of a histogram
#             array through a table: integer ``|= &= ^= +=``, float ``+=``, C ``atomic compare``
#             max/min (Fortran ``x = max(x, e)``)
SECOND_ROUND = ("math", "guard", "stencil", "swap", "modulo", "implicit")
THIRD_ROUND = ("pow", "atan2")
FOURTH_ROUND = ("gather", "varying", "indexvar", "branches", "atomic", "components")
FEATURES = SECOND_ROUND + THIRD_ROUND + FOURTH_ROUND
#: The features whose built-ins are not exact (OpenCL allows them some ulps).
TOLERANT = frozenset({"math", "atan2"})


def is_float(dtype: str) -> bool:
    return dtype.startswith("f")


# ---------------------------------------------------------------------------------------------
# the program model: expressions are tuples
#   ("const", value, dtype) ("var", name, dtype) ("elem", array, (index, ...), dtype)
#   ("bin", op, a, b, dtype)  op in + - * / %      ("call", name, (args...), dtype)
#   ("cast", e, dtype)

@dataclass
class Array:
    name: str
    dtype: str
    rank: int
    role: str               # "in" (read only), "out" (read and written), "ix", "unit",
    #                         "tab" (an index table the procedure fills), "hist" (atomics only)
    lbound: int = 0         # Fortran lower bound of every axis
    pointer: bool = False   # C: a pointer parameter (``const T *restrict``) rather than T a[N]
    component: bool = False  # Fortran: ``a(k)%v(i, j)``, the last axis an array of a type

    @property
    def extents(self) -> tuple[int, ...]:
        if self.role in ("ix", "tab"):
            return (IX_EXTENT,)
        if self.role == "res":
            return (RES,)
        return EXTENTS[self.rank]


@dataclass
class Loop:
    var: str
    start: tuple            # index expressions (Fortran DO semantics: inclusive stop)
    stop: tuple
    step: int
    body: list = field(default_factory=list)
    reverse: bool = False   # rendered backwards in the reversed original


@dataclass
class Assign:
    target: tuple           # ("var", name, dtype) or ("elem", ...)
    value: tuple
    compound: bool = False  # C ``+=`` for ``x = x + e``
    atomic: str = ""        # "update" (``x = x op e``) or "compare" (``x = max(x, e)``)


@dataclass
class If:
    cond: tuple             # ("cmp", op, a, b)
    then: list
    orelse: list


@dataclass
class Cycle:
    """C ``continue;``, Fortran ``cycle``: the rest of the innermost loop's body is skipped."""


@dataclass
class Region:
    name: str
    pragmas: list[str]      # transform calls (translate mode)
    omp: str | None         # the OpenMP clause text after ``parallel for``/``parallel do``
    init: list              # accumulator inits inside the region, before the nest
    nest: Loop
    after: list             # statements inside the region after the nest
    host_init: list         # accumulator inits before the region (host code)
    host_after: list        # statements after the region (host code)


@dataclass
class Case:
    seed: int
    lang: str               # "c" or "fortran"
    index: int
    arrays: list[Array]
    scalars: dict[str, str]  # local scalar name -> dtype
    regions: list[Region]
    n: int
    m: int
    directives: str = "translate"
    used: frozenset = frozenset()     # the FEATURES this case draws on
    real_powers: bool = False         # a real power is computed (integer powers are exact)
    table_fill: Region | None = None  # a region filling table ``tw`` before the others
    data_region: bool = False         # the procedure's body in ``data create(tw)``

    @property
    def tolerant(self) -> bool:
        """Whether float outputs are compared with a tolerance (built-ins of finite ulps)."""
        return bool(self.used & TOLERANT) or self.real_powers

    @property
    def stem(self) -> str:
        return f"case{self.index}"

    @property
    def suffix(self) -> str:
        return ".c" if self.lang == "c" else ".f90"

    def has_claims(self) -> bool:
        return any(_any_reversed(r.nest) for r in self.regions)


def _any_reversed(loop: Loop) -> bool:
    return loop.reverse or any(_any_reversed(s) for s in loop.body if isinstance(s, Loop))


# ---------------------------------------------------------------------------------------------
# interval arithmetic over index expressions

def interval(e: tuple, env: dict[str, tuple[int, int]]) -> tuple[int, int]:
    """The least and greatest value of integer expression `e` with variables in `env`."""
    kind = e[0]
    if kind == "const":
        return e[1], e[1]
    if kind == "var":
        return env[e[1]]
    if kind == "elem":              # an index array: its values
        return 0, IX_VALUES - 1
    if kind == "bin":
        a, b = interval(e[2], env), interval(e[3], env)
        return _bin_interval(e[1], a, b)
    raise ValueError(f"no interval for {e!r}")


def _trunc_div(x: int, y: int) -> int:
    q = abs(x) // abs(y)
    return q if (x >= 0) == (y > 0) else -q


def _bin_interval(op: str, a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    if op == "+":
        return a[0] + b[0], a[1] + b[1]
    if op == "-":
        return a[0] - b[1], a[1] - b[0]
    if op == "*":
        products = [x * y for x in a for y in b]
        return min(products), max(products)
    if op == "/":                   # by a constant: monotone in the dividend
        assert b[0] == b[1] and b[0] != 0
        ends = [_trunc_div(x, b[0]) for x in a]
        return min(ends), max(ends)
    if op == "%":                   # by a constant c: |result| < |c|, sign of the dividend
        c = abs(b[0]) - 1
        return (-c if a[0] < 0 else 0), (c if a[1] > 0 else 0)
    if op == "mod":                 # Fortran modulo by a constant c: the sign of c
        c = b[0]
        return (0, c - 1) if c > 0 else (c + 1, 0)
    raise ValueError(op)


# ---------------------------------------------------------------------------------------------
# the generator

def c(value: int) -> tuple:
    return ("const", value, "i32")


def var(name: str, dtype: str = "i32") -> tuple:
    return ("var", name, dtype)


def add(a: tuple, b: tuple, dtype: str = "i32") -> tuple:
    if b[0] == "const" and b[1] == 0:
        return a
    if b[0] == "const" and b[1] < 0:
        return ("bin", "-", a, ("const", -b[1], b[2]), dtype)
    return ("bin", "+", a, b, dtype)


class Generator:
    """Draws one case from `seed`; see the module docstring."""

    def __init__(self, seed: int, lang: str, index: int,
                 features: frozenset = frozenset()) -> None:
        self.rng = random.Random(seed * 1_000_003 + (7 if lang == "c" else 11))
        self.seed, self.lang, self.index = seed, lang, index
        self.features = frozenset(features)
        self.used: set[str] = set()
        self.n = self.rng.randint(3, 7)
        self.m = self.rng.randint(0, 4)
        self.scalars: dict[str, str] = {}
        self.arrays = self.make_arrays()
        self.res_slot = {"f": 0, "i": 0}
        self.directives = "openmp" if self.rng.random() < 0.25 else "translate"
        self.real_powers = False
        self.pending_sum: tuple[str, str] | None = None
        self.hist_ops: dict[str, str] = {}     # the operator of each histogram's atomics
        self.table_fill: Region | None = None
        self.data_region = False
        if self.features:
            self.fourth_round_arrays()

    # arrays and scalars

    def make_arrays(self) -> list[Array]:
        rng, out = self.rng, []
        lb = (lambda: rng.choice([0, 1, 1, -2])) if self.lang == "fortran" else (lambda: 0)
        for k in range(rng.randint(2, 4)):
            out.append(Array(f"b{k}", rng.choice(DTYPES), rng.choice([1, 1, 2, 3]), "in", lb()))
        for k in range(rng.randint(1, 3)):
            out.append(Array(f"a{k}", rng.choice(DTYPES), rng.choice([1, 1, 2, 2, 3]), "out",
                             lb()))
        out.append(Array("ix", "i32", 1, "ix", lb()))
        out.append(Array("uf", "f64", 1, "unit", lb()))
        out.append(Array("ui", "i32", 1, "unit", lb()))
        return out

    def fourth_round_arrays(self) -> None:
        """Pointers, the filled table and the histogram arrays (only with their features)."""
        rng = self.rng
        if self.feature("gather", 0.6):
            if self.lang == "c":
                for a in self.arrays:
                    if a.rank == 1 and a.role in ("in", "out", "ix") and rng.random() < 0.6:
                        a.pointer = True
            if rng.random() < 0.5:
                lb = rng.choice([0, 1, -2]) if self.lang == "fortran" else 0
                tw = Array("tw", "i32", 1, "tab", lb, self.lang == "c" and rng.random() < 0.5)
                self.arrays.append(tw)
                q = var("i")
                value = ("bin", "%", ("bin", "+", ("bin", "*", q, c(rng.choice([3, 5, 7])),
                                                   "i32"), var("n"), "i32"), c(IX_VALUES), "i32")
                nest = Loop("i", c(0), c(IX_EXTENT - 1), 1,
                            [Assign(("elem", tw, (q,), "i32"), value)])
                omp = None
                if self.directives == "openmp":
                    omp, nest.reverse = "", True
                self.table_fill = Region(f"p{self.index}_tab", [], omp, [], nest, [], [], [])
                self.data_region = self.directives == "translate" and rng.random() < 0.6
        if self.lang == "fortran" and "components" in self.features and rng.random() < 0.5:
            for a in self.arrays:
                if a.rank > 1 and a.role in ("in", "out") and rng.random() < 0.7:
                    a.component = True
                    self.used.add("components")
        if self.directives == "openmp" and self.feature("atomic", 0.7):
            for k in range(rng.randint(1, 2)):
                self.arrays.append(Array(f"h{k}", rng.choice(DTYPES), 1, "hist",
                                         rng.choice([0, 1]) if self.lang == "fortran" else 0))

    def tables(self) -> list[Array]:
        return [a for a in self.arrays if a.role in ("ix", "tab")]

    def table(self) -> Array:
        tables = self.tables()
        return tables[0] if len(tables) == 1 else self.rng.choice(tables)

    def arrays_with(self, role: str) -> list[Array]:
        return [a for a in self.arrays if a.role == role]

    def new_scalar(self, prefix: str, dtype: str) -> str:
        name = f"{prefix}{len(self.scalars)}"
        self.scalars[name] = dtype
        return name

    # the case

    def case(self) -> Case:
        regions = [self.region(r) for r in range(self.rng.randint(1, 3))]
        if "implicit" in self.features:
            for region in regions:
                self.implicit_conversions(region)
        return Case(self.seed, self.lang, self.index, self.arrays, self.scalars, regions,
                    self.n, self.m, self.directives, frozenset(self.used), self.real_powers,
                    self.table_fill, self.data_region)

    def feature(self, name: str, p: float) -> bool:
        """Whether to draw feature `name` here (probability `p`); no draw without it."""
        if name not in self.features or self.rng.random() >= p:
            return False
        self.used.add(name)
        return True

    def region(self, r: int) -> Region:
        rng = self.rng
        self.used_vars = iter(LOOP_VARS)
        self.loops: list[Loop] = []
        self.accs: list[tuple[str, str, str]] = []      # (name, dtype, op)
        init, host_init, after, host_after = [], [], [], []
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            dtype, op = rng.choice(DTYPES), rng.choice(["+", "+", "*", "max", "min"])
            name = self.new_scalar("s", dtype)
            self.accs.append((name, dtype, op))
            start = {"+": 1, "*": 1, "max": -1000, "min": 1000}[op]
            stmt = Assign(var(name, dtype), ("const", start, dtype))
            (init if rng.random() < 0.6 else host_init).append(stmt)
        nest = self.loop({}, [], depth=rng.choice([1, 2, 2, 3]))
        for name, dtype, _op in self.accs:
            store = self.store_result(var(name, dtype))
            in_region = rng.random() < 0.4 and self.directives == "translate"
            (after if in_region else host_after).append(store)
        pragmas, omp = self.mapping(nest)
        if rng.random() < 0.25 and not nest.reverse and self.directives == "translate":
            host_after.append(self.store_result(var(nest.var)))    # read after the region
        name = f"p{self.index}_r{r}"
        return Region(name, pragmas, omp, init, nest, after, host_init, host_after)

    def store_result(self, value: tuple) -> Assign:
        kind = "f" if is_float(value[2]) else "i"
        slot = self.res_slot[kind] % RES
        self.res_slot[kind] += 1
        if kind == "f":
            target = ("elem", Array("fres", "f64", 1, "res"), (c(slot),), "f64")
        else:
            target = ("elem", Array("ires", "i64", 1, "res"), (c(slot),), "i64")
        return Assign(target, ("cast", value, target[3]))

    # mappings

    def mapping(self, nest: Loop) -> tuple[list[str], str | None]:
        """Transform calls, or the clauses of an OpenMP claim on the outermost loop."""
        if self.directives == "openmp":
            return [], self.omp_clauses(nest)
        rng = self.rng
        if rng.random() < 0.15:
            return [], None              # automatic mapping
        loops = self.loops
        first = rng.choice(loops[:1] * 2 + loops)
        pragmas = [self.map_loop(first, 0)]
        deeper = [lp for lp in loops if lp is not first and lp.var not in pragmas[0]]
        if deeper and rng.random() < 0.3:
            pragmas.append(self.map_loop(rng.choice(deeper), 1))
        inner = [p for p in pragmas if 'inner_tag="l.' in p]
        read = sorted({a.name for a in _arrays_read(nest) if a.role == "in"})
        if inner and read and rng.random() < 0.3:
            v = inner[0].split('"')[1]
            pragmas.append(f'add_prefetch("{rng.choice(read)}", ["{v}_inner"], '
                           "fetch_bounding_box=True)")
        return pragmas, None

    def map_loop(self, loop: Loop, axis: int) -> str:
        rng, v = self.rng, loop.var
        kind = rng.random()
        if kind < 0.2:
            loop.reverse = True
            return f'tag_inames("{v}:g.{axis}")'
        if kind < 0.3:
            loop.reverse = True
            return f'tag_inames("{v}:l.{axis}")'
        factor = rng.choice([2, 3, 4, 5, 7, 13, 16])
        if kind < 0.65:
            loop.reverse = True
            return f'split_iname("{v}", {factor}, outer_tag="g.{axis}", inner_tag="l.{axis}")'
        if kind < 0.75:
            return f'split_iname("{v}", {factor}, inner_tag="l.{axis}")'
        if kind < 0.85:
            return f'split_iname("{v}", {factor}, outer_tag="g.{axis}")'
        return f'split_iname("{v}", {factor}, inner_tag="{rng.choice(["unr", "ilp"])}")'

    def omp_clauses(self, nest: Loop) -> str:
        """Clauses for the outermost loop: private temporaries and reductions, each left out
        now and then (a false claim)."""
        rng = self.rng
        nest.reverse = True
        clauses = []
        written = sorted(_scalars_written(nest) - {a[0] for a in self.accs})
        keep = [t for t in written if rng.random() < 0.9]
        if keep:
            clauses.append(f"private({', '.join(keep)})")
        ops = {"+": "+", "*": "*", "max": "max", "min": "min"}
        for name, _dtype, op in self.accs:
            if name in _scalars_written(nest) and rng.random() < 0.85:
                clauses.append(f"reduction({ops[op]}:{name})")
        inner = [s for s in nest.body if isinstance(s, Loop)]
        if inner and rng.random() < 0.25 and not _mentions(inner[0], nest.var):
            inner[0].reverse = True
            clauses.append("collapse(2)")
        return " ".join(clauses)

    # loops

    def bounds(self, env: dict[str, tuple[int, int]]) -> tuple[tuple, tuple, int]:
        rng = self.rng
        outer = [v for v in env if v in {lp.var for lp in self.loops}]
        if outer and self.feature("varying", 0.4):     # a trip count read from a table
            count = self.element(self.table(), env, plain=0.7)
            if rng.random() < 0.5:
                return c(0), add(count, c(-1)), 1
            return c(1), count, 1
        kind = rng.random()
        if kind < 0.3:
            lo = rng.randint(-2, 2)
            start, stop = c(lo), c(lo + rng.randint(0, 6))
        elif kind < 0.65:
            start = rng.choice([c(0), c(1), var("m")])
            stop = rng.choice([var("n"), add(var("n"), c(-1)), add(var("n"), c(1))])
        elif outer:
            o = var(rng.choice(outer))
            if rng.random() < 0.5:
                start, stop = add(o, c(rng.choice([0, 1]))), rng.choice([var("n"), c(6)])
            else:
                start, stop = c(rng.choice([0, 1])), add(o, c(rng.choice([-1, 0, 1])))
        else:
            start, stop = c(rng.choice([0, 1, 2])), add(var("n"), c(rng.choice([-2, 0])))
        step = rng.choice([1, 1, 1, 1, 2, 3])
        if rng.random() < 0.3:
            start, stop, step = stop, start, -step
        return start, stop, step

    def loop(self, env: dict, temps: list, depth: int) -> Loop:
        v = next(self.used_vars)
        start, stop, step = self.bounds(env)
        full = {"n": (self.n, self.n), "m": (self.m, self.m), **env}
        lo1, hi1 = interval(start, full)
        lo2, hi2 = interval(stop, full)
        node = Loop(v, start, stop, step)
        self.loops.append(node)
        inner_env = {**env, v: (min(lo1, lo2), max(hi1, hi2))}
        node.body = self.body(inner_env, list(temps), depth - 1)
        return node

    def body(self, env: dict, temps: list, depth: int) -> list:
        rng, out = self.rng, []
        row_sum, self.pending_sum = self.pending_sum, None
        if rng.random() < 0.5:
            out.append(self.temp_assign(env, temps))
        if self.features and self.feature("indexvar", 0.35) and env:
            env = self.index_local(env, out)
        if rng.random() < 0.3:
            _extend(out, self.if_else(env, temps))
        if depth > 0:
            if rng.random() < 0.3:
                out.append(self.array_write(env, temps))
            total = None
            if self.features and self.feature("varying", 0.3):
                dtype = rng.choice(DTYPES)
                total = (self.new_scalar("t", dtype), dtype)
                out.append(Assign(var(*total), ("const", 0, dtype)))
                self.pending_sum = total
            out.append(self.loop(env, temps, depth))
            self.pending_sum = None
            if total is not None:
                arr = rng.choice(self.arrays_with("out"))
                out.append(Assign(self.element(arr, env, plain=0.8),
                                  self.convert(var(*total), arr.dtype)))
                temps.append(total)
        if self.features and self.feature("branches", 0.15):     # an early exit
            out.append(If(self.condition(env, temps), [Cycle()], []))
        for _ in range(rng.randint(1, 2)):
            out.append(self.array_write(env, temps))
        if row_sum is not None:
            out += self.cutoff(env, temps, [self.sum_into(row_sum, env)])
        if self.features and self.directives == "openmp" and self.arrays_with("hist") \
                and self.feature("atomic", 0.6):
            out.append(self.atomic_update(env))
        if self.features:
            if self.feature("stencil", 0.35):
                out.append(self.stencil_write(env, temps))
            if self.feature("swap", 0.2):
                out += self.swap(env, temps)
        for acc in self.accs:
            if rng.random() < (0.7 if depth == 0 else 0.25):
                if self.features and self.feature("varying", 0.3):
                    out += self.cutoff(env, temps, [self.reduction(acc, env)])
                elif self.feature("guard", 0.4):
                    out.append(self.guarded_reduction(acc, env, temps))
                else:
                    out.append(self.reduction(acc, env))
        return out

    # statements of the fourth round

    def index_local(self, env: dict, out: list) -> dict:
        """``t = a*v + b`` (an integer local set from a loop variable), then usable as a
        subscript like the loop variables: the environment of the rest of the body."""
        rng = self.rng
        v = rng.choice(list(env))
        a, b = rng.choice([1, 2, 2, -1, 3]), rng.randint(-3, 3)
        value = add(("bin", "*", c(a), var(v), "i32") if a != 1 else var(v), c(b))
        name = self.new_scalar("t", "i32")
        out.append(Assign(var(name), value))
        return {**env, name: interval(value, env)}

    def sum_into(self, total: tuple[str, str], env: dict) -> Assign:
        name, dtype = total
        return Assign(var(name, dtype), ("bin", "+", var(name, dtype), self.exact(dtype, env, 2),
                                         dtype), compound=self.rng.random() < 0.5)

    def cutoff(self, env: dict, temps: list, then: list) -> list:
        """``r = e; if (r < c) then``: a condition on a private value the loop computes."""
        rng = self.rng
        dtype = rng.choice(DTYPES)
        r = self.new_scalar("t", dtype)
        temps.append((r, dtype))
        value = self.exact(dtype, env, 2)
        if rng.random() < 0.5:
            value = ("bin", "*", value, value, dtype)
        limit = ("const", rng.choice([0, 2, 3, 9, 16]) * (1.0 if is_float(dtype) else 1), dtype)
        return [Assign(var(r, dtype), value), If(("cmp", rng.choice(["<", "<="]),
                                                  var(r, dtype), limit), then, [])]

    def atomic_update(self, env: dict) -> Assign:
        """An atomic update of a histogram element chosen through a table."""
        rng = self.rng
        arr = rng.choice(self.arrays_with("hist"))
        if rng.random() < 0.7:
            sub = add(self.element(self.table(), env, 0.5),
                      c(rng.randint(0, arr.extents[0] - IX_VALUES)))
            target = ("elem", arr, (sub,), arr.dtype)
        else:
            target = self.element(arr, env, plain=0.2)
        e = self.exact(arr.dtype, env, 1)
        if is_float(arr.dtype):
            return Assign(target, ("bin", "+", target, e, arr.dtype), True, "update")
        op = self.hist_ops.setdefault(arr.name, rng.choice(["|", "&", "^", "+", "max", "min"])
                                      if rng.random() < 0.8 else "")   # "": any, each time
        op = op or rng.choice(["|", "&", "^", "+", "max", "min"])
        if op in ("max", "min"):
            return Assign(target, ("call", op, (target, e), arr.dtype), False, "compare")
        return Assign(target, ("bin", op, target, e, arr.dtype), True, "update")

    # statements

    def temp_assign(self, env: dict, temps: list) -> Assign:
        dtype = self.rng.choice(DTYPES)
        name = self.new_scalar("t", dtype)
        stmt = Assign(var(name, dtype), self.expr(dtype, env, temps, 2, True))
        temps.append((name, dtype))
        return stmt

    def if_else(self, env: dict, temps: list) -> If | list:
        dtype = self.rng.choice(DTYPES)
        name = self.new_scalar("t", dtype)
        cond = self.condition(env, temps)
        then = [Assign(var(name, dtype), self.expr(dtype, env, temps, 2, True))]
        orelse = [Assign(var(name, dtype), self.expr(dtype, env, temps, 1, True))]
        if self.rng.random() < 0.3:      # an array write under the condition
            then.append(self.array_write(env, temps))
        if self.features and self.feature("branches", 0.5):
            kind = self.rng.random()
            if kind < 0.4:               # a nested IF/ELSE setting it again
                inner = If(self.condition(env, temps),
                           [Assign(var(name, dtype), self.expr(dtype, env, temps, 1, True))],
                           [Assign(var(name, dtype), self.exact(dtype, env, 1))])
                then.append(inner)
            elif kind < 0.7:             # set before, reset only under the condition
                first = Assign(var(name, dtype), self.expr(dtype, env, temps, 1, True))
                inner = [If(self.condition(env, temps), then[1:], [])] if then[1:] else []
                temps.append((name, dtype))
                return [first, If(cond, then[:1] + inner, [])]
            else:                        # an ELSE IF chain
                orelse = [If(self.condition(env, temps), orelse,
                             [Assign(var(name, dtype), self.exact(dtype, env, 1))])]
        temps.append((name, dtype))
        return If(cond, then, orelse)

    def condition(self, env: dict, temps: list) -> tuple:
        rng = self.rng
        op = rng.choice(["<", ">", "<=", ">=", "==", "!="])
        if rng.random() < 0.4 and env:
            v = var(rng.choice(list(env)))
            if rng.random() < 0.4:
                return ("cmp", "==", ("bin", "%", v, c(2), "i32"), c(rng.choice([0, 1])))
            return ("cmp", op, v, c(rng.randint(0, 4)))
        dtype = rng.choice(DTYPES)
        if "math" in self.features:       # no branch may flip on an ulp of a built-in
            return ("cmp", op, self.exact(dtype, env, 1), self.exact(dtype, env, 1))
        return ("cmp", op, self.expr(dtype, env, temps, 1, True),
                self.expr(dtype, env, temps, 1, False))

    def array_write(self, env: dict, temps: list) -> Assign:
        rng = self.rng
        arr = rng.choice(self.arrays_with("out"))
        target = self.element(arr, env, plain=0.8)
        if rng.random() < 0.35:      # x = x + e, bounded e
            value = ("bin", "+", target, self.expr(arr.dtype, env, temps, 2, False), arr.dtype)
            return Assign(target, value, compound=rng.random() < 0.5)
        return Assign(target, self.expr(arr.dtype, env, temps, 2, True))

    def reduction(self, acc: tuple[str, str, str], env: dict) -> Assign:
        name, dtype, op = acc
        s = var(name, dtype)
        if op == "*":
            unit = self.arrays_with("unit")[0 if is_float(dtype) else 1]
            term = self.convert(self.element(unit, env, plain=0.5), dtype)
            return Assign(s, ("bin", "*", s, term, dtype), compound=self.rng.random() < 0.3)
        term = self.exact(dtype, env, 2)
        if op == "+":
            return Assign(s, ("bin", "+", s, term, dtype), compound=self.rng.random() < 0.4)
        return Assign(s, ("call", op, (s, term), dtype))

    def guarded_reduction(self, acc: tuple[str, str, str], env: dict, temps: list) -> If:
        """A reduction under a condition; max/min also as ``if (e > s) s = e``."""
        name, dtype, op = acc
        s = var(name, dtype)
        if op in ("max", "min") and self.rng.random() < 0.5:
            term = self.exact(dtype, env, 1)
            return If(("cmp", ">" if op == "max" else "<", term, s), [Assign(s, term)], [])
        return If(self.condition(env, temps), [self.reduction(acc, env)], [])

    def stencil_write(self, env: dict, temps: list) -> Assign:
        """``a(s) = w0*b(c) + w1*b(c - e1) + w1*b(c + e1) + ...``: neighbours on each axis."""
        rng = self.rng
        target = rng.choice(self.arrays_with("out"))
        reads = [a for a in self.arrays_with("in") if is_float(target.dtype) or
                 not is_float(a.dtype)]
        if not reads:
            return self.array_write(env, temps)
        arr = rng.choice(reads)
        loop_vars = list(env)
        center = []
        for axis, extent in enumerate(arr.extents):
            core = var(loop_vars[min(axis, len(loop_vars) - 1)]) if loop_vars else c(1)
            lo, hi = interval(core, env)
            if hi - lo + 2 >= extent:     # no room for the neighbours: a fixed point
                core, lo, hi = c(1), 1, 1
            center.append(add(core, c(rng.randint(1 - lo, extent - 2 - hi))))
        weights = [0.5, 0.25, -0.25, 2.0, 1.0] if is_float(arr.dtype) else [2, 1, -1, 3]
        terms = [("bin", "*", ("const", rng.choice(weights), arr.dtype),
                  ("elem", arr, tuple(center), arr.dtype), arr.dtype)]
        for axis in range(len(center)):
            if len(center) > 1 and rng.random() < 0.3:
                continue
            w = ("const", rng.choice(weights), arr.dtype)
            for delta in (-1, 1):
                subs = list(center)
                subs[axis] = add(center[axis], c(delta))
                terms.append(("bin", "*", w, ("elem", arr, tuple(subs), arr.dtype), arr.dtype))
        value = terms[0]
        for t in terms[1:]:
            value = ("bin", "+", value, t, arr.dtype)
        return Assign(self.element(target, env, plain=1.0), self.convert(value, target.dtype))

    def swap(self, env: dict, temps: list) -> list:
        """Two arrays of one type exchange an element through a temporary."""
        rng = self.rng
        outs = self.arrays_with("out")
        pairs = [(a, b) for a in outs for b in outs if a.name < b.name and a.dtype == b.dtype
                 and a.rank == b.rank]
        if not pairs:
            a = rng.choice(outs)
            t = self.new_scalar("t", a.dtype)
            first = self.element(a, env, plain=1.0)
            return [Assign(var(t, a.dtype), first),
                    Assign(first, ("bin", "+", var(t, a.dtype),
                                   self.exact(a.dtype, env, 1), a.dtype))]
        a, b = rng.choice(pairs)
        t = self.new_scalar("t", a.dtype)
        ea = self.element(a, env, plain=1.0)
        eb = ("elem", b, ea[2], b.dtype)
        return [Assign(var(t, a.dtype), ea), Assign(ea, eb), Assign(eb, var(t, a.dtype))]

    def math_call(self, dtype: str, env: dict, depth: int) -> tuple:
        """A built-in of finite ulps (or exact: floor, fmod) of an exact argument, bounded."""
        rng = self.rng
        name = rng.choice(["exp", "log", "sin", "cos", "floor", "fmod", "sqrt"])
        arg = self.exact(dtype, env, max(depth - 1, 0))
        if name == "exp":
            arg = ("bin", "*", arg, ("const", 0.0625, dtype), dtype)
        elif name == "log":
            arg = ("bin", "+", ("call", "abs", (arg,), dtype), ("const", 1.0, dtype), dtype)
        elif name == "sqrt":
            arg = ("call", "abs", (arg,), dtype)
        elif name == "floor":
            arg = ("bin", "*", arg, ("const", rng.choice([0.5, 0.25]), dtype), dtype)
        elif name == "fmod":
            return ("call", "fmod", (arg, ("const", rng.choice([2.0, 3.0, -2.5, 1.5]), dtype)),
                    dtype)
        return ("call", name, (arg,), dtype)

    def power(self, dtype: str, env: dict) -> tuple:
        """A power of an exact base: real ** real (a positive base), real ** integer, or
        (Fortran) integer ** integer of a small base (a negative exponent of a base of at
        least 1: gfortran divides by a zero base)."""
        rng = self.rng
        base = self.exact_leaf(dtype, env)
        if not is_float(dtype):
            exponent = rng.choice([c(0), c(1), c(2), c(3), c(-1), c(-2),
                                   ("bin", "%", ("call", "abs", (self._loop_or_n(env),), "i32"),
                                    c(3), "i32")])
            if exponent[0] == "const" and exponent[1] < 0:
                base = ("bin", "+", ("call", "abs", (base,), dtype), ("const", 1, dtype), dtype)
            return ("call", "pow", (base, exponent), dtype)
        self.real_powers = True
        if rng.random() < 0.5:      # an integer exponent
            exponent = rng.choice([c(2), c(3), c(-1), c(5), ("bin", "%", ("call", "abs", (
                self._loop_or_n(env),), "i32"), c(4), "i32")])
            if exponent[0] == "const" and exponent[1] < 0 or exponent[0] != "const":
                base = ("bin", "+", ("call", "abs", (base,), dtype), ("const", 0.5, dtype),
                        dtype)
            if self.lang == "c":
                exponent = ("cast", exponent, dtype)
            return ("call", "pow", (base, exponent), dtype)
        base = ("bin", "+", ("call", "abs", (base,), dtype), ("const", 0.25, dtype), dtype)
        exponent = rng.choice([("const", x, dtype) for x in (0.5, 1.5, -0.5, 2.0, 2.5, 1.0)]
                              + [("bin", "*", self.exact_leaf(dtype, env),
                                  ("const", 0.125, dtype), dtype)])
        return ("call", "pow", (base, exponent), dtype)

    def _loop_or_n(self, env: dict) -> tuple:
        return var(self.rng.choice(list(env))) if env else var("n")

    def implicit_conversions(self, region: Region) -> None:
        """Leave some conversions implicit: the value of an assignment, and one widening
        operand of + - * / (the other operand is of the result's type, so the language
        converts the same way)."""
        for s in _walk([*region.init, region.nest, *region.after]):
            if isinstance(s, Assign):
                s.value = self._implicit(s.value, top=True)

    def _implicit(self, e: tuple, top: bool = False) -> tuple:
        rng = self.rng
        if e[0] == "cast":
            inner = self._implicit(e[1])
            if top and rng.random() < 0.5 and (is_float(e[2]) or not is_float(_dtype(inner))):
                self.used.add("implicit")
                return ("cast", inner, e[2], True)
            return ("cast", inner, e[2])
        if e[0] == "bin":
            ops = [self._implicit(e[2]), self._implicit(e[3])]
            if e[1] in "+-*/" and rng.random() < 0.6:
                k = rng.choice([0, 1])
                x = ops[k]
                if _widening(x, e[4]) and not _is_implicit(ops[1 - k]):
                    ops[k] = ("cast", x[1], x[2], True) if x[0] == "cast" else \
                        ("const", x[1], "f32", True)
                    self.used.add("implicit")
            return ("bin", e[1], ops[0], ops[1], e[4])
        if e[0] == "call":
            return ("call", e[1], tuple(self._implicit(x) for x in e[2]), e[3])
        return e

    # expressions

    def convert(self, e: tuple, dtype: str) -> tuple:
        return e if _dtype(e) == dtype else ("cast", e, dtype)

    def leaf(self, dtype: str, env: dict, temps: list, unbounded: bool) -> tuple:
        """A leaf of type `dtype`; `unbounded`: it may read what the region computes."""
        rng = self.rng
        kind = rng.random()
        if unbounded and kind < 0.3:
            choices = [t for t in temps] + [(None, None)] * 2
            name, t_dtype = rng.choice(choices)
            if name is not None and (is_float(dtype) or not is_float(t_dtype)):
                return self.convert(var(name, t_dtype), dtype)
            arr = rng.choice(self.arrays_with("out"))
            if is_float(dtype) or not is_float(arr.dtype):
                return self.convert(self.element(arr, env, plain=0.6), dtype)
        return self.exact_leaf(dtype, env)

    def exact_leaf(self, dtype: str, env: dict) -> tuple:
        rng = self.rng
        kind = rng.random()
        if kind < 0.55:
            arrays = [a for a in self.arrays_with("in") if is_float(dtype) or not
                      is_float(a.dtype)]
            if arrays:
                arr = rng.choice(arrays)
                return self.convert(self.element(arr, env, plain=0.6), dtype)
        if kind < 0.8 and env:
            return self.convert(var(rng.choice(list(env))), dtype)
        if kind < 0.85:
            return self.convert(var(rng.choice(["n", "m"])), dtype)
        if is_float(dtype):
            return ("const", rng.choice([0.5, 1.0, 1.5, 2.0, 3.0, -0.25, 4.0]), dtype)
        return ("const", rng.randint(-3, 5), dtype)

    def expr(self, dtype: str, env: dict, temps: list, depth: int, unbounded: bool) -> tuple:
        """An expression of `dtype` that reads at most one unbounded leaf."""
        rng = self.rng
        if is_float(dtype) and unbounded and self.feature("math", 0.2):
            return self.math_call(dtype, env, depth)
        if unbounded and (is_float(dtype) or self.lang == "fortran") \
                and self.feature("pow", 0.15):
            return self.power(dtype, env)
        if is_float(dtype) and unbounded and self.feature("atan2", 0.1):
            return ("call", "atan2", (self.exact(dtype, env, 1), self.exact(dtype, env, 1)),
                    dtype)
        if not is_float(dtype) and self.feature("modulo", 0.1):
            return ("bin", "mod", self.expr(dtype, env, temps, max(depth - 1, 0), unbounded),
                    ("const", rng.choice([2, 3, -2, -3, 5]), dtype), dtype)
        if depth == 0 or rng.random() < 0.3:
            return self.leaf(dtype, env, temps, unbounded)
        kind = rng.random()
        if kind < 0.4:
            op = rng.choice(["+", "-"])
            return ("bin", op, self.expr(dtype, env, temps, depth - 1, unbounded),
                    self.exact(dtype, env, depth - 1), dtype)
        if kind < 0.55:
            return ("bin", "*", self.exact(dtype, env, depth - 1),
                    self.exact(dtype, env, depth - 1), dtype)
        if kind < 0.7:
            divisor = rng.choice([2, 3, -2, 4, 5])
            if is_float(dtype):
                return ("bin", "/", self.expr(dtype, env, temps, depth - 1, unbounded),
                        ("const", float(divisor), dtype), dtype)
            op = rng.choice(["/", "%"])
            return ("bin", op, self.expr(dtype, env, temps, depth - 1, unbounded),
                    ("const", divisor, dtype), dtype)
        if kind < 0.85:
            name = rng.choice(["min", "max"])
            return ("call", name, (self.expr(dtype, env, temps, depth - 1, unbounded),
                                   self.exact(dtype, env, depth - 1)), dtype)
        if is_float(dtype) and rng.random() < 0.6:
            inner = ("call", "abs", (self.expr(dtype, env, temps, depth - 1, unbounded),),
                     dtype)
            return ("call", "sqrt", (inner,), dtype)
        return ("call", "abs", (self.expr(dtype, env, temps, depth - 1, unbounded),), dtype)

    def exact(self, dtype: str, env: dict, depth: int) -> tuple:
        """A bounded expression whose value any order of summation keeps exact."""
        rng = self.rng
        if depth <= 0 or rng.random() < 0.5:
            return self.exact_leaf(dtype, env)
        kind = rng.random()
        if kind < 0.5:
            return ("bin", rng.choice(["+", "-"]), self.exact(dtype, env, depth - 1),
                    self.exact(dtype, env, depth - 1), dtype)
        if kind < 0.7:
            return ("bin", "*", self.exact_leaf(dtype, env),
                    ("const", rng.choice([2, 3, -1]) * (1.0 if is_float(dtype) else 1), dtype),
                    dtype)
        if kind < 0.85 and not is_float(dtype):
            return ("bin", rng.choice(["/", "%"]), self.exact(dtype, env, depth - 1),
                    ("const", rng.choice([2, 3, -3]), dtype), dtype)
        name = rng.choice(["min", "max", "abs"])
        if name == "abs":
            return ("call", "abs", (self.exact(dtype, env, depth - 1),), dtype)
        return ("call", name, (self.exact(dtype, env, depth - 1), self.exact_leaf(dtype, env)),
                dtype)

    # subscripts

    def element(self, arr: Array, env: dict, plain: float) -> tuple:
        subs = tuple(self.subscript(arr, axis, env, plain) for axis in range(len(arr.extents)))
        return ("elem", arr, subs, arr.dtype)

    def subscript(self, arr: Array, axis: int, env: dict, plain: float) -> tuple:
        rng = self.rng
        extent = arr.extents[axis]
        for _ in range(6):
            core = self.index_core(arr, axis, env, plain)
            lo, hi = interval(core, env)
            if hi - lo < extent:
                break
        else:
            core = c(0)
            lo = hi = 0
        if rng.random() < plain and arr.role == "out":
            offset = min(max(-lo, 2), extent - 1 - hi)      # the array's usual offset
        else:
            offset = rng.randint(-lo, extent - 1 - hi)
        return add(core, c(offset))

    def index_core(self, arr: Array, axis: int, env: dict, plain: float) -> tuple:
        rng = self.rng
        loop_vars = list(env)
        if not loop_vars:
            return c(rng.randint(0, 3))
        if rng.random() < plain:
            v = loop_vars[min(axis, len(loop_vars) - 1)] if rng.random() < 0.7 else \
                rng.choice(loop_vars)
            return var(v)
        if self.feature("modulo", 0.15):
            return ("bin", "mod", add(var(rng.choice(loop_vars)), c(rng.randint(-5, 2))),
                    c(rng.choice([2, 3, 4, -3])), "i32")
        if arr.rank == 1 and arr.role == "in" and self.features and \
                self.feature("gather", 0.3):   # a row of a table's entry: b[tw[i]*w + j]
            v = rng.choice(loop_vars)
            lo, hi = env[v]
            width = hi - lo + 1
            row = self.element(self.table(), env, 0.5)
            if width * IX_VALUES <= arr.extents[0]:
                return ("bin", "+", ("bin", "*", row, c(width), "i32"), add(var(v), c(-lo)),
                        "i32")
            return row
        kind = rng.random()
        if kind < 0.15 and arr.role != "ix":
            ix = self.table() if "gather" in self.features else self.arrays_with("ix")[0]
            return self.element(ix, env, 0.5)
        if kind < 0.3:
            return ("bin", rng.choice(["/", "%"]), add(var(rng.choice(loop_vars)),
                                                    c(rng.randint(-2, 2))),
                    c(rng.choice([2, 3])), "i32")
        terms = [("bin", "*", c(rng.choice([-1, 1, 2])), var(v), "i32")
                 for v in rng.sample(loop_vars, min(len(loop_vars), rng.choice([1, 2])))]
        out = terms[0]
        for t in terms[1:]:
            out = ("bin", "+", out, t, "i32")
        return out


def _extend(out: list, stmt) -> None:
    if isinstance(stmt, list):
        out += stmt
    else:
        out.append(stmt)


def _widening(e: tuple, dtype: str) -> bool:
    """Whether `e` is a conversion (or a dyadic double constant) that the language would make
    itself when `e` meets an operand of `dtype`."""
    if e[0] == "const" and dtype == "f64" and len(e) == 3:
        return float(e[1]) * 16 == int(float(e[1]) * 16)
    if e[0] != "cast" or len(e) > 3:
        return False
    src = _dtype(e[1])
    if not is_float(src):
        return is_float(dtype) or (src == "i32" and dtype == "i64")
    return src == "f32" and dtype == "f64"


def _dtype(e: tuple) -> str:
    return e[3] if e[0] in ("elem", "call") else e[4] if e[0] == "bin" else e[2]


def _is_implicit(e: tuple) -> bool:
    return e[0] in ("cast", "const") and len(e) > 3


def _walk(stmts: list):
    for s in stmts:
        yield s
        if isinstance(s, Loop):
            yield from _walk(s.body)
        elif isinstance(s, If):
            yield from _walk(s.then)
            yield from _walk(s.orelse)


def _exprs(e: tuple):
    yield e
    if e[0] == "elem":
        for sub in e[2]:
            yield from _exprs(sub)
    elif e[0] == "bin":
        yield from _exprs(e[2])
        yield from _exprs(e[3])
    elif e[0] == "call":
        for a in e[2]:
            yield from _exprs(a)
    elif e[0] == "cast":
        yield from _exprs(e[1])


def _statement_exprs(s) -> list[tuple]:
    if isinstance(s, Assign):
        return [s.target, s.value]
    if isinstance(s, If):
        return [s.cond[2], s.cond[3]]
    if isinstance(s, Cycle):
        return []
    return [*_exprs_of_bounds(s)]


def _exprs_of_bounds(loop: Loop) -> list[tuple]:
    return [loop.start, loop.stop]


def _arrays_read(loop: Loop) -> list[Array]:
    out = []
    for s in _walk([loop]):
        for e in _statement_exprs(s):
            out += [x[1] for x in _exprs(e) if x[0] == "elem"]
    return out


def _scalars_written(loop: Loop) -> set[str]:
    return {s.target[1] for s in _walk([loop]) if isinstance(s, Assign) and
            s.target[0] == "var"}


def _mentions(loop: Loop, name: str) -> bool:
    return any(x[0] == "var" and x[1] == name for e in (loop.start, loop.stop)
               for x in _exprs(e))


def make_case(seed: int, lang: str, index: int = 0, features: frozenset = frozenset()
              ) -> Case:
    """Case `seed` in `lang` ("c" or "fortran"), its procedure named ``p<index>``, drawing on
    `features` (names of FEATURES) too."""
    return Generator(seed, lang, index, features).case()
