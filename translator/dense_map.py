"""Dense tiling (automatic): register blocking and local-memory tiles for matrix products.

`translator.automap` maps the parallel band of each nest one output per work item.  For
dense linear algebra that leaves the reuse on the table: in ``c[i][j] = sum_k a[i][k]*b[k][j]``
every element of ``a`` is read by every ``j`` and every element of ``b`` by every ``i``.  This
module recognises that reuse -- an array read along a loop that does not index it -- and maps
such nests with the shape of the hand-written recipe (docs/pragmas.md, "Dense kernels:
register blocking"), without the user writing it.

Recognition (`dense_nest`), on a nest whose parallel band is two loops: the coalescing loop
of the statements outside ``k`` (stride one in the output's stores, as
`translator.automap.coalescing_order` orders a band; the operands go through local memory)
is the *column* loop, the other the *row* loop; exactly one further loop ``k`` (sequential:
a reduction) encloses some statements; every global access of those statements depends on inames among row, column and
``k`` only; at least one array depends on (row, k) but not column (the *row operand*) and at
least one on (k, column) but not row (the *column operand*); no statement of the kernel
writes an operand (a copy in local memory would go stale).  Which subscript position holds
which loop does not matter: C row-major, Fortran column-major, transposed operands
(``a[j][k]`` of syrk) and linearised subscripts (``a[i*n + k]``) are all offsets that the
coalescing analysis writes as polynomials in the inames.

Cost model (`choose_tile`), for element size ``s`` bytes of the accumulated values:

- work group 16 x 16 work items; each work item keeps ``R x C`` outputs in registers
  (`privatize_temporaries_with_inames` of the accumulators), R = 8 rows 16 apart, columns in
  runs of 4 neighbours (coalesced stores, vector reads of the local tile): C = 8 (two runs)
  for ``s = 4``, C = 4 for ``s = 8`` (8 x 8 doubles need about 230 registers and halve the
  occupancy);
- ``k`` in steps of K: the largest power of two with both operand tiles,
  ``(16R + 16C) * K * s`` bytes, within `LOCAL_BUDGET` (32 KiB, the smallest local memory
  OpenCL guarantees) shared by the dense nests of the kernel (independent nests, as the
  first two products of 3mm, run in one launch): K = 32 for floats, 16 for doubles with one
  nest; inside a step ``k`` is unrolled by ``16 / s`` (one 16-byte vector read of the local
  tile);
- both operands go to local memory (`add_prefetch`, fetched cooperatively by the work group,
  coalesced); an array that is both a row and a column operand (``a[i][k]*a[j][k]`` of syrk)
  gets its reads told apart first (`tag_reads`: ``a$row``, ``a$col``) and one tile of each
  (the tiles of all operands share the budget); a column operand contiguous along ``k``
  (``b[j][k]``, syrk's ``a[j][k]``, Fortran's ``a(k, i)``, `_transposed_tile`) has its tile
  stored transposed with 16 bytes of padding after each row (`add_prefetch`'s
  ``storage_axes`` and ``storage_padding``; the padding counts in the budget): laid out as
  in the array, the 16 work items along ``l.0`` would read it one tile row apart, all in
  one local-memory bank (syrk ran at 0.03 of cuBLAS so); an operand whose footprint
  `add_prefetch` cannot compute is read in place (through the cache) instead: the register
  block still reuses each value 4 or 8 times;
- sizes that are constants smaller than one tile (rows < 16R, columns < 16C or k < K) keep
  the simple mapping: a fraction of one group would do all the work.

The order of every sum stays the source's (``k`` runs in order inside each work item) and no
multiply-add is contracted unless the region allows it (``set_options("fp_contract")``), so
the results are bit-for-bit those of the sequential program.  Every nest of the kernel must
be recognised (one work-group shape per kernel); otherwise, or when a transform or the
legality check refuses the result, the caller keeps its simple mapping: nothing unproven is
emitted.

Matrix-vector nests (`matvec_nest`): a band of one loop ``r`` and one reduction loop ``k``
over a matrix read at (r, k) and vectors read at k only, none of them written in the kernel,
both loops starting at 0 (`_from_zero`).  A work item keeps its own output and sums in source
order (a work-group reduction over ``k`` would round differently), so only as many work
items sum as there are outputs (16384 for a 16384^2 gemv: four warps per multiprocessor).
Measured on an H200 (bench/gpu/gemv; bench/RESULTS.md, "Dense kernels (h29)"), what sets the
speed then is how many loads are in flight: each group of 32 outputs (`MATVEC_ROWS`) stages
the matrix in local memory, a tile of 32 outputs x a step of ``k``, loaded along the
matrix's contiguous axis (the fetch iname of that axis on ``l.0``, the other unrolled, so
that every loading work item has one load per row or column of the tile in flight):

- contiguous along ``k`` (``y[i] = sum_j a[i][j]*x[j]`` in C): the step of ``k`` is odd (the
  rows of the tile fall into different local-memory banks) and up to 127 (`SCATTERED_STEP`):
  one loading work item per element of a tile row, more than the 32 that sum;
- contiguous along ``r`` (``y[j] = sum_i a[i][j]*x[i]``): 32 outputs and up to 64 steps of
  ``k`` (`COALESCED_STEP`, half as many when other nests share the launch; more loads per
  work item spill registers).

The vectors' k-tile goes to local memory too.  The tiles of the matrices and vectors of a
nest take at most their share of `LOCAL_BUDGET` (nests of a launch share it equally: bicg
has one of each kind).  A matrix read through a linearised subscript keeps the plain tile
(`add_prefetch` with ``l.auto``).

This module applies transforms, so it belongs to the pipeline layer (with `translator.automap`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import transforms
from translator.analysis.coalescing import (coalescing_key, coalescing_scores, global_accesses,
                                            stride_of)
from translator.analysis.legality import check_mappings
from translator.analysis.reductions import recognize_parallel_reductions
from translator.diagnostics import TranslatorError
from translator.ir import isl_glue as glue
from translator.ir.data import ArrayArg, strides
from translator.ir.isl_glue import static_length, static_lower_bound
from translator.ir.kernel import Kernel
from translator.ir.statements import Statement
from translator.records import dataclass

#: Local memory the operand tiles may take (bytes): OpenCL's guaranteed minimum.
LOCAL_BUDGET = 32 * 1024
#: Work items per group along each local axis (gemm-like nests).
GROUP_SIDE = 16
#: Matrix-vector nests (module docstring): outputs per work group, the most k steps of a
#: tile contiguous along k (odd, against bank conflicts) and along the rows.
MATVEC_ROWS = 32
SCATTERED_STEP = 127
COALESCED_STEP = 64
#: Reason text `--report` prints for a mapping of this module.
REASON = "dense tiling (automatic)"

Call = tuple[str, tuple[Any, ...], tuple[tuple[str, Any], ...]]


@dataclass(frozen=True)
class DenseNest:
    """A gemm-like nest: outputs over (rows, cols), a reduction over `k`."""

    rows: str
    cols: str
    k: str
    row_operands: tuple[str, ...]
    col_operands: tuple[str, ...]
    accumulators: tuple[str, ...]
    itemsize: int
    # column operands contiguous along k, with the storage order of their tile (the fetch
    # axis of k outermost): stored transposed and padded (module docstring)
    transposed: tuple[tuple[str, tuple[int, int]], ...] = ()


@dataclass(frozen=True)
class MatvecNest:
    """A gemv-like nest: outputs over `rows`, a reduction over `k` of matrix x vector."""

    rows: str
    k: str
    matrices: tuple[str, ...]
    vectors: tuple[str, ...]
    scattered: bool           # the matrix is contiguous along k, not along rows
    itemsize: int
    fast_positions: tuple[int | None, ...]  # per matrix: its subscript holding the contiguous
                                            # loop (None: linearised)


@dataclass(frozen=True)
class MatvecTile:
    """The local-memory tile of a gemv-like nest: outputs per work group, step of k."""

    rows: int
    k_step: int


@dataclass(frozen=True)
class Tile:
    """The cost model's choice for a gemm-like nest (module docstring)."""

    rows_per_item: int
    cols_per_item: int
    k_step: int
    k_unroll: int

    @property
    def group_rows(self) -> int:
        return GROUP_SIDE * self.rows_per_item

    @property
    def group_cols(self) -> int:
        return GROUP_SIDE * self.cols_per_item


def dense_mapping(kernel: Kernel, bands: list[list[str]], nests: list[list[Statement]]
                  ) -> tuple[Kernel, tuple[str, ...]] | None:
    """The dense tiling of `kernel` (every nest gemm-like, or every nest gemv-like), proven
    legal, with its pragma lines; None when it does not apply (the caller maps simply)."""
    calls = _dense_calls(kernel, bands, nests) or _matvec_calls(kernel, bands, nests)
    if not calls:
        return None
    mapped, applied = kernel, []
    try:
        for call in calls:
            result = _apply_call(mapped, call)
            if result is not None:
                mapped, applied = result, applied + [call]
        check_mappings(recognize_parallel_reductions(mapped))
    except TranslatorError:
        return None
    return mapped, tuple(pragma_text(c) for c in applied)


def _apply_call(kernel: Kernel, call: Call) -> Kernel | None:
    """`kernel` transformed by `call`; None for a prefetch whose footprint cannot be computed
    (a linearised subscript such as ``a[i*n + k]``): that operand is read in place."""
    name, args, kwargs = call
    if name == "tag_inames" and not _tagged_inames(args[0]) <= set(kernel.all_inames):
        return None   # the tags of a fetch that was skipped
    try:
        return transforms.apply_call(kernel, name, args, dict(kwargs))
    except TranslatorError:
        if name != "add_prefetch":
            raise
        return None


def _tagged_inames(spec: str) -> set[str]:
    """The inames of a ``"a:l.0, b:unr"`` tag_inames argument."""
    return {part.split(":")[0].strip() for part in spec.split(",")}


def _dense_calls(kernel: Kernel, bands: list[list[str]], nests: list[list[Statement]]
                 ) -> list[Call]:
    calls: list[Call] = []
    for band, nest in zip(bands, nests):
        found = dense_nest(kernel, band, nest)
        tile = found and choose_tile(kernel, found, LOCAL_BUDGET // len(nests))
        if not found or not tile:
            return []
        calls += gemm_calls(found, tile)
    return calls


def _matvec_calls(kernel: Kernel, bands: list[list[str]], nests: list[list[Statement]]
                  ) -> list[Call]:
    found = [matvec_nest(kernel, band, nest) for band, nest in zip(bands, nests)]
    if not found or not all(found):
        return []
    tiles = [matvec_tile(f, LOCAL_BUDGET // len(found), alone=len(found) == 1)
             for f in found]
    if not all(tiles):
        return []
    return [c for f, t in zip(found, tiles) for c in matvec_calls(f, t)]


# ---------------------------------------------------------------------------------------------
# recognition

def _inner_loop(band: list[str], nest: list[Statement]) -> tuple[str, list[Statement]] | None:
    """The one loop of `nest` outside `band` and the statements inside it, or None."""
    inner = {n for s in nest for n in s.within_inames} - set(band)
    if len(inner) != 1:
        return None
    k = inner.pop()
    return k, [s for s in nest if k in s.within_inames]


def _access_inames(kernel: Kernel, stmts: list[Statement], inames: set[str]
                   ) -> dict[str, set[frozenset[str]]] | None:
    """For every global array the statements access, the sets of `inames` each access
    depends on; None if an access is not a polynomial or depends on another loop."""
    out: dict[str, set[frozenset[str]]] = {}
    for acc in global_accesses(kernel, stmts):
        if acc.offset is None:
            return None
        used = frozenset(n for n in kernel.all_inames if stride_of(acc.offset, n))
        if not used <= inames:
            return None
        out.setdefault(acc.array, set()).add(used)
    return out


def dense_nest(kernel: Kernel, band: list[str], nest: list[Statement]) -> DenseNest | None:
    """The nest as a gemm-like `DenseNest`, or None (module docstring: Recognition)."""
    if len(band) != 2 or getattr(band, "outer_tag", False) is not False:
        return None
    inner = _inner_loop(band, nest)
    if inner is None:
        return None
    k, stmts = inner
    if not _k_range_shared(kernel, band, stmts, k):
        return None
    stores = [s for s in nest if k not in s.within_inames]
    cols, rows = _stride_one_first(kernel, band, stores or nest)
    uses = _access_inames(kernel, stmts, {rows, cols, k})
    if uses is None:
        return None
    row_ops = tuple(sorted(a for a, u in uses.items() if frozenset({rows, k}) in u))
    col_ops = tuple(sorted(a for a, u in uses.items() if frozenset({cols, k}) in u))
    if _written(kernel) & set(row_ops + col_ops):
        return None
    if not row_ops or not col_ops:
        return None
    transposed = tuple((a, order) for a in col_ops
                       if (order := _transposed_tile(kernel, stmts, a, cols, k)) is not None)
    return DenseNest(rows, cols, k, row_ops, col_ops, _accumulators(kernel, stmts),
                     _itemsize(kernel, row_ops + col_ops), transposed)


def _k_range_shared(kernel: Kernel, band: list[str], stmts: list[Statement], k: str) -> bool:
    """Whether the summed loop's range is the same for every (row, column): a triangle in
    ``k`` (``for k <= i`` of trmm) would need each tile step fetched per row of the
    register block, which the tiling does not do (the schedule refused it, exit 1)."""
    return all(glue.bounds_independent(glue.statement_domain(kernel.domains, s.within_inames),
                                       [k], band) for s in stmts)


def _transposed_tile(kernel: Kernel, stmts: list[Statement], array: str, cols: str, k: str
                     ) -> tuple[int, int] | None:
    """The storage order (fetch axes, outermost first) that puts the column loop's axis of
    the tile of `array` innermost, when every read of `array` along (cols, k) walks k with
    stride one and cols with another stride (``b[j][k]``, syrk's ``a[j][k]``); None when the
    tile as laid out in the array already has the column loop innermost, or for shapes other
    than 2-D arrays and rows of a flat array (fetched as 2-D, the row's axis last)."""
    unit = {(): 1}
    reads = [acc for acc in global_accesses(kernel, stmts) if acc.array == array
             and stride_of(acc.offset, cols) and stride_of(acc.offset, k)]
    if not reads or any(stride_of(acc.offset, k) != unit or stride_of(acc.offset, cols) == unit
                        for acc in reads):
        return None
    arg = next(a for a in kernel.args if a.name == array)
    if isinstance(arg, ArrayArg) and arg.shape is not None and len(arg.shape) == 1:
        return (1, 0)
    fast = _unit_stride_axis(kernel, array)
    return None if fast is None else (fast, 1 - fast)


def matvec_nest(kernel: Kernel, band: list[str], nest: list[Statement]) -> MatvecNest | None:
    """The nest as a gemv-like `MatvecNest`, or None (module docstring)."""
    if len(band) != 1 or getattr(band, "outer_tag", False) is not False:
        return None
    inner = _inner_loop(band, nest)
    if inner is None:
        return None
    k, stmts = inner
    rows = band[0]
    if not _from_zero(kernel, rows, k):
        return None
    uses = _access_inames(kernel, stmts, {rows, k})
    if uses is None:
        return None
    matrices = tuple(sorted(a for a, u in uses.items() if u == {frozenset({rows, k})}))
    vectors = tuple(sorted(a for a, u in uses.items() if u == {frozenset({k})}))
    if not matrices or not vectors or _written(kernel) & set(matrices + vectors):
        return None
    scattered = _stride_one_first(kernel, [rows, k], stmts)[0] == k
    positions = tuple(_unit_stride_axis(kernel, m) for m in matrices)
    return MatvecNest(rows, k, matrices, vectors, scattered, _itemsize(kernel, matrices),
                      positions)


def _unit_stride_axis(kernel: Kernel, array: str) -> int | None:
    """The axis of the 2-D `array` whose elements are adjacent in memory (its fetch iname
    ``<array>_dim_<axis>`` walks the tile contiguously); None for any other shape."""
    arg = next(a for a in kernel.args if a.name == array)
    if not isinstance(arg, ArrayArg) or arg.shape is None or arg.dim_tags is None \
            or len(arg.shape) != 2:
        return None
    units = [axis for axis, stride in enumerate(strides(arg.shape, arg.dim_tags))
             if stride == 1]
    return units[0] if len(units) == 1 else None


def _from_zero(kernel: Kernel, *inames: str) -> bool:
    """Whether every loop of `inames` starts at 0.  A 1-D work group whose loops start at 1
    (Fortran's ``do i = 1, n``) with a prefetch of the summed loop gives a kernel that does not
    write its output on PoCL (also with the same pragmas written by hand: a defect outside this
    module, left for its own fix), so such matrix-vector nests keep the simple mapping."""
    for iname in inames:
        domain = kernel.domains[kernel.domain_index_of(iname)]
        if static_lower_bound(domain, iname) != 0:
            return False
    return True


def _stride_one_first(kernel: Kernel, inames: list[str], stmts: list[Statement]) -> list[str]:
    """`inames` ordered as `translator.automap.coalescing_order` orders a band (the loop that
    scatters the fewest bytes first), over the accesses of `stmts` only."""
    scores = coalescing_scores(kernel, inames, stmts)
    return sorted(inames, key=lambda n: (*coalescing_key(scores, n), inames.index(n)))


def _constant_length(kernel: Kernel, iname: str) -> int | None:
    """The trip count of the loop over `iname` if it is a constant, else None."""
    domain = kernel.domains[kernel.domain_index_of(iname)]
    lower = static_lower_bound(domain, iname)
    return None if lower is None else static_length(domain, iname, lower)


def _written(kernel: Kernel) -> set[str]:
    """Variables some statement of `kernel` writes (operands must not be: a local copy of
    one would go stale)."""
    return {n for s in kernel.statements for n in s.assignee_names()}


def _accumulators(kernel: Kernel, stmts: list[Statement]) -> tuple[str, ...]:
    """Scalar temporaries the statements accumulate into (register-blocked per work item)."""
    names = {w for s in stmts for w in s.assignee_names()}
    return tuple(sorted(n for n in names if n in kernel.temporaries
                        and not kernel.temporaries[n].shape))


def _itemsize(kernel: Kernel, arrays: tuple[str, ...]) -> int:
    sizes = [np.dtype(a.dtype).itemsize for a in kernel.args
             if isinstance(a, ArrayArg) and a.name in arrays and a.dtype is not None]
    return max(sizes, default=8)


# ---------------------------------------------------------------------------------------------
# cost model and recipes

def choose_tile(kernel: Kernel, nest: DenseNest, budget: int = LOCAL_BUDGET) -> Tile | None:
    """The register block, k step and unrolling for `nest` with `budget` bytes of local
    memory for its tiles (module docstring: Cost model), or None when a constant size is
    smaller than one tile."""
    s = nest.itemsize
    rows, cols = 8, (8 if s <= 4 else 4)
    per_k = (GROUP_SIDE * (rows * len(nest.row_operands) + cols * len(nest.col_operands))
             + _padding(s) * len(nest.transposed))    # elements of all tiles per step of k
    k_step = 64
    while k_step > 4 and per_k * k_step * s > budget:
        k_step //= 2
    tile = Tile(rows, cols, k_step, max(1, min(4, 16 // s)))
    for iname, size in ((nest.rows, tile.group_rows), (nest.cols, tile.group_cols),
                        (nest.k, tile.k_step)):
        length = _constant_length(kernel, iname)
        if length is not None and length < size:
            return None
    return tile


def _padding(itemsize: int) -> int:
    """Elements after each row of a transposed column tile: 16 bytes, so that rows stay
    aligned for vector reads and the copy's neighbouring work items (one row apart) fall
    into different local-memory banks."""
    return max(1, 16 // itemsize)


def _call(name: str, *args: Any, **kwargs: Any) -> Call:
    return name, args, tuple(kwargs.items())


def gemm_calls(nest: DenseNest, tile: Tile) -> list[Call]:
    """The recipe of docs/pragmas.md for `nest` with `tile`, as transform calls."""
    r, c, k = nest.rows, nest.cols, nest.k
    calls = [_call("split_iname", r, tile.group_rows, outer_tag="g.1"),
             _call("split_iname", f"{r}_inner", GROUP_SIDE, outer_tag="unr", inner_tag="l.1"),
             _call("split_iname", c, tile.group_cols, outer_tag="g.0")]
    if tile.cols_per_item > 4:    # runs of 4 columns, GROUP_SIDE * 4 apart
        calls += [_call("split_iname", f"{c}_inner", GROUP_SIDE * 4, outer_tag="unr"),
                  _call("split_iname", f"{c}_inner_inner", 4, outer_tag="l.0",
                        inner_tag="unr")]
        col_unr = [f"{c}_inner_outer", f"{c}_inner_inner_inner"]
        col_sweep = [f"{c}_inner_outer", f"{c}_inner_inner_outer", f"{c}_inner_inner_inner"]
    else:
        calls.append(_call("split_iname", f"{c}_inner", tile.cols_per_item, outer_tag="l.0",
                           inner_tag="unr"))
        col_unr = [f"{c}_inner_inner"]
        col_sweep = [f"{c}_inner_outer", f"{c}_inner_inner"]
    calls += [_call("split_iname", k, tile.k_step),
              _call("split_iname", f"{k}_inner", tile.k_unroll, inner_tag="unr")]
    if nest.accumulators:
        calls.append(_call("privatize_temporaries_with_inames",
                           ",".join([f"{r}_inner_outer", *col_unr]),
                           ",".join(nest.accumulators)))
    ks = [f"{k}_inner_outer", f"{k}_inner_inner"]
    both = sorted(set(nest.row_operands) & set(nest.col_operands))
    # an operand read along both loops (syrk's a[i][k]*a[j][k]): one tile per loop, its reads
    # told apart first (before the splits rename the loops)
    calls = [_call("tag_reads", a, tag, loop) for a in both
             for tag, loop in (("row", r), ("col", c))] + calls
    within = f"iname:{k}_inner_inner"
    for array in nest.row_operands:
        calls.append(_call("add_prefetch", f"{array}$row" if array in both else array,
                           [f"{r}_inner_outer", f"{r}_inner_inner", *ks],
                           default_tag="l.auto", within=within))
    transposed = dict(nest.transposed)
    for array in nest.col_operands:
        layout = {} if array not in transposed else {
            "storage_axes": list(transposed[array]), "storage_padding": _padding(nest.itemsize)}
        calls.append(_call("add_prefetch", f"{array}$col" if array in both else array,
                           [*ks, *col_sweep], default_tag="l.auto", within=within, **layout))
    return calls


def matvec_tile(nest: MatvecNest, budget: int, alone: bool = True) -> MatvecTile | None:
    """The tile of `nest` with `budget` bytes of local memory for its matrix and vector
    tiles (module docstring), or None when a step of 4 does not fit.  A nest contiguous
    along the rows that shares its launch with other nests takes half the steps (measured:
    bicg's launch with 62 of them ran 2.7 times slower than with 32)."""
    per_step = (MATVEC_ROWS * len(nest.matrices) + len(nest.vectors)) * nest.itemsize
    steps = budget // per_step
    if nest.scattered:
        steps = min(SCATTERED_STEP, steps - 1 + steps % 2)   # odd
    else:
        steps = min(COALESCED_STEP if alone else COALESCED_STEP // 2, steps)
    return MatvecTile(MATVEC_ROWS, steps) if steps >= 4 else None


def matvec_calls(nest: MatvecNest, tile: MatvecTile) -> list[Call]:
    """Row per work item in groups of `tile.rows` rows, sums in source order, the matrix
    tiles loaded by one work item per contiguous element (module docstring), as transform
    calls."""
    r, k = nest.rows, nest.k
    within = f"iname:{k}_inner"
    calls = [_call("split_iname", r, tile.rows, outer_tag="g.0", inner_tag="l.0"),
             _call("split_iname", k, tile.k_step)]
    for matrix, fast in zip(nest.matrices, nest.fast_positions):
        sweep = [f"{r}_inner", f"{k}_inner"]
        if fast is None:
            calls.append(_call("add_prefetch", matrix, sweep, default_tag="l.auto",
                               within=within))
            continue
        dims = [f"{matrix}_{k}_dim_0", f"{matrix}_{k}_dim_1"]   # one pair per nest
        calls += [_call("add_prefetch", matrix, sweep, dim_arg_names=dims, default_tag=None,
                        temporary_address_space="local", within=within),
                  _call("tag_inames", f"{dims[fast]}:l.0, {dims[1 - fast]}:unr")]
    for vector in nest.vectors:
        calls.append(_call("add_prefetch", vector, [f"{k}_inner"], default_tag="l.auto",
                           within=within))
    return calls


def pragma_text(call: Call) -> str:
    """A transform call as the pragma line that makes it (strings in double quotes)."""
    name, args, kwargs = call
    parts = [_literal(a) for a in args] + [f"{key}={_literal(v)}" for key, v in kwargs]
    return f"{name}({', '.join(parts)})"


def _literal(value: Any) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_literal(v) for v in value) + "]"
    return repr(value)
