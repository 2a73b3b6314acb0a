"""Subscripts against declared extents: proved inside, or a point where one leaves.

Two accesses to one array touch the same element when their addresses are equal.  Comparing
subscripts axis by axis says the same only when every axis but the slowest stays inside its
extent: ``b[i][-1]`` of a C array ``double b[n][m]`` is the memory of ``b[i-1][m-1]``, and
Fortran's ``b(0, j)`` of ``b(n, m)`` is ``b(n, j-1)``.  Legality therefore asks here, with
isl over the statement's domain, its conditions and the region's assumptions, whether every
such axis stays inside ``0 .. extent-1``; where it cannot prove it, it compares linear
addresses (row-major in C, column-major in Fortran: the dim tags' strides) instead, and
refuses when those are not affine.  The slowest axis may leave its extent without changing
which element an address names (``a(*)``, ``a(1)`` dummies indexed past their end).
"""

from __future__ import annotations

from collections.abc import Iterable
from translator.records import dataclass

from pymbolic import evaluate
import pymbolic.primitives as p

from translator.analysis.access import Access, kernel_accesses
from translator.diagnostics import DomainError, FrontendError, TranslatorError
from translator.ir.data import NestingTag, strides
from translator.ir.expr import (Expression, IRStringifier, dependencies, readable_condition,
                                substitute, typed_key)
from translator.ir.isl_glue import (find_conflict, forest_path, instance_set, intersect_params,
                                    is_affine, leaves_for_all_params, params_keeping_inside,
                                    set_conditions)
from translator.ir.isl_glue.core import memoized
from translator.ir.kernel import Kernel
from translator.ir.shape_memo import KernelMemo


@dataclass(frozen=True)
class Spill:
    """A point where `access`'s subscript along `axis` (0-based) is `value`, outside
    ``0 .. extent-1``."""

    access: Access
    axis: int
    value: int
    extent: Expression
    point: dict[str, int]
    language: str

    def text(self) -> str:
        """``b[i][j - 1] reaches index -1 of dimension 2 (extent 0..m-1) at i=1, j=0``."""
        text = (f"{access_text(self.access, self.language)} reaches index {self.value} of "
                f"dimension {self.axis + 1} (extent 0..{_last(self.extent)})")
        if not self.point:
            return text.replace(" reaches index 0 ", " may leave the extent ") \
                + " (not provable)"
        inames = {n: v for n, v in self.point.items() if n in self.access.inames}
        params = {n: v for n, v in self.point.items() if n not in inames}
        text += " at " + (_values(inames) or "(all)")
        return text + (f" when {_values(params)}" if params else "")


def _values(values: dict[str, int]) -> str:
    return ", ".join(f"{n}={v}" for n, v in sorted(values.items()))


def access_text(acc: Access, language: str) -> str:
    """The access as its language writes it: ``b[i][j - 1]`` in C; Fortran subscripts are
    shown 0-based (``b[i - 2, j - 1]``), as the extents are."""
    parts = [IRStringifier()(i) for i in acc.index or ()]
    if language == "c":
        return acc.variable + "".join(f"[{x}]" for x in parts)
    return f"{acc.variable}[{', '.join(parts)}] (0-based)" if language == "fortran" else \
        f"{acc.variable}[{', '.join(parts)}]"


def _last(extent: Expression) -> str:
    if isinstance(extent, int):
        return str(extent - 1)
    return f"{IRStringifier()(extent)}-1"


def layout(kernel: Kernel, name: str) -> tuple[tuple, tuple] | None:
    """(shape, dim tags) of array argument or temporary `name`, or None when unknown."""
    var = kernel.arg(name)
    if var is None:
        var = kernel.temporaries.get(name)
    shape = getattr(var, "shape", None)
    tags = getattr(var, "dim_tags", None)
    if not shape or tags is None or len(tags) != len(shape):
        return None
    return tuple(shape), tuple(tags)


def _address_axes(tags: tuple) -> list[int]:
    """Axes whose leaving the extent changes which element an address names: every nested
    axis but the slowest."""
    nested = sorted((t.level, k) for k, t in enumerate(tags) if isinstance(t, NestingTag))
    return sorted(k for _, k in nested[:-1])


def address_spill(kernel: Kernel, acc: Access) -> Spill | None:
    """The first point where `acc` leaves the extent of an axis other than its array's
    slowest (module docstring), or None when proved inside."""
    if acc.index is None or acc.layout != "":
        return None
    shape_tags = layout(kernel, acc.variable)
    if shape_tags is None or len(shape_tags[0]) != len(acc.index):
        return None
    return _first_spill(kernel, acc, _address_axes(shape_tags[1]))


def access_spill(kernel: Kernel, acc: Access) -> Spill | None:
    """The first point where `acc` leaves the extent of any axis with a known extent."""
    if acc.index is None or acc.layout != "":
        return None
    shape_tags = layout(kernel, acc.variable)
    if shape_tags is None or len(shape_tags[0]) != len(acc.index):
        return None
    return _first_spill(kernel, acc, range(len(acc.index)))


def certain_spill(kernel: Kernel, acc: Access) -> Spill | None:
    """A point where `acc` leaves the extent of an axis it leaves for every parameter value
    where it runs at all (``a(i + 1)`` of ``a(n)`` over ``i = 1, n``), or None: not one that
    only some callers' values cause (``a(i)`` of ``a(nmax)`` over ``i = 1, n``)."""
    if acc.index is None or acc.layout != "":
        return None
    shape_tags = layout(kernel, acc.variable)
    if shape_tags is None or len(shape_tags[0]) != len(acc.index):
        return None
    try:
        inside = instance_set(kernel.domains, acc.inames, acc.conditions,
                              assumptions=kernel.assumptions)
    except TranslatorError:
        return None
    for axis, extent in enumerate(shape_tags[0]):
        if extent is not None and leaves_for_all_params(inside, acc.index[axis], extent,
                                                        acc.inames):
            return _first_spill(kernel, acc, (axis,))
    return None


def spill_below(kernel: Kernel, acc: Access, axis: int = 0) -> Spill | None:
    """A point where `acc`'s subscript along `axis` is negative (for some caller's values),
    a spill at no point where isl cannot take it, or None: proved ``>= 0``."""
    if acc.index is None or acc.layout != "" or len(acc.index) <= axis:
        return None
    shape = (layout(kernel, acc.variable) or ((None,) * len(acc.index), ()))[0]
    try:
        inside = instance_set(kernel.domains, acc.inames, acc.conditions,
                              assumptions=kernel.assumptions)
        point = find_conflict(inside, inside, (), (), [(acc.index[axis], 0)])
    except (DomainError, TranslatorError):
        return _unknown(kernel, acc, axis, shape)
    return None if point is None else _spill(kernel, acc, axis, shape[axis], point)


def first_element_assumptions(kernel: Kernel):
    """`_first_element_assumptions`, remembered by kernel shape up to its name and spans
    (`_FIRSTS`): a file of many regions over the same dummies asks once."""
    held = _FIRSTS.find(kernel)
    if held is not None:
        return held[0]
    added = _first_element_assumptions(kernel)   # raises before keeping anything
    _FIRSTS.keep(kernel, (added,))
    return added


#: `first_element_assumptions`' answers by kernel shape (`translator.ir.shape_memo`): the
#: parameter set, or None.  An error is not kept (it names the access's span).
_FIRSTS = KernelMemo()


def _first_element_assumptions(kernel: Kernel):
    """The convex parameter set (an isl basic set) that keeps every access of the arrays the
    frontend lists in ``options.extra["first_elements"]`` at or after their first element, or
    None where no access needs one.  Entries are ``(name, shown, axis, mode)``: the array, its
    name in the source, the axis whose first element the region moves from (-1: the last) and
    what an access that reaches before it with no convex condition to rule that out gets:
    "refuse" (an error at the access), "claims" (the same, except that one reaching before it
    for every caller's values is left to the claim's proof, `check_bounds`), "assume" (the
    access is left as it is).  C pointers move from the element they point to on, Fortran
    dummies from their first element (legacy code passes ``a(2)`` and reads ``y(0)``); the
    original reads the memory before it, the kernel would read what is not there."""
    entries = {name: (shown, axis, mode) for name, shown, axis, mode
               in kernel.options.extra.get("first_elements", ())}
    added = None
    for acc in distinct_accesses(kernel_accesses(kernel)):
        if acc.variable not in entries or not acc.index or acc.layout != "":
            continue
        shown, axis, mode = entries[acc.variable]
        axis = len(acc.index) - 1 if axis < 0 else axis
        spill = spill_below(kernel, acc, axis)
        if spill is None or not spill.point:
            continue    # none; or isl cannot take the subscript (the footprint bounds it)
        if mode == "assume":
            ok = params_keeping_nonnegative(kernel, acc, axis)
        else:
            whole = certain_spill(kernel, acc)
            certain = whole is not None and whole.axis == axis
            if certain and mode == "claims":
                continue
            ok = None if certain else params_keeping_nonnegative(kernel, acc, axis)
            if ok is None:
                raise _before_first_error(acc, spill, shown, certain)
        if ok is not None:
            added = ok if added is None else intersect_params(added, ok)
    return added


def _before_first_error(acc: Access, spill: Spill, shown: str, certain: bool) -> FrontendError:
    """The error for `acc`, which reaches before its pointer's first element at `spill` for
    every caller's values (`certain`) or for some that no convex condition on the parameters
    rules out."""
    text = spill.text()
    text = text.split(" of dimension")[0] + text[text.index(" at "):]
    why = (f"the loop {acc.verb} before the first element of {shown!r}, which has no "
           "declared extent" if certain else
           f"with such values the loop {acc.verb} before the first element of {shown!r}, "
           "which has no declared extent, and no single condition on the parameters "
           "rules them out")
    return FrontendError(f"{text}: {why}: the translator moves a pointer's elements from the "
                         "one it points to on; pass a pointer to the first element the loop "
                         "uses" + ("" if certain else ", or state the values the region runs "
                                   "with in an assume(...)"), acc.span)


def params_keeping_nonnegative(kernel: Kernel, acc: Access, axis: int = 0):
    """The convex parameter set (an isl basic set) where every instance of `acc` has its
    subscript along `axis` ``>= 0``, or None where that set is not convex, leaves `acc` no
    instance, or isl cannot take the subscript."""
    try:
        inside = instance_set(kernel.domains, acc.inames, acc.conditions,
                              assumptions=kernel.assumptions)
    except TranslatorError:
        return None
    return params_keeping_inside(inside, acc.index[axis], None, acc.inames)


def _first_spill(kernel: Kernel, acc: Access, axes) -> Spill | None:
    axes = tuple(axes)
    if not axes:    # nothing to search (a 1-D array's address): `_search` without isl work
        try:
            forest_path(kernel.domains, acc.inames)
        except DomainError:
            return _unknown(kernel, acc, 0, layout(kernel, acc.variable)[0])
        return None
    # `acc` by its typed expressions too: pymbolic's equality takes ``a[i + 1]`` and
    # ``a[i + 1.0]`` for one access (`typed_key`)
    try:
        key = ("spill", acc, typed_key((acc.index, acc.conditions, acc.strides, acc.row)),
               tuple(axes), id(kernel.domains), id(kernel.assumptions), id(kernel.args),
               id(kernel.temporaries))
    except TypeError:   # an unhashable condition: compute, do not remember
        return _search(kernel, acc, axes)
    held = (kernel.domains, kernel.assumptions, kernel.args, kernel.temporaries)
    return memoized(key, held, lambda: (_search(kernel, acc, axes),))[0]


def _search(kernel: Kernel, acc: Access, axes) -> Spill | None:
    shape, _ = layout(kernel, acc.variable)
    try:
        inside = instance_set(kernel.domains, acc.inames, acc.conditions,
                              assumptions=kernel.assumptions)
    except TranslatorError:
        return _unknown(kernel, acc, min(axes, default=0), shape)
    for axis in axes:
        extent = shape[axis]
        if extent is None:
            continue
        index = acc.index[axis]
        for less in ((index, 0), (extent - 1, index)):
            try:
                point = find_conflict(inside, inside, (), (), [less])
            except (DomainError, TranslatorError):
                return _unknown(kernel, acc, axis, shape)
            if point is not None:
                return _spill(kernel, acc, axis, extent, point)
    return None


def _spill(kernel: Kernel, acc: Access, axis: int, extent: Expression,
           point: dict[str, int]) -> Spill:
    names = set(acc.inames) | {a.name for a in kernel.value_args}
    shown = {n: v for n, v in point.items() if n in names}
    value = int(evaluate(acc.index[axis], point))
    return Spill(acc, axis, value, extent, shown, kernel.options.source_language)


def _unknown(kernel: Kernel, acc: Access, axis: int, shape: tuple) -> Spill:
    """Not provable (a bound isl cannot take): reported as a spill at no particular point."""
    return Spill(acc, axis, 0, shape[axis], {}, kernel.options.source_language)


def stride_names(kernel: Kernel, name: str) -> set[str]:
    """The names the element strides of array `name` use (``m`` of C's ``b[n][m]``)."""
    shape_tags = layout(kernel, name)
    if shape_tags is None:
        return set()
    steps = [s for s in strides(*shape_tags) if s is not None]
    return set().union(*(dependencies(s) for s in steps))


def linear_address(kernel: Kernel, acc: Access,
                   values: dict[str, int] | None = None) -> Expression | None:
    """The element offset ``sum(index_k * stride_k)`` of `acc`, if affine (constant strides,
    or strides made constant by the parameter `values`)."""
    shape_tags = layout(kernel, acc.variable)
    if shape_tags is None or acc.index is None or len(acc.index) != len(shape_tags[0]):
        return None
    steps = strides(*shape_tags)
    if any(s is None for s in steps):
        return None
    if values:
        steps = tuple(substitute(s, values) for s in steps)
    terms = [i if s == 1 else p.Product((s, i)) for i, s in zip(acc.index, steps) if s != 0]
    flat = p.Sum(tuple(terms)) if len(terms) > 1 else terms[0]
    names = set(acc.inames) | {a.name for a in kernel.value_args}
    return flat if is_affine(flat, names) else None


def proven_in_bounds(kernel: Kernel, accesses: list[Access]) -> dict[str, Spill | None]:
    """Per array with known extents (sorted by name): None when every access of it is proved
    inside every known extent, else the first spill found."""
    out: dict[str, Spill | None] = {}
    for acc in accesses:
        if acc.index is None or layout(kernel, acc.variable) is None:
            continue
        if out.get(acc.variable) is None:
            out[acc.variable] = access_spill(kernel, acc)
    return dict(sorted(out.items()))


def bound_assumptions(kernel: Kernel) -> Kernel:
    """`kernel` with the parameter values that keep every address axis of every access inside
    its extent added to its assumptions (which the host glue checks at each call, like
    ``assume``), where that is what the proof lacks: ``v[0][i]`` of ``double v[40][40]`` over
    ``i < n`` holds for ``n <= 41``.  Added only where the condition is convex and leaves the
    access some instances (never a condition that would leave the region nothing to run);
    otherwise legality compares linear addresses.  Remembered by kernel shape (`_SHAPES`)."""
    held = _SHAPES.find(kernel)
    if held is not None:
        return kernel if held[0] is None else kernel.copy(assumptions=held[0])
    bounded = _bounded(kernel)
    _SHAPES.keep(kernel, (None if bounded is kernel else bounded.assumptions,))
    return bounded


#: `bound_assumptions`' answers by kernel shape, up to its name and spans (`translator.ir.
#: shape_memo`): (the assumptions, or None where the kernel stays as it is).  The proof reads
#: neither the kernel's name nor a span, and raises nothing.
_SHAPES = KernelMemo()


def _bounded(kernel: Kernel) -> Kernel:
    """`bound_assumptions` of a kernel not remembered."""
    added = None
    for acc in distinct_accesses(kernel_accesses(kernel)):
        spill = address_spill(kernel, acc)
        if spill is None or not spill.point:
            continue
        ok = _keeping_inside(kernel, acc)
        if ok is None:
            continue
        added = ok if added is None else intersect_params(added, ok)
    if added is None:
        return kernel
    merged = intersect_params(kernel.assumptions, added)
    if merged.is_empty():
        return kernel
    return kernel.copy(assumptions=merged)


def same_elements_key(acc: Access) -> tuple:
    """What decides which elements `acc` touches in which instances (not its statement),
    its expressions typed (`typed_key`: ``a[i + 1]`` is not ``a[i + 1.0]``).  TypeError
    where a condition is not hashable."""
    return (acc.variable, acc.layout, acc.inames, typed_key((acc.index, acc.conditions)))


def distinct_accesses(accesses: Iterable[Access]) -> list[Access]:
    """The first of each set of accesses that touch the same elements in the same instances
    (one array, subscripts, inames and conditions; statements differ): what a spill search
    or an extent proof says of one holds for all (a region of hundreds of statements on a
    few arrays asks isl a few questions, not one per access)."""
    seen: set = set()
    out = []
    for acc in accesses:
        try:
            key = same_elements_key(acc)
            if key in seen:
                continue
            seen.add(key)
        except TypeError:   # an unhashable condition: keep the access
            pass
        out.append(acc)
    return out


def _keeping_inside(kernel: Kernel, acc: Access):
    """The convex parameter set keeping `acc` inside its address axes, or None."""
    shape, tags = layout(kernel, acc.variable)
    inside = instance_set(kernel.domains, acc.inames, acc.conditions,
                          assumptions=kernel.assumptions)
    out = None
    for axis in _address_axes(tags):
        ok = params_keeping_inside(inside, acc.index[axis], shape[axis], acc.inames)
        if ok is None:
            return None
        out = ok if out is None else intersect_params(out, ok)
    return out


def row_hint(kernel: Kernel, acc: Access) -> str | None:
    """Advice for a flat subscript that splits into rows whose range was not proved
    (`Access.row`): the assumption on the parameters that would prove it, where that is one
    convex condition (``n <= ld`` for ``a(j + ld*(k-1))`` over ``j = 1, n``), for the first
    row that one proves (`Access.rows`)."""
    if acc.row is None:
        return None
    text = IRStringifier()
    inside = instance_set(kernel.domains, acc.inames, acc.conditions,
                          assumptions=kernel.assumptions)
    first = None
    # a column that moves with the loops first: rows of N - 1 read an anti-diagonal's
    # ``(d - c)*N + c`` as one fixed column d + 1 of each row, which holds for few d
    tried = sorted(acc.rows or (acc.row,), key=lambda r: not dependencies(r[0]) & set(acc.inames))
    for index, length in tried:
        ok = params_keeping_inside(inside, index, length, acc.inames)
        conds = [] if ok is None else set_conditions(ok)
        lead = (f"  {acc.variable} is addressed by rows of {text(length)} elements, but "
                f"0 <= {text(index)} < {text(length)} is not proved (a row may reach into "
                "another)")
        first = first or lead
        if conds:
            wanted = " and ".join(text(readable_condition(c)) for c in conds)
            return f"{lead}; if {wanted} holds, say so with assume(\"{wanted}\") in the region"
    return first
