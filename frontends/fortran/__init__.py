"""The Fortran frontend (fparser2): regions -> kernels, and the rewritten source.

``FRONTEND.parse(path, text, options)`` finds the ``!$translate`` regions, parses the file with
fparser2 (free or fixed form, by suffix or ``options["form"]``) and builds one `Kernel` per
region.  ``FRONTEND.rewrite(parsed, glue)`` replaces each region by a call to its glue function
and declares the glue's ``bind(C)`` interface in the enclosing procedure.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from frontends.base import GlueSignature, ParsedFile, Region
from frontends.directive_models import SENTINELS, directive_models
from frontends.fortran.assemble import assemble
from frontends.fortran.build import RegionBuilder
from frontends.fortran.build_support import loop_variables
from frontends.fortran.stmt_functions import statement_functions
from frontends.fortran.callees import CalleeIndex
from frontends.fortran.blocks import block_scope
from frontends.fortran.construct_names import (check_construct_names, enclosing_constructs,
                                               held_names)
from frontends.fortran.datadirs import (check_packed_clauses, data_directives, data_sites,
                                        stale_warnings, with_common_blocks)
from frontends.fortran.loopvars import final_value_statements
from frontends.fortran.modules import ModuleFinder
from frontends.fortran.optionals import absent_variants
from frontends.fortran.packing import Packing
from frontends.fortran.preprocess import (clip_fixed_lines, fixed_line_length, macro_guard,
                                          preprocessed_text, refuse_unpreprocessed_directives)
from frontends.fortran.regions import (RegionMarks, group_regions, is_comment_line, scan_directives,
                                      warn_near_miss_sentinels)
from frontends.fortran.rewrite import generation_definition, rewrite_edits, rewrite_source
from frontends.fortran.scopes import (Procedure, build_procedures, innermost_procedure,
                                      load_module)
from frontends.fortran.source import (SourceLines, children, class_name, is_comment, node_lines,
                                      parse_source, source_form)
from frontends.fortran.units import blank_unneeded_units
from frontends.marks import apply_marks
from frontends.pragmas import DataSite, declared_functions
from translator.diagnostics import FrontendError, UnsupportedConstructError, warn
from translator.records import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class FortranRegion(Region):
    """A region plus what the Fortran rewrite needs."""

    #: Arguments that are LOGICAL in the source (declared ``logical`` in the interface).
    logical_args: frozenset[str] = frozenset()
    #: The line after which the procedure's interface block goes (its last declaration).
    decl_line: int = 0
    #: The OPTIONAL dummies the region tests with ``present`` (the region is built for all
    #: present), and the regions built where some are absent, with whether each is present,
    #: which the call chooses (`frontends.fortran.optionals`); on such a companion, the region
    #: it stands in for (it replaces no text of its own).  A combination without a companion:
    #: nothing runs there.
    optional_args: tuple[str, ...] = ()
    companions: tuple[tuple[tuple[bool, ...], str], ...] = ()
    companion_of: str = ""
    #: Array components of arrays of derived type the call packs (`frontends.fortran.
    #: packing`), in the order of the kernel's arguments.
    packings: tuple[Packing, ...] = ()
    #: The runtime's index-table scans the call uses (`frontends.fortran.gathers`): their
    #: interfaces go into the procedure's interface block.
    index_scans: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True, kw_only=True)
class FortranParsedFile(ParsedFile):
    form: str = "free"
    #: The data directives (data regions, enter/exit data, update), in source order.
    data_sites: tuple[DataSite, ...] = ()
    #: Other files the translation read: sources of modules used (for dependency files).
    dependencies: tuple[str, ...] = ()
    #: The OpenMP/OpenACC directives left as written, with the reason (for the report).
    directive_notes: tuple[str, ...] = ()
    #: The lines that end the rewritten source of a preprocessed file: the macros the
    #: translation used, checked again by the compiler (`frontends.macros`).
    macro_guard: str = ""


# OpenMP/OpenACC directives (``--directives``): their parsers and the claims' helpers
# (`frontends.directives`) are imported only for a file that has some (issue 24: start-up).

def _read_claims(lines: SourceLines, form: str, models: tuple[str, ...]) -> list[Any]:
    """The claims of the `models`' directives (none without ``--directives``)."""
    if not models:
        return []
    from frontends.directives import claim_parsers
    from frontends.directives.fortran import read_claims
    return read_claims(lines, form, models, claim_parsers(models))


def _data_claims(claims: list[Any]) -> list[Any]:
    """The data claims as ``translate`` data directives."""
    if not claims:
        return []
    from frontends.directives.fortran import data_raw_directives
    return data_raw_directives(claims)


def _loop_claims(claims: list[Any]) -> list[Any]:
    if not claims:
        return []
    from frontends.directives import LoopClaim, ParallelOpen
    return [c for c in claims if isinstance(c.claim, (LoopClaim, ParallelOpen))]


def _untouched_notes(claims: list[Any], marks: list[RegionMarks]) -> tuple[str, ...]:
    if not claims:
        return ()
    from frontends.directives import untouched_notes, warn_not_offloaded
    regions = [(m.kernel_line, m.end_line) for m in marks]
    warn_not_offloaded(claims, regions, "fortran")
    return untouched_notes(claims, regions)


def _with_implied_privates(m: RegionMarks, proc: Procedure, lines: SourceLines,
                           written: set[str], scalars: set[str]) -> RegionMarks:
    """A claimed region's marks with the threadprivate variables it writes, and the scalars
    an OpenACC gang loop writes, made private."""
    from frontends.directives.fortran import (threadprivate_names, with_openacc_firstprivate,
                                              with_threadprivate)
    m = with_threadprivate(m, threadprivate_names(proc, lines), written)
    return with_openacc_firstprivate(m, scalars)


def _region_facts(asm: Any, builder: RegionBuilder, m: RegionMarks,
                  read_after: frozenset[str]) -> Any:
    """What the proof of a claimed region's directives needs."""
    from frontends.directives.fortran import declared_shapes, lower_bounds, region_facts
    return region_facts(asm.written_scalars, frozenset(asm.kernel.temporaries),
                        set(builder.touched), builder.loops, m,
                        declared_shapes(asm.kernel, builder), read_after,
                        lower_bounds(asm.kernel, builder))


def _clipped(path: str, text: str, form: str, options: dict[str, Any]) -> str | None:
    """`text` cut at the fixed-form line length (None when no line is longer), with a
    warning at the first line whose code past it is dropped."""
    width = fixed_line_length(options)
    clipped, first = clip_fixed_lines(text, form, width)
    if first is not None and "fixed_line_length" not in options:
        warn("line-truncation",
             f"text past column {width} of a fixed-form line is ignored, as gfortran does by "
             "default (card sequence numbers in columns 73-80); if the program is compiled "
             f"with -ffixed-line-length-N, translate with --fixed-line-length=N (or none)",
             SourceLines(path, text).span(first, col=width + 1))
    return clipped if clipped != text else None


class FortranFrontend:
    """The frontend object registered under the ``translator.frontends`` entry point."""

    language = "fortran"
    suffixes = (".f90", ".F90", ".f95", ".F95", ".f03", ".F03", ".f08", ".F08", ".f", ".F",
                ".for", ".FOR", ".f77", ".F77", ".fpp", ".FPP", ".ftn", ".FTN")

    def parse(self, path: str, text: str, options: dict[str, Any]) -> ParsedFile:
        """Find regions and build their kernels; errors are `TranslatorError`s with spans."""
        form = source_form(path, options or {})
        models = directive_models(options or {})
        # a preprocessed file is read as the compiler reads it, at its own line numbers (one
        # that neither holds nor includes a directive has no region: not worth the run)
        lower = text.lower()
        preprocessed = (preprocessed_text(path, text, form, options or {})
                        if "$translate" in lower or "include" in lower
                        or any(f"${SENTINELS.get(s, s)}" in lower for s in models) else None)
        analysed = _clipped(path, text if preprocessed is None else preprocessed, form,
                            options or {}) or preprocessed
        lines = SourceLines(path, text, analysed)
        code = text if analysed is None else analysed
        warn_near_miss_sentinels(lines, form)
        directives = scan_directives(lines, form)
        marks = group_regions(directives, lines, form)
        claims = _read_claims(lines, form, models)
        found = data_directives(sorted(directives + _data_claims(claims),
                                       key=lambda d: d.line))
        regions: list[Region] = []
        data: tuple[DataSite, ...] = ()
        finder = ModuleFinder.from_options(path, options or {}, load_module)
        # an OpenACC kernels construct holding plain loops is a region too (h16)
        loop_claims = _loop_claims(claims)
        if (marks or found or loop_claims) and preprocessed is None:
            refuse_unpreprocessed_directives(lines)
        if marks or found or loop_claims:
            # data directives need their procedures' trees too: then the whole file is parsed
            tree = (parse_source(path, code, form, lines) if found
                    else _parse_needed(lines, code, form, [m.kernel_line for m in marks]
                                       + [c.raw.line for c in loop_claims]))
            procedures = build_procedures(tree, lines, finder.preload(tree))
            callees = CalleeIndex(finder, lines, code, form, procedures,
                                  openacc="openacc" in models)
            marks = _with_claim_regions(marks, claims, procedures, lines, form)
            regions = (_build_regions(marks, procedures, lines, form, finder, callees)
                       if marks else [])
            found = with_common_blocks(found, procedures) if found else found
            data = data_sites(found, procedures, lines, form) if found else ()
            if found:
                check_packed_clauses(found, regions, procedures)
                stale_warnings(found, regions, lines, form, procedures)
        spans = [(r.start, r.end) for r in regions] + [(d.start, d.end) for d in data]
        guard = (macro_guard(path, text, form, options or {}, spans)
                 if preprocessed is not None and spans else "")
        return FortranParsedFile(path=path, text=text, language="fortran",
                                 regions=tuple(regions), form=form, data_sites=data,
                                 macro_guard=guard,
                                 dependencies=tuple(finder.loaded),
                                 directive_notes=_untouched_notes(claims, marks))

    def rewrite(self, parsed: ParsedFile, glue: dict[str, GlueSignature]) -> str:
        """The original text, regions replaced by calls, interfaces declared."""
        return rewrite_source(parsed, glue)

    def rewrite_edits(self, parsed: ParsedFile, glue: dict[str, GlueSignature]
                      ) -> list[tuple[int, int, str]]:
        """`rewrite` as (start, end, new text) edits of the parsed text, in order."""
        return rewrite_edits(parsed, glue)

    def generation_definition(self, parsed: ParsedFile, symbol: str) -> str:
        """Lines that define the generation stamp `symbol`, to go before the first line."""
        return generation_definition(symbol, getattr(parsed, "form", "free"))


def _parse_needed(lines: SourceLines, text: str, form: str, region_lines: list[int]) -> Any:
    """The fparser tree of the units holding a region and of every module (other units are
    blank lines: see `frontends.fortran.units`); the whole file if that does not parse."""
    needed = blank_unneeded_units(text, form, region_lines)
    if needed is text:
        return parse_source(lines.path, text, form, lines)
    try:
        return parse_source(lines.path, needed, form, lines)
    except FrontendError:
        return parse_source(lines.path, text, form, lines)   # the error the whole file gives


def _with_claim_regions(marks: list[RegionMarks], claims: list[Any],
                        procedures: list[Procedure], lines: SourceLines,
                        form: str) -> list[RegionMarks]:
    """`marks` and the regions of the directives' loop claims, in line order; a claim inside
    a ``translate`` region (or inside another claim's loop nest) is left to it."""
    if not claims:
        return marks
    from frontends.directives.claims import warn_in_region
    from frontends.directives.fortran import claim_marks
    out = list(marks)
    for m in claim_marks(claims, procedures, lines, form):
        inside = next((o for o in out if o.kernel_line <= m.kernel_line <= o.end_line), None)
        if inside is None:
            out.append(m)
        elif not inside.claims:   # a !$translate region: its own pragmas decide
            for claim, _line, _spelling in m.claims:
                warn_in_region(claim, inside.kernel_line, "fortran")
    return sorted(out, key=lambda m: m.kernel_line)


def _build_regions(marks: list[RegionMarks], procedures: list[Procedure], lines: SourceLines,
                   form: str, finder: ModuleFinder, callees: CalleeIndex) -> list[Region]:
    out: list[Region] = []
    counts: dict[str, int] = {}
    names: dict[str, RegionMarks] = {}
    for m in marks:
        proc = _enclosing(procedures, m)
        k = counts.get(proc.name, 0)
        counts[proc.name] = k + 1
        name = m.name or f"{proc.name}_{k}"
        if name in names:
            raise FrontendError(f"duplicate kernel name {name!r} (first used at line "
                                f"{names[name].kernel_line})", m.span)
        names[name] = m
        finder.resolve(proc.scope)   # modules from other files, before any name is looked up
        if not m.claims:
            out.extend(_region(proc, m, name, lines, form, callees))
            continue
        try:
            out.extend(_region(proc, m, name, lines, form, callees))
        except FrontendError as err:
            # the directive is the user's claim, not an order: a loop the frontend cannot
            # read (any construct, not only those it knows it refuses) stays as written
            from frontends.directives import left_as_written
            left_as_written(m.claims[0][2], err, m.span)
    return out


def _region(proc: Procedure, m: RegionMarks, name: str,
            lines: SourceLines, form: str, callees: CalleeIndex) -> list[FortranRegion]:
    """The region of `m`; a region testing ``present(opt)`` has companions built for each
    combination of its tested optionals with one absent (`frontends.fortran.optionals`)."""
    _check_no_declarations(proc, m, lines)
    _check_no_preprocessor(m, lines)
    statements = _region_statements(proc, m, lines)
    check_construct_names(proc.exec_part, m, lines, form,
                          lambda n: proc.scope.lookup_declared(n) is not None,
                          lambda n: _local(proc, n))
    builder = _built(proc, m, name, lines, callees, statements, {})
    region = _finished(builder, proc, m, name, lines, form)
    if not builder.tested_optionals:
        return [region]
    tested, variants = absent_variants(
        name, builder.tested_optionals,
        lambda other, assumed: _built(proc, m, other, lines, callees, statements, assumed))
    variants = [v for v in variants if v[2].statements]   # none: nothing runs there, no call
    return [replace(region, optional_args=tuple(tested),
                    companions=tuple((pattern, other) for pattern, other, _ in variants)),
            *(replace(_finished(built, proc, m, other, lines, form), companion_of=name)
              for _, other, built in variants)]


def _built(proc: Procedure, m: RegionMarks, name: str, lines: SourceLines,
           callees: CalleeIndex, statements: list[Any], assumed: dict[str, bool]
           ) -> RegionBuilder:
    """The region's statements built (`assumed`: the value of ``present`` of optionals)."""
    scope = block_scope(proc.scope, enclosing_constructs(proc.exec_part, m, "Block_Construct"),
                        lines)
    builder = RegionBuilder(scope, lines, name, m.body_first_line,
                            loop_variables(statements))
    builder.user_functions = {n.lower(): sig for n, sig in declared_functions(m.calls).items()}
    builder.callees = callees
    builder.statement_functions = statement_functions(proc.scope, proc.exec_part)
    builder.plan_packings(statements)
    builder.assumed_present = dict(assumed)
    builder.tested_optionals = list(assumed)
    builder.visit_within([(c, held_names(c, m, lambda n: _local(proc, n)))
                          for c in enclosing_constructs(proc.exec_part, m,
                                                        "Associate_Construct")], statements)
    builder.check_absent_untouched()
    return builder


def _local(proc: Procedure, name: str) -> bool:
    """Whether `name` is a named constant, a dummy or a local variable of `proc` (no module,
    COMMON or host variable: a call may change those)."""
    sym = proc.scope.lookup_declared(name)
    return sym is not None and (sym.is_parameter or (
        sym.scope == proc.scope.name and sym.scope_kind == "local" and not sym.in_common))


def _finished(builder: RegionBuilder, proc: Procedure, m: RegionMarks, name: str,
              lines: SourceLines, form: str) -> FortranRegion:
    """The region of a built `builder`."""
    loop_vars = builder.loop_vars
    outside = _outside_names(proc, m, lines, form)
    written = {n for s in builder.statements for n in s.assignee_names()}
    scalars = {n for n in written if n in builder.touched and not builder.touched[n].is_array}
    if m.claims:
        m = _with_implied_privates(m, proc, lines, written, scalars)
    # arrays are private where a clause names them (default(private) makes scalars private)
    declared = frozenset().union(*(c.private_names(scalars) | c.privates()
                                   for c, _, _ in m.claims))
    # a private variable the procedure reads after the region stays shared: the proof
    # refuses its claim; one only the caller could read (a dummy, module, common or host
    # variable: line 0) stays private, as a conforming program never reads it
    read_after = frozenset(n for n, line in _live_after(proc, m, lines, form,
                                                       set(declared)).items() if line)
    asm = assemble(builder, name, m.span, outside, declared - read_after)
    facts = _region_facts(asm, builder, m, read_after) if m.claims else None
    after = final_value_statements(builder.loops, _live_after(proc, m, lines, form, loop_vars),
                                   builder.generated, name)
    return FortranRegion(
        name=name, kernel=apply_marks(asm.kernel, m.statement_marks),
        transform_calls=m.calls, claims=facts,
        start=lines.line_start(m.kernel_line), end=lines.line_end(m.end_line), indent=m.indent,
        procedure=proc.name, span=m.span, call_args=asm.call_args,
        written_scalars=asm.written_scalars, logical_args=asm.logical_args,
        decl_line=proc.decl_last_line, after_call=after, async_queue=m.async_queue,
        index_scans=asm.index_scans,
        packings=tuple(replace(plan, written=name in written)
                       for name, plan in sorted(builder.packing_plans.items())))


def _enclosing(procedures: list[Procedure], m: RegionMarks) -> Procedure:
    """The innermost procedure whose body holds the region's directives."""
    best = innermost_procedure(procedures, m.kernel_line)
    if best is None:
        raise FrontendError("translate directive outside a procedure (kernel regions must be "
                            "inside a subroutine, function or main program body)", m.span)
    if m.end_line > best.body_last_line:
        raise FrontendError(f"the kernel region opened here extends past the end of "
                            f"{best.kind} {best.name!r}", m.end_span)
    return best


def _check_no_declarations(proc: Procedure, m: RegionMarks, lines: SourceLines) -> None:
    for item in children(proc.spec_part) if proc.spec_part is not None else ():
        for n in (children(item) if class_name(item) == "Implicit_Part" else [item]):
            rng = None if is_comment(n) else node_lines(n)
            if rng and rng[1] > m.kernel_line and rng[0] < m.end_line:
                raise FrontendError("declaration statement inside a kernel region (declare "
                                    "variables before the region)", lines.span(rng[0]))


def _check_no_preprocessor(m: RegionMarks, lines: SourceLines) -> None:
    """A preprocessor line inside a region would be lost with the region's text, which the
    rewritten source replaces by a call (and it would choose a configuration the region was
    not translated for)."""
    for k in range(m.kernel_line + 1, m.end_line):
        if lines.written_line(k).lstrip().startswith("#"):
            raise UnsupportedConstructError(
                "preprocessor directive inside a kernel region: the rewritten source replaces "
                "the region's lines by a call, and this line would be lost with them (move it "
                "outside the region, e.g. put the whole region inside each branch of an #if)",
                lines.span(k))


def _region_statements(proc: Procedure, m: RegionMarks, lines: SourceLines) -> list[Any]:
    if proc.exec_part is None:
        return []
    return _select(children(proc.exec_part), m, lines)


def _select(nodes: tuple, m: RegionMarks, lines: SourceLines) -> list[Any]:
    inside: list[Any] = []
    for n in nodes:
        rng = None if is_comment(n) or n is None or isinstance(n, str) else node_lines(n)
        if rng is None:
            continue
        lo, hi = rng
        if lo > m.kernel_line and hi <= m.last_statement_line \
                and class_name(n) in _CONSTRUCT_PARTS:
            raise FrontendError(f"the kernel region cuts through a construct (its "
                                f"{class_name(n).removesuffix('_Stmt').upper().replace('_', ' ')} "
                                "statement is inside the region, the rest is not)",
                                lines.span(lo))
        if lo > m.kernel_line and hi <= m.last_statement_line:
            inside.append(n)
        elif hi < m.kernel_line or lo > m.end_line:
            continue
        elif lo < m.kernel_line and hi > m.end_line and not inside:
            return _select(children(n), m, lines)
        else:
            raise FrontendError(f"the kernel region cuts through a statement or construct "
                                f"(lines {lo}-{hi}); a region must hold whole statements",
                                lines.span(lo))
    return inside


#: Statements that belong to an enclosing construct: a region holding one cuts through it.
_CONSTRUCT_PARTS = frozenset({
    "Else_Stmt", "Else_If_Stmt", "End_If_Stmt", "End_Do_Stmt", "Elsewhere_Stmt",
    "Masked_Elsewhere_Stmt", "End_Where_Stmt", "Case_Stmt", "End_Select_Stmt",
})


def _live_after(proc: Procedure, m: RegionMarks, lines: SourceLines, form: str,
                loop_vars: set[str]) -> dict[str, int]:
    """The DO variables of region `m` (`loop_vars`; or other scalars, such as a directive's
    private variables) whose value after it may be read, with the
    line that reads it (0: the caller may, for a dummy argument, module, common or host
    variable).

    A syntactic approximation, as the C frontend's: the first line that mentions the name
    after the region (then, for a region inside a host loop, from the procedure's start)
    decides; ``do NAME = ...`` or ``NAME = <expression without NAME>`` there means dead."""
    live: dict[str, int] = {}
    before = [*range(proc.decl_last_line + 1, m.kernel_line)]
    for name in sorted(loop_vars):
        sym = proc.scope.lookup(name)
        after = [*range(m.end_line + 1, proc.body_last_line + 1),
                 *_host_lines(proc, name), *before]
        line = _first_read(name, after, lines, form)   # the procedure's own read first (h70)
        if line:
            live[name] = line
        elif sym is not None and (sym.is_dummy or sym.in_common or sym.scope_kind == "module"
                                  or sym.scope != proc.scope.name):
            live[name] = 0
    return live


def _host_lines(proc: Procedure, name: str) -> list[int]:
    """The lines of `proc`'s internal procedures that may read its variable `name` by host
    association: not those of one that declares a `name` of its own (EP's ``randlc`` with its
    local ``t1`` reads nothing of the host's ``t1``)."""
    out: list[int] = []
    for inner in proc.internal:
        sym = inner.scope.lookup(name)
        if sym is None or sym.scope != inner.scope.name:
            out.extend(range(inner.first_line, inner.end_line + 1))
    return out


def _first_read(name: str, candidates: list[int], lines: SourceLines, form: str) -> int:
    """The first of the `candidates` lines that reads `name`'s old value, if the first line
    that mentions it does; else 0."""
    word = re.compile(rf"(?<![\w%]){name}(?!\w)", re.I)
    for k in candidates:
        text = lines.line(k)
        if is_comment_line(text, form):
            continue
        code = re.sub(r"'[^']*'|\"[^\"]*\"", " ", text).split("!")[0]
        if not word.search(code):
            continue
        redefined = re.match(rf"\s*(\d+\s+)?(do\s*(\d+\s*,?\s*)?{name}\s*=|{name}\s*=(?!=))",
                             code, re.I)
        if redefined and not word.search(code[redefined.end():]):
            return 0
        return k
    return 0


def _outside_names(proc: Procedure, m: RegionMarks, lines: SourceLines,
                   form: str) -> dict[str, int]:
    """Identifiers the procedure's executable text uses outside region `m` (other regions
    included), with the first line that does (a scalar used there cannot become a
    kernel-private temporary: its value would be lost)."""
    inside = range(m.kernel_line, m.end_line + 1)
    out: dict[str, int] = {}
    for k in range(proc.decl_last_line + 1, proc.end_line + 1):
        text = lines.line(k)
        if k in inside or is_comment_line(text, form):
            continue
        code = re.sub(r"'[^']*'|\"[^\"]*\"", " ", text).split("!")[0].lower()
        for name in re.findall(r"[a-z_]\w*", code):
            out.setdefault(name, k)
    return out


FRONTEND = FortranFrontend()

__all__ = ["FRONTEND", "FortranFrontend", "FortranParsedFile", "FortranRegion"]
