"""Reads through index tables in Fortran regions (h93): ``x(col(k))`` over ``k = rowptr(i),
rowptr(i + 1) - 1`` (CSR), ``u(conn(n, e))`` (finite elements), ``u(perm(i))``.

An index table is an integer array the region never writes (nor a POINTER or TARGET array
it writes, which might share its memory).  Each value read from one is a variable between
the table's smallest and largest element, which the caller computes before the call with
the runtime's scans (``tr_index_least_i32(col, count)``: the device's copy where a data
region holds the table, else the host's; an empty table gives an empty range), passed as
value arguments.  A temporary the region sets once from such values (the loop bounds
``rowptr(i)`` and ``rowptr(i + 1) - 1``, ``j = col(k)``) is their affine function.  With those ranges isl bounds every subscript that reads them:

- the kernel assumes (the host glue checks at each call, stopping with the region's
  file:line) that each such subscript stays inside the array's extent on every axis, from
  the array's lower bound (``min(col) >= 1`` for ``x(n)``, ``>= 0`` for ``x(0:n)``) to its
  upper one, assumed-shape, explicit-shape and allocatable arrays alike;
- an assumed-size array (``x(*)``, or a legacy ``x(1)`` dummy) gets the footprint as its last
  extent: one past the largest index the tables allow.

A table is scanned over the elements the region reads of it where isl bounds them (a CSR
``col`` allocated larger than its ``nnz`` used entries is scanned up to ``rowptr``'s largest
value), else over its whole size.  A subscript under a condition isl cannot see (``if
(mask(i))``) is not checked: a table element the condition skips may hold anything; an
assumed-size array read that way has no extent (the error says to declare it).
"""

from __future__ import annotations

import numpy as np
import pymbolic.primitives as p

from frontends.footprint import NotLinear, affine_parts, index_end
from frontends.fortran.build_support import GeneratedValue
from frontends.fortran.types import FType
from translator.diagnostics import DomainError
from translator.ir import isl_glue
from translator.ir.expr import (Expression, IRIdentityMapper, IRWalkMapper, dependencies,
                                integer_casts_dropped)
from translator.ir.statements import Assignment

#: The runtime's scan functions, by element type.
_SCANS = {np.dtype(np.int8): "i8", np.dtype(np.int16): "i16", np.dtype(np.int32): "i32",
          np.dtype(np.int64): "i64"}
_INT8 = FType("integer", 8)


class _TableReads(IRIdentityMapper):
    """Each read of an index table replaced by a variable standing for its value."""

    def __init__(self, gathers: Gathers, first: int = 0) -> None:
        self.gathers = gathers
        self.first = first
        self.found: dict[p.Subscript, p.Variable] = {}

    def map_subscript(self, expr: p.Subscript, *args, **kwargs):
        if not self.gathers.is_table(getattr(expr.aggregate, "name", "")):
            return super().map_subscript(expr, *args, **kwargs)
        if expr not in self.found:
            self.found[expr] = p.Variable(f"_tr_gathered{self.first + len(self.found)}")
        return self.found[expr]


class Gathers:
    """The index tables of one region and what their values imply (an assembly's helper)."""

    def __init__(self, rb, statements: list[Assignment], written: set[str],
                 private: set[str]) -> None:
        self.rb = rb
        self.statements = statements
        self.written = written
        #: the region's private scalars: one set once per iteration is a function of it
        self.private = private
        #: table -> (name of its smallest value, name of its largest value)
        self.bounds: dict[str, tuple[str, str]] = {}
        #: the scans the call uses (their interfaces go into the rewritten source)
        self.suffixes: set[str] = set()
        #: conditions on value arguments the glue checks at each call
        self.assumptions: list[Expression] = []
        #: the scan values, in the order they were made (value arguments of the kernel)
        self.values: list[GeneratedValue] = []
        self._busy: set[str] = set()
        self._tables: dict[str, bool] = {}
        self._inames = {n for d in rb.domains for n in isl_glue.inames_of(d)}

    # -- tables ---------------------------------------------------------------------------

    def is_table(self, name: str) -> bool:
        if name not in self._tables:
            self._tables[name] = self._is_table(name)
        return self._tables[name]

    def _is_table(self, name: str) -> bool:
        sym = self.rb.touched.get(name)
        if sym is None or not sym.is_array or sym.ftype is None:
            return False
        if sym.ftype.base != "integer" or np.dtype(sym.ftype.dtype) not in _SCANS:
            return False
        if name in self.written:
            return False
        if sym.pointer or sym.target:
            return not any(self.rb.touched[w].pointer or self.rb.touched[w].target
                           for w in self.written if w in self.rb.touched)
        return True

    def _definition(self, name: str) -> Assignment | None:
        """The one statement setting the region's temporary `name`, if it is one."""
        if name not in self.rb.temporaries and name not in self.private:
            return None
        found = [s for s in self.statements if name in s.assignee_names()]
        if len(found) != 1 or not isinstance(found[0].assignee, p.Variable):
            return None
        return found[0]

    # -- values ---------------------------------------------------------------------------

    def _view(self, expressions: list[Expression], names: frozenset[str] = frozenset()):
        """`expressions` (of one statement) with table reads as variables: (the expressions,
        their ranges, the temporaries they or `names` use, defined by table values), or None
        where such a temporary is set more than once or under a condition.  A subscript of a
        table read twice in one statement is one value (the region never writes a table);
        each temporary's definition reads values of its own (another iteration's)."""
        reads = _TableReads(self)
        out = [self._exact(reads(e)) for e in expressions]
        found = list(reads.found.items())
        defined: dict[str, Expression] = {}
        todo = sorted({n for e in out for n in dependencies(e)} | names)
        while todo:
            name = todo.pop()
            if name in defined or name.startswith("_tr_gathered"):
                continue
            stmt = self._definition(name)
            if stmt is None:
                continue
            if stmt.predicates or len(defined) > 16:
                return None
            own = _TableReads(self, len(found))
            defined[name] = value = self._exact(own(stmt.expression))
            found += own.found.items()
            if dependencies(value) & self._inames:
                return None     # a loop's value where it was set: no function of the tables
            todo += sorted(dependencies(value))
        ranges = {}
        for sub, var in found:
            bounds = self._range(sub.aggregate.name)
            if bounds is None:
                return None
            ranges[var.name] = bounds
        return out, ranges, defined

    def _exact(self, expr: Expression) -> Expression:
        return integer_casts_dropped(expr, lambda n: True)

    def _range(self, table: str) -> tuple[str, str] | None:
        if table in self.bounds:
            return self.bounds[table]
        if table in self._busy:
            return None
        self._busy.add(table)
        try:
            count = self._count(table)
        finally:
            self._busy.discard(table)
        if count is None:
            return None
        sym = self.rb.touched[table]
        suffix = _SCANS[np.dtype(sym.ftype.dtype)]
        actual = sym.actual
        names = []
        for kind, scan in (("min", "least"), ("max", "most")):
            name = f"_tr_{kind}_{table}"
            self.values.append(GeneratedValue(name, f"tr_index_{scan}_{suffix}({actual}, "
                                                    f"{count})", _INT8, sym.span))
            names.append(name)
        self.suffixes.add(suffix)
        self.bounds[table] = (names[0], names[1])
        return self.bounds[table]

    def _count(self, table: str) -> str | None:
        """How many of the table's elements to scan, as Fortran text: its size, or fewer
        where the region reads only the first ones; an assumed-size table's footprint.
        Constants are folded: the caller's scope may have taken SIZE, MIN or INT as variable
        names (FORTRAN 77 codes do), which the text then does not call."""
        sym = self.rb.touched[table]
        extents = self.rb.layout(sym).extents
        size_value = _product(extents) if extents else None
        size = f"size({sym.actual}, kind=8)" if size_value is None else _int8(size_value)
        last = len(sym.dims) - 1
        assumed = sym.dims[-1].kind == "assumed_size" or legacy_one(sym)
        end = self.footprint(table, last)
        if end is None:
            end = self._plain_end(table, last)
        text = end_value = None
        if end not in (None, False):
            parts = [*extents[:-1], end]
            end_value = _product(parts)
            texts = [self._fortran(e) for e in parts]
            text = _int8(end_value) if end_value is not None else \
                None if None in texts else "*".join(f"int({t}, 8)" for t in texts)
        if assumed or text is None:
            return text if assumed else size
        if size_value is not None and end_value is not None:
            return _int8(min(size_value, end_value))
        return f"min({size}, {text})"

    def _fortran(self, expr: Expression) -> str | None:
        """A footprint (over value arguments and scan values) as Fortran text at the call."""
        if isinstance(expr, (int, np.integer)) and not isinstance(expr, bool):
            return f"({int(expr)})" if expr < 0 else str(int(expr))
        if isinstance(expr, p.Variable):
            made = next((v for v in self.values if v.name == expr.name), None)
            if made is not None:
                return made.call_text
            g = self.rb.generated.get(expr.name)
            if g is not None:
                return f"({g.call_text})"
            sym = self.rb.touched.get(expr.name)
            return None if sym is None or sym.is_array else sym.actual
        if isinstance(expr, p.Call):
            if getattr(expr.function, "name", "") != "max":
                return None
            parts = [self._fortran(c) for c in expr.parameters]
            return None if None in parts else \
                "max(" + ", ".join(f"int({t}, 8)" for t in parts) + ")"
        parts = [self._fortran(c) for c in getattr(expr, "children", ())]
        if not parts or None in parts:
            return None
        if isinstance(expr, p.Sum):
            return "(" + " + ".join(parts) + ")"
        if isinstance(expr, p.Product):
            return "(" + " * ".join(f"int({t}, 8)" for t in parts) + ")"
        return None

    # -- subscripts -----------------------------------------------------------------------

    def footprint(self, name: str, axis: int = 0) -> Expression | None:
        """One past the largest index the region's subscripts of `name` take on `axis`,
        where some read index tables and every one is bounded; None otherwise."""
        ends = []
        gathered = False
        for stmt in self.statements:
            for index in _subscripts(name, stmt):
                end = self.end(stmt, index[axis])
                if end is None:
                    return None
                gathered = gathered or end is not _PLAIN
                ends.append(end)
        if not gathered or not ends:
            return None
        ends = [e for e in dict.fromkeys(e for e in ends if e is not _PLAIN)]
        plain = self._plain_end(name, axis, skip_gathered=True)
        if plain is False:
            return None
        if plain is not None:
            ends.append(plain)
        return ends[0] if len(ends) == 1 else p.Call(p.Variable("max"), tuple(ends))

    def _plain_end(self, name: str, axis: int, skip_gathered: bool = False):
        """The footprint of the subscripts of `name` that read no table (None: there are
        none; False: not bounded, or one reads a table and `skip_gathered` is off: a scan
        over the plain ones only would miss elements the region reads)."""
        accesses = []
        for stmt in self.statements:
            for index in _subscripts(name, stmt):
                found = self._bounded(stmt, index[axis])
                if found is None:
                    return False
                if found is not _PLAIN:
                    if skip_gathered:
                        continue
                    return False
                try:
                    domain = isl_glue.combined_domain(self.rb.domains, stmt.within_inames)
                    accesses.append((domain, index[axis]))
                except DomainError:
                    return False
        if not accesses:
            return None
        try:
            hi = isl_glue.max_over_union(accesses)
        except DomainError:
            return False
        return hi + 1 if isinstance(hi, int) else p.Sum((hi, 1))

    def end(self, stmt: Assignment, index: Expression):
        """One past the largest value of `index` (a subscript of `stmt`) with the tables'
        values in their ranges (appending to `assumptions` what keeps it >= 0); `_PLAIN`
        where it reads no table; None where it cannot be bounded."""
        found = self._bounded(stmt, index)
        if found is None or found is _PLAIN:
            return found
        if self._reads_ragged_table(stmt, index):
            return None   # the scans' range is not that of the elements read
        full, index2, preds, dims = found
        try:
            end = index_end(full, index2, preds, dims)
        except (DomainError, NotLinear):
            return None
        if not self._over_values(dependencies(end)):
            return None
        if not self._assume_nonnegative(full, index2, preds, dims):
            return None
        return end

    def check(self, stmt: Assignment, index: Expression, extent: Expression) -> None:
        """Assume (the glue checks) that `index`, a 0-based subscript of `stmt` reading
        index tables, stays in ``0 .. extent - 1``."""
        found = self._bounded(stmt, index)
        if found is None or found is _PLAIN:
            return
        full, index2, preds, dims = found
        before = len(self.assumptions)
        room = p.Sum((extent, -1, p.Product((-1, index2))))
        if not (self._assume_nonnegative(full, index2, preds, dims)
                and self._assume_nonnegative(full, room, preds, dims)):
            del self.assumptions[before:]

    def _bounded(self, stmt: Assignment, index: Expression):
        try:
            domain = isl_glue.combined_domain(self.rb.domains, stmt.within_inames)
        except DomainError:
            return None
        view = self._view([index, *stmt.predicates], frozenset(isl_glue.params_of(domain)))
        if view is None:
            return None
        exprs, ranges, defined = view
        index2, preds = exprs[0], exprs[1:]
        dims = frozenset(ranges) | frozenset(defined)
        if not (dependencies(index2) | set(isl_glue.params_of(domain))) & dims:
            return _PLAIN
        inames = frozenset(stmt.within_inames) | dims
        if any(not self._known(dependencies(c), inames) or isl_glue.affine_condition(c) is None
               for c in preds):
            return None     # a guard isl cannot see: a skipped table element may be anything
        try:
            full = isl_glue.with_value_ranges(domain, ranges, defined)
        except DomainError:
            return None
        return full, index2, preds, inames

    def _known(self, names: set[str], inames: frozenset[str]) -> bool:
        return all(n in inames or self._over_values({n}) for n in names)

    def _over_values(self, names: set[str]) -> bool:
        made = {v.name for v in self.values}
        for n in names:
            sym = self.rb.touched.get(n)
            if n in made or n in self.rb.generated:
                continue
            if sym is None or sym.is_array or n in self.written:
                return False
        return True

    def _assume_nonnegative(self, full, index: Expression, preds, dims) -> bool:
        try:
            parts = affine_parts(index, dims)
        except NotLinear:
            return False
        for part in parts:
            conditions = isl_glue.c_nonnegative_condition(full, part, preds)
            if conditions is None or not all(self._over_values(dependencies(c))
                                             for c in conditions):
                return False
            self.assumptions.extend(conditions)
        return True


    def check_arrays(self, args) -> None:
        """`check` every subscript of every array argument that reads index tables."""
        for arg in args:
            shape = getattr(arg, "shape", None)
            if not shape or arg.name not in self.rb.touched:
                continue
            for stmt in self.statements:
                for index in _subscripts(arg.name, stmt):
                    for extent, axis_index in zip(shape, index):
                        if extent is not None and not self._reads_ragged_table(stmt,
                                                                               axis_index):
                            self.check(stmt, axis_index, extent)

    def _reads_ragged_table(self, stmt: Assignment, index: Expression) -> bool:
        """Whether `index` reads a table of which the region may read only some columns'
        first rows (``nlist(k, i)`` for ``k <= numneigh(i)``: a neighbour list, a padded
        matrix row).  The scans cover whole leading axes, whose unread slots may hold
        anything (never set, as in the original program), so their range proves nothing
        about the elements read: such a subscript is not checked.  (The array it reads has
        a known extent and moves whole; a read out of it is one in the original too.)"""
        view = self._view([index])
        if view is None:
            return False
        read = set(view[1].values())
        return any(self._ragged(t) for t, b in list(self.bounds.items()) if b in read)

    def _ragged(self, table: str) -> bool:
        """Whether some read of `table` on a leading axis is bounded by table values."""
        sym = self.rb.touched[table]
        for stmt in self.statements:
            for index in _subscripts(table, stmt):
                for axis_index in index[:len(sym.dims) - 1]:
                    if self._bounded(stmt, axis_index) is not _PLAIN:
                        return True
        return False


#: `Gathers.end` of a subscript that reads no index table.
_PLAIN = object()


def legacy_one(sym) -> bool:
    """A dummy declared ``x(1)`` (or ``x(n, 1)``), used as assumed-size by legacy code."""
    last = sym.dims[-1]
    return sym.is_dummy and last.kind == "explicit" and getattr(last, "upper", None) == 1 \
        and getattr(last, "lower", 1) == 1


class _SubscriptsOf(IRWalkMapper):
    """Appends the index tuple of every subscript of array `name` to `found`."""

    def __init__(self, name: str, found: list) -> None:
        self.name = name
        self.found = found

    def visit(self, expr, *args, **kwargs):
        if isinstance(expr, p.Subscript) and getattr(expr.aggregate, "name", None) == self.name:
            self.found.append(expr.index_tuple)
        return True


def _subscripts(name: str, stmt: Assignment) -> list[tuple]:
    found: list[tuple] = []
    walker = _SubscriptsOf(name, found)
    for e in (stmt.assignee, stmt.expression, *stmt.predicates):
        walker(e)
    return found



def _product(values) -> int | None:
    """The product of `values` where each is an integer constant, else None."""
    out = 1
    for v in values:
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
            return None
        out *= int(v)
    return out


def _int8(value: int) -> str:
    """An integer(8) literal."""
    return f"{value}_8" if value >= 0 else f"({value}_8)"


__all__ = ["Gathers", "legacy_one"]
