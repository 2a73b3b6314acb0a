"""Kernel data for `make_kernel`: convenience constructors, and inference of arguments,
array shapes (from access footprints, via isl) and temporary shapes.

Shapes are ``max index + 1`` over every access, as expressions in the parameters; array
temporaries need constant shapes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from translator.diagnostics import KernelLanguageError, SourceSpan
from translator.ir import data
from translator.ir.data import ArrayArg, KernelArgument, parse_dim_tags
from translator.ir.expr import Expression, dependencies
from translator.ir.isl_glue import combined_domain, kl_index_range, kl_range_bounds
from translator.ir.parse_expr import parse_expression
from translator.ir.parse_infer import Access, StatementUse
from translator.ir.parse_statements import ParsedStatement, split_top_level
from translator.records import dataclass, replace

if TYPE_CHECKING:
    import islpy as isl

# ---------------------------------------------------------------------------------------------
# convenience constructors (loopy-style positional signatures)


@dataclass(frozen=True, slots=True, kw_only=True)
class AutoShapeArrayArg(ArrayArg):
    """An `ArrayArg` whose shape `make_kernel` infers; `layout` (order or dim tags) is applied
    once the number of axes is known.  Never stored on a kernel."""

    layout: object = "C"


def parse_shape(shape, what: str = "shape") -> tuple[Expression, ...] | None:
    """``None``, an int, an expression, ``"n, m"`` / ``"(n, m)"`` or a sequence of those."""
    if shape is None:
        return None
    if isinstance(shape, str):
        text = shape.strip()
        if text.startswith("(") and text.endswith(")"):
            text = text[1:-1]
        return tuple(_shape_entry(s, what) for s in split_top_level(text) if s.strip())
    if isinstance(shape, (tuple, list)):
        return tuple(_shape_entry(s, what) for s in shape)
    return (_shape_entry(shape, what),)


def _shape_entry(entry, what: str) -> Expression:
    if isinstance(entry, str):
        return parse_expression(entry)
    if isinstance(entry, (bool, float)):
        raise KernelLanguageError(f"bad {what} entry {entry!r} (an integer or an expression)")
    if isinstance(entry, np.integer):
        return int(entry)
    return entry


def GlobalArg(name: str, dtype=None, shape=None, order: str = "C", dim_tags=None,
              offset: Expression = 0, *, is_input: bool | None = None,
              is_output: bool | None = None, may_alias: Iterable[str] = (),
              span: SourceSpan | None = None) -> ArrayArg:
    """An array argument.  `shape` None: inferred by `make_kernel` from the accesses.
    `dim_tags`: ``"c,vec,sep,c"``-style string or tuple (overrides `order`, "C" or "F")."""
    layout = order if dim_tags is None else dim_tags
    dims = parse_shape(shape, f"shape of {name!r}")
    common = dict(name=name, dtype=dtype, offset=offset, is_input=is_input,
                  is_output=is_output, may_alias=frozenset(may_alias), span=span)
    if dims is None:
        return AutoShapeArrayArg(layout=layout, **common)
    return ArrayArg(shape=dims, dim_tags=parse_dim_tags(layout, len(dims)), **common)


def ValueArg(name: str, dtype=None, *, span: SourceSpan | None = None) -> data.ValueArg:
    """A scalar argument passed by value."""
    return data.ValueArg(name=name, dtype=dtype, span=span)


def TemporaryVariable(name: str, dtype=None, shape=(), address_space=None, *,
                      dim_tags=None, order: str = "C", base_storage: str | None = None,
                      read_only: bool = False, initializer: tuple | None = None,
                      span: SourceSpan | None = None) -> data.TemporaryVariable:
    """A temporary; `address_space` is "private", "local", "global" or None (codegen
    decides).  `shape` () is a scalar."""
    dims = parse_shape(shape, f"shape of {name!r}") or ()
    tags = parse_dim_tags(order if dim_tags is None else dim_tags, len(dims)) if dims else None
    space = None if address_space is None else data.AddressSpace.parse(address_space)
    return data.TemporaryVariable(
        name=name, dtype=dtype, shape=dims, dim_tags=tags, address_space=space,
        base_storage=base_storage, read_only=read_only,
        initializer=None if initializer is None else tuple(initializer), span=span)


# ---------------------------------------------------------------------------------------------
# footprints

class Footprints:
    """Index ranges of accesses, cached per (inames, index): isl work is done once.

    Bounds that involve an `opaque` name (a temporary feeding a data-dependent domain) are
    unknown: they cannot be part of an argument's shape.
    """

    def __init__(self, domains: Sequence[isl.BasicSet], opaque: Iterable[str] = ()) -> None:
        self.domains = domains
        self.opaque = frozenset(opaque)
        self._domains: dict[frozenset[str], isl.BasicSet] = {}
        self._ranges: dict[tuple[frozenset[str], Expression], isl.Set | None] = {}

    def domain(self, inames: frozenset[str]) -> isl.BasicSet:
        if inames not in self._domains:
            self._domains[inames] = combined_domain(self.domains, inames)
        return self._domains[inames]

    def index_range(self, inames: frozenset[str], index: Expression) -> isl.Set | None:
        key = (inames, index)
        if key not in self._ranges:
            self._ranges[key] = kl_index_range(self.domain(inames), index)
        return self._ranges[key]

    def axis_bounds(self, uses: Sequence[tuple[Access, frozenset[str]]], axis: int):
        """(min, max + 1) of index `axis` over `uses`; None if not affine or unbounded."""
        ranges = [self.index_range(acc.scope | within, acc.indices[axis])
                  for acc, within in uses]
        if any(r is None for r in ranges):
            return None
        bounds = kl_range_bounds(ranges)
        if bounds is None or any(dependencies(b) & self.opaque for b in bounds):
            return None
        return bounds


def _shape_uses(name: str, uses: list[tuple[Access, frozenset[str]]]):
    plain = [u for u in uses if not u[0].linear]
    chosen = plain or uses
    ndims = sorted({len(acc.indices) for acc, _ in chosen})
    if len(ndims) > 1:
        raise KernelLanguageError(f"array {name!r} is subscripted with different numbers of "
                                  f"indices ({', '.join(map(str, ndims))})")
    return chosen, ndims[0]


def infer_array_shape(name: str, uses: list[tuple[Access, frozenset[str]]],
                      fp: Footprints) -> tuple[Expression | None, ...]:
    """Shape of an array argument: per axis the largest index + 1 (the slowest axis may stay
    None when it cannot be bounded; any other axis must be bounded)."""
    chosen, ndim = _shape_uses(name, uses)
    shape = []
    for k in range(ndim):
        bounds = fp.axis_bounds(chosen, k)
        if bounds is None and k > 0:
            raise KernelLanguageError(
                f"cannot infer the shape of array {name!r} along axis {k} (an index is not "
                f"affine or not bounded); declare it: GlobalArg({name!r}, dtype, shape=...)")
        shape.append(None if bounds is None else bounds[1])
    return tuple(shape)


def infer_temporary_shape(name: str, uses: list[tuple[Access, frozenset[str]]],
                          fp: Footprints) -> tuple[int, ...]:
    """Constant shape of an array temporary from the indices it is written at."""
    writes = [u for u in uses if u[0].is_write] or uses
    chosen, ndim = _shape_uses(name, writes)
    shape = []
    for k in range(ndim):
        bounds = fp.axis_bounds(chosen, k)
        if bounds is None or not all(isinstance(b, int) for b in bounds):
            extent = "unbounded" if bounds is None else f"up to {bounds[1]}"
            raise KernelLanguageError(
                f"temporary {name!r}: the extent along axis {k} is not a constant ({extent}); "
                "array temporaries need constant shapes (declare it with "
                "TemporaryVariable(name, dtype, shape) in kernel_data)")
        if bounds[0] < 0:
            raise KernelLanguageError(f"temporary {name!r} is written at a negative index "
                                      f"({bounds[0]}) along axis {k}")
        shape.append(bounds[1])
    return tuple(shape)


# ---------------------------------------------------------------------------------------------
# arguments

@dataclass(frozen=True, slots=True)
class DataUse:
    """Kernel-wide variable use, collected from the statements."""

    order: tuple[str, ...]                                      # first appearance
    reads: frozenset[str]
    writes: frozenset[str]
    accesses: Mapping[str, list[tuple[Access, frozenset[str]]]]
    scalar_writes: Mapping[str, str]                            # name -> a writer id


def collect_data_use(items: Sequence[ParsedStatement], uses: Mapping[str, StatementUse],
                     within: Mapping[str, frozenset[str]]) -> DataUse:
    """Merge the statements' variable use (in statement order)."""
    order: dict[str, None] = {}
    reads: set[str] = set()
    writes: set[str] = set()
    accesses: dict[str, list] = {}
    scalar_writes: dict[str, str] = {}
    for st in items:
        use = uses[st.id]
        order.update(dict.fromkeys(use.names))
        reads |= use.reads
        writes |= set(use.writes)
        for acc in use.accesses:
            accesses.setdefault(acc.name, []).append((acc, within[st.id]))
        subscripted = {acc.name for acc in use.accesses if acc.is_write}
        for name in use.writes:
            if name not in subscripted:
                scalar_writes.setdefault(name, st.id)
    return DataUse(tuple(order), frozenset(reads), frozenset(writes), accesses, scalar_writes)


def build_arguments(declared: Sequence[KernelArgument], infer_rest: bool, use: DataUse,
                    skip: frozenset[str], params: Sequence[str],
                    fp: Footprints) -> tuple[KernelArgument, ...]:
    """Declared arguments first (shapes and in/out completed), then the inferred ones in
    order of first appearance, then domain parameters as value arguments."""
    args = [_complete_declared(a, use, fp) for a in declared]
    known = {a.name for a in args} | skip
    missing = [n for n in use.order if n not in known]
    if missing and not infer_rest:
        raise KernelLanguageError(
            f"variable(s) {', '.join(missing)} not declared in kernel_data (add '...' to "
            "kernel_data to infer the remaining arguments)")
    for name in missing:
        args.append(_infer_argument(name, use, fp))
    known |= set(missing)
    args += [data.ValueArg(name=n) for n in params if n not in known]
    return tuple(args)


def _in_out(arg: ArrayArg, use: DataUse) -> ArrayArg:
    return replace(arg, is_input=arg.is_input if arg.is_input is not None
                   else arg.name in use.reads,
                   is_output=arg.is_output if arg.is_output is not None
                   else arg.name in use.writes)


def _complete_declared(arg, use: DataUse, fp: Footprints):
    if isinstance(arg, data.ValueArg):
        if arg.name in use.writes:
            raise KernelLanguageError(f"value argument {arg.name!r} is written; scalars a "
                                      "kernel writes must be temporaries or arrays", arg.span)
        return arg
    if isinstance(arg, AutoShapeArrayArg):
        shape = None
        if arg.name in use.accesses:
            shape = infer_array_shape(arg.name, use.accesses[arg.name], fp)
        tags = None if shape is None else parse_dim_tags(arg.layout, len(shape))
        fields = {f: getattr(arg, f) for f in ArrayArg.__dataclass_fields__}
        arg = ArrayArg(**{**fields, "shape": shape, "dim_tags": tags})
    return _in_out(arg, use)


def _infer_argument(name: str, use: DataUse, fp: Footprints) -> KernelArgument:
    if name in use.accesses:
        shape = infer_array_shape(name, use.accesses[name], fp)
        return _in_out(ArrayArg(name=name, shape=shape), use)
    if name in use.writes:
        raise KernelLanguageError(
            f"scalar {name!r} is written (statement {use.scalar_writes.get(name, '?')!r}) but "
            f"not declared: declare a temporary with '<> {name} = ...' (or "
            f"'<float64> {name} = ...'), or pass it as an array {name}[0]")
    return data.ValueArg(name=name)
