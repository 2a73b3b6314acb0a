"""The rewritten C source: the original text with each region replaced by a call into its glue
function, and the glue functions' prototypes inserted at file scope.

Every other byte (includes, macros, comments, conditional blocks) is copied unchanged.
"""

from __future__ import annotations

import numpy as np
from pycparser import c_ast

from frontends.base import GlueParam, GlueSignature, ParsedFile, Region
from frontends.c.preprocess import SourceText
from frontends.c.typemodel import BASE_TYPES
from frontends.directives.claims import single_wrapper
from frontends.macros import guard_edit
from translator.diagnostics import FrontendError

_C_TYPES = {
    "float32": "float", "float64": "double", "int8": "signed char", "uint8": "unsigned char",
    "int16": "short", "uint16": "unsigned short", "int32": "int", "uint32": "unsigned int",
    "int64": "long long", "uint64": "unsigned long long", "bool": "_Bool",
}
_SPECIFIER_WORDS = frozenset({"static", "inline", "extern", "__inline", "__inline__"})


def c_type(dtype: np.dtype) -> str:
    """The C type of a glue parameter's numpy dtype."""
    name = np.dtype(dtype).name
    if name not in _C_TYPES:
        raise FrontendError(f"no C type for a glue parameter of type {name}")
    return _C_TYPES[name]


def prototype(sig: GlueSignature, spelled: dict[str, str] | None = None) -> str:
    """``void translate_<name>(<params>);`` for one region; `spelled` gives the source's own
    element type names (``long`` rather than ``long long``), so pointers match exactly."""
    params = ", ".join(_param(prm, (spelled or {}).get(prm.name)) for prm in sig.params)
    return f"void {sig.symbol}({params or 'void'});\n"


def _param(prm: GlueParam, spelled: str | None = None) -> str:
    ctype = spelled if spelled and _same_width(spelled, prm.dtype) else c_type(prm.dtype)
    if prm.kind == "array":
        const = "" if prm.is_output else "const "
        return f"{const}{ctype} *{prm.name}"
    return f"{ctype} {prm.name}"


def _same_width(spelled: str, dtype: np.dtype) -> bool:
    """A spelling is used only where it names the glue's type: a typedef (the frontend resolved
    it to this dtype), or a builtin type whose dtype is the glue's."""
    key = tuple(spelled.split())
    if key not in BASE_TYPES:
        return True
    return np.dtype(BASE_TYPES[key]) == np.dtype(dtype)


def call(region: Region, sig: GlueSignature) -> str:
    """The statement that replaces a region: its glue function called with the region's
    arguments, in the glue's parameter order."""
    passed = dict(region.call_args)
    args = ", ".join(passed.get(prm.name, prm.name) for prm in sig.params)
    after = "".join(f"{region.indent}{stmt}\n" for stmt in region.after_call)
    text = f"{region.indent}{sig.symbol}({args});\n{after}"
    single = single_wrapper(region.claims, region.span.line)
    if not single:
        return text
    inner = "".join(f"  {line}\n" for line in text.splitlines())
    return f"{region.indent}#pragma omp {single}\n{region.indent}{{\n{inner}{region.indent}}}\n"


def rewrite_edits(text: str, regions: tuple[Region, ...], glue: dict[str, GlueSignature],
                  prototype_offset: int, extra: tuple[tuple[int, int, str], ...] = ()
                  ) -> list[tuple[int, int, str]]:
    """The edits that make the rewritten source: (start, end, new text) on `text`, in order
    (the prototypes at `prototype_offset`, each region replaced by its call, and the `extra`
    edits: data directives)."""
    if not regions and not extra:
        return []
    missing = [r.name for r in regions if r.name not in glue]
    if missing:
        raise FrontendError(f"no glue signature for region(s) {', '.join(missing)}")
    needed = sorted({d for r in regions for d in r.declarations})
    protos = "".join(f"{d}\n" for d in needed)
    protos += "".join(prototype(glue[r.name], dict(r.param_types)) for r in regions)
    edits = [(prototype_offset, prototype_offset, protos)]
    edits += [(r.start, r.end, call(r, glue[r.name])) for r in regions]
    edits += list(extra)
    return sorted(edits, key=lambda e: (e[0], e[1]))


def apply_edits(text: str, edits: list[tuple[int, int, str]]) -> str:
    """`text` with sorted, disjoint `edits` applied."""
    out, pos = [], 0
    for start, end, new in edits:
        out.append(text[pos:start])
        out.append(new)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def definition_offset(src: SourceText, func: c_ast.FuncDef) -> int:
    """Offset of the start of the line where a function definition begins (its return type,
    or a line of storage-class words such as ``static inline`` just above it)."""
    line = _first_line(func.decl)
    while line > 1:
        words = (src.line_text(line - 1) or "").split()
        if not words or not set(words) <= _SPECIFIER_WORDS:
            break
        line -= 1
    return src.line_offset(line)


def _first_line(node: c_ast.Node) -> int:
    line = node.coord.line if node.coord is not None else 1 << 30
    for name, child in node.children():
        if name == "args":
            continue
        line = min(line, _first_line(child))
    return line


def rewrite(parsed: ParsedFile, glue: dict[str, GlueSignature]) -> str:
    """`Frontend.rewrite` for C files (`parsed` comes from `frontends.c` parse)."""
    return apply_edits(parsed.text, edits(parsed, glue))


def edits(parsed: ParsedFile, glue: dict[str, GlueSignature]) -> list[tuple[int, int, str]]:
    """`Frontend.rewrite_edits` for C files: what `rewrite` splices in, as edits."""
    offset = getattr(parsed, "prototype_offset", 0)
    found = rewrite_edits(parsed.text, parsed.regions, glue, offset,
                          data_edits(getattr(parsed, "data_sites", ()), offset))
    if found:
        found += guard_edit(parsed.text, getattr(parsed, "macro_guard", ""))
    return found


def data_edits(sites, prototype_offset: int) -> tuple[tuple[int, int, str], ...]:
    """Each data directive replaced by a call of its glue, and the glue's prototypes."""
    if not sites:
        return ()
    protos = "".join(_data_prototype(site.glue) for site in sites)
    calls = [(site.start, site.end, f"{site.indent}{site.glue.symbol}({', '.join(site.args)});\n")
             for site in sites]
    return ((prototype_offset, prototype_offset, protos), *calls)


def _data_prototype(glue) -> str:
    """The glue of a data directive: per array, its address, first element, element count and
    element size (`translator.ir.glue.DataGlue`)."""
    params = ", ".join("const void *, long long, long long, long long"
                       + ", long long, long long" * item.box for item in glue.items)
    return f"void {glue.symbol}({params or 'void'});\n"


def generation_definition(symbol: str) -> str:
    """The definition of `symbol`, the generation stamp that the host glue refers to
    (``translator.codegen.generation``): put at the top of the file, it makes a rewritten
    source and a glue of different runs fail to link."""
    return ("/* Generation stamp of this translation: the host glue refers to the symbol below;"
            "\n   a link error naming it means the outputs come from different runs of "
            f"translate: rerun it. */\nextern const char {symbol};\n"
            f"const char {symbol} = 0;\n")
