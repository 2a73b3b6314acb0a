"""From a built region to a `Kernel`: data classification, shapes, order, dependencies.

- Arrays -> `ArrayArg` in Fortran order (dim tags ``f``), 0-based, shape from the declaration
  (assumed-size: the last extent is the footprint the region accesses, from isl).
- Scalars the region only reads -> `ValueArg`.
- Procedure-local scalars the region writes before reading, in every iteration and on every
  path (`frontends.privacy`), and that the procedure does not use outside its regions ->
  private `TemporaryVariable`.
- Other scalars the region writes -> 1-element `ArrayArg` (written back to the caller).
- `depends_on`: a statement depends on every earlier statement that writes something it reads
  or writes, or reads something it writes, so source order is kept where it matters.
"""

from __future__ import annotations

from dataclasses import replace

import pymbolic.primitives as p

from frontends.footprint import index_end
from frontends.fortran.build import RegionBuilder
from frontends.fortran.expressions import add_expr
from frontends.fortran.gathers import Gathers, legacy_one
from frontends.fortran.source import find_column
from frontends.fortran.types import Symbol
from frontends.privacy import Step, written_before_every_read
from translator.diagnostics import (DomainError, FrontendError, SourceSpan,
                                    UnsupportedConstructError)
from translator.ir import isl_glue
from translator.ir.data import ArrayArg, TemporaryVariable, ValueArg, parse_dim_tags
from translator.ir.expr import (Expression, IRIdentityMapper, IRWalkMapper, Reduction,
                                dependencies, typed_key)
from translator.ir.kernel import Kernel, Options
from translator.ir.statements import Assignment
from translator.ir.util import FrozenDict
from translator.records import dataclass


@dataclass(frozen=True)
class AssembledRegion:
    kernel: Kernel
    call_args: tuple[tuple[str, str], ...]
    written_scalars: frozenset[str]
    logical_args: frozenset[str]
    #: the runtime's index scans the call uses (`frontends.fortran.gathers`)
    index_scans: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _Access:
    reads: frozenset[str]
    writes: frozenset[str]
    #: every name the statement reads or writes, region-local ones included
    names: frozenset[str] = frozenset()


def assemble(rb: RegionBuilder, name: str, span: SourceSpan,
             outside_names: dict[str, int],
             declared_private: frozenset[str] = frozenset()) -> AssembledRegion:
    """The kernel of a built region (see the module docstring for the rules).
    `declared_private`: scalars a directive makes private (OpenMP ``private(t)``): one copy per
    iteration wherever they live, when each iteration writes them before reading them."""
    if not rb.statements:
        raise FrontendError("empty kernel region: no statements between 'kernel' and "
                            "'end kernel'", span)
    inames = {n for d in rb.domains for n in isl_glue.inames_of(d)}
    local = set(inames) | set(rb.temporaries)
    accesses = [_accesses(s, local) for s in rb.statements]
    written = set().union(*(a.writes for a in accesses))
    _check_bounds_not_written(rb, written)
    _check_equivalenced(rb, written)
    _check_strided_aliases(rb, written, accesses)
    private = _private_scalars(rb, written, outside_names, declared_private)
    scalars_out = sorted(n for n in written if n in rb.touched
                         and not rb.touched[n].is_array and n not in private)
    statements = _as_arrays(rb.statements, frozenset(scalars_out))
    statements = _with_dependencies(statements, accesses)
    temporaries = dict(rb.temporaries)
    for n in sorted(private):
        sym = rb.touched[n]
        temporaries[n] = TemporaryVariable(name=n, dtype=sym.ftype.dtype, span=sym.span)
    gathers = Gathers(rb, statements, written, private)
    args = _arguments(rb, statements, set(private), set(scalars_out), written,
                      [a.names for a in accesses], gathers)
    gathers.check_arrays(args)
    for value in gathers.values:    # the tables' scans, computed by the caller
        rb.generated[value.name] = value
        args.append(ValueArg(name=value.name, dtype=value.ftype.dtype, span=value.span))
    # arrays a directive makes private are candidates wherever they live (a COMMON or module
    # array in OpenMP's private clause), as its scalars are
    candidates = tuple(sorted(n for n in written if n in rb.touched and rb.touched[n].is_array
                              and (_is_local(rb, rb.touched[n]) and n not in outside_names
                                   or n in declared_private)))
    extra = {"private_candidates": candidates} if candidates else {}
    reasons = {n: _shared_reason(rb, n, outside_names, span.file) for n in scalars_out}
    reasons = {n: why for n, why in reasons.items() if why}
    if reasons:
        extra["shared_scalars"] = tuple(sorted(reasons.items()))
    counted = _counted_loops(rb)
    if counted:     # trip counters: witnesses show the variable's values (legality)
        extra["iname_values"] = counted
    firsts = tuple((n, n, -1, "assume") for n, sym in sorted(rb.touched.items())
                   if sym.is_array and sym.is_dummy)
    if firsts:      # moved from their first element (keep_first_elements)
        extra["first_elements"] = firsts
    options = Options(source_language="fortran", extra=FrozenDict(extra))
    kernel = Kernel(name=name, domains=tuple(rb.domains), statements=tuple(statements),
                    args=tuple(args), temporaries=FrozenDict(temporaries),
                    options=options, span=span, assumptions=_assumptions(gathers))
    try:
        isl_glue.check_forest(kernel.domains)
    except DomainError as e:
        raise FrontendError(f"region {name}: {e.message}", span) from None
    return AssembledRegion(kernel=kernel, call_args=_call_args(rb, args),
                           index_scans=frozenset(gathers.suffixes),
                           written_scalars=frozenset(scalars_out),
                           logical_args=frozenset(a.name for a in args
                                                  if _is_logical(rb, a.name)))


def _assumptions(gathers: Gathers):
    """What the kernel assumes of the index tables' values (the glue checks it)."""
    if not gathers.assumptions:
        return None
    bsets = isl_glue.context_set(gathers.assumptions).params().coalesce().get_basic_sets()
    if len(bsets) != 1:
        raise FrontendError("the index tables' bounds are no conjunction of conditions (a bug)")
    return bsets[0]


def _is_logical(rb: RegionBuilder, name: str) -> bool:
    sym = rb.touched.get(name)
    return sym is not None and sym.ftype is not None and sym.ftype.base == "logical"


# ---------------------------------------------------------------------------------------------
# accesses

def _accesses(stmt: Assignment, local: set[str]) -> _Access:
    reads = {n for e in stmt.read_expressions() for n in dependencies(e)}
    writes = set(stmt.assignee_names())
    return _Access(frozenset(reads - local), frozenset(writes - local),
                   frozenset(reads | writes))


def _check_bounds_not_written(rb: RegionBuilder, written: set[str]) -> None:
    for name, span in sorted(rb.bound_names.items()):
        if name in written:
            raise FrontendError(f"a loop bound or array section depends on {name!r}, which the "
                                "region writes (bounds must be fixed while the region runs)",
                                span)


def _check_equivalenced(rb: RegionBuilder, written: set[str]) -> None:
    """Two names of one EQUIVALENCE group that the region both uses, one of them written,
    are one storage: the kernel would take them as separate data (a scalar is passed by
    value, an array copied on its own), so the other would not see the write."""
    for name in sorted(written):
        sym = rb.touched.get(name)
        if sym is None or sym.scope != rb.scope.name:
            continue
        for other in sorted(sym.equivalenced):
            used = rb.touched.get(other)
            if used is None or used.scope != sym.scope:
                continue
            raise UnsupportedConstructError(
                f"the region writes {name!r} and uses {other!r}, which share storage "
                f"(EQUIVALENCE at line {sym.equivalence_line}): a kernel takes them as separate "
                f"data; use one of the names in the region (or remove the EQUIVALENCE)",
                _write_span(rb, name))


def _check_strided_aliases(rb: RegionBuilder, written: set[str],
                           accesses: list[_Access]) -> None:
    """A POINTER array (or an assumed-shape TARGET dummy) without CONTIGUOUS may be a strided
    view: the call into the glue then passes a packed copy of it, which hides that it shares
    storage with another POINTER or TARGET array of the region (the run-time overlap check
    sees two separate ranges) and is copied back over the other's writes.  Refused where the
    region writes one of the two."""
    used = set().union(*(a.names for a in accesses))
    shared = sorted(n for n in used if n in rb.touched and _may_point_into(rb.touched[n]))
    for name in shared:
        if not _may_be_strided(rb.touched[name]):
            continue
        for other in shared:
            if other != name and (name in written or other in written):
                view, with_ = _shown(rb, name), _shown(rb, other)
                target = view if name in written else with_
                raise UnsupportedConstructError(
                    f"{view!r} is a {_view_kind(rb.touched[name])} that may be a strided view "
                    f"and share storage with {with_!r} ({_view_kind(rb.touched[other])}), and "
                    f"the region writes {target!r}: the call would pass a packed copy of "
                    f"{view!r}, separate from {with_!r}; declare {view!r} CONTIGUOUS (or use "
                    f"the arrays it points to in the region)", _use_span(rb, name, view))


def _shown(rb: RegionBuilder, name: str) -> str:
    """A kernel argument's name as the source writes it (``v%c`` for a component)."""
    return rb.touched[name].designator or name


def _may_point_into(sym: Symbol) -> bool:
    return sym.is_array and (sym.pointer or sym.target)


def _may_be_strided(sym: Symbol) -> bool:
    assumed = sym.is_dummy and any(d.kind == "assumed_shape" for d in sym.dims or ())
    return not sym.contiguous and (sym.pointer or assumed)


def _view_kind(sym: Symbol) -> str:
    return "POINTER array" if sym.pointer else "TARGET array"


def _use_span(rb: RegionBuilder, name: str, text: str) -> SourceSpan | None:
    """Where the region first reads or writes `name` (the column of `text` on that line)."""
    stmt = next(s for s in rb.statements
                if name in s.assignee_names()
                or any(name in dependencies(e) for e in s.read_expressions()))
    span = stmt.span
    if span is None or not span.source_line:
        return span
    return replace(span, col=find_column(span.source_line, text))


def _write_span(rb: RegionBuilder, name: str) -> SourceSpan | None:
    """Where the region first writes `name` (its column on that line)."""
    stmt = next(s for s in rb.statements if name in s.assignee_names())
    span = stmt.span
    if span is None or not span.source_line:
        return span
    return replace(span, col=find_column(span.source_line, name))


def _private_scalars(rb: RegionBuilder, written: set[str], outside_names: dict[str, int],
                     declared: frozenset[str] = frozenset()) -> set[str]:
    out = set()
    for name in sorted(written):
        sym = rb.touched.get(name)
        if sym is None or sym.is_array:
            continue
        if name not in declared and (not _is_local(rb, sym) or name in outside_names):
            continue
        if _written_before_read(name, rb.statements):
            out.add(name)
    return out


def _shared_reason(rb: RegionBuilder, name: str, outside_names: dict[str, int],
                   file: str) -> str:
    """Why the written scalar `name` is one variable for the whole region, not a copy per
    work item (legality errors about it say so); "" when it is only because an iteration
    reads it before writing it."""
    sym, scope = rb.touched[name], rb.scope
    if sym.is_dummy:
        return f"it is an argument of {scope.name}, so its last value goes back to the caller"
    if sym.in_common or sym.scope_kind == "module" or sym.scope != scope.name:
        return "it lives outside the procedure (a module, common block or host variable)"
    if sym.name == scope.result:
        return "it is the function's result"
    if sym.equivalenced:
        return (f"it shares storage with {', '.join(sorted(sym.equivalenced))} (EQUIVALENCE "
                f"at line {sym.equivalence_line}), so its value after the region must be the "
                "last iteration's")
    if name in outside_names:
        return (f"{scope.name} also uses it outside the region ({file}:{outside_names[name]}), "
                "so its value after the region must be the last iteration's")
    return ""   # read before written: races say so (a carried value), no reason needed


def _is_local(rb: RegionBuilder, sym: Symbol) -> bool:
    scope = rb.scope
    return (sym.scope == scope.name and sym.scope_kind == "local" and not sym.is_dummy
            and not sym.in_common and not sym.equivalenced and sym.name != scope.result
            and sym.name in scope.symbols)


def _written_before_read(name: str, statements: list[Assignment]) -> bool:
    """Each iteration writes `name` before it reads it, on every path
    (`frontends.privacy`)."""
    steps = [Step(loops=s.within_inames, predicates=s.predicates,
                  reads=frozenset(n for e in s.read_expressions() for n in dependencies(e)),
                  writes=frozenset(s.assignee_names())) for s in statements]
    return written_before_every_read(name, steps)


class _ScalarsAsArrays(IRIdentityMapper):
    def __init__(self, names: frozenset[str]) -> None:
        self.names = names

    def map_variable(self, expr: p.Variable, *args, **kwargs):
        if expr.name in self.names:
            return p.Subscript(expr, (0,))
        return expr


def _as_arrays(statements: list[Assignment], names: frozenset[str]) -> list[Assignment]:
    if not names:
        return list(statements)
    m = _ScalarsAsArrays(names)
    out = []
    for s in statements:
        out.append(replace(s, assignee=m(s.assignee), expression=m(s.expression),
                           predicates=frozenset(m(e) for e in s.predicates)))
    return out


def _with_dependencies(statements: list[Assignment],
                       accesses: list[_Access]) -> list[Assignment]:
    """Each statement depends on every earlier one that writes a name it reads or writes, or
    reads a name it writes (found through the statements so far per name, not pair by pair:
    a region of 800 statements has 320,000 pairs)."""
    out = []
    writers: dict[str, list[str]] = {}
    readers: dict[str, list[str]] = {}
    for stmt, acc in zip(statements, accesses):
        deps: set[str] = set()
        for name in acc.reads | acc.writes:
            deps.update(writers.get(name, ()))
        for name in acc.writes:
            deps.update(readers.get(name, ()))
        out.append(replace(stmt, depends_on=frozenset(deps)))
        for name in acc.writes:
            writers.setdefault(name, []).append(stmt.id)
        for name in acc.reads:
            readers.setdefault(name, []).append(stmt.id)
    return out


# ---------------------------------------------------------------------------------------------
# arguments

def _arguments(rb: RegionBuilder, statements: list[Assignment], private: set[str],
               scalars_out: set[str], written: set[str],
               mentions: list[frozenset[str]], gathers: Gathers) -> list:
    """The kernel's arguments; `mentions`: the names each statement reads or writes."""
    args: list = []
    seen: set[str] = set()
    needed_values = _value_names(rb)
    # the scalars the kernel takes by value: an extent may use them (``y(i - k)`` of ``y(1)``)
    values = needed_values | {n for n, sym in rb.touched.items() if not sym.is_array
                              and n not in written and n not in private}
    users: dict[str, list[Assignment]] = {}   # per name, the statements naming it, in order
    for stmt, names in zip(statements, mentions):
        for name in names:
            users.setdefault(name, []).append(stmt)
    for name in list(rb.touched) + sorted(needed_values - set(rb.touched)):
        if name in seen or name in private:
            continue
        seen.add(name)
        if name in rb.generated:
            g = rb.generated[name]
            args.append(ValueArg(name=name, dtype=g.ftype.dtype, span=g.span))
            continue
        sym = rb.touched.get(name) or rb.scope.lookup(name)
        if sym is None:
            raise FrontendError(f"undeclared name {name!r}", rb.span())
        if sym.is_array:
            args.append(_array_arg(rb, sym, users.get(sym.name, []), values, gathers))
        elif name in scalars_out:
            args.append(ArrayArg(name=name, dtype=sym.ftype.dtype, shape=(1,),
                                 dim_tags=parse_dim_tags("F", 1), span=sym.span))
        else:
            args.append(ValueArg(name=name, dtype=sym.ftype.dtype, span=sym.span))
    return args


def _counted_loops(rb: RegionBuilder) -> tuple[tuple[str, str], ...]:
    """(iname, the DO variable's value as text, which kernel options print) of each loop
    whose iname is a 0-based trip counter (a step other than 1: ``do i = n, 2, -1`` runs
    ``i = n - i'``)."""
    return tuple((r.iname, str(add_expr(r.lo, p.Product((r.step, p.Variable(r.iname))))))
                 for r in rb.loops if r.step != 1 and r.iname)


def _value_names(rb: RegionBuilder) -> set[str]:
    inames = {n for d in rb.domains for n in isl_glue.inames_of(d)}
    out = {n for d in rb.domains for n in isl_glue.params_of(d)} - inames - set(rb.temporaries)
    return out | set(rb.generated)


def _array_arg(rb: RegionBuilder, sym: Symbol, statements: list[Assignment],
               values: set[str], gathers: Gathers) -> ArrayArg:
    """The argument of array `sym`; `statements`: those that use it (in order); `values`: the
    names the kernel takes by value."""
    layout = rb.layout(sym)
    shape = list(layout.extents)
    gathered = None
    if shape and (shape[-1] is None or legacy_one(sym)):
        # assumed-size (or a legacy x(1)) read through index tables: their values bound it
        gathered = gathers.footprint(sym.name, len(shape) - 1)
    if gathered is not None:
        shape[-1] = gathered if shape[-1] is None else p.Call(p.Variable("max"),
                                                               (shape[-1], gathered))
    elif shape and shape[-1] is None:
        shape[-1] = _footprint(rb, sym, statements, len(shape) - 1)
        _check_host_extent(sym, statements, shape[-1], values)
    elif shape and sym.is_dummy and sym.dims[-1].kind == "explicit":
        # an explicit extent is a claim the caller's memory may exceed (assumed-shape and
        # allocatable extents are the real size)
        shape[-1] = _dummy_extent(rb, sym, statements, shape[-1], values)
    return ArrayArg(name=sym.name, dtype=sym.ftype.dtype, shape=tuple(shape),
                    dim_tags=parse_dim_tags("F", len(shape)), span=sym.span)


def _check_host_extent(sym: Symbol, statements: list[Assignment], extent: Expression,
                       values: set[str]) -> None:
    """An assumed-size array's footprint must be computable by the host before the region
    runs: a subscript that reads a scalar the region computes (LINPACK dgesl's ``b(l)`` after
    ``l = ipvt(k)``) gives none."""
    unknown = sorted(dependencies(extent) - values)
    if not unknown:
        return
    axis = len(sym.dims) - 1
    stmt = next((s for s in statements for index, _ in _indices_of(sym.name, s)
                 if unknown[0] in dependencies(index[axis])), statements[0])
    raise _extent_error(sym, f"a subscript reads {unknown[0]!r}, which the region computes",
                        stmt)


def _dummy_extent(rb: RegionBuilder, sym: Symbol, statements: list[Assignment],
                  declared: Expression, values: set[str]) -> Expression:
    """The last extent of a dummy array: the declared one, or the footprint where the region
    may index past it (legacy ``a(1)`` and ``a(n-1)`` dummies used as ``a(*)``): the
    caller's memory there is the actual argument's, so the transfer must cover it."""
    axis = len(rb.layout(sym).extents) - 1
    used_at = _distinct([(index[axis], inames) for stmt in statements
                         for index, inames in _indices_of(sym.name, stmt)])
    if not used_at:
        return declared
    if all(_provably_within(rb, index, inames, declared) for index, inames in used_at):
        return declared
    try:
        used = _footprint(rb, sym, statements, axis)
    except FrontendError:
        return declared    # not affine: transfers keep the declared extent
    if not dependencies(used) <= values:
        return declared    # bounded by data the region reads (CSR `rowptr`): likewise
    if isinstance(used, int) and isinstance(declared, int):
        return max(used, declared)
    return p.Call(p.Variable("max"), (declared, used))


def _distinct(used_at: list[tuple[Expression, frozenset[str]]]
              ) -> list[tuple[Expression, frozenset[str]]]:
    """`used_at` without repeats (the same subscript over the same inames: the same
    question), in order; as given where a subscript has no structural key."""
    first: dict[tuple, tuple[Expression, frozenset[str]]] = {}
    try:
        for index, inames in used_at:
            first.setdefault((typed_key(index), inames), (index, inames))
    except TypeError:
        return used_at
    return list(first.values())


#: `_within` answers by (domain text, subscript, declared extent): the regions of a file
#: ask the same questions of domains that differ only as objects (400 one-loop regions asked
#: 400 times whether ``y(i)`` stays within ``y(n)``).  A text names a set exactly.
_WITHIN: dict[tuple, bool] = {}
_WITHIN_SIZE = 4096


def _provably_within(rb: RegionBuilder, index: Expression, inames: frozenset[str],
                     declared: Expression) -> bool:
    """Whether ``index <= declared - 1`` on every instance of the statement where the
    declared extent is positive (an empty array is no claim about the caller's memory)."""
    try:
        domain = isl_glue.combined_domain(rb.domains, inames)
    except DomainError:
        return False
    try:
        key = (str(domain), typed_key(index), typed_key(declared))
    except TypeError:   # an unhashable subscript: ask, do not remember
        return _within(domain, index, declared)
    found = _WITHIN.get(key)
    if found is None:
        if len(_WITHIN) >= _WITHIN_SIZE:
            _WITHIN.clear()
        found = _WITHIN[key] = _within(domain, index, declared)
    return found


def _within(domain: object, index: Expression, declared: Expression) -> bool:
    try:
        positive = isl_glue.parse_param_set(f"{declared} >= 1", dependencies(declared))
        return isl_glue.is_nonnegative(add_expr(declared, index, -1, -1), domain, positive)
    except DomainError:
        return False


def _footprint(rb: RegionBuilder, sym: Symbol, statements: list[Assignment],
               axis: int) -> Expression:
    """1 + the largest index the region uses along `axis` (assumed-size arrays): one bound
    over all subscripts at once, so that its size does not grow with their number."""
    accesses = []
    for stmt in statements:
        for index, inames in _indices_of(sym.name, stmt):
            try:
                accesses.append((stmt, isl_glue.combined_domain(rb.domains, inames),
                                 index[axis], inames))
            except DomainError as e:
                raise _extent_error(sym, e.message, stmt) from None
    if not accesses:
        return 1
    try:
        hi = isl_glue.max_over_union([(domain, index) for _, domain, index, _ in accesses])
    except DomainError:
        return _linearised_end(sym, accesses)
    if isinstance(hi, int):
        return hi + 1
    return add_expr(hi, 0, 1)


def _linearised_end(sym: Symbol, accesses: list) -> Expression:
    """1 + the largest index of subscripts that are not all affine, each bounded on its own:
    a linearised ``a(j + ld*(k-1))`` term by term (`frontends.footprint.index_end`, which
    C's pointers use too); the error at the first one that has no bound."""
    ends = []
    for _, domain, index, inames in accesses:
        try:
            ends.append(index_end(domain, index, (), inames))
        except DomainError:
            raise _footprint_error(sym, accesses) from None
    unique = list(dict.fromkeys(ends))
    return unique[0] if len(unique) == 1 else p.Call(p.Variable("max"), tuple(unique))


def _footprint_error(sym: Symbol, accesses: list) -> FrontendError:
    """The error at the first subscript of `sym` that cannot be bounded on its own."""
    for stmt, domain, index, _ in accesses:
        try:
            isl_glue.max_over_domain(domain, index)
        except DomainError as e:
            return _extent_error(sym, e.message, stmt)
    return _extent_error(sym, "no bound for all of them together", accesses[0][0])


def _extent_error(sym: Symbol, reason: str, stmt: Assignment) -> FrontendError:
    return FrontendError(
        f"cannot determine the extent of assumed-size array {sym.name!r} from its "
        f"subscripts ({reason}); declare its last dimension explicitly", stmt.span)


def _indices_of(name: str, stmt: Assignment) -> list[tuple[tuple, frozenset[str]]]:
    """Every subscript of array `name` in the statement, with the inames it ranges over."""
    found: list[tuple[tuple, frozenset[str]]] = []
    walker = _SubscriptsOf(name, stmt.within_inames, found)
    walker(stmt.assignee)
    walker(stmt.expression)
    for e in stmt.predicates:
        walker(e)
    return found


class _SubscriptsOf(IRWalkMapper):
    """Appends (index tuple, inames) of every subscript of array `name` to `found`."""

    def __init__(self, name: str, inames: frozenset[str], found: list) -> None:
        self.name = name
        self.inames = inames
        self.found = found

    def visit(self, expr, *args, **kwargs):
        if isinstance(expr, p.Subscript) and getattr(expr.aggregate, "name", None) == self.name:
            self.found.append((expr.index_tuple, self.inames))
        if isinstance(expr, Reduction):
            _SubscriptsOf(self.name, self.inames | frozenset(expr.inames),
                          self.found)(expr.expr)
            return False
        return True


def _call_args(rb: RegionBuilder, args: list) -> tuple[tuple[str, str], ...]:
    out = []
    for a in args:
        if a.name in rb.generated:
            out.append((a.name, rb.generated[a.name].call_text))
        elif isinstance(a, ValueArg) and _is_logical(rb, a.name):
            out.append((a.name, f"merge(1, 0, {_actual(rb, a.name)})"))
        else:
            out.append((a.name, _actual(rb, a.name)))
    return tuple(out)


def _actual(rb: RegionBuilder, name: str) -> str:
    """The actual argument passing `name` (a component's designator, else the name)."""
    sym = rb.touched.get(name)
    return sym.actual if sym is not None else name


__all__ = ["AssembledRegion", "assemble"]
