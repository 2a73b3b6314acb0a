"""Footprints of reads through index tables (h86): ``x[col[k]]`` (CSR SpMV), ``in[j]`` with
``int j = c[k*n + i]`` (ELL), ``vals[k]`` over ``rowptr[i] <= k < rowptr[i + 1]``.

A read-only gather has no dependence, but the glue must know how many elements of a pointer
to move, and a subscript below the pointer's first element reads memory the buffer does not
hold.  Each value read from an index table (an integer array the region only reads) is a
new variable between the table's smallest and largest element, which the caller computes
before the call (``tr_index_min_i32(col, nnz)``, ``tr_index_max_i32(col, nnz)``, over the
table's own extent: the runtime scans the table); the footprint is then bounded by isl as
for loops, and the kernel assumes what keeps every subscript at index >= 0 (the glue stops
a call whose tables break it, naming the region's file:line), e.g. ``min(col) >= 0``.

Only reads: an array written through a table (a scatter) keeps the errors it had.
"""

from __future__ import annotations

import numpy as np
import pymbolic.primitives as p

from frontends.c.expressions import Binding
from frontends.c.typemodel import CType
from frontends.footprint import NotLinear, affine_parts, index_end
from translator.diagnostics import DomainError
from translator.ir import isl_glue
from translator.ir.expr import Expression, IRIdentityMapper, TypeCast, dependencies

#: The runtime's scan functions, by element type: their declarations go into the source.
_SCANS = {np.dtype(np.int8): "i8", np.dtype(np.int16): "i16", np.dtype(np.int32): "i32",
          np.dtype(np.int64): "i64", np.dtype(np.uint8): "u8", np.dtype(np.uint16): "u16",
          np.dtype(np.uint32): "u32", np.dtype(np.uint64): "u64"}


def scan_declaration(kind: str, suffix: str) -> str:
    return f"long long tr_index_{kind}_{suffix}(const void *table, long long count);"


class _TableReads(IRIdentityMapper):
    """Each read of an index table replaced by a variable standing for its value."""

    def __init__(self, gathers: Gathers) -> None:
        self.gathers = gathers
        self.found: dict[p.Subscript, p.Variable] = {}

    def map_subscript(self, expr: p.Subscript, *args, **kwargs):
        table = self.gathers.table_of(expr)
        if table is None:
            return super().map_subscript(expr, *args, **kwargs)
        if expr not in self.found:
            self.found[expr] = p.Variable(f"_tr_gathered{len(self.found)}")
        return self.found[expr]


class Gathers:
    """The gather footprints of one region (an `Assembler`'s helper)."""

    def __init__(self, asm) -> None:
        self.asm = asm
        #: table -> (name of its smallest value, name of its largest value)
        self.bounds: dict[str, tuple[str, str]] = {}
        #: declarations the rewritten source needs (the runtime's scans)
        self.declarations: set[str] = set()
        self._busy: set[str] = set()

    # -- tables ---------------------------------------------------------------------------

    def is_table(self, name: str) -> bool:
        """An integer array or pointer of one dimension, not a record, that the region never
        writes (nor anything that may share its memory)."""
        asm = self.asm
        b = asm.built.outer.get(name)
        if b is None or not b.ctype.is_buffer or b.ctype.record is not None:
            return False
        if b.ctype.dtype is None or np.dtype(b.ctype.dtype) not in _SCANS:
            return False
        if b.ctype.kind == "array" and len(b.ctype.dims) != 1:
            return False
        written = {s.assignee_name for s in asm.stmts}
        if name in written:
            return False
        kind = asm._memory_kind(name)
        return not any(asm._may_overlap_kinds(kind, asm._memory_kind(w)) for w in written
                       if w in asm.built.outer and asm.built.outer[w].ctype.is_buffer)

    def table_of(self, expr: Expression) -> str | None:
        while isinstance(expr, TypeCast):
            expr = expr.child
        if (isinstance(expr, p.Subscript) and isinstance(expr.aggregate, p.Variable)
                and self.is_table(expr.aggregate.name)):
            return expr.aggregate.name
        return None

    def _assigned_table(self, name: str, depth: int = 0) -> str | None:
        """The table every assignment of the region's variable `name` reads, if there is one
        (``int j = c[k*n + i];``, a loop bound ``_tr_bound0 = rowptr[i]``, or a copy of such
        a variable: ``const int start = rowptr[i]; for (k = start; ...)``)."""
        tables = set()
        for s in self.asm.stmts:
            if s.assignee_name != name or isinstance(s.assignee, p.Subscript):
                continue
            value = s.expression
            while isinstance(value, TypeCast):
                value = value.child
            if isinstance(value, p.Variable) and depth < 4:
                tables.add(self._assigned_table(value.name, depth + 1))
            else:
                tables.add(self.table_of(value))
        return tables.pop() if len(tables) == 1 else None

    def _range(self, table: str) -> tuple[str, str] | None:
        """The value arguments holding the smallest and largest element of `table` over its
        extent, computed by the caller."""
        if table in self.bounds:
            return self.bounds[table]
        if table in self._busy:
            return None
        self._busy.add(table)
        try:
            extent = self.asm.table_extent(table)
        finally:
            self._busy.discard(table)
        count = None if extent is None else self._c_text(extent)
        if count is None:
            return None
        asm = self.asm
        suffix = _SCANS[np.dtype(asm.built.outer[table].ctype.dtype)]
        c_table = asm._c_name(table)
        names = []
        for kind in ("min", "max"):
            name = asm.builder.names(f"_tr_{kind}_{c_table}")
            asm.hoisted[name] = (np.dtype(np.int64),
                                 f"tr_index_{kind}_{suffix}({c_table}, {count})")
            asm.values[name] = Binding("outer", name, CType("scalar", np.dtype(np.int64)))
            self.declarations.add(scan_declaration(kind, suffix))
            names.append(name)
        self.bounds[table] = (names[0], names[1])
        return self.bounds[table]

    def _c_text(self, expr: Expression) -> str | None:
        """`expr` (an extent over value arguments) as C text at the call."""
        if isinstance(expr, (int, np.integer)) and not isinstance(expr, bool):
            return str(int(expr)) if abs(int(expr)) < 2**31 else f"{int(expr)}LL"
        if isinstance(expr, p.Variable):
            if expr.name in self.asm.hoisted:
                return self.asm.hoisted[expr.name][1]
            if expr.name in self.asm.values:
                return self.asm._c_name(expr.name)
            return None
        parts = [self._c_text(c) for c in getattr(expr, "children", ())]
        if not parts or None in parts:
            return None
        if isinstance(expr, p.Sum):
            return "(" + " + ".join(parts) + ")"
        if isinstance(expr, p.Product):   # in long long: n*m may pass INT_MAX
            return "((long long)" + " * ".join(parts) + ")"
        return None

    # -- footprints -----------------------------------------------------------------------

    def end(self, stmt, dom, index: Expression) -> Expression | None:
        """One past the largest value `index` takes, the values read from index tables
        ranging over the tables' elements; None where the subscript is no read-only gather
        of that shape.  Appends to the assembler's assumptions what keeps it >= 0."""
        asm = self.asm
        reads = _TableReads(self)
        index2 = reads(index)
        preds = tuple(reads(c) for c in stmt.predicates)
        ranges: dict[str, tuple[str, str]] = {}
        for sub, var in reads.found.items():
            bounds = self._range(self.table_of(sub))
            if bounds is None:
                return None
            ranges[var.name] = bounds
        names = set(dependencies(index2)) | set(isl_glue.params_of(dom))
        for c in preds:
            names |= dependencies(c)
        for name in sorted(names - set(asm.values) - stmt.inames - set(ranges)):
            table = self._assigned_table(name)
            bounds = None if table is None else self._range(table)
            if bounds is None:
                continue
            ranges[name] = bounds
        if not ranges:
            return None
        inames = frozenset(stmt.inames) | frozenset(ranges)
        known = inames | set(asm.values)
        if any(not dependencies(c) <= known or isl_glue.affine_condition(c) is None
               for c in preds):
            # a guard the footprint cannot see (``if (mask[i])``): a table element it skips
            # may hold anything, and the extent must not exceed what the program touches
            return None
        try:
            full = isl_glue.with_value_ranges(dom, ranges)
            end = index_end(full, index2, preds, inames)
            parts = affine_parts(index2, inames)
        except (DomainError, NotLinear):
            return None
        if any(n not in asm.values for n in dependencies(end)):
            return None
        for part in parts:
            conditions = isl_glue.c_nonnegative_condition(full, part, preds)
            if conditions is None or any(n not in asm.values for c in conditions
                                         for n in dependencies(c)):
                return None
            asm.assumptions.extend(conditions)
        return end

    def check_inside(self, stmt, dom, index: Expression, extent: Expression) -> None:
        """For a subscript of a declared extent that reads index tables: assume (the glue
        checks at each call) that the values the tables hold keep it inside the extent."""
        before = len(self.asm.assumptions)
        end = self.end(stmt, dom, index)
        if end is None:
            del self.asm.assumptions[before:]
            return
        room = p.Sum((extent, p.Product((-1, end))))
        if isl_glue.is_affine(room, ()):
            self.asm.assumptions.append(p.Comparison(room, ">=", 0))
