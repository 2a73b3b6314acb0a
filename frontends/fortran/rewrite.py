"""The rewritten source: each region replaced by a call, the glue's interface declared.

Every byte outside the replaced regions and the inserted interface blocks is unchanged.  The
interface block goes after the last declaration of the procedure that holds the regions.
Fixed form: statements start in column 7, continuation lines have ``&`` in column 6, and no
line goes past column 72.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from frontends.base import GlueSignature, ParsedFile, Region
from frontends.fortran.packing import Packing, packed_call
from frontends.fortran.source import SourceLines
from frontends.macros import guard_edit
from translator.diagnostics import TranslatorError

FREE_WIDTH = 100
FIXED_WIDTH = 72

_C_KINDS = {
    "float32": "real(c_float)", "float64": "real(c_double)", "int8": "integer(c_int8_t)",
    "int16": "integer(c_int16_t)", "int32": "integer(c_int)", "int64": "integer(c_int64_t)",
    "complex64": "complex(c_float_complex)", "complex128": "complex(c_double_complex)",
}


def rewrite_source(parsed: ParsedFile, glue: dict[str, GlueSignature]) -> str:
    """The original text with regions replaced and interfaces inserted."""
    out, pos = [], 0
    for start, end, text in rewrite_edits(parsed, glue):
        out += [parsed.text[pos:start], text]
        pos = end
    out.append(parsed.text[pos:])
    return "".join(out)


def rewrite_edits(parsed: ParsedFile, glue: dict[str, GlueSignature]
                  ) -> list[tuple[int, int, str]]:
    """The edits of `rewrite_source`: (start, end, new text) on the parsed text, in order."""
    lines = SourceLines(parsed.path, parsed.text)
    form = getattr(parsed, "form", "free")
    edits: list[tuple[int, int, str]] = []
    by_insert: dict[int, list[Region]] = {}
    regions = {region.name: region for region in parsed.regions}
    for region in parsed.regions:
        sig = glue.get(region.name)
        if sig is None:
            raise TranslatorError(f"no glue signature for region {region.name!r}", region.span)
        if not getattr(region, "companion_of", ""):   # a companion's call is in its region's
            edits.append((region.start, region.end, call_text(region, sig, form,
                                                              _companions(region, regions, glue))))
        by_insert.setdefault(getattr(region, "decl_line", 0), []).append(region)
    for line, regions in sorted(by_insert.items()):
        at = lines.line_end(line)
        indent = _body_indent(lines, line, form)
        text = interface_block([(r, glue[r.name]) for r in regions], indent, form)
        if at == len(parsed.text) and parsed.text and not parsed.text.endswith("\n"):
            text = "\n" + text
        edits.append((at, at, text))
    edits += data_edits(parsed, lines, form)
    if edits:
        edits += guard_edit(parsed.text, getattr(parsed, "macro_guard", ""))
    return sorted(edits, key=lambda e: (e[0], e[1]))


def _body_indent(lines: SourceLines, line: int, form: str) -> str:
    if form == "fixed":
        return " " * 6
    text = lines.line(line)
    return text[:len(text) - len(text.lstrip())]


def _companions(region: Region, regions: dict[str, Region], glue: dict[str, GlueSignature]
                ) -> list[tuple[tuple[bool, ...], Region, GlueSignature]]:
    """The regions built where optional arguments that `region` tests are absent, with
    whether each is present."""
    return [(pattern, regions[name], glue[name])
            for pattern, name in getattr(region, "companions", ())]


def _call(region: Region, sig: GlueSignature, indent: str, form: str) -> str:
    actual = dict(region.call_args)
    args = [actual.get(prm.name, prm.name) for prm in sig.params]
    return wrap(f"call {fortran_name(sig.symbol)}(", args, ")", indent, form)


def call_text(region: Region, sig: GlueSignature, form: str,
              companions: Sequence[tuple[tuple[bool, ...], Region, GlueSignature]] = ()
              ) -> str:
    """``call <symbol>(<actual arguments>)`` at the region's indentation; for a region that
    tests optional arguments, the call of it and of each of its `companions` (the regions
    built where some are absent) under ``present`` of each."""
    indent = " " * 6 if form == "fixed" else region.indent
    packings = _packings([region, *(other for _, other, _ in companions)])
    if not packings:
        text = _calls(region, sig, companions, indent, form)
    else:
        step = "  "
        text = packed_call(packings, _calls(region, sig, companions, indent + step, form),
                           indent, step, form, lambda stmt, at: wrap(stmt, [], "", at, form))
    if region.claims is None:   # no OpenMP/OpenACC claim (their helpers load only for one)
        return text
    from frontends.directives.claims import single_wrapper
    single = single_wrapper(region.claims, region.span.line)
    if not single:
        return text
    at = "" if form == "fixed" else region.indent
    end = "end single nowait" if single.endswith("nowait") else "end single"
    return f"{at}!$omp single\n{text}{at}!$omp {end}\n"


def _calls(region: Region, sig: GlueSignature,
           companions: Sequence[tuple[tuple[bool, ...], Region, GlueSignature]], indent: str,
           form: str) -> str:
    """The call (or the presence chain of calls) and the statements after it."""
    after = "".join(wrap(stmt, [], "", indent, form) for stmt in region.after_call)
    text = _call(region, sig, indent, form) + after
    optionals = getattr(region, "optional_args", ())
    if optionals:
        text = _presence_chain(optionals, [((True,) * len(optionals), region, sig),
                                           *companions], indent, form) + after
    return text


def _packings(regions: Sequence[Region]) -> list[Packing]:
    """The packed components of a region and its companions (written where one writes)."""
    found: dict[str, Packing] = {}
    for region in regions:
        for pk in getattr(region, "packings", ()):
            seen = found.get(pk.name)
            found[pk.name] = pk if seen is None else replace(seen,
                                                             written=seen.written or pk.written)
    return [found[name] for name in sorted(found)]


def _presence_chain(optionals: Sequence[str],
                    branches: list[tuple[tuple[bool, ...], Region, GlueSignature]],
                    indent: str, form: str) -> str:
    """``if (present(w) .and. .not. present(v)) then; call ...; else if ...; end if``: each
    branch's call where the optionals are present as its pattern says; where every
    combination has a call, the last (all absent) is the ``else``."""
    inner = indent + ("  " if form == "free" else " ")
    complete = len(branches) == 2 ** len(optionals)
    out = []
    for k, (pattern, region, sig) in enumerate(branches):
        tests = " .and. ".join(("" if here else ".not. ") + f"present({name})"
                               for name, here in zip(optionals, pattern))
        head = ("if" if k == 0 else "else if") + f" ({tests}) then"
        if complete and k == len(branches) - 1 and k > 0:
            head = "else"
        out.append(wrap(head, [], "", indent, form) + _call(region, sig, inner, form))
    return "".join(out) + f"{indent}end if\n"


def wrap(head: str, items: Sequence[str], tail: str, indent: str, form: str) -> str:
    """`head` + comma-separated `items` + `tail`, continued over lines when too long."""
    fixed = form == "fixed"
    width = FIXED_WIDTH if fixed else FREE_WIDTH - 2   # free form: room for " &"
    cont = "     &" + indent[6:] + "  " if fixed else indent + "    "
    pieces = [item + ", " for item in items[:-1]] + [items[-1] + tail] if items else [tail]
    lines: list[str] = []
    current, filled = indent + head, False
    for piece in pieces:
        if filled and len(current) + len(piece.rstrip()) > width:
            lines.append(current.rstrip() + ("" if fixed else " &"))
            current, filled = cont, False
        current += piece
        filled = True
    lines.append(current.rstrip())
    if fixed:
        lines = [part for line in lines for part in _fixed_split(line)]
    else:
        lines = [part for line in lines for part in _free_split(line, cont)]
    return "\n".join(lines) + "\n"


def _free_split(line: str, cont: str) -> list[str]:
    """Split a free-form line that one item made too long (the count of a 2-D section in a
    data clause passes 132 columns) at blanks between tokens; the items hold no character
    constants, so every blank is between tokens."""
    out = []
    while len(line) > FREE_WIDTH:
        k = line.rfind(" ", len(cont) + 1, FREE_WIDTH - 2)
        if k < 0:
            break
        out.append(line[:k].rstrip() + " &")
        line = cont + line[k:].lstrip()
    return out + [line]


def _fixed_split(line: str) -> list[str]:
    """Hard-split a fixed-form line at column 72 (blanks are insignificant in fixed form and
    character constants continue on the next line from column 7)."""
    out = []
    while len(line) > FIXED_WIDTH:
        out.append(line[:FIXED_WIDTH])
        line = "     &" + line[FIXED_WIDTH:]
    out.append(line)
    return out


def interface_block(regions: list[tuple[Region, GlueSignature]], indent: str, form: str) -> str:
    """One interface block declaring the glue functions of `regions`."""
    step = "" if form == "fixed" else "  "
    out = [f"{indent}interface\n"]
    for region, sig in regions:
        out.append(_interface_body(region, sig, indent + step, step, form))
    scans = set().union(*(getattr(region, "index_scans", ()) for region, _ in regions))
    body = scan_interfaces(scans, indent + step, step)
    if form == "fixed":
        body = [part for line in body for part in _fixed_split(line)]
    out += [line + "\n" for line in body]
    out.append(f"{indent}end interface\n")
    return "".join(out)


def _interface_body(region: Region, sig: GlueSignature, indent: str, step: str,
                    form: str) -> str:
    names = _dummy_names([prm.name for prm in sig.params])
    fname = fortran_name(sig.symbol)
    head = wrap(f"subroutine {fname}(", [names[prm.name] for prm in sig.params],
                f") bind(C, name=\"{sig.symbol}\")", indent, form)
    inner = indent + step
    body = [f"{inner}use, intrinsic :: iso_c_binding", f"{inner}implicit none"]
    logical = getattr(region, "logical_args", frozenset())
    for prm in sig.params:
        body.append(inner + _declaration(prm.name, names[prm.name], prm.kind, prm.dtype,
                                         prm.name in region.written_scalars,
                                         prm.name in logical))
    body.append(f"{indent}end subroutine {fname}")
    if form == "fixed":
        body = [part for line in body for part in _fixed_split(line)]
    return head + "".join(line + "\n" for line in body)


#: The C kind of an index table's elements, by the suffix of the runtime's scans
_SCAN_KINDS = {"i8": "c_signed_char", "i16": "c_short", "i32": "c_int", "i64": "c_long_long"}


def scan_interfaces(suffixes: set[str], indent: str, step: str) -> list[str]:
    """The interface bodies of the runtime's scans the calls use (inside an interface
    block), one line a string."""
    out = []
    for suffix in sorted(suffixes):
        for kind in ("least", "most"):
            fname = f"tr_index_{kind}_{suffix}"
            inner = indent + step
            out += [f"{indent}function {fname}(table, count) bind(C, name=\"{fname}\")",
                    f"{inner}use, intrinsic :: iso_c_binding",
                    f"{inner}implicit none",
                    f"{inner}integer({_SCAN_KINDS[suffix]}), intent(in) :: table(*)",
                    f"{inner}integer(c_long_long), value :: count",
                    f"{inner}integer(c_long_long) :: {fname}",
                    f"{indent}end function {fname}"]
    return out


def fortran_name(symbol: str) -> str:
    """The Fortran-side name of a glue function (names are limited to 63 characters; the
    binding label keeps the full symbol)."""
    if len(symbol) <= 63:
        return symbol
    return symbol[:54] + "_" + hashlib.sha256(symbol.encode()).hexdigest()[:8]


def _declaration(name: str, dummy: str, kind: str, dtype: np.dtype, scalar_ref: bool,
                 logical: bool) -> str:
    dtype = np.dtype(dtype)
    ctype = _C_KINDS.get(dtype.name)
    if ctype is None:
        raise TranslatorError(f"argument {name!r}: type {dtype} has no Fortran interop kind")
    if kind == "value":
        return f"{ctype}, value :: {dummy}"
    if logical:
        ctype = "logical" if dtype.itemsize == 4 else f"logical({dtype.itemsize})"
    return f"{ctype} :: {dummy}" + ("" if scalar_ref else "(*)")


def _dummy_names(names: list[str]) -> dict[str, str]:
    """Kernel argument names as Fortran names (generated `_tr_` names lose the underscore)."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for n in names:
        base = n.lstrip("_") or "arg"
        cand, k = base, 0
        while cand in used:
            k += 1
            cand = f"{base}_{k}"
        used.add(cand)
        out[n] = cand
    return out


# ---------------------------------------------------------------------------------------------
# Data directives

def data_edits(parsed: ParsedFile, lines: SourceLines, form: str) -> list[tuple[int, int, str]]:
    """Each data directive replaced by a call of its glue; one interface block per procedure
    (after its last declaration) declaring those glue functions."""
    sites = getattr(parsed, "data_sites", ())
    edits: list[tuple[int, int, str]] = []
    by_insert: dict[int, list] = {}
    for site in sites:
        head = f"call {fortran_name(site.glue.symbol)}("
        edits.append((site.start, site.end, wrap(head, list(site.args), ")", site.indent, form)))
        by_insert.setdefault(site.decl_line, []).append(site)
    for line, group in sorted(by_insert.items()):
        at = lines.line_end(line)
        indent = _body_indent(lines, line, form)
        text = _data_interface_block(group, indent, form)
        if at == len(parsed.text) and parsed.text and not parsed.text.endswith("\n"):
            text = "\n" + text
        edits.append((at, at, text))
    return edits


def _data_interface_block(sites: list, indent: str, form: str) -> str:
    step = "" if form == "fixed" else "  "
    out = [f"{indent}interface\n"]
    for site in sites:
        out.append(_data_interface_body(site.glue, indent + step, step, form))
    out.append(f"{indent}end interface\n")
    return "".join(out)


def _data_interface_body(glue, indent: str, step: str, form: str) -> str:
    fname = fortran_name(glue.symbol)
    dummies = [name for k, item in enumerate(glue.items) for name in _data_dummies(k, item)]
    head = wrap(f"subroutine {fname}(", dummies, f") bind(C, name=\"{glue.symbol}\")", indent,
                form)
    inner = indent + step
    body = [f"{inner}use, intrinsic :: iso_c_binding", f"{inner}implicit none"]
    for k, item in enumerate(glue.items):
        body.append(f"{inner}type(*), dimension(*) :: a{k}")
        body.append(f"{inner}integer(c_long_long), value :: "
                    f"{', '.join(_data_dummies(k, item)[1:])}")
    body.append(f"{indent}end subroutine {fname}")
    if form == "fixed":
        body = [part for line in body for part in _fixed_split(line)]
    return head + "".join(line + "\n" for line in body)


def _data_dummies(k: int, item) -> list[str]:
    """The dummies of one item of a data glue: address, first, count, size, and per dimension
    of a section moved exactly its count and the array's extent (``DataGlueItem.box``)."""
    box = [f"{kind}{k}_{d}" for d in range(item.box) for kind in ("c", "n")]
    return [f"a{k}", f"first{k}", f"count{k}", f"size{k}", *box]


def generation_definition(symbol: str, form: str) -> str:
    """A subroutine whose binding label is `symbol`, the generation stamp that the host glue
    refers to (``translator.codegen.generation``): put before the file's first unit, it
    makes a rewritten source and a glue of different runs fail to link.  Fixed form: the
    label fits column 72 (the stamp is 12 hex digits)."""
    name = "translate_generation_" + symbol[-12:]
    note = ("Generation stamp of this translation: the host glue refers to the symbol below;"
            "\n{c} a link error naming it means the outputs come from different runs of "
            "translate: rerun it.\n")
    if form == "fixed":
        return ("C     " + note.format(c="C    ") + f"      subroutine {name}()\n"
                f"     &  bind(C, name=\n     &  '{symbol}')\n      end\n")
    return ("! " + note.format(c="!") + f"subroutine {name}() &\n"
            f"    bind(C, name=\"{symbol}\")\nend subroutine {name}\n")
