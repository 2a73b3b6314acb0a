"""The C frontend: ``#pragma translate`` regions of C99 files -> kernels, and the rewrite.

Pipeline: `preprocess` (gcc -E, pycparser) -> `regions` (directives, region sites) -> `build`
(statements, loops) -> `assemble` (arguments, domains, the Kernel) -> `rewrite`.
"""

from __future__ import annotations

import os
import re
from typing import Any

from frontends.base import GlueSignature, ParsedFile, Region
from frontends.c.assemble import Assembler
from frontends.c.build import RegionBuilder
from frontends.c.datadirs import data_sites, stale_warnings
from frontends.c.inline import function_definitions
from frontends.c.liveness import References
from frontends.c.preprocess import SourceText, parse_file
from frontends.c.regions import RegionFinder, scan_directives, warn_near_miss_pragmas
from frontends.c.rewrite import definition_offset, edits, generation_definition, rewrite
from frontends.c.typemodel import FileScope
from frontends.directives import (claim_parsers, directive_models, left_as_written,
                                  untouched_notes, warn_not_offloaded)
from frontends.macros import guard as macro_guard
from frontends.pragmas import DataSite
from translator.diagnostics import FrontendError, Note, UnsupportedConstructError, too_deep
from translator.records import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class CParsedFile(ParsedFile):
    """A parsed C file; `prototype_offset` is where the glue prototypes go."""

    prototype_offset: int = 0
    #: The data directives (data regions, enter/exit data, update), in source order.
    data_sites: tuple[DataSite, ...] = ()
    #: The OpenMP/OpenACC directives left as written, with the reason (for the report).
    directive_notes: tuple[str, ...] = ()
    #: The lines that end the rewritten source: the macros the translation used, checked
    #: again by the compiler (`frontends.macros`).
    macro_guard: str = ""


@dataclass(frozen=True)
class _Found:
    claim: Any


class CFrontend:
    """`frontends.base.Frontend` for C."""

    language = "c"
    suffixes = (".c",)

    def parse(self, path: str, text: str, options: dict[str, Any]) -> ParsedFile:
        """Find the file's regions and build their kernels (see `frontends.base`)."""
        src = SourceText(path, text)
        warn_near_miss_pragmas(src)
        raw = scan_directives(src)
        models = directive_models(options or {})
        claims = _read_claims(src, models) if models else {}
        if not raw and not claims:
            return CParsedFile(path=path, text=text, language="c", regions=())
        tree, macros = parse_file(src, options or {})
        try:
            fscope = FileScope.from_ast(tree)
            finder = RegionFinder(src, tree, raw, claims)
            sites = finder.find()
            data = data_sites(src, finder.data)
        except RecursionError:
            raise too_deep(src.span(min(raw))) from None
        regions: list[Region] = []
        refs: dict[int, References] = {}
        functions = function_definitions(tree)
        refused = routine_refusals(src, claims)
        seen: dict[str, Region] = {}
        failed: set[str] = set()
        for site in sites:
            func_refs = refs.get(id(site.function))
            if func_refs is None:   # once per function, not per region
                func_refs = refs[id(site.function)] = References(site.function)
            try:
                region = _region(src, fscope, site, func_refs, functions, refused)
            except FrontendError as err:
                # the directive is the user's claim, not an order: a loop the frontend cannot
                # read (any construct, not only those it knows it refuses) stays as written
                if not site.claims:
                    raise
                left_as_written(site.claims[0][2], err, site.kernel.span)
                failed.add(site.name)
                continue
            if region.name in seen:
                raise FrontendError(f"region name {region.name!r} is used twice in this file "
                                    f"(first at {seen[region.name].span})", region.span)
            seen[region.name] = region
            regions.append(region)
        if failed and finder.without_auto_data(failed):
            data = data_sites(src, finder.data)
        stale_warnings(src, finder.data, regions)
        functions = [site.function for site in sites] + [f for _, _, f, _ in finder.data]
        offset = min((definition_offset(src, f) for f in functions), default=0)
        spans = [(r.start, r.end) for r in regions] + [(d.start, d.end) for d in data]
        return CParsedFile(path=path, text=text, language="c", regions=tuple(regions),
                           prototype_offset=offset, data_sites=data,
                           macro_guard=macro_guard(os.path.basename(path), text, spans, macros),
                           directive_notes=_notes(claims, sites))

    def rewrite(self, parsed: ParsedFile, glue: dict[str, GlueSignature]) -> str:
        """The original text with regions replaced by glue calls, prototypes inserted."""
        return rewrite(parsed, glue)

    def rewrite_edits(self, parsed: ParsedFile, glue: dict[str, GlueSignature]
                      ) -> list[tuple[int, int, str]]:
        """`rewrite` as (start, end, new text) edits of the parsed text, in order."""
        return edits(parsed, glue)

    def generation_definition(self, parsed: ParsedFile, symbol: str) -> str:
        """Lines that define the generation stamp `symbol`, to go before the first line."""
        return generation_definition(symbol)


def _notes(claims: dict, sites: list) -> tuple[str, ...]:
    """The report's lines for the directives left as written; a warning at each whose
    parallel work stays on the host (`warn_not_offloaded`)."""
    found = [_Found(c) for _, c in claims.values()]
    regions = [(s.kernel.line, s.end.last_line) for s in sites]
    warn_not_offloaded(found, regions, "c")
    _warn_in_regions(claims, [s for s in sites if not s.claims])
    return untouched_notes(found, regions)


def _warn_in_regions(claims: dict, sites: list) -> None:
    """A ``directive-in-region`` warning at each loop directive inside a ``#pragma
    translate`` region (which does not read it)."""
    from frontends.directives.claims import LoopClaim, warn_in_region
    for line, (_raw, claim) in sorted(claims.items()):
        site = next((s for s in sites if s.kernel.line < line <= s.end.last_line), None)
        if site is not None and isinstance(claim, LoopClaim):
            warn_in_region(claim, site.kernel.line, "c")


def _read_claims(src: SourceText, models: tuple[str, ...]) -> dict:
    """The claims of the `models`' directives; their parsers load only here (start-up)."""
    from frontends.directives.c import read_claims
    return read_claims(src, models, claim_parsers(models))


def routine_refusals(src: SourceText, claims: dict) -> dict[str, tuple[str, Note]]:
    """function name -> why a region cannot call it, and a note at the directive: the
    functions an OpenACC
    ``routine gang``/``worker``/``vector`` directive declares (the one it names, or the one
    declared or defined right after it)."""
    out = {}
    for raw, claim in claims.values():
        name, level = getattr(claim, "routine", None) or ("", "seq")
        if level == "seq":
            continue
        name = name or _next_function_name(src, raw.last_line)
        if name:
            from frontends.directives.openacc import routine_refusal   # OpenACC read
            out[name] = (routine_refusal(name, level),
                         Note(f"{name!r} is declared 'routine {level}' here", raw.span))
    return out


def _next_function_name(src: SourceText, after: int) -> str:
    """The name of the function declared or defined after line `after` (the identifier
    before the first parenthesis), or ""."""
    text = "".join(line for line in src.lines[after:after + 20]
                   if not line.lstrip().startswith("#"))
    m = re.match(r"[^(;{}]*?([A-Za-z_]\w*)\s*\(", text)
    return m.group(1) if m else ""


def _region(src: SourceText, fscope: FileScope, site, refs: References,
            functions: dict, refused: dict) -> Region:
    try:
        builder = RegionBuilder(src, fscope, site)
        builder.functions = functions
        builder.refused_calls = refused
        return Assembler(builder, builder.build(), site, refs).assemble()
    except RecursionError:   # anything else but a TranslatorError is a bug (exit 2)
        raise too_deep(site.kernel.span) from None


FRONTEND = CFrontend()

__all__ = ["FRONTEND", "CFrontend", "CParsedFile"]
