"""A source file's bytes, kept exactly: what the frontends parse, and how edits map back.

Compilers accept a UTF-8 byte order mark, CRLF line ends and bytes that are not UTF-8 (a
Latin-1 comment); the translator must too, and every byte outside the regions it replaces
must come out as it went in.  So a file is read as bytes and decoded losslessly (UTF-8 with
``surrogateescape``: an undecodable byte becomes a lone surrogate and is encoded back to the
same byte).  The frontends see `SourceBytes.text`: no byte order mark, ``\\r\\n`` as ``\\n``.
Their edits (character ranges of that text and the new text for each) are applied to the
original instead, with inserted lines ending the way the file's lines end.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable

from translator.records import dataclass

BOM = "\ufeff"
#: How text that may hold undecodable bytes (as surrogates) is encoded back to bytes.
ENCODING, ERRORS = "utf-8", "surrogateescape"

#: One rewrite step: replace text[start:end] (offsets into `SourceBytes.text`) by `new`.
Edit = tuple[int, int, str]


def encode(text: str) -> bytes:
    """The bytes of a text that came from `decode` (lossless for any input bytes)."""
    return text.encode(ENCODING, ERRORS)


def decode(data: bytes) -> str:
    """`data` as text, every byte kept (see the module docstring)."""
    return data.decode(ENCODING, ERRORS)


@dataclass(frozen=True)
class SourceBytes:
    """A source file decoded for the frontends, with what is needed to write it back."""

    #: The whole file, decoded losslessly (byte order mark and carriage returns kept).
    original: str
    #: What the frontends parse: no byte order mark, each CRLF as LF.
    text: str
    #: Offsets in `text` of each newline that is CRLF in the file, ascending.
    crlf: tuple[int, ...]

    @classmethod
    def from_bytes(cls, data: bytes) -> SourceBytes:
        original = decode(data)
        body = original[1:] if original.startswith(BOM) else original
        pieces = body.split("\r\n")
        crlf, pos = [], 0
        for piece in pieces[:-1]:
            pos += len(piece)
            crlf.append(pos)
            pos += 1
        return cls(original=original, text="\n".join(pieces), crlf=tuple(crlf))

    @classmethod
    def from_text(cls, text: str) -> SourceBytes:
        """A file given as text (as `decode` would give it; a str from elsewhere is fine)."""
        return cls.from_bytes(encode(text))

    @property
    def bom(self) -> bool:
        return self.original.startswith(BOM)

    @property
    def newline(self) -> str:
        """The line end for inserted lines: CRLF when most of the file's lines end so."""
        return "\r\n" if 2 * len(self.crlf) > self.text.count("\n") else "\n"

    def original_offset(self, pos: int) -> int:
        """The offset in `original` of offset `pos` of `text` (a CR stays with its LF)."""
        return pos + int(self.bom) + bisect.bisect_left(self.crlf, pos)

    def apply(self, edits: Iterable[Edit]) -> str:
        """`original` with `edits` (disjoint, offsets into `text`) applied; new lines end in
        `newline`.  Every character outside the edited ranges is kept."""
        out, pos = [], 0
        for start, end, new in sorted(edits, key=lambda e: (e[0], e[1])):
            a, b = self.original_offset(start), self.original_offset(end)
            out.append(self.original[pos:a])
            out.append(new.replace("\n", self.newline) if self.newline != "\n" else new)
            pos = max(pos, b)
        out.append(self.original[pos:])
        return "".join(out)


def line_number(text: str, offset: int) -> int:
    """The 1-based line of `offset` in `text`, counting LF as compilers do."""
    return text.count("\n", 0, offset) + 1
