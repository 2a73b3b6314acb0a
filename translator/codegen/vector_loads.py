"""Vector loads from local memory: 16-byte reads where unrolled code reads consecutive elements.

A register-blocked product unrolls its block (`split_iname(..., outer_tag="unr")`), so one
unrolled nest reads, for instance, ``b_fetch[k*128 + 4*l0 + 0]`` ... ``b_fetch[k*128 + 4*l0 +
3]``: four neighbouring elements of a ``__local`` array.  On GPUs the local-memory instruction
rate limits such kernels, and one 16-byte load does the work of four 4-byte ones.  Before an
unrolled nest (the outermost unrolled loop), the emitter plans::

    float4 const _tr_vl0 = *(__local float4 const *)&b_fetch[k * 128 + 4 * l0];

and the reads print as ``_tr_vl0.s0`` ... ``_tr_vl0.s3``.  A group of reads becomes one vector
only where that is proved to be the same program:

- the array is a ``__local`` temporary of a real or integer type of 4 or 8 bytes (a vector is
  16 bytes: 4 or 2 elements); no statement of the nest writes it; the nest holds only unrolled
  loops and statements (no sequential loop, no barrier), so the values read are those the
  array holds on entry;
- every statement of the nest runs without a guard there (in the guarded copies of partial
  tiles nothing changes), and the group's elements are all read: every element of the vector
  is an element the program reads, so the load stays inside the array;
- isl proves that the first element's flat index is a multiple of the vector length at every
  point of the nest's context (`translator.ir.isl_glue.holds_in`); the array is declared
  ``__attribute__((aligned(16)))`` (`VectorLoadEmitter.aligned_arrays`), so the address is a
  multiple of 16 bytes.

A vector is declared just before the first statement that reads it, in the nest's block (which
has no ``if``: its statements have no guards), so every later statement of the nest sees it.
"""

from __future__ import annotations


import numpy as np
import pymbolic.primitives as p

from translator.analysis.coalescing import polynomial
from translator.codegen.cnames import c_type_name, safe_name
from translator.codegen.emit import Conditions, TreeEmitter
from translator.records import dataclass
from translator.schedule import BarrierNode, LoopNode
from translator.codegen.versioning import VersioningEmitter
from translator.ir import isl_glue as glue
from translator.ir.data import AddressSpace
from translator.ir.expr import Expression, IRWalkMapper, substitute
from translator.ir.statements import Assignment, NoOpInstruction, Statement

#: Bytes of one vector load (the widest local-memory load of current GPUs).
VECTOR_BYTES = 16

#: A flat index as a linear form: {variable name: coefficient}, the constant under "".
Linear = tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class VectorLoad:
    """One planned load: `width` elements of `array` from flat index `base` + `start`."""

    name: str
    array: str
    base: Linear
    start: int
    width: int
    dtype: np.dtype

    def declaration(self, index_text: str) -> str:
        vt = f"{c_type_name(self.dtype)}{self.width}"
        return (f"{vt} const {self.name} = *(__local {vt} const *)"
                f"&{safe_name(self.array)}[{index_text}];")


class NotLinear(Exception):
    """A subscript that is not an integer linear form."""


def linear_form(expr: Expression) -> dict[str, int]:
    """`expr` as {name: coefficient} with the constant under ""; NotLinear otherwise (the
    integer polynomial of `translator.analysis.coalescing`, of degree one at most)."""
    poly = polynomial(expr)
    if poly is None or any(len(mono) > 1 for mono in poly):
        raise NotLinear(expr)
    return {(mono[0] if mono else ""): k for mono, k in poly.items()}


def _as_expression(form: Linear, start: int) -> Expression:
    terms: list[Expression] = [p.Variable(n) if c == 1 else p.Product((c, p.Variable(n)))
                               for n, c in form]
    if start or not terms:
        terms.append(start)
    return terms[0] if len(terms) == 1 else p.Sum(tuple(terms))


class _Reads(IRWalkMapper):
    """The subscripted reads of the named arrays in an expression."""

    def __init__(self, names: set[str]) -> None:
        super().__init__()
        self.names = names
        self.found: list[p.Subscript] = []

    def map_subscript(self, expr: p.Subscript, *args) -> None:
        if getattr(expr.aggregate, "name", None) in self.names:
            self.found.append(expr)
        for idx in expr.index_tuple:
            self.rec(idx, *args)


class _Unsuitable(Exception):
    """The nest cannot take vector loads (a sequential loop, a barrier, a guard)."""


class _Collector(TreeEmitter):
    """Walks an unrolled nest as the emitter would, printing nothing: each statement
    occurrence with its unrolled values.  Raises `_Unsuitable` where no plan is possible."""

    def __init__(self, parent: TreeEmitter) -> None:   # noqa: super-init: shares the state
        self.__dict__.update(parent.__dict__)          # isl caches, kernel, grid facts
        self.lines = []
        self.helpers = set()
        self.atomics = set()
        self.found: list[tuple[Statement, dict[str, Expression]]] = []

    def out(self, depth: int, text: str) -> None:
        return

    def guard_group(self, nodes, start, conds):
        return nodes[start:start + 1], ()

    def node(self, node, conds, env, active, depth) -> None:
        if isinstance(node, BarrierNode) or (isinstance(node, LoopNode) and not node.unrolled):
            raise _Unsuitable()
        super().node(node, conds, env, active, depth)

    def statement(self, stmt: Statement, conds: Conditions, env, depth: int) -> None:
        if isinstance(stmt, NoOpInstruction):
            return
        if not isinstance(stmt, Assignment) or stmt.atomicity:
            raise _Unsuitable()
        guard = self.gist(stmt, conds)
        if guard is None:
            return                                    # never runs here
        if guard or any(not self.predicate_holds(c, self.context(conds))
                        for c in stmt.predicates):
            raise _Unsuitable()
        self.found.append((stmt, env))


class VectorLoadEmitter(VersioningEmitter):
    """`VersioningEmitter` that reads consecutive local elements of unrolled nests as vectors."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        #: Local arrays read through vectors: declared 16-byte aligned.
        self.aligned_arrays: set[str] = set()
        self._loads: dict[tuple[str, Linear, int], VectorLoad] = {}
        self._declared: set[str] = set()
        self._count = 0
        self._in_nest = False

    # -- planning ---------------------------------------------------------------------------

    def local_arrays(self) -> dict[str, int]:
        """Local temporaries that may be read as vectors, with their vector widths."""
        out = {}
        for t in self.kernel.temporaries.values():
            if t.address_space != AddressSpace.LOCAL or not t.shape or t.dtype is None:
                continue
            dt = np.dtype(t.dtype)
            if dt.kind in "iuf" and dt.itemsize in (4, 8):
                out[t.name] = VECTOR_BYTES // dt.itemsize
        return out

    def plan(self, node: LoopNode, conds: Conditions, env: dict[str, Expression],
             active: tuple[str, ...]) -> dict[tuple[str, Linear, int], VectorLoad]:
        """The vector loads for the unrolled nest `node` (empty: none proved useful)."""
        widths = self.local_arrays()
        if not widths:
            return {}
        collector = _Collector(self)
        try:
            collector.node(node, conds, env, active, 0)
        except _Unsuitable:
            return {}
        for stmt, _ in collector.found:
            for name in stmt.assignee_names():
                widths.pop(name, None)
        groups: dict[tuple[str, Linear], set[int]] = {}
        for stmt, senv in collector.found:
            for key, offset in self.read_keys(stmt, senv, set(widths)):
                groups.setdefault(key, set()).add(offset)
        ctx = self.context(conds)
        loads = {}
        for (name, base), offsets in sorted(groups.items()):
            for start in self.vector_starts(base, offsets, widths[name], ctx):
                load = VectorLoad(f"_tr_vl{self._count}", name, base, start, widths[name],
                                  np.dtype(self.kernel.temporaries[name].dtype))
                self._count += 1
                for k in range(load.width):
                    loads[(name, base, start + k)] = load
        return loads

    def read_keys(self, stmt: Statement, env: dict[str, Expression], names: set[str]
                  ) -> list[tuple[tuple[str, Linear], int]]:
        """(array, linear base) and constant offset of each read of `names` in `stmt`."""
        reads = _Reads(names)
        reads(stmt.expression)
        out = []
        for sub in reads.found:
            key = self.read_key(sub, env)
            if key is not None:
                out.append(((key[0], key[1]), key[2]))
        return out

    def read_key(self, sub: p.Subscript, env: dict[str, Expression]
                 ) -> tuple[str, Linear, int] | None:
        name = sub.aggregate.name
        flat = substitute(self.flat_index(name, tuple(sub.index_tuple)), env)
        try:
            form = linear_form(flat)
        except NotLinear:
            return None
        const = form.pop("", 0)
        return name, tuple(sorted(form.items())), const

    def vector_starts(self, base: Linear, offsets: set[int], width: int, ctx) -> list[int]:
        """Offsets `s` (multiples of `width`) with all of s .. s+width-1 read and
        ``base + s`` proved a multiple of `width`."""
        out = []
        for s in sorted({o - o % width for o in offsets}):
            if not all(s + k in offsets for k in range(width)):
                continue
            cond = p.Comparison(p.Remainder(_as_expression(base, s), width), "==", 0)
            if base and not self.proved(cond, ctx):
                continue
            if not base and s % width:
                continue
            out.append(s)
        return out

    def proved(self, cond: Expression, ctx) -> bool:
        s = glue.affine_condition(cond)
        return s is not None and glue.holds_in(s, ctx)

    # -- printing ---------------------------------------------------------------------------

    def unrolled(self, node: LoopNode, conds: Conditions, env: dict[str, Expression],
                 active: tuple[str, ...], depth: int) -> None:
        if self._in_nest:
            super().unrolled(node, conds, env, active, depth)
            return
        loads = self.plan(node, conds, env, active)
        self._in_nest, self._loads, self._declared = True, loads, set()
        self.aligned_arrays.update(load.array for load in loads.values())
        try:
            super().unrolled(node, conds, env, active, depth)
        finally:
            self._in_nest, self._loads, self._declared = False, {}, set()

    def statement(self, stmt: Statement, conds: Conditions, env: dict[str, Expression],
                  depth: int) -> None:
        if self._loads and isinstance(stmt, Assignment):
            self.declare_loads(stmt, conds, env, depth)
        super().statement(stmt, conds, env, depth)

    def declare_loads(self, stmt: Statement, conds: Conditions, env: dict[str, Expression],
                      depth: int) -> None:
        """Declarations of the vectors that `stmt` reads first."""
        names = {k[0] for k in self._loads}
        for (name, base), offset in self.read_keys(stmt, env, names):
            load = self._loads.get((name, base, offset))
            if load is None or load.name in self._declared:
                continue
            self._declared.add(load.name)
            pr = self.printer({}, self.context(conds))
            self.out(depth, load.declaration(pr(_as_expression(load.base, load.start))))

    def printer(self, env, proof_context):
        pr = super().printer(env, proof_context)
        if self._loads:
            pr.vector_read = self.vector_read
        return pr

    def vector_read(self, sub: p.Subscript, env: dict[str, Expression]) -> str | None:
        """The vector component that replaces the read `sub`, if one was planned."""
        if getattr(sub.aggregate, "name", None) not in {k[0] for k in self._loads}:
            return None
        key = self.read_key(sub, env)
        load = self._loads.get(key) if key is not None else None
        if load is None or load.name not in self._declared:
            return None
        return f"{load.name}.s{key[2] - load.start}"


__all__ = ["VECTOR_BYTES", "VectorLoad", "VectorLoadEmitter", "linear_form"]
