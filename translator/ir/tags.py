"""Iname implementation tags (the reference's tag table) and their string forms.

``parse_tag(str(tag)) == tag`` for every tag.  ``like.INAME`` and ``unused.g``/``unused.l``
are resolved by `transforms.tag_inames` and never stored on a kernel.
"""

from __future__ import annotations

import re

from translator.diagnostics import KernelLanguageError
from translator.records import dataclass


@dataclass(frozen=True, slots=True)
class InameTag:
    """Base class.  Subclasses know their string form."""

    def __str__(self) -> str:  # pragma: no cover - every subclass overrides
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class HardwareAxisTag(InameTag):
    axis: int


@dataclass(frozen=True, slots=True)
class LocalTag(HardwareAxisTag):
    """``l.N``: local (intra-group) axis N."""

    def __str__(self) -> str:
        return f"l.{self.axis}"


@dataclass(frozen=True, slots=True)
class GroupTag(HardwareAxisTag):
    """``g.N``: group-number axis N."""

    def __str__(self) -> str:
        return f"g.{self.axis}"


@dataclass(frozen=True, slots=True)
class LocalAutoTag(InameTag):
    """``l.auto``: a local axis chosen (and split to fit) at code generation."""

    def __str__(self) -> str:
        return "l.auto"


@dataclass(frozen=True, slots=True)
class ForceSequentialTag(InameTag):
    """``ord``: forced-order sequential loop."""

    def __str__(self) -> str:
        return "ord"


@dataclass(frozen=True, slots=True)
class UnrollTag(InameTag):
    """``unr``: fully unrolled loop (constant trip count)."""

    def __str__(self) -> str:
        return "unr"


@dataclass(frozen=True, slots=True)
class IlpUnrollTag(InameTag):
    """``ilp`` / ``ilp.unr``: instruction-level parallelism, unrolled."""

    def __str__(self) -> str:
        return "ilp.unr"


@dataclass(frozen=True, slots=True)
class IlpSeqTag(InameTag):
    """``ilp.seq``: instruction-level parallelism realised as an innermost loop."""

    def __str__(self) -> str:
        return "ilp.seq"


@dataclass(frozen=True, slots=True)
class VectorizeTag(InameTag):
    """``vec``: vector lanes (falls back to unrolling where vectors do not fit)."""

    def __str__(self) -> str:
        return "vec"


_SIMPLE = {
    "ord": ForceSequentialTag(), "unr": UnrollTag(), "ilp": IlpUnrollTag(),
    "ilp.unr": IlpUnrollTag(), "ilp.seq": IlpSeqTag(), "vec": VectorizeTag(),
    "l.auto": LocalAutoTag(),
}
_AXIS = re.compile(r"^(l|g)\.(\d)$")


def parse_tag(tag: str | InameTag | None) -> InameTag | None:
    """Parse a tag string of the table; ``None``/``"for"`` mean 'no tag' (sequential loop)."""
    if tag is None or isinstance(tag, InameTag):
        return tag
    text = tag.strip()
    if text in ("", "for", "None"):
        return None
    if text in _SIMPLE:
        return _SIMPLE[text]
    m = _AXIS.match(text)
    if m:
        cls = LocalTag if m.group(1) == "l" else GroupTag
        return cls(int(m.group(2)))
    raise KernelLanguageError(
        f"unknown iname tag {tag!r} (expected one of: for, ord, l.N, g.N, l.auto, unr, ilp, "
        "ilp.unr, ilp.seq, vec, like.INAME, unused.g, unused.l)")


def is_hardware_parallel(tag: InameTag | None) -> bool:
    return isinstance(tag, (HardwareAxisTag, LocalAutoTag))


def is_unrolled(tag: InameTag | None) -> bool:
    return isinstance(tag, (UnrollTag, IlpUnrollTag, VectorizeTag))
