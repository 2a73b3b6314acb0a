"""Source spans and the error tree.  Every user-facing problem is a `TranslatorError`.

Rendering follows gcc: ``file:line:col: error: message``, then the source line and a caret,
then notes.  The CLI catches `TranslatorError` (exit 1); anything else is a bug (exit 2).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable
from dataclasses import field

from translator.records import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class SourceSpan:
    """A region of a source file.  Lines and columns are 1-based; `end_*` are inclusive."""

    file: str
    line: int
    col: int = 1
    end_line: int | None = None
    end_col: int | None = None
    #: The text of the source line(s), for carets; not part of identity.
    source_line: str | None = field(default=None, compare=False, repr=False)
    #: For code of a procedure inlined into a region: (procedure, call site) pairs, the
    #: outermost call first; errors there add a note at each call.
    inlined_at: tuple[tuple[str, SourceSpan], ...] = field(default=(), compare=False,
                                                          repr=False)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def render_context(self) -> str:
        """The source line and a caret under the span's start (empty if no text is known)."""
        if self.source_line is None:
            return ""
        text = self.source_line.rstrip("\n")
        width = 1
        if self.end_line in (None, self.line) and self.end_col is not None:
            width = max(1, self.end_col - self.col + 1)
        caret = " " * (self.col - 1) + "^" + "~" * (width - 1)
        return f"{text}\n{caret}\n"


@dataclass(frozen=True, slots=True)
class Note:
    message: str
    span: SourceSpan | None = None


class TranslatorError(Exception):
    """Base of every error a user can cause.  Carries an optional span and notes."""

    kind = "error"

    def __init__(self, message: str, span: SourceSpan | None = None, *,
                 notes: tuple[Note, ...] = (), detail: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.notes = tuple(notes)
        self.detail = detail

    def with_span(self, span: SourceSpan | None) -> TranslatorError:
        """Attach `span` if this error has none yet; returns self."""
        if self.span is None and span is not None:
            self.span = span
        return self

    def render(self) -> str:
        out = [_render_one("error", self.message, self.span)]
        if self.detail:
            out.append(self.detail.rstrip("\n") + "\n")
        for note in self.notes:
            out.append(_render_one("note", note.message, note.span))
        for callee, site in reversed(self.span.inlined_at if self.span is not None else ()):
            out.append(_render_one("note", f"in {callee!r}, inlined at this call", site))
        return "".join(out)

    def __str__(self) -> str:
        where = f"{self.span}: " if self.span is not None else ""
        return where + self.message


def _render_one(level: str, message: str, span: SourceSpan | None) -> str:
    if span is None:
        return f"translate: {level}: {message}\n"
    return f"{span}: {level}: {message}\n{span.render_context()}"


class FrontendError(TranslatorError):
    """Bad source text: syntax errors, malformed pragmas, unsupported files."""


class UnsupportedConstructError(FrontendError):
    """A construct that cannot be offloaded (I/O, GOTO, ...), named in the message."""


def too_deep(span: SourceSpan | None) -> FrontendError:
    """A frontend's error for code nested deeper than its recursive walk can follow (the
    parsers have their own limits and messages)."""
    return FrontendError("code nested too deeply to translate", span)


class KernelLanguageError(TranslatorError):
    """A malformed kernel-language text: domain, instruction, attribute, expression."""


class DomainError(KernelLanguageError):
    """Malformed domain, ill-formed domain forest, non-affine bound, unknown iname."""


class TransformError(TranslatorError):
    """A transform called with a bad argument or on a kernel it cannot apply to."""


class LegalityError(TranslatorError):
    """A mapping or reordering that is proved illegal (with a witness) or cannot be proved."""


class SchedulingError(TranslatorError):
    """Dependency cycles, unschedulable kernels."""


class CodegenError(TranslatorError):
    """Something the OpenCL target cannot express."""


class TranslatorWarning(UserWarning):
    """A warning with an id (``-Wno-<id>`` silences it)."""

    def __init__(self, warning_id: str, message: str, span: SourceSpan | None = None) -> None:
        super().__init__(message)
        self.warning_id = warning_id
        self.message = message
        self.span = span

    def render(self) -> str:
        return _render_one("warning", f"{self.message} [-W{self.warning_id}]", self.span)


#: A name the frontends make up for a value the call computes (`readable_names`).
_MADE_UP = re.compile(r"\b_tr_\w+")


def readable_names(text: str, shown: dict[str, str]) -> str:
    """`text` with each name the frontend made up (``_tr_size_a_1``) as the source text it
    stands for (``size(a, 1)``), for messages and the report."""
    if not shown or "_tr_" not in text:
        return text
    return _MADE_UP.sub(lambda m: shown.get(m.group(0), m.group(0)), text)


def source_names(call_args: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """Of a region's call arguments, the made-up names with the source text passed for them
    (the `shown` of `readable_names`)."""
    return tuple((n, _scan_shown(text)) for n, text in call_args
                 if n.startswith("_tr_") and text != n)


#: A call of the runtime's scan of an index table (``tr_index_min_i32(col, count)``).
_SCAN = re.compile(r"tr_index_(min|max|least|most)_[iu]\d+\(")


def _scan_shown(text: str) -> str:
    """A scan of an index table as the message says it (``the smallest element of col``);
    any other text as it is."""
    found = _SCAN.match(text)
    if found is None:
        return text
    depth, at = 0, found.end()
    for k in range(at, len(text)):
        depth += {"(": 1, ")": -1, "[": 1, "]": -1}.get(text[k], 0)
        if text[k] == "," and depth == 0:
            which = "smallest" if found.group(1) in ("min", "least") else "largest"
            return f"the {which} element of {text[at:k].strip()}"
    return text


def with_readable_names(err: TranslatorError, shown: dict[str, str]) -> TranslatorError:
    """`err` (changed in place) with `readable_names` applied to its message, detail and
    notes."""
    err.message = readable_names(err.message, shown)
    err.args = (err.message,)
    err.detail = readable_names(err.detail, shown) if err.detail else err.detail
    err.notes = tuple(Note(readable_names(n.message, shown), n.span) for n in err.notes)
    return err


def readable_warning(w: warnings.WarningMessage, shown: dict[str, str]) -> Warning | str:
    """A caught warning's message, a `TranslatorWarning` with `readable_names` applied."""
    msg = w.message
    if isinstance(msg, TranslatorWarning):
        return TranslatorWarning(msg.warning_id, readable_names(msg.message, shown), msg.span)
    return msg


def warn(warning_id: str, message: str, span: SourceSpan | None = None) -> None:
    """Emit a `TranslatorWarning`; the driver collects and renders them."""
    warnings.warn(TranslatorWarning(warning_id, message, span), stacklevel=2)


def near_miss_sentinel(word: str) -> bool:
    """Whether `word`, written where the sentinel's ``translate`` goes on a line that is no
    directive (``!$tranlsate``, ``#pragma translat``, ``#pragma Translate``,
    ``!$translatekernel``), looks like a misspelling of it."""
    import difflib   # here: only a near miss or an error needs it (start-up time)
    low = word.lower()
    return (low.startswith("translate")
            or difflib.SequenceMatcher(None, low, "translate").ratio() >= 0.8)


def suggestion(name: str, candidates: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` when a candidate is close to `name`, else ``""``."""
    import difflib
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
