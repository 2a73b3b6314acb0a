"""Language-independent parsing of ``translate`` directives (after the sentinel is removed).

Directive forms:
  ``kernel [NAME]``, ``end kernel``, ``NAME(arg, ..., key=value)`` (a transform call),
  and statement-level forms handled by frontends.  Arguments are Python literals only; nothing
  from a source file is ever executed (`ast.literal_eval` on each argument node).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from translator.diagnostics import FrontendError, SourceSpan


@dataclass(frozen=True, slots=True)
class Directive:
    """A parsed directive.  kind: "kernel", "end_kernel" or "call"."""

    kind: str
    name: str | None
    args: tuple[Any, ...] = ()
    kwargs: tuple[tuple[str, Any], ...] = ()
    span: SourceSpan | None = None


def parse_directive(text: str, span: SourceSpan) -> Directive:
    """Parse the text after the sentinel.  Errors carry `span` (pointing at the text)."""
    body = text.strip()
    words = body.split()
    if not words:
        raise FrontendError("empty translate directive", span)
    low = [w.lower() for w in words]
    if low[0] == "kernel":
        if len(words) > 2 or (len(words) == 2 and not words[1].isidentifier()):
            raise FrontendError(f"malformed kernel directive {body!r}: expected "
                                "'kernel [NAME]'", span)
        return Directive("kernel", words[1] if len(words) == 2 else None, span=span)
    if low[:2] == ["end", "kernel"] or low[0] == "endkernel":
        if len(words) > (1 if low[0] == "endkernel" else 2):
            raise FrontendError(f"malformed end directive {body!r}", span)
        return Directive("end_kernel", None, span=span)
    return _parse_call(body, span)


def _parse_call(body: str, span: SourceSpan) -> Directive:
    try:
        tree = ast.parse(body, mode="eval")
    except SyntaxError as e:
        raise FrontendError(f"malformed translate directive {body!r}: {e.msg}", span) from None
    call = tree.body
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
        raise FrontendError(f"unknown translate directive {body!r} (expected 'kernel NAME', "
                            "'end kernel' or a transform call 'NAME(...)')", span)
    args = tuple(_literal(a, body, span) for a in call.args)
    kwargs = []
    for kw in call.keywords:
        if kw.arg is None:
            raise FrontendError("'**' is not allowed in a translate directive", span)
        kwargs.append((kw.arg, _literal(kw.value, body, span)))
    return Directive("call", call.func.id, args, tuple(kwargs), span)


def _literal(node: ast.AST, body: str, span: SourceSpan) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        text = ast.get_source_segment(body, node) or "?"
        raise FrontendError(f"argument {text!r} is not a Python literal (strings, numbers, "
                            "tuples, lists, dicts, True/False/None)", span) from None
