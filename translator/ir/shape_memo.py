"""Answers of whole-kernel passes remembered up to the kernel's name and source spans.

A file of many regions often holds the same loop many times over: a halo update per field, the
same kernel in every procedure of a family.  Their kernels differ in the kernel name and in the
source spans of their statements, arguments and temporaries, nothing else; the automatic
mapper (`translator.automap.auto_map`) and code generation (`translator.codegen.opencl.
generate_code`) answer each from scratch.  `KernelMemo` keeps one answer per kernel *shape*:

- the key (`shape_key`) holds every field of the kernel but its name and the spans, each
  expression by `typed_key` (so ``i + 1`` and ``i + 1.0`` are apart, as ``1`` and ``True``),
  dtypes by their text, isl sets by their text, arrays by their bytes, and the *span pattern*:
  which slots (`span_slots`: the kernel, each statement, argument, temporary and rule) hold no
  span, and which hold one span object shared with an earlier slot;
- an answer that holds spans holds those of the kernel it was computed for; a later asker gets
  them replaced slot by slot with its own (`respan`), and its own name.  An answer holding a
  span that is not one of its kernel's slots is not remembered (`spans_within`).

A pass is remembered only where its answer depends on the name and the spans in the ways the
caller puts back (the caller's docstring says why); never an answer that warned or failed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import islpy as isl
import numpy as np
import pymbolic.primitives as p

from translator.diagnostics import SourceSpan
from translator.ir.expr import typed_key
from translator.ir.kernel import Kernel
from translator.ir.util import FrozenDict

#: How many shapes a `KernelMemo` holds before it starts again (each holds its kernels alive).
MEMO_LIMIT = 512


def span_slots(kernel: Kernel) -> list[SourceSpan | None]:
    """The spans of `kernel` in a fixed order: the kernel's, each statement's, each
    argument's, each temporary's and each substitution rule's (the last two by name)."""
    slots = [kernel.span]
    slots += [s.span for s in kernel.statements]
    slots += [a.span for a in kernel.args]
    for table in (kernel.temporaries, kernel.substitutions):
        if table:
            slots += [table[n].span for n in sorted(table)]
    return slots


def span_pattern(slots: Sequence[SourceSpan | None]) -> tuple[int, ...]:
    """Per slot: -1 where it holds no span, else the first slot holding the same object."""
    first: dict[int, int] = {}
    return tuple(-1 if s is None else first.setdefault(id(s), k) for k, s in enumerate(slots))


def shape_key(kernel: Kernel, *extra: Hashable) -> tuple | None:
    """The key of `kernel` up to its name and spans (see the module docstring), with `extra`
    (what else the answer depends on); None where some part has no exact key."""
    for held, key in _RECENT:
        if held is kernel:
            return None if key is None else (*key, extra)
    try:
        key = (_deep_key(kernel), span_pattern(span_slots(kernel)))
    except TypeError:
        key = None
    _RECENT.insert(0, (kernel, key))
    del _RECENT[4:]
    return None if key is None else (*key, extra)


#: The last kernels keyed (held, so compared by identity) and their keys but `extra`: the
#: bound analysis and the automatic mapper ask for one kernel in turn.
_RECENT: list[tuple[Kernel, tuple | None]] = []


def _deep_key(obj: Any) -> Hashable:
    """An exact, hashable key of `obj`: equal keys mean equal fields, node for node and type
    for type; `span` fields and a kernel's name are left out.  TypeError where a part has
    no exact key."""
    keyer = _KEYERS.get(type(obj))
    if keyer is None:
        keyer = _KEYERS[type(obj)] = _keyer(type(obj))
    return keyer(obj)


def _keyer(cls: type) -> Callable[[Any], Hashable]:
    """`_deep_key` for the objects of class `cls` (chosen once per class)."""
    if cls in (str, type(None)):
        return lambda obj: obj
    if cls in (int, bool):
        return lambda obj: (cls, obj)
    if issubclass(cls, (p.ExpressionNode, float, complex, np.generic)):
        return typed_key
    if issubclass(cls, (tuple, list)):
        return lambda obj: (tuple, *map(_deep_key, obj))
    if issubclass(cls, (frozenset, set)):
        return lambda obj: (frozenset, frozenset(map(_deep_key, obj)))
    if issubclass(cls, (FrozenDict, dict)):
        return lambda obj: (dict, *((_deep_key(k), _deep_key(v)) for k, v in obj.items()))
    if issubclass(cls, np.dtype):
        return lambda obj: (np.dtype, obj.str)
    if issubclass(cls, np.ndarray):
        return lambda obj: (np.ndarray, obj.dtype.str, obj.shape, obj.tobytes())
    if issubclass(cls, (isl.BasicSet, isl.Set, isl.BasicMap, isl.Map)):
        return lambda obj: (cls, str(obj))
    if dataclasses.is_dataclass(cls):
        skip = ("span", "name") if issubclass(cls, Kernel) else ("span",)
        names = tuple(f.name for f in dataclasses.fields(cls) if f.name not in skip)
        return lambda obj: (cls, *(_deep_key(getattr(obj, n)) for n in names))
    return _hashed


def _hashed(obj: Any) -> Hashable:
    hash(obj)   # TypeError: no exact key
    return (type(obj), obj)


#: `_deep_key` per class (`_keyer`).
_KEYERS: dict[type, Callable[[Any], Hashable]] = {}


def spans_within(answer: Kernel, slots: Sequence[SourceSpan | None]) -> bool:
    """Whether every span `answer` holds is None or one of `slots` (so `respan` can put
    another kernel's spans in its place)."""
    known = {id(s) for s in slots if s is not None}
    return all(s is None or id(s) in known for s in span_slots(answer))


def respan(answer: Kernel, source: Sequence[SourceSpan | None],
           target: Sequence[SourceSpan | None], name: str) -> Kernel:
    """`answer`, computed for a kernel whose slots were `source`, for the kernel of the same
    shape whose slots are `target` and whose name is `name`: each span of a source slot
    replaced by the target slot's."""
    moved = {id(s): t for s, t in zip(source, target) if s is not None and s is not t}
    if not moved:
        return answer if answer.name == name else answer.copy(name=name)

    def span(held: SourceSpan | None) -> SourceSpan | None:
        return held if held is None else moved.get(id(held), held)

    def fix(item: Any) -> Any:
        new = span(item.span)
        return item if new is item.span else dataclasses.replace(item, span=new)

    return answer.copy(
        name=name, span=span(answer.span),
        statements=tuple(fix(s) for s in answer.statements),
        args=tuple(fix(a) for a in answer.args),
        temporaries=FrozenDict((n, fix(t)) for n, t in answer.temporaries.items()),
        substitutions=FrozenDict((n, fix(r)) for n, r in answer.substitutions.items()))


class KernelMemo:
    """Answers by `shape_key`, at most `MEMO_LIMIT` of them (then it starts again).

    The key walks the whole kernel, which costs where no kernel of the shape comes again
    (each loop of a file on its own arrays): a kernel is keyed only once another kernel
    with the same statement ids and names of arguments, temporaries and rules (`_brief`)
    has come; until then its answer waits unkeyed."""

    def __init__(self) -> None:
        self._held: dict[tuple, Any] = {}
        self._waiting: dict[tuple, list[tuple[Kernel, Any]]] = {}
        self._met: set[tuple] = set()
        self._last: tuple[Kernel | None, tuple] = (None, ())

    def _brief(self, kernel: Kernel, extra: tuple) -> tuple:
        """`_brief` of `kernel` with `extra` (that of the last kernel asked held)."""
        last = self._last   # read once: another thread may replace it meanwhile
        if last[0] is not kernel or last[1][1] != extra:
            last = self._last = (kernel, (_brief(kernel), extra))
        return last[1]

    def find(self, kernel: Kernel, *extra: Hashable) -> Any:
        """The answer kept for `kernel`'s shape under `extra`, or None."""
        brief = self._brief(kernel, extra)
        if brief not in self._met:
            if brief not in self._waiting:
                return None
            self._met.add(brief)
            for held, answer in self._waiting.pop(brief, ()):
                self._put(shape_key(held, *extra), answer)
        key = shape_key(kernel, *extra)
        return None if key is None else self._held.get(key)

    def keep(self, kernel: Kernel, answer: Any, *extra: Hashable) -> None:
        """Keep `answer` for `kernel`'s shape under `extra`."""
        brief = self._brief(kernel, extra)
        if brief in self._met:
            self._put(shape_key(kernel, *extra), answer)
        else:
            self._waiting.setdefault(brief, []).append((kernel, answer))
            if len(self._waiting) >= MEMO_LIMIT:
                self._waiting.clear()

    def _put(self, key: tuple | None, answer: Any) -> None:
        if key is None:
            return
        if len(self._held) >= MEMO_LIMIT:
            self._held.clear()
            self._met.clear()
        self._held[key] = answer

    def clear(self) -> None:
        self._held.clear()
        self._waiting.clear()
        self._met.clear()
        self._last = (None, ())


def _brief(kernel: Kernel) -> tuple:
    """What kernels of one shape share and costs little to read: statement ids and the names
    of arguments, temporaries and rules (`KernelMemo`)."""
    return (tuple(s.id for s in kernel.statements), tuple(a.name for a in kernel.args),
            tuple(kernel.temporaries), tuple(kernel.substitutions))
