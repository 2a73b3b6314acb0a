"""Kernel data: array and value arguments, temporaries, array dim tags.

Arrays are 0-based in the IR; frontends shift declared lower bounds into subscripts.
"""

from __future__ import annotations

import re
from dataclasses import field, fields
from enum import Enum

import numpy as np
from pymbolic import parse
from pymbolic.primitives import Product

from translator.diagnostics import KernelLanguageError, SourceSpan
from translator.ir.expr import Expression, IRStringifier
from translator.records import dataclass


class AddressSpace(Enum):
    """Where a variable lives.  IMAGE is for array arguments only: a read-only OpenCL image
    (`transforms.arrays.change_arg_to_image`), printed as ``address_space=image``."""

    PRIVATE = "private"
    LOCAL = "local"
    GLOBAL = "global"
    IMAGE = "image"

    @classmethod
    def parse(cls, value: str | AddressSpace) -> AddressSpace:
        if isinstance(value, AddressSpace):
            return value
        try:
            return cls(value.lower())
        except ValueError:
            raise KernelLanguageError(f"unknown address space {value!r} (expected private, "
                                      "local or global; image for array arguments)") from None


# ---------------------------------------------------------------------------------------------
# dim tags (how an array axis is laid out in linear memory)

@dataclass(frozen=True, slots=True)
class DimTag:
    """Base of array-axis implementation tags."""

    optional: bool = False   # trailing '?': dropped left-first when there are too many tags


@dataclass(frozen=True, slots=True)
class NestingTag(DimTag):
    """``c``/``f``/``N0``..``N9``: stride computed from nesting level (higher = slower)."""

    level: int = 0


@dataclass(frozen=True, slots=True)
class FixedStrideTag(DimTag):
    """``stride:EXPR``."""

    stride: Expression = 1


@dataclass(frozen=True, slots=True)
class SeparateTag(DimTag):
    """``sep``: one buffer per entry of this axis."""


@dataclass(frozen=True, slots=True)
class VectorTag(DimTag):
    """``vec``: entries of an OpenCL vector type."""


def dim_tag_str(tag: DimTag) -> str:
    q = "?" if tag.optional else ""
    if isinstance(tag, NestingTag):
        return f"N{tag.level}{q}"
    if isinstance(tag, FixedStrideTag):
        return f"stride:{IRStringifier()(tag.stride)}{q}"
    if isinstance(tag, SeparateTag):
        return f"sep{q}"
    return f"vec{q}"


def parse_dim_tags(spec: str | tuple | None, ndim: int) -> tuple[DimTag, ...] | None:
    """Parse ``"c,vec,sep,c"`` (or ``"C"``/``"F"`` order) into concrete tags for `ndim` axes.

    ``c`` and ``f`` become explicit nesting levels (``N*``), so equal layouts compare equal.
    """
    if spec is None:
        return None
    if isinstance(spec, str) and spec.upper() in ("C", "F") and "," not in spec:
        spec = ",".join([spec.lower()] * ndim)
    raw = [s.strip() for s in spec.split(",")] if isinstance(spec, str) else list(spec)
    raw = _drop_optional(raw, ndim)
    return _resolve_nesting(raw)


def _drop_optional(raw: list, ndim: int) -> list:
    raw = list(raw)
    while len(raw) > ndim:
        for k, t in enumerate(raw):
            if isinstance(t, str) and t.endswith("?"):
                del raw[k]
                break
        else:
            raise KernelLanguageError(f"{len(raw)} dim tags given for {ndim} axes")
    if len(raw) < ndim:
        raise KernelLanguageError(f"{len(raw)} dim tags given for {ndim} axes")
    return [t.rstrip("?") if isinstance(t, str) else t for t in raw]


def _resolve_nesting(raw: list) -> tuple[DimTag, ...]:
    """Turn c/f/N tags into explicit nesting levels; c nests around what follows."""
    kinds: list[DimTag | str] = []
    for t in raw:
        if isinstance(t, DimTag):
            kinds.append(t)
        elif t in ("c", "f") or re.fullmatch(r"N\d", t):
            kinds.append(t)
        elif t.startswith("stride:"):
            kinds.append(FixedStrideTag(stride=parse(t[len("stride:"):])))
        elif t == "sep":
            kinds.append(SeparateTag())
        elif t == "vec":
            kinds.append(VectorTag())
        else:
            raise KernelLanguageError(f"unknown dim tag {t!r}")
    nest_idx = [k for k, t in enumerate(kinds) if isinstance(t, str)]
    explicit = {int(kinds[k][1]) for k in nest_idx if kinds[k].startswith("N")}
    # c/f axes: order them, c outermost-first, f innermost-first, filling unused levels.
    cf = [k for k in nest_idx if kinds[k] in ("c", "f")]
    if cf:
        f_axes = [k for k in cf if kinds[k] == "f"]
        c_axes = [k for k in cf if kinds[k] == "c"]
        # fastest first: f axes in order, then c axes from the last.
        fastest_first = f_axes + c_axes[::-1]
        free = [lv for lv in range(len(nest_idx) + 10) if lv not in explicit]
        for lv, k in zip(free, fastest_first):
            kinds[k] = f"N{lv}"
    return tuple(NestingTag(level=int(t[1])) if isinstance(t, str) else t for t in kinds)


# ---------------------------------------------------------------------------------------------
# arguments and temporaries

def _dtype(value) -> np.dtype | None:
    return None if value is None else np.dtype(value)


def _dtype_safe_eq(cls):
    """Equality and hash by fields, with dtypes compared exactly.

    numpy treats ``np.dtype("float64") == None`` as True, so the generated dataclass
    equality would call an untyped variable equal to a float64 one.
    """
    names = [f.name for f in fields(cls) if f.compare]

    def key(self):
        return tuple((getattr(self, n).str if n == "dtype" and getattr(self, n) is not None
                      else getattr(self, n)) for n in names)

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return key(self) == key(other)

    def __hash__(self):
        return hash(key(self))

    cls.__eq__ = __eq__
    cls.__hash__ = __hash__
    return cls


@_dtype_safe_eq
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class ValueArg:
    """A scalar passed by value (domain parameters, scalar inputs)."""

    name: str
    dtype: np.dtype | None = None
    span: SourceSpan | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "dtype", _dtype(self.dtype))


@_dtype_safe_eq
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class ArrayArg:
    """A global-memory array argument.

    `shape` entries are expressions in value arguments (None: unknown extent along that axis,
    allowed only for the slowest axis).  `dim_tags` default to C order.  `is_input` /
    `is_output` are None until inferred from the statements (reads / writes).
    `may_alias` lists other arguments this one may overlap (plain C pointers); the default is
    a disjoint buffer.
    """

    name: str
    dtype: np.dtype | None = None
    shape: tuple[Expression, ...] | None = None
    dim_tags: tuple[DimTag, ...] | None = None
    address_space: AddressSpace = AddressSpace.GLOBAL
    offset: Expression = 0
    is_input: bool | None = None
    is_output: bool | None = None
    may_alias: frozenset[str] = frozenset()
    span: SourceSpan | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "dtype", _dtype(self.dtype))
        if self.shape is not None and self.dim_tags is None:
            object.__setattr__(self, "dim_tags", parse_dim_tags("C", len(self.shape)))
        if (self.shape is not None and self.dim_tags is not None
                and len(self.dim_tags) != len(self.shape)):
            raise KernelLanguageError(
                f"array {self.name!r}: {len(self.dim_tags)} dim tags for "
                f"{len(self.shape)} axes", self.span)

    @property
    def ndim(self) -> int | None:
        return None if self.shape is None else len(self.shape)

    @property
    def is_image(self) -> bool:
        """Whether the argument is passed as a read-only OpenCL image."""
        return self.address_space is AddressSpace.IMAGE


@_dtype_safe_eq
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class TemporaryVariable:
    """A kernel-lifetime variable in private, local or global memory.  Scalars have shape ()."""

    name: str
    dtype: np.dtype | None = None
    shape: tuple[Expression, ...] = ()
    dim_tags: tuple[DimTag, ...] | None = None
    address_space: AddressSpace | None = None   # None: decided by codegen (private by default)
    base_storage: str | None = None              # alias_temporaries
    read_only: bool = False
    initializer: tuple | None = None             # flat values in C order, for constant tables
    span: SourceSpan | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "dtype", _dtype(self.dtype))
        if self.shape and self.dim_tags is None:
            object.__setattr__(self, "dim_tags", parse_dim_tags("C", len(self.shape)))
        if self.address_space is AddressSpace.IMAGE:
            raise KernelLanguageError(f"temporary {self.name!r}: only array arguments can be "
                                      "images", self.span)


KernelArgument = ValueArg | ArrayArg


def strides(shape: tuple[Expression, ...], dim_tags: tuple[DimTag, ...]) -> tuple[Expression, ...]:
    """Element strides per axis (sep/vec axes get stride 0)."""
    out: list[Expression] = [0] * len(shape)
    nested = sorted((t.level, k) for k, t in enumerate(dim_tags) if isinstance(t, NestingTag))
    running: Expression = 1
    for _, k in nested:
        out[k] = running
        extent = shape[k]
        if extent is None:
            running = None
        elif running is not None:
            running = extent if running == 1 else Product((running, extent))
    for k, t in enumerate(dim_tags):
        if isinstance(t, FixedStrideTag):
            out[k] = t.stride
    return tuple(out)


def storage_span(var: ArrayArg | TemporaryVariable) -> int | None:
    """Elements the storage of `var` spans (one past its last element: the product of the
    extents, or more with padded fixed strides); None unless shape and strides are integers."""
    if var.shape is None or not all(isinstance(e, int) for e in var.shape):
        return None
    tags = var.dim_tags or parse_dim_tags("C", len(var.shape))
    steps = strides(var.shape, tags)
    if not all(isinstance(s, int) for s in steps):
        return None
    if any(e == 0 for e in var.shape):
        return 0
    return 1 + sum((e - 1) * s for e, s in zip(var.shape, steps))
