"""Raw region statements -> a `Kernel` and its `Region`.

Decides what each outer variable becomes (C memory model, DESIGN.md "The IR"):

- arrays and pointers -> `ArrayArg` (C order); extents from declarations or from the footprint.
  A local pointer of known origin is its base array at an offset (`frontends.c.provenance`);
  `may_alias` (`_may_overlap`): plain pointers may overlap each other, local pointers of
  unknown origin anything; `restrict` parameters, array parameters and array objects are
  disjoint buffers (the glue stops a call whose arrays overlap where the kernel assumed
  otherwise);
- scalars only read -> `ValueArg`;
- scalars written: a private `TemporaryVariable` when each iteration writes before it reads, on
  every path, and the final value is dead, otherwise a 1-element `ArrayArg`
  (`Region.written_scalars`, the call passes ``&s``) so the value comes back.

Builds one isl domain per loop (the forest), and `depends_on` so that statements keep their
source order wherever they touch common variables.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pymbolic.primitives as p
from pycparser import c_ast
from pycparser.c_generator import CGenerator

from frontends.base import Region
from frontends.directives.claims import LoopInfo, RegionFacts, with_gang_firstprivate
from frontends.c.build import BuiltRegion, Loop, RawStatement, _base_name, _walk, _writes
from frontends.c.expressions import Binding, ExpressionBuilder
from frontends.c.gathers import Gathers
from frontends.footprint import index_end
from frontends.c.liveness import References
from frontends.c.loops import BoundNormaliser, analyse_for
from frontends.c.regions import RegionSite
from frontends.c.typemodel import CType
from frontends.marks import apply_marks
from frontends.privacy import Step, written_before_every_read
from translator.diagnostics import (DomainError, FrontendError, TranslatorError,
                                    UnsupportedConstructError)
from translator.ir import isl_glue
from translator.ir.data import AddressSpace, ArrayArg, TemporaryVariable, ValueArg
from translator.ir.expr import (Expression, IRWalkMapper, TypeCast, dependencies,
                                integer_casts_dropped, substitute)
from translator.ir.kernel import Kernel, Options
from translator.ir.mappers import nodes_of
from translator.ir.predicates import holding_comparisons
from translator.ir.statements import Assignment
from translator.ir.util import FrozenDict


class Assembler:
    """Turns a `BuiltRegion` into the region's kernel (one instance per region)."""

    def __init__(self, builder, built: BuiltRegion, site: RegionSite,
                 refs: References) -> None:
        self.builder = builder
        self.built = built
        self.site = site
        self.refs = refs
        self._widened = {}
        self.provenance = builder.provenance   # the builder's: same site, same function
        self.stmts = built.statements
        self.inames = {loop.iname for loop in built.loops}
        self.values: dict[str, Binding] = {}
        self.scalars_out: dict[str, Binding] = {}
        self.private: dict[str, Binding] = {}
        #: a directive's private scalars the program may read after the region
        self.read_after: set[str] = set()
        #: Why each written scalar is one variable, not a copy per work item.
        self.shared_reasons: dict[str, str] = {}
        self.assumptions: list[Expression] = []
        #: Non-affine loop bounds computed by the caller: name -> (dtype, C text).
        self.hoisted: dict[str, tuple[object, str]] = {}
        self.hoisted_ids: dict[int, p.Variable] = {}
        #: C statements after the call (`Region.after_call`).
        self.after_call: list[str] = []
        #: Footprints of reads through index tables (`frontends.c.gathers`).
        self.gathers = Gathers(self)
        self._table_shapes: dict[str, tuple[Expression, ...]] = {}

    def assemble(self) -> Region:
        self._check_names_after_region()
        self._classify_scalars()
        self._substitute_written_scalars()
        domains = self._domains()
        arrays = self._arrays(domains)
        self._record_checks()
        used = _used_names(self.stmts, domains, arrays)
        used |= {n for pair in self.gathers.bounds.values() for n in pair}
        args = self._arguments(arrays, used)
        self._enclosing_loop_bounds({a.name for a in args if isinstance(a, ValueArg)})
        self._constant_locals({a.name for a in args if isinstance(a, ValueArg)})
        kernel = Kernel(
            name=self.site.name, domains=tuple(domains), statements=self._statements(arrays),
            args=tuple(args), temporaries=FrozenDict(self._temporaries()),
            assumptions=self._assumptions(),
            options=Options(source_language="c", extra=self._extra()),
            span=self.site.kernel.span)
        return Region(
            name=self.site.name, kernel=apply_marks(kernel, self.site.marks),
            transform_calls=tuple(self.site.calls),
            claims=self._facts() if self.site.claims else None,
            start=self.site.kernel.start, end=self.site.end.end, indent=self._indent(),
            procedure=self.site.function.decl.name, span=self.site.kernel.span,
            call_args=tuple((a.name, self._call_arg(a)) for a in args),
            written_scalars=frozenset(self.scalars_out),
            param_types=tuple((a.name, self._spelling(a.name)) for a in args
                              if self._spelling(a.name) and a.name not in self._widened),
            after_call=tuple(self.after_call), async_queue=self.site.async_queue,
            declarations=tuple(sorted(self.gathers.declarations)))

    # -- variables ------------------------------------------------------------------------

    def _check_names_after_region(self) -> None:
        for name, span in self.built.top_level.items():
            if self.refs.referenced_after(name, self.site):
                raise UnsupportedConstructError(
                    f"{name!r} is declared inside region {self.site.name!r} and used after "
                    "it; declare it before the region", span)
        for name, span in self.built.outer_loop_vars.items():
            if not self.refs.used_after(name, self.site):
                continue
            final = self.built.outer_loop_finals.get(name)
            if final is None:
                raise UnsupportedConstructError(
                    f"the value of loop variable {name!r} after region {self.site.name!r} is "
                    "used, but the host cannot compute it (the loop is nested in another loop "
                    "or an if of the region, or its bounds use values the region declares); "
                    "declare the variable in the for statement or set it after the region",
                    span)
            self.after_call.append(f"{name} = {final};")

    def _private_candidates(self) -> FrozenDict:
        """Local arrays the region writes and nothing reads after it: privatisation may give
        each work item its own copy (translator.analysis.privatize decides)."""
        written = {s.assignee_name for s in self.stmts}
        escaped = self.provenance.escaped   # a pointer may reach these after the region
        names = tuple(sorted(
            name for name, b in self.built.outer.items()
            if name in written and b.ctype.kind == "array" and b.storage == "local"
            and self.built.c_names[name] not in escaped
            and not self.refs.used_after(self.built.c_names[name], self.site)))
        return FrozenDict({"private_candidates": names} if names else {})

    def _unsized(self) -> frozenset[str]:
        """The pointers and the array parameters without a first extent."""
        return frozenset(n for n, b in self.built.outer.items()
                         if (b.ctype.kind == "pointer"
                             or (b.ctype.kind == "array" and b.ctype.dims[0] is None))
                         and n not in self._unused_records())

    def _unused_records(self) -> frozenset[str]:
        """Arrays of structs the region reads only through views of other member types
        (`record_view`): no argument of their own."""
        used = {s.assignee_name for s in self.stmts} | set().union(
            *(_reads(s) for s in self.stmts))
        return frozenset(set(self.built.record_views.values()) - used)

    def _facts(self) -> RegionFacts:
        """What the proof of the region's OpenMP/OpenACC claims needs
        (`translator.directive_proof`)."""
        loops = self.built.loops
        index = {id(loop): k for k, loop in enumerate(loops)}
        infos = tuple(LoopInfo(loop.var, loop.iname, loop.span.line if loop.span else 0,
                               index.get(id(loop.parent)),
                               loop.var in self.built.outer_loop_vars) for loop in loops)
        unsized = self._unsized()
        return RegionFacts(claims=tuple(self.site.claims),
                           written_back=frozenset(self.scalars_out),
                           auto_private=frozenset(self.private),
                           implicit=frozenset(loop.var for loop in loops)
                           | frozenset(self.built.temporaries), loops=infos, unsized=unsized,
                           read_after=frozenset(self.read_after))

    def _classify_scalars(self) -> None:
        written = {s.assignee_name for s in self.stmts}
        names = frozenset(self.built.c_names[n] for n in written if n in self.built.c_names)
        scalars = frozenset(self.built.c_names[n] for n in written if n in self.built.outer
                            and self.built.outer[n].ctype.is_scalar)
        self.site.claims = with_gang_firstprivate(self.site.claims, scalars)   # h70
        declared = frozenset().union(*(c.private_names(names) for c, _, _ in self.site.claims))
        for name, b in self.built.outer.items():
            if not b.ctype.is_scalar:
                continue
            c_name = self.built.c_names[name]
            if name not in written:
                self.values[name] = b
            elif c_name in declared:
                # a directive's private variable: one copy per iteration wherever it lives
                # (read after the loop: kept shared, the proof refuses the claim)
                if self.refs.used_after(c_name, self.site):
                    self.read_after.add(name)
                target = (self.private if _privatizable(name, self.stmts)
                          and name not in self.read_after else self.scalars_out)
                target[name] = b
            elif b.storage == "global":
                self.scalars_out[name] = b
                self.shared_reasons[name] = ("it is a global or static variable, so its value "
                                             "outlives the region")
            elif self.refs.used_after(c_name, self.site):
                self.scalars_out[name] = b
                self.shared_reasons[name] = ("its value is used after the region, so it must be "
                                             "the last iteration's")
            elif c_name in self._addressed_outside():
                self.scalars_out[name] = b
                self.shared_reasons[name] = ("its address is taken outside the region, so a "
                                             "pointer may read its value after the region")
            elif _privatizable(name, self.stmts):
                self.private[name] = b
            else:   # read before written: races say so (a carried value), no reason kept
                self.scalars_out[name] = b

    def _addressed_outside(self) -> frozenset[str]:
        """The names under ``&`` in the function outside the region (``int *pk = &k;``)."""
        start, end = self.site.kernel.line, self.site.end.last_line
        return frozenset(
            _base_name(n.expr) for n in _walk(self.site.function.body)
            if isinstance(n, c_ast.UnaryOp) and n.op == "&" and n.coord is not None
            and not start <= n.coord.line <= end)

    def _extra(self) -> FrozenDict:
        """Kernel options for the analyses: private candidates and the shared scalars."""
        extra = dict(self._private_candidates())
        if self.shared_reasons:
            extra["shared_scalars"] = tuple(sorted(self.shared_reasons.items()))
        counted = tuple((loop.iname, str(loop.value)) for loop in self.built.loops
                        if loop.value != p.Variable(loop.iname))
        if counted:     # trip counters: witnesses show the variable's values (legality)
            extra["iname_values"] = counted
        if self.built.record_views:   # one memory for several arguments (codegen)
            extra["shared_buffers"] = tuple(sorted(self.built.record_views.items()))
        mode = "claims" if self.site.claims else "refuse"
        firsts = tuple((n, self._c_name(n), 0, mode) for n in sorted(self._unsized()))
        if firsts:      # moved from the element they point to (keep_first_elements)
            extra["first_elements"] = firsts
        return FrozenDict(extra)

    def _substitute_written_scalars(self) -> None:
        if not self.scalars_out:
            return
        mapping = {n: p.Subscript(p.Variable(n), 0) for n in self.scalars_out}
        for s in self.stmts:
            s.assignee = substitute(s.assignee, mapping)
            s.expression = substitute(s.expression, mapping)
            s.predicates = tuple(substitute(c, mapping) for c in s.predicates)

    def _temporaries(self) -> dict[str, TemporaryVariable]:
        temps = dict(self.built.temporaries)
        for name, b in self.private.items():
            temps[name] = TemporaryVariable(name=name, dtype=b.ctype.dtype,
                                            address_space=AddressSpace.PRIVATE,
                                            span=self._decl_span(name))
        return temps

    # -- domains --------------------------------------------------------------------------

    def _domains(self) -> list:
        domains = []
        for loop in self.built.loops:
            constraints = self._loop_constraints(loop, domains)
            try:
                domains.append(isl_glue.c_loop_domain(loop.iname, constraints))
            except DomainError as err:
                raise FrontendError(f"unsupported bounds of the loop over {loop.var!r} (they "
                                    "must be affine in enclosing loop variables and values "
                                    f"the region does not write): {err.message}",
                                    loop.span) from None
        return domains

    def _loop_constraints(self, loop: Loop, domains: list) -> list:
        ancestors = _ancestors(loop)
        outer = {a.iname for a in ancestors}
        normalise = BoundNormaliser(lambda num: self._nonnegative(num, outer, domains),
                                    self._is_integer)
        constraints = [(self._hoisted_bound(a, normalise), op, self._hoisted_bound(b, normalise))
                       for a, op, b in loop.constraints]
        used = set()
        for a, _, b in constraints:
            used |= dependencies(a) | dependencies(b)
        data_bounds = used & self.built.bound_temporaries
        for name in sorted(used - outer - {loop.iname} - data_bounds):
            if name in self.inames or name not in self.values:
                raise FrontendError(f"the bounds of the loop over {loop.var!r} depend on "
                                    f"{self._c_name(name)!r}, which the region writes (or which "
                                    "is not a loop variable of an enclosing loop)", loop.span)
        if loop.parent is not None and loop.parent.iname not in used and (used & outer
                                                                          or data_bounds):
            # Keep the forest a chain along the nest: a domain that names only a more distant
            # ancestor would otherwise become a sibling of its parent's domain.
            constraints += self._loop_constraints(loop.parent, domains)
        return constraints

    def _hoisted_bound(self, bound: Expression, normalise) -> Expression:
        """A bound that isl cannot use (``n*m``) but that only reads value arguments becomes
        a new value argument, computed by the caller from the bound's C text."""
        result = normalise(bound)
        source = self.built.bound_sources.get(id(bound))
        names = dependencies(result)
        if (source is None or source[0] is not bound or not names or names - set(self.values)
                or isl_glue.is_affine(result, names)):
            return result
        if id(bound) not in self.hoisted_ids:
            _, node, dtype = source
            name = self.builder.names("_tr_bound")
            self.hoisted[name] = (dtype, "(" + CGenerator().visit(node) + ")")
            self.values[name] = Binding("outer", name, CType("scalar", dtype))
            self.hoisted_ids[id(bound)] = p.Variable(name)
        return self.hoisted_ids[id(bound)]

    def _is_integer(self, name: str) -> bool:
        """Whether `name` (a loop variable or a variable from outside the region) is an
        integer."""
        b = self.built.outer.get(name) or self.values.get(name)
        return name in self.inames or (b is not None and b.ctype.dtype is not None
                                       and b.ctype.dtype.kind in "iu")

    def _nonnegative(self, num: Expression, outer: set[str], domains: list) -> bool:
        names = dependencies(num)
        if names & outer:
            inames = names & outer
            dom = isl_glue.statement_domain(domains, inames)
            return isl_glue.is_nonnegative(num, dom)
        if names <= set(self.values):
            # C truncates, isl floors: they agree for a non-negative numerator, which the
            # kernel then assumes (a negative one would make the loop empty in practice).
            self.assumptions.append(p.Comparison(num, ">=", 0))
            return True
        return False

    def _enclosing_loop_bounds(self, values: set[str]) -> None:
        """Assume what the loops around the region guarantee of their variables where the
        region reads them (LU's ``for (k = 0; k < N - 1; k++)`` around a ``parallel for (i =
        k + 1; ...)``: k >= 0, k < N - 1): a canonical ``for`` over a signed local or
        parameter that its body never assigns, nor takes the address of, with constant bounds
        (h72)."""
        by_c_name = {self._c_name(n): n for n in values}
        for loop in self.site.enclosing_loops:
            if not isinstance(loop, c_ast.For):
                continue
            try:
                head = analyse_for(loop, self.builder.fscope, None)
            except TranslatorError:
                continue
            name = by_c_name.get(head.var)
            b = self.values.get(name) if name is not None else None
            if (b is None or b.storage == "global" or b.ctype.dtype is None
                    or np.dtype(b.ctype.dtype).kind != "i" or _writes(head.var, loop.stmt)):
                continue
            start = self.builder.fscope.constant_value(head.init)
            if start is not None:
                self.assumptions.append(
                    p.Comparison(p.Variable(name), ">=" if head.step > 0 else "<=", start))
            for op, bound in head.conditions:
                end = self.builder.fscope.constant_value(bound)
                if end is not None:
                    self.assumptions.append(p.Comparison(p.Variable(name), op, end))

    def _constant_locals(self, values: set[str]) -> None:
        """Assume the value of an integer local of the function that its declaration sets
        to a constant and nothing assigns again, nor takes the address of, where the region
        reads it (Rodinia nw's ``int max_cols = N;`` before ``score[r*max_cols + c]``: rows
        of ``max_cols`` elements hold a column up to ``N - 1``); the host glue checks it at
        each call like any assumption."""
        for name in sorted(values):
            c_name = self._c_name(name)
            entry = self.site.visible.get(c_name)
            b = self.values.get(name)
            if entry is None or entry[0] != "local" or b is None or b.ctype.dtype is None:
                continue
            decl = entry[1]
            kind = np.dtype(b.ctype.dtype).kind
            if (kind not in "iu" or decl.init is None or "volatile" in (decl.quals or ())
                    or _writes(c_name, self.site.function.body) != 1):
                continue
            value = self.builder.fscope.constant_value(decl.init)
            info = np.iinfo(b.ctype.dtype)
            if value is not None and info.min <= value <= info.max:
                self.assumptions.append(p.Comparison(p.Variable(name), "==", value))

    def _assumptions(self):
        if not self.assumptions:
            return None
        ctx = isl_glue.context_set(self.assumptions).params()
        bsets = ctx.coalesce().get_basic_sets()
        return bsets[0] if len(bsets) == 1 else None

    # -- arrays ---------------------------------------------------------------------------

    def _arrays(self, domains: list) -> dict[str, ArrayArg]:
        accesses = _accesses(self.stmts)
        unused = self._unused_records()
        buffers = [n for n, b in self.built.outer.items()
                   if b.ctype.is_buffer and n not in unused]
        kinds = {n: self._memory_kind(n) for n in buffers}
        arrays: dict[str, ArrayArg] = {}
        self._shape_inputs = (accesses, buffers, domains)
        for name in buffers:
            shape = self._array_shape(name)
            alias = frozenset(n for n in buffers
                              if n != name and _may_overlap(kinds[name], kinds[n])
                              and not self._one_record(name, n))
            # is_input/is_output stay None: codegen infers them (a fully overwritten array
            # needs no copy-in).
            dtype = self.built.outer[name].ctype.dtype
            arrays[name] = ArrayArg(name=name, dtype=dtype, shape=shape,
                                    may_alias=alias, span=self._decl_span(name))
        for name, b in self.scalars_out.items():
            arrays[name] = ArrayArg(name=name, dtype=b.ctype.dtype, shape=(1,),
                                    span=self._decl_span(name))
        return arrays

    def _record_checks(self) -> None:
        """The layout of each array of structs the kernel reads as numbers, checked by the
        compiler where the call is (`typemodel.Record`)."""
        for name, b in self.built.outer.items():
            if b.ctype.record is not None and name not in self.built.record_views:
                c_name = self._c_name(name)
                label = (f"_tr_layout_of_{c_name}_in_{self.site.name}_is_not_the_one_the_"
                         "kernel_was_generated_for")
                self.after_call.append(b.ctype.record.checks(
                    c_name + "[0]" * (len(b.ctype.dims) - 1), label))

    def _one_record(self, a: str, b: str) -> bool:
        """Whether `a` and `b` are views of one array of structs (`record_view`): their
        subscripts keep members apart, so they never overlap where the kernel uses them."""
        views = self.built.record_views
        return views.get(a, a) == views.get(b, b)

    def _memory_kind(self, name: str) -> str:
        """What a buffer may point to: "restrict" (a restrict parameter or local pointer: the
        user promises that nothing else reaches its object while it lives), "param" (a plain pointer parameter),
        "array_param" (an array parameter: a pointer too, assumed disjoint from the others
        like a Fortran dummy; the glue stops a call that passes overlapping arrays),
        "pointer" (a plain global pointer), "unknown" (a local pointer of unknown origin),
        "global" or "local" (an array object of its own)."""
        b = self.built.outer[name]
        if b.storage == "param":
            if b.ctype.restrict:
                return "restrict"
            return "param" if b.ctype.kind == "pointer" else "array_param"
        if b.ctype.kind == "pointer" and b.ctype.restrict:
            return "restrict"   # double *restrict x = f->x; (a promise for its block: h72)
        if b.ctype.kind == "pointer":
            return "unknown" if self.provenance.unknown(self._c_name(name)) else "pointer"
        if b.ctype.record is not None and b.ctype.dims[0] is None:
            # a pointer to structs that is no parameter (a parameter is an "array_param",
            # as ``double (*a)[m]`` is: the glue stops a call where it overlaps another)
            if b.ctype.restrict:
                return "restrict"
            return "pointer" if b.storage == "global" else "unknown"
        return b.storage

    def _array_shape(self, name: str) -> tuple[Expression, ...]:
        """The shape of buffer `name`, computed once (an index table's is needed by the
        arrays it chooses elements of: `frontends.c.gathers`)."""
        if name not in self._table_shapes:
            accesses, buffers, domains = self._shape_inputs
            # views of one array of structs: one extent, so that they pass the same bytes
            uses = [u for n in buffers if self._one_record(name, n) for u in accesses.get(n, [])]
            self._table_shapes[name] = self._shape(name, self.built.outer[name], uses, domains)
        return self._table_shapes[name]

    def table_extent(self, name: str) -> Expression | None:
        """One past the last element of the index table `name` that the region's loops may
        read (its footprint, also for a declared table: elements past it may hold anything),
        or None where that is not known."""
        accesses, _, domains = self._shape_inputs
        try:
            return self._footprint(name, 0, accesses.get(name, []), domains)
        except TranslatorError:
            pass
        b = self.built.outer[name]
        if b.ctype.kind != "array" or b.ctype.dims[0] is None:
            return None
        try:    # the whole declared table
            return self._array_shape(name)[0]
        except TranslatorError:
            return None

    @staticmethod
    def _may_overlap_kinds(a: str, b: str) -> bool:
        return _may_overlap(a, b)

    def _shape(self, name: str, b: Binding, uses, domains) -> tuple[Expression, ...]:
        dims = b.ctype.dims if b.ctype.kind == "array" else (None,)
        shape = []
        for axis, dim in enumerate(dims):
            if dim is None:
                shape.append(self._footprint(name, axis, uses, domains))
            elif isinstance(dim, int):
                shape.append(dim)
            else:
                shape.append(self._declared_extent(name, dim))
        for axis, dim in enumerate(dims):
            if dim is not None:
                self._gathers_inside(name, axis, shape[axis], uses, domains)
        return tuple(shape)

    def _gathers_inside(self, name: str, axis: int, extent: Expression, uses,
                        domains) -> None:
        """Reads of a declared extent through index tables: the glue checks the tables'
        values keep them inside (`Gathers.check_inside`)."""
        if self._written(name):
            return
        for stmt, indices in uses:
            index = integer_casts_dropped(indices[axis], self._is_integer)
            if not nodes_of(index, p.Subscript) and not (dependencies(index) - stmt.inames
                                                         - set(self.values)):
                continue   # no value read from a table (loop bounds read from one: trusted)
            dom = isl_glue.statement_domain(domains, stmt.inames)
            self.gathers.check_inside(stmt, dom, index, extent)

    def _declared_extent(self, name: str, dim: c_ast.Node) -> Expression:
        value = self.builder.fscope.constant_value(dim)
        if value is not None:
            return value
        env = _OuterEnvironment(self.builder)
        te = ExpressionBuilder(env).visit(dim)
        for n in dependencies(te.expr):
            if n in self.scalars_out or n in self.private:
                raise FrontendError(f"the extent of {self._c_name(name)!r} depends on "
                                    f"{self._c_name(n)!r}, which the region writes",
                                    self._decl_span(name))
            self.values.setdefault(n, self.built.outer[n])
        return te.expr

    def _footprint(self, name: str, axis: int, uses, domains) -> Expression:
        """One past the largest index the region uses along `axis`: the affine subscripts
        bounded together (one bound, whatever their number), each linearised one apart."""
        affine, ends = [], []
        for stmt, indices in uses:
            dom = isl_glue.statement_domain(domains, stmt.inames)
            index = integer_casts_dropped(indices[axis], self._is_integer)
            if isl_glue.is_affine(index, ()):
                affine.append((stmt, dom, index))
            else:
                ends.append(self._index_end(name, stmt, dom, index))
        if affine:
            ends[:0] = self._union_ends(name, affine)
        unique = list(dict.fromkeys(ends))
        if not unique:
            return 1
        return unique[0] if len(unique) == 1 else p.Call(p.Variable("max"), tuple(unique))

    def _union_ends(self, name: str, accesses: list) -> list[Expression]:
        """The end of all affine `accesses` ``(stmt, domain, index)`` together; where that has
        no bound in the value arguments, the end of each (or the first one's error)."""
        try:
            end = isl_glue.c_union_end([(dom, index, stmt.predicates)
                                        for stmt, dom, index in accesses])
        except DomainError:
            end = None
        if end is not None and all(n in self.values for n in dependencies(end)):
            return [end]
        return [self._index_end(name, stmt, dom, index) for stmt, dom, index in accesses]

    def _index_end(self, name: str, stmt, dom, index: Expression) -> Expression:
        """One past the largest value of one subscript, or the error saying why it has none."""
        try:
            end = index_end(dom, index, stmt.predicates, stmt.inames)
        except DomainError as err:
            gathered = self.gathers.end(stmt, dom, index) if not self._written(name) else None
            if gathered is not None:
                return gathered
            tables = sorted({self._c_name(s.aggregate.name) for s in nodes_of(index, p.Subscript)
                             if isinstance(s.aggregate, p.Variable)})
            why = err.message if not tables else (
                f"its subscript {index} reads {', '.join(map(repr, tables))}, whose values "
                "choose the element: a gather through an index table")
            raise FrontendError(
                f"cannot tell how many elements of {self._c_name(name)!r} the region "
                f"accesses ({why}); declare it as an array parameter with its "
                "extent, e.g. 'double a[n]'", stmt.span) from None
        bad = sorted(n for n in dependencies(end) if n not in self.values)
        if bad and not self._written(name):
            gathered = self.gathers.end(stmt, dom, index)
            if gathered is not None:
                return gathered
        if set(bad) & self.built.bound_temporaries:
            raise FrontendError(
                f"cannot tell how many elements of {self._c_name(name)!r} the region "
                "accesses (a loop bound is read from an array); declare it as an array "
                "parameter with its extent, e.g. 'double a[n]'", stmt.span)
        if bad:
            raise FrontendError(
                f"the extent of {self._c_name(name)!r} accessed by the region depends on "
                f"{', '.join(map(repr, bad))}, which is not a value argument; declare it as "
                "an array parameter with its extent, e.g. 'double a[n]'", stmt.span)
        return end

    def _written(self, name: str) -> bool:
        """Whether the region writes array `name` (through a table: a scatter)."""
        return any(s.assignee_name == name for s in self.stmts)

    # -- arguments and statements ---------------------------------------------------------

    def _arguments(self, arrays: dict[str, ArrayArg], used: set[str]) -> list:
        args = []
        for name in sorted(set(self.built.outer) | set(self.values), key=self._order):
            if name in arrays:
                args.append(arrays[name])
            elif name in self.values and name in used:
                dtype = np.dtype(self.values[name].ctype.dtype)
                if dtype.kind == "u":
                    self._widened[name] = dtype
                    dtype = np.dtype(np.int64)
                args.append(ValueArg(name=name, dtype=dtype, span=self._decl_span(name)))
        return args

    #: Unsigned value arguments passed as 64-bit signed integers, by name, with their type
    #: (`_arguments`): the loop bounds and guards the kernel computes from ``size_t n``
    #: (``j <= n - 1``, ``256*g < n - 255``) are integer arithmetic, which wrapped in
    #: unsigned where n is small (k = 0: an endless loop over memory); the statements read
    #: ``(unsigned long) n``, C's value (h72).
    _widened: dict[str, np.dtype]

    def _statements(self, arrays: dict[str, ArrayArg]) -> tuple[Assignment, ...]:
        aliases = {n: {n} | set(a.may_alias) for n, a in arrays.items()}
        unsigned = {n: TypeCast(d, p.Variable(n)) for n, d in self._widened.items()}
        infos = []
        out = []
        for s in self.stmts:
            reads = _expand(_reads(s) - self.inames, aliases)
            writes = _expand({s.assignee_name}, aliases)
            deps = frozenset(t_id for t_id, t_reads, t_writes in infos
                             if t_writes & (reads | writes) or t_reads & writes)
            infos.append((s.id, reads, writes))
            out.append(Assignment(
                id=s.id, within_inames=s.inames, depends_on=deps,
                predicates=frozenset(substitute(c, unsigned) for c in s.predicates),
                span=s.span, assignee=substitute(s.assignee, unsigned),
                expression=substitute(s.expression, unsigned)))
        return tuple(out)

    def _order(self, name: str) -> tuple[int, int, str]:
        """Arguments follow the declarations: parameters, then locals, then globals (then
        by name: the views of one array of structs, the values computed by the caller)."""
        order = list(self.site.visible)
        c_name = self._c_name(name)
        if c_name not in self.site.visible:
            return (3, 0, name)
        rank = {"param": 0, "local": 1, "global": 2}[self.site.visible[c_name][0]]
        return (rank, order.index(c_name), name)

    def _call_arg(self, arg) -> str:
        if arg.name in self.hoisted:
            return self.hoisted[arg.name][1]
        c_name = self._c_name(arg.name)
        if arg.name in self.scalars_out:
            return f"&{c_name}"
        b = self.built.outer.get(arg.name)
        if b is not None and b.ctype.record is not None:   # its memory, as numbers
            return f"({b.ctype.spelling} *)({c_name})"
        if b is not None and b.ctype.kind == "array" and len(b.ctype.dims) > 1:
            return "&" + c_name + "[0]" * len(b.ctype.dims)
        return c_name

    def _spelling(self, name: str) -> str:
        b = self.built.outer.get(name)
        return b.ctype.spelling if b is not None else ""

    def _c_name(self, name: str) -> str:
        return self.built.c_names.get(name, name)

    def _decl_span(self, name: str):
        entry = self.site.visible.get(self._c_name(name))
        span = self.builder.src.node_span(entry[1], self._c_name(name)) if entry else None
        return span or self.site.kernel.span

    def _indent(self) -> str:
        if self.site.kernel.indent or not self.site.statements:
            return self.site.kernel.indent
        coord = self.site.statements[0].coord
        line = self.builder.src.line_text(coord.line) if coord is not None else None
        if not line:
            return ""
        return line[:len(line) - len(line.lstrip(" \t"))]


class _OuterEnvironment:
    """Names in declarations outside the region (array extents) resolve to outer symbols."""

    def __init__(self, builder) -> None:
        self.src = builder.src
        self.fscope = builder.fscope
        self.lookup = builder.lookup_outer

    def pointer_origin(self, name: str, node: c_ast.Node) -> None:
        """Declarations outside the region subscript no pointers."""
        return None


# ---------------------------------------------------------------------------------------------
# helpers on raw statements

def _reads(stmt: RawStatement) -> set[str]:
    names = set(dependencies(stmt.expression))
    for c in stmt.predicates:
        names |= dependencies(c)
    if isinstance(stmt.assignee, p.Subscript):
        for idx in stmt.assignee.index_tuple:
            names |= dependencies(idx)
    return names


def _used_names(stmts: list[RawStatement], domains: list, arrays: dict[str, ArrayArg]
                ) -> set[str]:
    """Every name the kernel refers to (a value only a hoisted bound read is not one)."""
    names: set[str] = set()
    for s in stmts:
        names |= _reads(s) | {s.assignee_name}
    for d in domains:
        names |= set(isl_glue.params_of(d))
    for a in arrays.values():
        for extent in a.shape or ():
            names |= dependencies(extent)
    return names


def _may_overlap(a: str, b: str) -> bool:
    """Whether buffers of these memory kinds (`Assembler._memory_kind`) may overlap: a local
    pointer of unknown origin anything; plain pointers each other.  (Any two arrays of a call
    that do overlap are stopped by the glue, unless the kernel knows they may: DESIGN.md
    "Soundness is about memory".)"""
    kinds = {a, b}
    return "unknown" in kinds or kinds <= {"param", "pointer"}


def _expand(names: set[str], aliases: dict[str, set[str]]) -> frozenset[str]:
    out = set(names)
    for n in names:
        out |= aliases.get(n, set())
    return frozenset(out)


def _privatizable(name: str, stmts: list[RawStatement]) -> bool:
    """Each read of `name` follows a write in the same iteration, on every path
    (`frontends.privacy`), so the incoming value is never used."""
    steps = [Step(loops=frozenset(s.loops), predicates=frozenset(s.predicates),
                  reads=frozenset(_reads(s)), writes=frozenset({s.assignee_name}))
             for s in stmts]
    return written_before_every_read(name, steps)


def _ancestors(loop: Loop) -> list[Loop]:
    out = []
    while loop.parent is not None:
        loop = loop.parent
        out.append(loop)
    return out


class _AccessCollector(IRWalkMapper):
    """The subscripts of an expression with the conditions of the ``?:`` branches they are
    in (``r == rows - 1 ? c : in[(r + 1)*cols + c]`` reads row r + 1 only below the last
    row: the footprint of ``in`` ends at its last row, h72)."""

    def __init__(self) -> None:
        self.found: list[tuple[str, tuple[Expression, ...], tuple[Expression, ...]]] = []
        self.guards: list[Expression] = []

    def map_subscript(self, expr: p.Subscript, *args, **kwargs) -> None:
        if isinstance(expr.aggregate, p.Variable):
            self.found.append((expr.aggregate.name, tuple(expr.index_tuple),
                               tuple(self.guards)))
        for idx in expr.index_tuple:
            self.rec(idx)

    def map_if(self, expr: p.If, *args, **kwargs) -> None:
        self.rec(expr.condition)
        self._guarded(expr.then, holding_comparisons(expr.condition, True))
        self._guarded(expr.else_, holding_comparisons(expr.condition, False))

    def map_logical_and(self, expr: p.LogicalAnd, *args, **kwargs) -> None:
        self._short_circuit(expr.children, True)

    def map_logical_or(self, expr: p.LogicalOr, *args, **kwargs) -> None:
        self._short_circuit(expr.children, False)

    def _short_circuit(self, children: tuple, value: bool) -> None:
        """``a && b`` evaluates `b` where `a` holds, ``a || b`` where it does not (h74)."""
        depth = len(self.guards)
        for child in children:
            self.rec(child)
            self.guards.extend(holding_comparisons(child, value))
        del self.guards[depth:]

    def _guarded(self, branch: Expression, guards: tuple) -> None:
        self.guards.extend(guards)
        self.rec(branch)
        del self.guards[len(self.guards) - len(guards):]


def _accesses(stmts: list[RawStatement]) -> dict[str, list]:
    out: dict[str, list] = {}
    for s in stmts:
        collector = _AccessCollector()
        for e in (s.assignee, s.expression, *s.predicates):
            collector(e)
        for name, indices, guards in collector.found:
            guarded = replace(s, predicates=(*s.predicates, *guards)) if guards else s
            out.setdefault(name, []).append((guarded, indices))
    return out
