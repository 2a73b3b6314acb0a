"""Random C regions, their legality verdict through the real frontend, and a brute-force oracle.

A region is a few statements and loop nests over arrays ``a``, ``c``, ``d``, ``e`` (read and
written), ``b``
(read only) and scalars: floats ``s``, ``t``, ``u`` and ints ``q``, ``r`` (used as moving
subscripts).  Loops have constant or parameter lower bounds (``m``), statements stand before,
between and after inner loops, writes may sit under data-dependent or affine conditions, and
one loop is mapped (``tag_inames`` on ``l.0``/``g.0`` or a split).

Two families drawn from a second random stream (so the programs above stay as they were):

- a 2-D array ``g[64][4]`` whose column subscript leaves its extent (``g[20 + i][j - 1]`` at a
  loop start, ``g[...][j + 1]`` at its end, constant columns -1 and 4): its elements are
  compared by linear address (``row*4 + column``), as C lays them out;
- inner loops whose bounds name the enclosing loop (``for (j = 2*i; j < 2*i + 2; j++)``), often
  with an accumulation ``s = s + b[j]`` inside (a reduction when the outer loop is mapped).

The oracle runs the region sequentially for small sizes and several data sets, recording
every access of every statement instance, and then asks what the parallel program needs:

- shared variables (arrays, and scalars the frontend passes by address): no two instances in
  different work items touch one element with a write;
- private temporaries (scalars the frontend privatised): every read's last writer is an
  instance the reading work item runs itself (the same work item, or a statement outside the
  mapped loop, which every work item runs); a read with no writer has no value.

A statement outside the mapped loop is run by every work item (a write to shared memory by the
first one only).  Accumulations that the translator turned into parallel reductions are
trusted (their own tests check them): conflicts between their accumulator accesses, and with
statements outside the mapped loop, are not counted.

`check_case(seed)` gives the verdict and the oracle's answer; a "legal" verdict with an oracle
conflict is unsound.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field

from translator.diagnostics import LegalityError, TranslatorError

N_ARRAY = 512
OFFSET = 200
#: ``g[ROWS][WIDTH]``: row subscripts get ROW_OFFSET added, so rows stay inside 0..ROWS-1 and
#: only columns spill.
ROWS, WIDTH, ROW_OFFSET = 64, 4, 20
FLOATS = ("s", "t", "u")
INTS = ("q", "r")
LOOP_VARS = ("i", "j", "k", "l", "v", "w")


# ---------------------------------------------------------------------------------------------
# programs

@dataclass
class Loop:
    var: str
    lower: str            # "0", "1" or "m"
    upper: str            # "n", "n - 1" or "n + 1"
    body: list = field(default_factory=list)


@dataclass
class Assign:
    target: str                       # scalar name or array name
    subscript: object | None          # None for scalars; ("aff", {var: c}, d), ("int", q, d)
                                      # or ("int", q, d, var) (q + d + var)
    value: list                       # read terms: ("const", x) ("scalar", s) ("array", a, sub)
                                      # ("var", v) ("nvar", v) (minus v)
    condition: object | None = None   # ("data", sub) for b[sub] > 0.5, ("affine", v, op, c)
    line: int = 0


class Generator:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.extra = random.Random(seed * 104729 + 7)   # the out-of-extent and nested families
        self.vars = iter(LOOP_VARS)
        self.loops: list[Loop] = []

    def program(self) -> list:
        rng = self.rng
        body: list = []
        for name in FLOATS + INTS:
            if rng.random() < 0.85:
                body.append(self.scalar_init(name))
        for _ in range(rng.randint(1, 3)):
            body.append(self.loop([], depth=0))
            if rng.random() < 0.4:
                body.append(self.statement([]))
        return body

    def scalar_init(self, name: str) -> Assign:
        value = [("const", self.rng.randint(0, 3))]
        if name in FLOATS and self.rng.random() < 0.5:
            value = [("array", "b", ("aff", {}, self.rng.randint(0, 3)))]
        return Assign(name, None, value)

    def loop(self, outer: list[str], depth: int) -> Loop:
        rng = self.rng
        var = next(self.vars, None)
        if var is None:
            return self.statement(outer)
        lower = rng.choice(["0", "0", "1", "m"])
        upper = rng.choice(["n", "n", "n - 1", "n + 1"])
        node = Loop(var, lower, upper)
        nested = bool(outer) and self.extra.random() < 0.35
        if nested:      # bounds naming the enclosing loop
            c = self.extra.choice([2, 4])
            node.lower, node.upper = f"{c}*{outer[-1]}", f"{c}*{outer[-1]} + {c}"
        self.loops.append(node)
        inner = outer + [var]
        if nested and self.extra.random() < 0.6:    # an accumulation over the inner loop
            acc = self.extra.choice(FLOATS)
            node.body.append(Assign(acc, None,
                                    [("scalar", acc), ("array", "b", ("aff", {var: 1}, 0))]))
        for _ in range(rng.randint(1, 3)):
            if depth < 1 and rng.random() < 0.3:
                node.body.append(self.loop(inner, depth + 1))
            else:
                node.body.append(self.statement(inner))
        return node

    def subscript(self, vars_: list[str], plain: float = 0.5):
        rng = self.rng
        if vars_ and rng.random() < plain:
            return ("aff", {vars_[-1]: 1}, 0)
        if rng.random() < 0.15:
            if vars_ and rng.random() < 0.5:       # a moving scalar plus a loop index
                return ("int", rng.choice(INTS), rng.randint(0, 2), rng.choice(vars_))
            return ("int", rng.choice(INTS), rng.randint(0, 2))
        coeffs = {v: rng.randint(-2, 2) for v in rng.sample(vars_, min(len(vars_), 2))}
        return ("aff", {v: c for v, c in coeffs.items() if c}, rng.randint(-2, 2))

    def grid_subscript(self, vars_: list[str]):
        """(row, column) of ``g``: rows inside, columns that may leave 0..WIDTH-1."""
        ex = self.extra
        row = ("aff", {vars_[0]: 1}, 0) if vars_ and ex.random() < 0.7 else \
            ("aff", {}, ex.randint(0, 3))
        if vars_ and ex.random() < 0.75:
            col = ("aff", {vars_[-1]: 1}, ex.choice([-1, -1, 0, 1]))
        else:
            col = ("aff", {}, ex.choice([-1, 0, 3, 4]))
        return ("grid", row, col)

    def term(self, vars_: list[str]):
        rng = self.rng
        kind = rng.random()
        if kind < 0.35:
            return ("scalar", rng.choice(FLOATS + INTS))
        if kind < 0.8:
            found = ("array", rng.choice("abcdeb"), self.subscript(vars_))
            if self.extra.random() < 0.2:
                return ("array", "g", self.grid_subscript(vars_))
            return found
        if kind < 0.9 and vars_:
            return ("var", rng.choice(vars_))
        return ("const", rng.randint(1, 3))

    def statement(self, vars_: list[str]) -> Assign:
        rng = self.rng
        condition = None
        if rng.random() < 0.25:
            if vars_ and rng.random() < 0.4:
                condition = ("affine", rng.choice(vars_), rng.choice(["<", ">"]),
                             rng.randint(0, 3))
            else:
                condition = ("data", self.subscript(vars_))
        if rng.random() < 0.5:
            name = rng.choice(FLOATS + INTS)
            value = self.int_value(name, vars_) if name in INTS else \
                [self.term(vars_) for _ in range(rng.randint(1, 2))]
            if name in FLOATS and rng.random() < 0.4:
                value = [("scalar", name)] + value       # accumulations and scans
            return Assign(name, None, value, condition)
        value = [self.term(vars_) for _ in range(rng.randint(1, 2))]
        found = Assign(rng.choice("acde"), self.subscript(vars_, 0.75), value, condition)
        if self.extra.random() < 0.2:
            found.target, found.subscript = "g", self.grid_subscript(vars_)
        return found

    def int_value(self, name: str, vars_: list[str]) -> list:
        rng = self.rng
        choice = rng.random()
        if choice < 0.45:
            return [("scalar", name), ("const", 1)]            # induction variable
        if choice < 0.7 and vars_:
            return [("var", rng.choice(vars_)), ("const", rng.randint(0, 2))]
        if choice < 0.8 and vars_:
            return [("nvar", rng.choice(vars_)), ("const", rng.randint(0, 2))]
        return [("const", rng.randint(0, 3))]


# ---------------------------------------------------------------------------------------------
# C text

def _sub_c(sub) -> str:
    if sub[0] == "grid":
        return f"{_sub_c(sub[1]).replace(str(OFFSET), str(ROW_OFFSET), 1)}][{_plain_c(sub[2])}"
    if sub[0] == "int":
        return f"{OFFSET} + {sub[1]} + {sub[2]}" + (f" + {sub[3]}" if len(sub) > 3 else "")
    terms = [f"{c}*{v}" for v, c in sorted(sub[1].items())]
    return " + ".join([str(OFFSET)] + terms + [str(sub[2])])


def _plain_c(sub) -> str:
    terms = [f"{c}*{v}" for v, c in sorted(sub[1].items())]
    return " + ".join(terms + [str(sub[2])])


def _term_c(t) -> str:
    if t[0] == "const":
        return str(t[1])
    if t[0] in ("scalar", "var"):
        return t[1]
    if t[0] == "nvar":
        return f"-{t[1]}"
    return f"{t[1]}[{_sub_c(t[2])}]"


def _cond_c(c) -> str:
    if c[0] == "data":
        return f"b[{_sub_c(c[1])}] > 0.5"
    return f"{c[1]} {c[2]} {c[3]}"


def render(program: list, pragma: str) -> str:
    lines = ["void f(int n, int m, double a[512], const double b[512], double c[512], "
             f"double d[512], double e[512], double g[{ROWS}][{WIDTH}])", "{",
             "  int i, j, k, l, v, w, q, r;", "  double s, t, u;",
             "#pragma translate kernel k", f"#pragma translate {pragma}"]

    def emit(node, indent: str) -> None:
        if isinstance(node, Loop):
            lines.append(f"{indent}for ({node.var} = {node.lower}; {node.var} < {node.upper}; "
                         f"{node.var}++) {{")
            for child in node.body:
                emit(child, indent + "  ")
            lines.append(indent + "}")
            return
        target = node.target if node.subscript is None else \
            f"{node.target}[{_sub_c(node.subscript)}]"
        value = " + ".join(_term_c(t) for t in node.value)
        if node.target in INTS:
            value = " + ".join(_term_c(t) for t in node.value)
        text = f"{target} = {value};"
        if node.condition is not None:
            text = f"if ({_cond_c(node.condition)}) {text}"
        node.line = len(lines) + 1
        lines.append(indent + text)

    for node in program:
        emit(node, "  ")
    lines += ["#pragma translate end kernel", "}", ""]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# the oracle: a sequential run recording accesses

@dataclass(frozen=True)
class Rec:
    line: int
    env: tuple            # ((var, value), ...) of the enclosing loops
    variable: str
    element: int | None   # None for scalars
    is_write: bool
    order: int


def trace(program: list, n: int, m: int, data: list[float]) -> list[Rec]:
    out: list[Rec] = []
    ints = {q: 0 for q in INTS}
    env: dict[str, int] = {}

    def sub_value(sub) -> int:
        if sub[0] == "grid":       # the linear address, as C lays the rows out
            return (ROW_OFFSET + sub_value(sub[1])) * WIDTH + sub_value(sub[2])
        if sub[0] == "int":
            return ints[sub[1]] + sub[2] + (env[sub[3]] if len(sub) > 3 else 0)
        return sum(c * env[v] for v, c in sub[1].items()) + sub[2]

    def record(node, variable, element, write) -> None:
        out.append(Rec(node.line, tuple(sorted(env.items())), variable, element, write,
                       len(out)))

    def read_term(node, t) -> int:
        if t[0] == "const":
            return t[1]
        if t[0] == "var":
            return env[t[1]]
        if t[0] == "nvar":
            return -env[t[1]]
        if t[0] == "scalar":
            record(node, t[1], None, False)
            return ints.get(t[1], 0)
        if t[2][0] == "int":
            record(node, t[2][1], None, False)
        record(node, t[1], sub_value(t[2]), False)
        return 0

    def run(node) -> None:
        if isinstance(node, Loop):
            lo = eval(node.lower, {}, {**env, "n": n, "m": m})      # noqa: S307 (ours)
            hi = eval(node.upper, {}, {**env, "n": n, "m": m})      # noqa: S307
            for x in range(lo, hi):
                env[node.var] = x
                for child in node.body:
                    run(child)
            env.pop(node.var, None)
            return
        if node.condition is not None:
            cond = node.condition
            if cond[0] == "data":
                if cond[1][0] == "int":
                    record(node, cond[1][1], None, False)
                record(node, "b", sub_value(cond[1]), False)
                if not data[sub_value(cond[1]) % len(data)] > 0.5:
                    return
            else:
                x = env[cond[1]]
                if not (x < cond[3] if cond[2] == "<" else x > cond[3]):
                    return
        value = sum(read_term(node, t) for t in node.value)
        if node.subscript is None:
            record(node, node.target, None, True)
            if node.target in INTS:
                ints[node.target] = value
        else:
            if node.subscript[0] == "int":
                record(node, node.subscript[1], None, False)
            record(node, node.target, sub_value(node.subscript), True)

    for node in program:
        run(node)
    return out


@dataclass(frozen=True)
class Mapping:
    var: str
    pragma: str
    modulo: int | None       # work item = value mod this (a split whose outer loop stays)


def work_item(rec: Rec, mapping: Mapping):
    env = dict(rec.env)
    if mapping.var not in env:
        return None
    x = env[mapping.var]
    return x % mapping.modulo if mapping.modulo else x


def oracle_conflict(recs: list[Rec], mapping: Mapping, private: set[str],
                    trusted_lines: set[int], accumulators: set[str],
                    guarded_lines: set[int] = frozenset()) -> str | None:
    """A description of the first conflict, or None.  `guarded_lines`: statements outside
    the mapped loop that write shared memory, which the first work item alone runs (reads of
    their conditions included) whether or not this run's data makes them write."""
    items = {work_item(r, mapping) for r in recs} - {None}
    first = min(items) if items else None
    found = _private_conflict(recs, mapping, private)
    if found:
        return found
    shared = [r for r in recs if r.variable not in private and r.variable != "b"]
    # statements writing shared memory outside the mapped loop: the first work item only
    guarded = {r.line for r in shared if r.is_write and work_item(r, mapping) is None}
    guarded |= set(guarded_lines)
    by_element: dict = {}
    for r in shared:
        by_element.setdefault((r.variable, r.element), []).append(r)
    for key, group in by_element.items():
        for x, y in itertools.combinations(group, 2):
            if not (x.is_write or y.is_write):
                continue
            if _trusted(x, y, mapping, trusted_lines, accumulators):
                continue
            wx = _items(x, mapping, items, first, guarded)
            wy = _items(y, mapping, items, first, guarded)
            if any(a != b for a in wx for b in wy):
                return f"{key} touched at lines {x.line} {dict(x.env)} and {y.line} {dict(y.env)}"
    return None


def _items(rec: Rec, mapping: Mapping, items: set, first, guarded: set[int]) -> set:
    wi = work_item(rec, mapping)
    if wi is not None:
        return {wi}
    if rec.line in guarded:
        return {first} if first is not None else set()
    return items


def _trusted(x: Rec, y: Rec, mapping: Mapping, lines: set[int], accumulators: set[str]) -> bool:
    if x.variable not in accumulators:
        return False
    in_x, in_y = x.line in lines, y.line in lines
    outside = lambda r: work_item(r, mapping) is None       # noqa: E731
    return (in_x and in_y) or (in_x and outside(y)) or (in_y and outside(x))


def _private_conflict(recs: list[Rec], mapping: Mapping, private: set[str]) -> str | None:
    last: dict[str, Rec] = {}
    for r in recs:
        if r.variable not in private:
            continue
        if r.is_write:
            last[r.variable] = r
            continue
        w = last.get(r.variable)
        if w is None:
            return f"{r.variable} read at line {r.line} {dict(r.env)} before any write"
        ww, wr = work_item(w, mapping), work_item(r, mapping)
        if ww is not None and ww != wr:
            return (f"{r.variable} written at line {w.line} {dict(w.env)}, read at line "
                    f"{r.line} {dict(r.env)}")
    return None


# ---------------------------------------------------------------------------------------------
# the translator's verdict

def verdict(text: str):
    """("legal", kernel, region kernel) or ("illegal", message, region kernel)."""
    from translator.driver import frontend_for
    from translator.pipeline import KERNEL_STAGES, apply_transform_calls, privatize_arrays
    fe = frontend_for("r.c")
    region = fe.parse("r.c", text, {}).regions[0]
    kernel = region.kernel
    try:
        k = privatize_arrays(apply_transform_calls(kernel, region.transform_calls))
        for _, stage in KERNEL_STAGES:
            k = stage(k)
    except LegalityError as err:
        return "illegal", err.message, kernel
    return "legal", k, kernel


def _reduction_lines(kernel, mapped: set[str]) -> set[int]:
    from translator.ir.expr import Reduction, IRWalkMapper
    lines = set()
    for s in kernel.statements:
        found = []

        class Walk(IRWalkMapper):
            def visit(self, expr, *args, **kwargs) -> bool:
                if isinstance(expr, Reduction) and set(expr.inames) & mapped:
                    found.append(expr)
                return True

        for e in s.read_expressions():
            Walk()(e)
        if found and s.span is not None:
            lines.add(s.span.line)
    return lines


_CONTEXT: list = []


def build_failure(kernel) -> str | None:
    """Why the OpenCL C that code generation emits for `kernel` does not build on the CPU
    device (PoCL), or None when it builds."""
    import pyopencl as cl
    from translator.codegen.opencl import generate_code
    try:
        code = generate_code(kernel)
    except TranslatorError as err:
        return f"code generation: {type(err).__name__}: {err.message}"
    if not _CONTEXT:
        device = next(d for p in cl.get_platforms() for d in p.get_devices())
        _CONTEXT.append(cl.Context([device]))
    try:
        cl.Program(_CONTEXT[0], code.device_code).build()
    except cl.Error as err:
        lines = [x.strip() for x in str(err).splitlines() if "error:" in x] or [str(err)]
        return f"build: {lines[0]}"
    return None


@dataclass
class Outcome:
    seed: int
    text: str
    legal: bool
    conflict: str | None
    message: str = ""
    #: why the legal verdict's kernel did not build (None: it built, or it was not built)
    build_error: str | None = None

    @property
    def unsound(self) -> bool:
        return self.legal and self.conflict is not None

    @property
    def over_conservative(self) -> bool:
        return not self.legal and self.conflict is None


def shared_writes_outside(program: list, var: str, private: set[str],
                          inside: bool = False) -> set[int]:
    """Lines of statements outside the loop over `var` whose target is shared memory (an
    array, or a scalar the frontend passes by address): code generation lets the first work
    item alone run them."""
    out: set[int] = set()
    for node in program:
        if isinstance(node, Loop):
            out |= shared_writes_outside(node.body, var, private, inside or node.var == var)
        elif not inside and node.target not in private:
            out.add(node.line)
    return out


def choose_mapping(gen: Generator) -> Mapping:
    rng = gen.rng
    loop = rng.choice(gen.loops)
    kind = rng.random()
    if kind < 0.3:
        return Mapping(loop.var, f'tag_inames("{loop.var}:l.0")', None)
    if kind < 0.5:
        return Mapping(loop.var, f'tag_inames("{loop.var}:g.0")', None)
    if kind < 0.8 or loop.lower != "0":
        return Mapping(loop.var, f'split_iname("{loop.var}", 2, outer_tag="g.0", '
                                 'inner_tag="l.0")', None)
    return Mapping(loop.var, f'split_iname("{loop.var}", 2, inner_tag="l.0")', 2)


def check_case(seed: int, sizes=range(0, 6), build: bool = False) -> Outcome:
    """The verdict on case `seed` and the oracle's answer; with `build`, a legal verdict's
    kernel is also generated and built on the CPU device."""
    gen = Generator(seed)
    program = gen.program()
    mapping = choose_mapping(gen)
    text = render(program, mapping.pragma)
    try:
        kind, result, region_kernel = verdict(text)
    except TranslatorError as err:     # refused by the frontend or a transform
        return Outcome(seed, text, False, "skip", f"{type(err).__name__}: {err.message}")
    private = {t for t in region_kernel.temporaries}
    legal = kind == "legal"
    lines: set[int] = set()
    if legal:
        mapped = {n for n in result.all_inames if n == mapping.var or
                  n.startswith(mapping.var + "_")}
        lines = _reduction_lines(result, mapped)
    accumulators = {a.name for a in region_kernel.args}
    rng = random.Random(seed * 7919 + 1)
    datasets = [[1.0] * 64, [0.0] * 64] + [[rng.random() for _ in range(64)] for _ in range(3)]
    runs = itertools.product(sizes, range(-2, 3), datasets)
    if not legal:       # a refusal is confirmed on larger sizes too before it counts as one
        runs = itertools.chain(runs, itertools.product(range(6, 10), range(-4, 4), datasets))
    guarded = shared_writes_outside(program, mapping.var, private)
    conflict = None
    for n, m, data in runs:
        conflict = oracle_conflict(trace(program, n, m, data), mapping, private, lines,
                                   accumulators, guarded)
        if conflict:
            break
    failure = build_failure(result) if legal and build else None
    return Outcome(seed, text, legal, conflict, "" if legal else result, failure)
