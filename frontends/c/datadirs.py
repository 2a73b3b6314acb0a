"""C data directives (``#pragma translate data`` ... ``end data``, ``enter data``, ``exit
data``, ``update``): clause items checked against the declarations visible at the directive
and turned into `DataSite`s for the rewrite.

An item is an array name (a declared array of known size: the whole array) or a name with
sections ``u[start:length]`` (OpenACC's form), one per dimension from the first; pointers need
one.  Each item becomes four arguments of the directive's glue: the address, the first element,
the element count and the element size.  Several sections add, per dimension, the length and
the array's extent: the runtime moves exactly the section's elements (rectangular copies).
"""

from __future__ import annotations

import re

from pycparser import c_ast

from frontends.c.preprocess import SourceText
from frontends.c.regions import RawDirective
from frontends.c.skim import function_definitions
from frontends.pragmas import DataItem, DataSite, Directive, data_glue
from translator.diagnostics import FrontendError, SourceSpan, warn


def data_sites(src: SourceText,
               found: list[tuple[RawDirective, Directive, c_ast.FuncDef, dict]]
               ) -> tuple[DataSite, ...]:
    """One `DataSite` per directive, in source order."""
    return tuple(_site(src, raw, d, func, visible) for raw, d, func, visible in found)


def _site(src: SourceText, raw: RawDirective, d: Directive, func: c_ast.FuncDef,
          visible: dict) -> DataSite:
    glue, args = data_glue(src.path, d, raw.span, raw.line,
                           lambda item: _item_args(item, visible, raw.span))
    return DataSite(glue=glue, start=raw.start, end=raw.end, indent=raw.indent, args=args,
                    procedure=func.decl.name, span=raw.span, line=raw.line)


def _levels(decl: c_ast.Decl, storage: str) -> tuple[int, bool]:
    """(number of array/pointer levels, whether the outermost has a known size)."""
    node, levels, sized = decl.type, 0, False
    while isinstance(node, (c_ast.ArrayDecl, c_ast.PtrDecl)):
        if levels == 0:
            sized = (isinstance(node, c_ast.ArrayDecl) and node.dim is not None
                     and storage != "param")
        levels += 1
        node = node.type
    return levels, sized


def _item_args(item: DataItem, visible: dict, span: SourceSpan) -> list[str]:
    if item.name not in visible:
        raise FrontendError(f"unknown array '{item.name}' in a data clause (no declaration "
                            "visible here)", span)
    storage, decl = visible[item.name]
    levels, sized = _levels(decl, storage)
    if levels == 0:
        raise FrontendError(f"'{item.name}' in a data clause is not an array or a pointer",
                            span)
    if not item.section:
        if not sized:
            raise FrontendError(f"'{item.name}' has no known extent here: give a section "
                                f"{item.name}[start:length]", span)
        return [item.name, "0", f"sizeof({item.name})", "1"]
    sections = _sections(item, span)
    if len(sections) > levels:
        raise FrontendError(f"section {item.name}{item.section} has {len(sections)} "
                            f"dimensions but '{item.name}' has {levels}", span)
    return _section_args(item.name, sections)


def _sections(item: DataItem, span: SourceSpan) -> list[tuple[str, str]]:
    """(start, length) per ``[start:length]``."""
    out, text = [], item.section
    while text:
        m = re.match(r"\[", text)
        end = _closing(text) if m else -1
        if end < 0:
            raise FrontendError(f"malformed section {item.name}{item.section}: expected "
                                f"{item.name}[start:length]", span)
        inner = text[1:end]
        parts = _split_colon(inner)
        if len(parts) != 2:
            raise FrontendError(f"malformed section {item.name}{item.section}: expected "
                                "[start:length] (OpenACC form)", span)
        start, length = parts[0].strip() or "0", parts[1].strip()
        if not length:
            raise FrontendError(f"section {item.name}{item.section} has no length: the extent "
                                f"of '{item.name}' is unknown here, write [start:length]", span)
        out.append((start, length))
        text = text[end + 1:].strip()
    return out


def _closing(text: str) -> int:
    depth = 0
    for k, ch in enumerate(text):
        depth += 1 if ch in "([" else (-1 if ch in ")]" else 0)
        if depth == 0:
            return k
    return -1


def _split_colon(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(text):
        depth += 1 if ch in "([" else (-1 if ch in ")]" else 0)
        if ch == ":" and depth == 0 and not text[k - 1:k] == "?":
            parts.append(text[start:k])
            start = k + 1
    return parts + [text[start:]]


def _section_args(name: str, sections: list[tuple[str, str]]) -> list[str]:
    """Address, first element, count, element size (elements of the innermost section); with
    several sections, per dimension from the last (fastest varying) the section's length and
    the array's extent: the runtime moves exactly the section's elements."""
    k = len(sections)
    if k == 1:
        start, length = sections[0]
        return [name, f"({start})", f"({length})", f"sizeof({name}[0])"]
    elem = f"sizeof({name}{'[0]' * k})"
    strides = [f"(sizeof({name}{'[0]' * (d + 1)}) / {elem})" for d in range(k - 1)] + ["1"]
    first = " + ".join(f"({s})*{st}" for (s, _), st in zip(sections, strides))
    last = " + ".join(f"(({s}) + ({n}) - 1)*{st}" for (s, n), st in zip(sections, strides))
    return [name, f"({first})", f"({last}) - ({first}) + 1", elem, *_box(name, sections)]


def _box(name: str, sections: list[tuple[str, str]]) -> list[str]:
    """(length, extent) per dimension, fastest varying first; the outermost extent is never
    used (and unknown for a pointer): its length stands for it."""
    k, out = len(sections), []
    for d in range(k - 1, -1, -1):
        length = sections[d][1]
        extent = (f"(long long)(sizeof({name}{'[0]' * d}) / sizeof({name}{'[0]' * (d + 1)}))"
                  if d > 0 else f"({length})")
        out += [f"({length})", extent]
    return out


def stale_warnings(src: SourceText,
                   found: list[tuple[RawDirective, Directive, c_ast.FuncDef, dict]],
                   regions: list) -> None:
    """``-Wstale-host-access`` warnings for the data regions of the file (see
    `frontends.stale`), following calls into the functions the file defines."""
    if not found:
        return
    # here: the scan (with isl's section checks) loads only for a file with data directives
    from frontends.stale import (Dialect, c_calls, c_continues, c_joined, c_passed, c_writes,
                                 callee, data_region_scans, join_statements, scan, strip_c)
    stripped = strip_c(src.text).split("\n")
    code = {k: text for k, text in enumerate(stripped, start=1)
            if text.strip() and not text.lstrip().startswith("#")}
    code = join_statements(code, c_continues, c_joined)
    spans = [(src.text.count("\n", 0, r.start) + 1, src.text.count("\n", 0, r.end), r.name)
             for r in regions]
    directives = [(raw.line, d) for raw, d, _, _ in found]
    dialect = Dialect(c_writes, lambda name: name, "#pragma translate", c_calls, c_passed)
    callees = {name: callee(name, params, code, directives, spans, lambda n: n, first + 1, last)
               for name, params, first, last in function_definitions(src.text)}
    for region in data_region_scans(code, directives, spans, lambda name: name):
        for access in scan(region, dialect, callees):
            text = src.line_text(access.line) or ""
            m = re.search(rf"\b{re.escape(access.name)}\b", text)
            warn("stale-host-access", access.message,
                 src.span(access.line, m.start() + 1 if m else 1))
