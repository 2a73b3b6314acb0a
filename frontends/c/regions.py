"""Find ``#pragma translate`` regions: directives in the original text, regions in the AST.

Directives are read twice.  The original text gives exact offsets (for the rewrite), lines
continued with a trailing backslash, and the preprocessor lines between a region's pragmas.
The AST (pycparser ``Pragma`` nodes, which survive preprocessing) tells which directives are in
active code and which statements lie between a region's ``kernel`` and ``end kernel``.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import field, replace

from pycparser import c_ast

from frontends.base import TransformCall
from frontends.c.extent import first_word, line_of, statement_end
from frontends.directives.claims import (TEAM_REASON, LoopClaim, nested_claims, spelled,
                                         thread_values)
from frontends.c.preprocess import SourceText
from frontends.c.teams import TeamCode, resident_arrays
from frontends.directives import (DataClaim, EndDirective, ParallelOpen, Untouched, inherit,
                                  parallel_left, with_inner_directives)
from frontends.marks import StatementMark, StatementMarkCollector, atomic_marks
from frontends.pragmas import DATA_KINDS, Directive, directive_async, parse_directive
from translator.diagnostics import FrontendError, SourceSpan, near_miss_sentinel, warn
from translator.records import dataclass

_DIRECTIVE = re.compile(r"^([ \t]*)#[ \t]*pragma[ \t]+translate\b[ \t]*")
_PREPROCESSOR = re.compile(r"^[ \t]*#[ \t]*(\w+)")
_CONDITIONALS = frozenset({"if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else",
                           "endif"})


@dataclass(frozen=True)
class RawDirective:
    """A ``#pragma translate`` line of the original text (continuations joined)."""

    line: int
    last_line: int
    start: int           # offset of the first line's start
    end: int             # offset just past the last line (its newline included)
    indent: str
    text: str            # after the sentinel
    span: SourceSpan     # points at `text`


@dataclass
class RegionSite:
    """A region found in a function body, before any IR is built."""

    name: str
    function: c_ast.FuncDef
    kernel: RawDirective
    end: RawDirective
    calls: list[TransformCall]
    statements: list[c_ast.Node]
    #: Declarations visible at the region's start: name -> (storage, Decl); storage is
    #: "param", "local" or "global".
    visible: dict[str, tuple[str, c_ast.Decl]]
    #: Loops of the function that enclose the region, outermost first.
    enclosing_loops: list[c_ast.Node] = field(default_factory=list)
    #: Statement names and tags written inside the region (``id(...)``, ``tags(...)``).
    marks: tuple[StatementMark, ...] = ()
    #: OpenMP/OpenACC loop claims: (claim, line of its loop, spelling) (`frontends.directives`).
    claims: tuple = ()
    #: ``kernel NAME async(N)``: the queue id (`Region.async_queue`).
    async_queue: int | None = None


# ---------------------------------------------------------------------------------------------
# the original text

def scan_directives(src: SourceText, word: str = "translate") -> dict[int, RawDirective]:
    """Every ``#pragma translate`` line of the text (``#pragma WORD``: OpenMP's ``omp``,
    OpenACC's ``acc``), keyed by its first line."""
    found: dict[int, RawDirective] = {}
    lines = src.lines
    pattern = _DIRECTIVE if word == "translate" else re.compile(
        rf"^([ \t]*)#[ \t]*pragma[ \t]+{word}\b[ \t]*")
    k = 0
    while k < len(lines):
        m = pattern.match(lines[k])
        first = k
        k = _last_continued_line(lines, k) + 1
        if m is None:
            continue
        parts = [lines[j].rstrip("\r\n") for j in range(first, k)]
        parts = [p[:-1] if p.endswith("\\") else p for p in parts]
        text = " ".join([parts[0][m.end():]] + [p.strip() for p in parts[1:]]).strip()
        found[first + 1] = RawDirective(
            line=first + 1, last_line=k, start=src.line_offset(first + 1),
            end=src.line_offset(k + 1), indent=m.group(1), text=text,
            span=src.span(first + 1, m.end() + 1))
    return found


_NEAR_MISS = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+([A-Za-z_]\w*)")


def warn_near_miss_pragmas(src: SourceText) -> None:
    """``-Wunknown-sentinel`` at each ``#pragma WORD`` whose WORD looks like a misspelled
    ``translate`` (``#pragma tranlsate``, ``#pragma Translate``); a C compiler ignores an
    unknown pragma, and so would the translator, dropping the mapping the user wrote."""
    if "pragma" not in src.text:
        return
    for k, line in enumerate(src.lines, start=1):
        m = _NEAR_MISS.match(line)
        if m is not None and m.group(1) != "translate" and near_miss_sentinel(m.group(1)):
            warn("unknown-sentinel", f"'#pragma {m.group(1)}' is not a translate directive "
                 "(did you mean '#pragma translate'?); it is ignored",
                 src.span(k, m.start(1) + 1))


def _last_continued_line(lines: list[str], k: int) -> int:
    while k + 1 < len(lines) and lines[k].rstrip("\r\n").endswith("\\"):
        k += 1
    return k


def directive_span(src: SourceText, line: int) -> SourceSpan:
    """The span of the directive text on a ``#pragma translate`` line."""
    m = _DIRECTIVE.match(src.line_text(line) or "")
    return src.span(line, m.end() + 1 if m else 1)


def preprocessor_lines(src: SourceText, first: int, last: int) -> list[tuple[int, str]]:
    """(line, directive word) of the preprocessor lines strictly between two lines."""
    out = []
    for line in range(first + 1, last):
        m = _PREPROCESSOR.match(src.line_text(line) or "")
        if m:
            out.append((line, m.group(1)))
    return out


def check_no_preprocessor_lines(src: SourceText, name: str, kernel: RawDirective,
                                end: RawDirective) -> None:
    """A region may hold no conditional (the rewrite would cut it) and no other directive
    except pragmas."""
    for line, word in preprocessor_lines(src, kernel.last_line, end.line):
        if word in _CONDITIONALS:
            raise FrontendError(
                f"region {name!r} straddles a preprocessor conditional (#{word} between its "
                "'kernel' and 'end kernel' directives); move the conditional outside the region",
                src.span(line, (src.line_text(line) or "").index("#") + 1))
        if word != "pragma":
            raise FrontendError(
                f"preprocessor directive #{word} inside region {name!r}; move it outside the "
                "region", src.span(line, (src.line_text(line) or "").index("#") + 1))


# ---------------------------------------------------------------------------------------------
# the AST

def is_translate_pragma(node: c_ast.Node) -> bool:
    return isinstance(node, c_ast.Pragma) and node.string.split(None, 1)[:1] == ["translate"]


class RegionFinder:
    """Walks function bodies in source order and collects `RegionSite`s."""

    def __init__(self, src: SourceText, tree: c_ast.FileAST,
                 raw: dict[int, RawDirective], claims: dict | None = None) -> None:
        self.src = src
        self.tree = tree
        self.raw = raw
        #: The directives' lines in order (a region's own are found by bisection: a scan of
        #: every directive per region was quadratic in a file of many regions).
        self.raw_lines = sorted(raw)
        #: OpenMP/OpenACC directives: line -> (directive, claim) (`frontends.directives.c`).
        self.claims = claims or {}
        self.sites: list[RegionSite] = []
        #: The functions of the file by name (the code of a ``parallel`` construct calls them).
        self.functions = {e.decl.name: e for e in tree.ext if isinstance(e, c_ast.FuncDef)}
        #: The ``parallel`` constructs whose worksharing loops are regions of their own
        #: being walked: (their clauses, `LoopClaim.thread_private`) (h92).
        self.team: list[tuple] = []
        #: The data regions the finder put around such constructs: (their begin and end
        #: directives, the names of the regions inside); one whose region the frontend
        #: cannot build (its loop left on the host) must go (`without_auto_data`).
        self.auto_data: list[tuple[RawDirective, RawDirective, set[str]]] = []
        #: Data directives in source order: (directive, parsed, function, visible names).
        self.data: list[tuple[RawDirective, Directive, c_ast.FuncDef, dict]] = []

    def find(self) -> list[RegionSite]:
        visible: dict[str, tuple[str, c_ast.Decl]] = {}
        for ext in self.tree.ext:
            if is_translate_pragma(ext):
                raw, _ = self._directive(ext)   # malformed directive text is reported first
                raise FrontendError("translate directive outside a function: regions must be "
                                    "inside a function body", raw.span)
            if isinstance(ext, c_ast.FuncDef):
                self._function(ext, visible)
            elif isinstance(ext, c_ast.Decl) and ext.name:
                visible[ext.name] = ("global", ext)
        return self.sites

    def _function(self, func: c_ast.FuncDef, visible: dict) -> None:
        visible = dict(visible)
        for prm in _parameters(func):
            if isinstance(prm, c_ast.Decl) and prm.name:
                visible[prm.name] = ("param", prm)
        self.function = func
        self.count = 0
        self._compound(func.body, visible, [])

    # -- blocks ---------------------------------------------------------------------------

    def _compound(self, block: c_ast.Compound, visible: dict, loops: list) -> None:
        visible = dict(visible)
        open_site: RegionSite | None = None
        open_data: list[RawDirective] = []
        claim = split = None
        data_after = None   # a data construct whose statement is the next directive's (h92)
        for item in block.block_items or []:
            if claim is not None and claim[0] == "data" and self._construct_pragma(item):
                # ``#pragma acc data ...`` over ``#pragma acc parallel loop`` (``omp target
                # data`` over ``omp parallel``): that directive's construct is the data
                # construct's statement; it ends where the directive's statement does
                data_after, claim = claim[1], None
            if claim is not None and claim[0] == "data":
                claim = self._close_structured_data(claim[1], item, visible, loops, open_data)
                continue
            if claim is not None and split is None and self._split_construct(claim, item):
                split = item      # ``teams`` then ``distribute parallel for``: its for next
                continue
            if split is not None:
                inner = self.claims[self._claim_line(split)][0]
                self._parallel_site(*claim, c_ast.Compound([split, item], split.coord),
                                    visible, loops, after=inner)
                if data_after is not None:
                    self._end_structured_data(data_after, inner, visible, open_data)
                    data_after = None
                claim = split = None
                continue
            if claim is not None:
                self._claim_site(claim, item, visible, loops)
                if data_after is not None:
                    self._end_structured_data(data_after, claim[0], visible, open_data)
                    data_after = None
                claim = None
                continue
            if self._claim_line(item) in self.claims and open_site is None:
                claim = self._foreign(item, visible, open_data)
                continue
            if is_translate_pragma(item) and self._data_pragma(item, open_site, visible,
                                                                open_data):
                continue
            if is_translate_pragma(item):
                open_site = self._pragma(item, open_site, visible, loops)
            elif open_site is not None:
                open_site.statements.append(item)
            else:
                if isinstance(item, c_ast.Decl) and item.name:
                    visible[item.name] = (_storage(item), item)
                self._nested(item, visible, loops)
        if open_site is not None:
            self._unterminated(open_site)
        if open_data:
            raise FrontendError("data region not closed: no 'end data' directive in the same "
                                "block", open_data[-1].span)

    def _claim_line(self, item: c_ast.Node) -> int:
        if not isinstance(item, c_ast.Pragma) or item.coord is None:
            return 0
        return item.coord.line

    def _foreign(self, item: c_ast.Pragma, visible: dict, open_data: list[RawDirective]):
        """An OpenMP/OpenACC directive: a data claim is recorded as the data directive it
        stands for; a loop claim is returned (its loop is the next item); others are left."""
        raw, claim = self.claims[item.coord.line]
        if isinstance(claim, (LoopClaim, ParallelOpen)):
            return raw, claim
        text = claim.translate_text if isinstance(claim, DataClaim) else (
            "end data" if isinstance(claim, EndDirective) and claim.words[-1:] == ("data",)
            else None)
        if text is not None:
            self._record_data(raw, parse_directive(text, raw.span), None, visible, open_data)
        # C has no end directive for a data construct: it covers the statement after it
        return ("data", raw) if text is not None and text.startswith("data ") else None

    def _construct_pragma(self, item: c_ast.Node) -> bool:
        """Whether `item` is a loop or ``parallel`` directive (whose statement follows)."""
        found = self.claims.get(self._claim_line(item))
        return isinstance(item, c_ast.Pragma) and found is not None and isinstance(
            found[1], (LoopClaim, ParallelOpen))

    def _close_structured_data(self, raw: RawDirective, item: c_ast.Node, visible: dict,
                               loops: list, open_data: list[RawDirective]) -> None:
        """The statement after a data construct, then its end (an ``end data`` at the start
        of the line after the statement)."""
        if isinstance(item, c_ast.Decl) and item.name:
            visible[item.name] = (_storage(item), item)
        self._nested(item, visible, loops)
        self._end_structured_data(raw, raw, visible, open_data)

    def _end_structured_data(self, raw: RawDirective, before: RawDirective, visible: dict,
                             open_data: list[RawDirective]) -> None:
        """The end of the data construct `raw`: after the statement that follows the
        directive `before` (`raw` itself, or the construct directive after it)."""
        stop = statement_end(self.src.text, before.end, raw.span, "the data construct")
        last = self.src.text.count("\n", 0, stop - 1) + 1
        at = self.src.line_offset(last + 1) if last < len(self.src.lines) else len(self.src.text)
        end = RawDirective(line=last, last_line=last, start=at, end=at, indent=raw.indent,
                           text="end data", span=raw.span)
        self._record_data(end, parse_directive("end data", raw.span), None, visible, open_data)

    def _claim_site(self, found: tuple, item: c_ast.Node, visible: dict, loops: list) -> None:
        """The region of a loop claim: the directive and the for statement after it."""
        raw, claim = found
        what = spelled(claim, "c")
        if isinstance(claim, ParallelOpen):
            self._parallel_site(raw, claim, item, visible, loops)
            return
        if not isinstance(item, c_ast.For):
            raise FrontendError(f"{what} must be followed by a for loop", raw.span)
        if self.team and claim.model == "openmp" and claim.name in ("for", "for simd"):
            template, assigned = self.team[-1]     # a worksharing loop of the team (h92)
            claim = replace(inherit(claim, template),
                            thread_private=thread_values(template, assigned, raw.line))
        end = _loop_end(self.src, raw, what)
        claim = self._with_inner(raw, claim, end.last_line)
        if claim is not None:
            first = line_of(self.src.text, first_word(self.src.text, raw.end)[1])
            self._new_claim_site(raw, end, [item], visible, loops, ((claim, first, what),)
                                 + self._nested_claims(raw, claim, end.last_line))

    def _nested_claims(self, raw: RawDirective, claim, last: int) -> tuple:
        """The claims of the loop directives inside the loop of `claim`, proven on its
        region too (`nested_claims`) (h16)."""
        inner = [(c, line_of(self.src.text, first_word(self.src.text, r.end)[1]),
                  spelled(c, "c"))
                 for line, (r, c) in sorted(self.claims.items())
                 if raw.line < line <= last and isinstance(c, LoopClaim)]
        return nested_claims(claim, inner)

    def _with_inner(self, raw: RawDirective, claim, last: int):
        """`claim` given the directives inside its loop (`with_inner_directives`); None, and
        the directive recorded as left as written, when the loop is not offloaded."""
        inner = [(c, self.src.line_text(r.last_line + 1) or "", r.last_line)
                 for line, (r, c) in sorted(self.claims.items()) if raw.line < line <= last]
        found = with_inner_directives(claim, inner, "c")
        if isinstance(found, str):
            self.claims[raw.line] = (raw, Untouched(model=claim.model, name=claim.name,
                                                    span=claim.span, reason=found,
                                                    carries_work=True))
            return None
        return found

    def _new_claim_site(self, raw: RawDirective, end: RawDirective, statements: list,
                        visible: dict, loops: list, claims: tuple) -> None:
        name = f"{self.function.decl.name}_{self.count}"
        self.count += 1
        site = RegionSite(name, self.function, raw, end, [], statements, dict(visible),
                          list(loops), claims=claims, marks=atomic_marks(claims))
        check_no_preprocessor_lines(self.src, name, raw, end)
        self.sites.append(site)

    def _split_construct(self, claim: tuple, item: c_ast.Node) -> bool:
        """Whether `item`, after the construct `claim` opens, is a loop directive whose for
        statement comes next: the construct's statement is that loop (``#pragma omp target
        teams`` over ``#pragma omp distribute parallel for``)."""
        found = self.claims.get(self._claim_line(item))
        return (isinstance(claim[1], ParallelOpen) and isinstance(item, c_ast.Pragma)
                and found is not None and isinstance(found[1], LoopClaim))

    def _parallel_site(self, raw: RawDirective, claim, item: c_ast.Node, visible: dict,
                       loops: list, after: RawDirective | None = None) -> None:
        """A ``parallel`` construct: one region when its block holds only worksharing loops
        (each with its directive), else left as written with the directives inside.
        `after`: the loop directive that `item` starts with when the construct's statement
        is that directive's loop (the construct then ends where the loop does)."""
        items = item.block_items or [] if isinstance(item, c_ast.Compound) else [item]
        claims, statements, why, code = [], [], "", False
        for k, node in enumerate(items):
            found = self.claims.get(self._claim_line(node))
            if found and isinstance(found[1], LoopClaim) and k + 1 < len(items) \
                    and isinstance(items[k + 1], c_ast.For):
                stop = statement_end(self.src.text, found[0].end, found[0].span,
                                     spelled(found[1], "c"))
                stop_line = self.src.text.count("\n", 0, stop - 1) + 1
                own = self._with_inner(found[0], found[1], stop_line)
                if own is None:
                    why = why or f"its loop at line {found[0].line} is not offloaded"
                    continue
                own = inherit(own, claim.claim)
                claims.append((own, items[k + 1].coord.line if items[k + 1].coord else 0,
                               spelled(found[1], "c")))
                # loop directives nested in its loop are claims too, as for a combined one
                claims += self._nested_claims(found[0], claim.claim, stop_line)
            elif isinstance(node, c_ast.For) and claims and claims[-1][1] == node.coord.line:
                statements.append(node)
            elif claim.model == "openacc" and not isinstance(node, c_ast.Pragma):
                statements.append(node)   # an OpenACC construct is one region (h16)
            else:
                code = code or not why
                why = why or (f"line {node.coord.line if node.coord else '?'} holds code "
                              "outside its worksharing loops (every thread runs it)")
        end = statement_end(self.src.text, (after or raw).end, raw.span, spelled(claim, "c"))
        last = self.src.text.count("\n", 0, end - 1) + 1
        if code and claim.model == "openmp" and claim.claim.name == "parallel" \
                and after is None and isinstance(item, c_ast.Compound):
            why = self._team_site(raw, claim, item, visible, loops)
            if not why:
                return
        if why or not (claims or statements):
            for line in [ln for ln in self.claims if raw.line < ln <= last]:
                del self.claims[line]   # left as written with the construct
            self.claims[raw.line] = (raw, parallel_left(claim, why or "it holds no "
                                                        "worksharing loop"))
            return
        end_raw = RawDirective(line=last, last_line=last, start=self.src.line_offset(last),
                               end=self.src.line_offset(last + 1) if last < len(self.src.lines)
                               else len(self.src.text), indent="", text="",
                               span=self.src.span(last))
        self._new_claim_site(raw, end_raw, statements, visible, loops, tuple(claims))

    def _team_site(self, raw: RawDirective, claim, block: c_ast.Compound, visible: dict,
                   loops: list) -> str:
        """An OpenMP ``parallel`` construct with code between its worksharing loops: each
        ``omp for`` loop its own region (called under ``single`` in a build with -fopenmp, as
        an orphaned loop), the code between left on the host, if running it once does what
        every thread running it does (`frontends.c.teams`); else why not (h92)."""
        template = claim.claim
        team = TeamCode(self.claims, self.functions)
        why = ("its reduction clause combines each thread's copy, which code run once does "
               "not give" if template.reductions else "") or team.problem(
            block, set(template.private) | set(template.firstprivate)
            | self._threadprivate())
        if why:
            return why
        self.claims[raw.line] = (raw, Untouched(
            model=claim.model, name=template.name or "parallel", span=raw.span,
            reason=TEAM_REASON))
        # a variable declared in the construct is private to each thread, as if listed
        template = replace(template, private=template.private + tuple(
            n for n in team.declared if n not in template.listed()))
        # (inside a data region of the function the user placed the data: leave it there)
        inside = sum({"data": 1, "end_data": -1}.get(d.kind, 0)
                     for _, d, f, _ in self.data if f is self.function)
        resident = [] if inside else resident_arrays(team, block, {
            n for n, (storage, decl) in visible.items()
            if storage != "param" and _sized_array(decl)}, {
            n for n, (storage, decl) in visible.items()
            if isinstance(getattr(decl, "type", None), c_ast.PtrDecl)
            or storage == "param" and isinstance(getattr(decl, "type", None), c_ast.ArrayDecl)})
        opened: list[RawDirective] = []
        first_site = len(self.sites)
        if resident:   # a data region around the construct keeps them on the device
            at = self.src.line_offset(raw.line)
            begin = RawDirective(line=raw.line, last_line=raw.line, start=at, end=at,
                                 indent=raw.indent, text="", span=raw.span)
            self._record_data(begin, parse_directive(f"data copy({', '.join(resident)})",
                                                     raw.span), None, visible, opened)
        self.team.append((template, team.assigned))
        try:
            self._nested(block, visible, loops)
        finally:
            self.team.pop()
        if resident:
            self._end_structured_data(raw, raw, visible, opened)
            self.auto_data.append((self.data[-2][0], self.data[-1][0],
                                   {site.name for site in self.sites[first_site:]}))
        return ""

    def without_auto_data(self, failed: set[str]) -> bool:
        """Drop the data regions put around constructs holding a region of `failed` (left
        on the host, its loop would read stale arrays); whether any went."""
        gone = {id(r) for begin, end, names in self.auto_data if names & failed
                for r in (begin, end)}
        self.data = [entry for entry in self.data if id(entry[0]) not in gone]
        return bool(gone)

    def _threadprivate(self) -> set[str]:
        """The variables ``#pragma omp threadprivate(list)`` directives of the file name."""
        out: set[str] = set()
        for raw, c in self.claims.values():
            if isinstance(c, Untouched) and c.name == "threadprivate":
                inside = raw.text.partition("(")[2].rpartition(")")[0]
                out |= {n.strip() for n in inside.split(",") if n.strip()}
        return out

    def _data_pragma(self, node: c_ast.Pragma, site: RegionSite | None, visible: dict,
                     open_data: list[RawDirective]) -> bool:
        """Records a data directive (checking that data/end data pair up in one block);
        False if `node` is another directive."""
        raw, d = self._directive(node)
        if d.kind not in DATA_KINDS:
            return False
        self._record_data(raw, d, site, visible, open_data)
        return True

    def _record_data(self, raw: RawDirective, d: Directive, site: RegionSite | None,
                     visible: dict, open_data: list[RawDirective]) -> None:
        if site is not None:
            raise FrontendError(f"data directive inside kernel region {site.name!r}: data "
                                "directives belong in host code, around regions", d.span)
        if d.kind == "data":
            open_data.append(raw)
        elif d.kind == "end_data":
            if not open_data:
                raise FrontendError("'end data' without a matching 'data' directive in the "
                                    "same block", d.span)
            open_data.pop()
        self.data.append((raw, d, self.function, dict(visible)))

    def _pragma(self, node: c_ast.Pragma, site: RegionSite | None, visible: dict,
                loops: list) -> RegionSite | None:
        raw, d = self._directive(node)
        if d.kind == "kernel":
            if site is not None:
                raise FrontendError(f"nested region: a 'kernel' directive inside region "
                                    f"{site.name!r} (started at {site.kernel.span})", d.span)
            name = d.name or f"{self.function.decl.name}_{self.count}"
            self.count += 1
            return RegionSite(name, self.function, raw, raw, [], [], dict(visible), list(loops),
                              async_queue=directive_async(d))
        if d.kind == "end_kernel":
            if site is None:
                raise FrontendError("'end kernel' without a matching 'kernel' directive in the "
                                    "same block", d.span)
            site.end = raw
            check_no_preprocessor_lines(self.src, site.name, site.kernel, raw)
            site.marks = self._marks(site)
            self.sites.append(site)
            return None
        if d.kind in ("mark", "block", "end_block"):
            if site is None:
                raise FrontendError("statement directive outside a kernel region", d.span)
            return site
        if site is None or site.statements:
            raise FrontendError(f"transform directive {d.name!r} outside the head of a region: "
                                "transform calls must directly follow a 'kernel' directive",
                                d.span)
        site.calls.append(TransformCall(name=d.name, args=d.args, kwargs=d.kwargs, span=d.span))
        return site

    def _marks(self, site: RegionSite) -> tuple[StatementMark, ...]:
        """The region's statement directives, read from the text between its pragmas (they
        may sit in nested blocks of the region)."""
        collector = StatementMarkCollector()
        lines = self.raw_lines
        first = bisect.bisect_right(lines, site.kernel.line)
        for line in lines[first:bisect.bisect_left(lines, site.end.line, first)]:
            d = parse_directive(self.raw[line].text, self.raw[line].span)
            if d.kind in ("mark", "block", "end_block"):
                collector.add(d, self.raw[line].last_line)
            elif d.kind in DATA_KINDS:
                raise FrontendError(f"data directive inside kernel region {site.name!r}: data "
                                    "directives belong in host code, around regions", d.span)
        return collector.finish(site.end.span)

    def _directive(self, node: c_ast.Pragma) -> tuple[RawDirective, Directive]:
        line = node.coord.line if node.coord is not None else 0
        raw = self.raw.get(line)
        if raw is None:
            span = self.src.span(line) if line else None
            raise FrontendError("translate directives must be written as '#pragma translate' "
                                "lines of the file itself (not produced by macros or "
                                "included files)", span)
        return raw, parse_directive(raw.text, raw.span)

    def _unterminated(self, site: RegionSite) -> None:
        # An 'end kernel' hidden by a conditional explains the problem better.
        for line in sorted(ln for ln in self.raw if ln > site.kernel.line):
            kind = parse_directive_kind(self.raw[line])
            if kind == "end_kernel":
                check_no_preprocessor_lines(self.src, site.name, site.kernel, self.raw[line])
            if kind in ("end_kernel", "kernel"):
                break
        raise FrontendError(f"unterminated region {site.name!r}: no 'end kernel' directive "
                            "in the same block", site.kernel.span)

    def _nested(self, node: c_ast.Node, visible: dict, loops: list) -> None:
        """Look for blocks inside a statement (regions may be in nested blocks)."""
        if node is None:
            return
        if is_translate_pragma(node):
            _, d = self._directive(node)
            raise FrontendError("a translate directive must be a statement of a block "
                                "(put braces around the statement)", d.span)
        if isinstance(node, c_ast.Compound):
            self._compound(node, visible, loops)
            return
        if isinstance(node, (c_ast.For, c_ast.While, c_ast.DoWhile)):
            inner = dict(visible)
            if isinstance(node, c_ast.For) and isinstance(node.init, c_ast.DeclList):
                inner.update({d.name: ("local", d) for d in node.init.decls if d.name})
            self._nested(node.stmt, inner, loops + [node])
            return
        for _, child in node.children():
            if isinstance(child, (c_ast.Compound, c_ast.Pragma)) or _is_statement(child):
                self._nested(child, visible, loops)


def _loop_end(src: SourceText, raw: RawDirective, what: str) -> RawDirective:
    """A pseudo end directive for the for loop after a loop directive `raw`: the loop's last
    line, whole (the rewrite replaces through the end of that line)."""
    word, start = first_word(src.text, raw.end)
    if word != "for":
        raise FrontendError(f"{what} must be followed by a for loop", raw.span)
    end = statement_end(src.text, start, raw.span, what)
    line = line_of(src.text, end - 1)
    after = src.line_offset(line + 1) if line < len(src.lines) else len(src.text)
    rest = src.text[end:after].strip()
    if rest and not rest.startswith(("//", "/*")):
        raise FrontendError(f"{what}: the loop ends in the middle of line {line}; put the code "
                            "after it on a line of its own", raw.span)
    return RawDirective(line=line, last_line=line, start=src.line_offset(line), end=after,
                        indent="", text="", span=src.span(line))


def _sized_array(decl: c_ast.Node) -> bool:
    """Whether `decl` declares an array with constant extents (a data clause can name it
    whole)."""
    node = getattr(decl, "type", None)
    if not isinstance(node, c_ast.ArrayDecl):
        return False
    while isinstance(node, c_ast.ArrayDecl):
        if not isinstance(node.dim, (c_ast.Constant, c_ast.BinaryOp, c_ast.ID)):
            return False
        node = node.type
    return True


def _parameters(func: c_ast.FuncDef) -> list[c_ast.Node]:
    node = func.decl.type
    while node is not None and not isinstance(node, c_ast.FuncDecl):
        node = getattr(node, "type", None)
    if node is None or node.args is None:
        return []
    return list(node.args.params)


def _storage(decl: c_ast.Decl) -> str:
    """Block-scope statics and externs outlive the function: they behave like globals."""
    return "global" if set(decl.storage or ()) & {"static", "extern"} else "local"


def parse_directive_kind(raw: RawDirective) -> str | None:
    try:
        return parse_directive(raw.text, raw.span).kind
    except FrontendError:
        return None


_STATEMENTS = (c_ast.If, c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.Switch, c_ast.Case,
               c_ast.Default, c_ast.Label)


def _is_statement(node: c_ast.Node) -> bool:
    return isinstance(node, _STATEMENTS)
