"""The stale-data check (``-Wstale-host-access``), for both languages.

Inside a data region, an array listed in its clauses lives on the device.  Scanning the
procedure's text in order from the ``data`` directive to its ``end data``:

- a host statement that reads or writes an array which a kernel region wrote on the device,
  without ``update host(...)`` of it in between, sees stale data;
- a host statement that writes such an array, followed by a region that uses it without
  ``update device(...)`` in between, changes data the device never sees.

Both get a warning at the host statement, naming the region.  The scan is textual and in source
order (a loop's back edge is not followed); an update of part of an array counts for all of it.

Calls are followed: a call of a procedure the file defines is scanned as if the procedure's
executable text stood at the call, its dummy arguments renamed to the arrays passed (by
position or keyword), transitively (a recursive call is not re-entered).  So a region inside
the callee leaves the array newer on the device, and a host read inside it (however deep) is
reported at the outermost call, naming the procedure and the line of the read; passing an
array to a procedure that does not touch it is no access.  Passing an array of the data region
to a procedure the file does not define is a warning of its own: the translator cannot see what
it does.

MPI routines (C ``MPI_*``, Fortran ``mpi``/``mpi_f08``: `MPI_BUFFERS`) are known: the arrays
passed as send buffers are host reads, those passed as receive buffers host writes (``MPI_Bcast``
and ``MPI_Sendrecv_replace``: both; with ``MPI_IN_PLACE`` a collective's receive buffer is read
too), so a halo exchange between ``update host`` and ``update device`` of the halo sections is
no warning, and a send of data the device changed since is.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from frontends.partial_updates import outside_update, section_bounds
from frontends.pragmas import Directive, data_clauses, directive_async
from translator.patterns import LazyPattern
from translator.records import dataclass

_NAME = re.compile(r"[A-Za-z_]\w*")
_KEYWORD = LazyPattern(r"\s*([A-Za-z_]\w*)\s*=(?!=)\s*(.*)$", re.S)


@dataclass(frozen=True, slots=True)
class StaleScan:
    """What one data region holds, by source line (lines are 1-based)."""

    code: dict[int, str]                     # host code lines (comments and strings removed)
    open_line: int                           # the data directive
    close_line: int                          # its end data
    resident: frozenset[str]                 # arrays of the region's clauses (folded)
    regions: tuple[tuple[int, int, str], ...]  # kernel regions: first line, last line, name
    #: line -> (direction, arrays, {array: section text} of the items with a section)
    updates: dict[int, tuple[tuple[str, frozenset[str], dict[str, str]], ...]]
    inner_data: dict[int, frozenset[str]]    # nested data / enter data lines -> arrays


@dataclass(frozen=True, slots=True)
class StaleAccess:
    line: int
    name: str
    message: str


@dataclass(frozen=True, slots=True)
class Callee:
    """A procedure of the input whose body the scan can follow into: its dummy arguments
    (folded, in order) and its executable body as a `StaleScan` (`resident`: the dummies)."""

    name: str
    dummies: tuple[str, ...]
    body: StaleScan


@dataclass(frozen=True, slots=True)
class Dialect:
    """What the scan needs to know of a language."""

    writes: Callable[[str], set[str]]
    fold: Callable[[str], str]
    sentinel: str
    #: (callee, actual argument texts) of each call in a line of host code.
    calls: Callable[[str], list[tuple[str, list[str]]]] = lambda text: []
    #: The array an actual argument passes (``u``, ``u(1, k)``, ``&u[3]``), or None.
    passed: Callable[[str], str | None] = lambda arg: None


def scan(s: StaleScan, dialect: Dialect, procedures: dict[str, Callee] | None = None
         ) -> list[StaleAccess]:
    """The stale host accesses of one data region, following calls into `procedures`."""
    scanner = _Scanner(dialect, procedures or {}, s.open_line)
    scanner.own = s
    scanner.run(s, set(s.resident), None)
    return scanner.out


@dataclass(frozen=True, slots=True)
class _Site:
    """The call in the data region's own procedure that the scan is inside (line, callee)."""

    line: int
    name: str


class _Scanner:
    """Walks a data region in source order, and the bodies of the procedures it calls as if
    their text stood at the call (dummies renamed to the caller's arrays)."""

    def __init__(self, dialect: Dialect, procedures: dict[str, Callee], open_line: int
                 ) -> None:
        self.d = dialect
        self.procedures = procedures
        self.open_line = open_line
        self.on_device: dict[str, str] = {}   # array -> region that last wrote it there
        self.host_wrote: dict[str, int] = {}  # array -> host line that wrote it since
        #: array -> (section bounds, update line, region, section text): brought back in
        #: part only
        self.partial: dict[str, tuple[tuple, int, str, str]] = {}
        self.out: list[StaleAccess] = []
        self.active: list[str] = []           # callees being walked (no recursion)
        self.own: StaleScan | None = None     # the data region's own text

    def run(self, s: StaleScan, resident: set[str], site: _Site | None,
            rename: dict[str, str] | None = None) -> None:
        """Walk `s` from its open line to its close line; `rename` maps a callee's dummies to
        the data region's arrays (None: the data region's own text)."""
        name_of = (lambda n: n) if rename is None else rename.get
        region_at = {first: (first, last, name) for first, last, name in s.regions}
        line = s.open_line + 1
        while line < s.close_line:
            if line in region_at:
                first, last, name = region_at[line]
                self._region(s, first, last, name, name_of, resident, site)
                line = last + 1
                continue
            if line in s.updates:
                for direction, arrays, sections in s.updates[line]:
                    for a in filter(None, map(name_of, arrays)):
                        self._update(a, direction, sections, line, rename is None)
            elif line in s.inner_data:
                resident |= set(filter(None, map(name_of, s.inner_data[line])))
            elif line in s.code:
                self._host_line(s.code[line], line, name_of, resident, site)
            line += 1

    def _region(self, s: StaleScan, first: int, last: int, name: str, name_of,
                resident: set[str], site: _Site | None) -> None:
        body = "\n".join(s.code.get(k, "") for k in range(first + 1, last + 1))
        where = f"region '{name}'" if site is None else \
            f"region '{name}' (in '{self.active[-1]}', called at line {site.line})"
        fold = self.d.fold
        used = {name_of(fold(n)) for n in _NAME.findall(body)} & resident
        for a in sorted(used):
            if a in self.host_wrote:
                self.out.append(StaleAccess(self.host_wrote.pop(a), a, (
                    f"host code writes '{a}', which is on the device (data region at line "
                    f"{self.open_line}), and {where} uses it there without "
                    f"'{self.d.sentinel} update device({a})' between them")))
        for a in {name_of(fold(n)) for n in self.d.writes(body)} & resident:
            self.on_device[a] = where
            self.partial.pop(a, None)

    def _update(self, a: str, direction: str, sections: dict[str, str], line: int,
                own: bool) -> None:
        """An update of `a` at `line`; an ``update host`` of a section of it (in the data
        region's own text) leaves the rest stale (`frontends.partial_updates`)."""
        if direction != "host":
            self.host_wrote.pop(a, None)
            return
        region = self.on_device.pop(a, None)
        self.partial.pop(a, None)
        bounds = section_bounds(sections.get(a, ""), self._fortran) if own else ()
        if region is not None and bounds:
            self.partial[a] = (bounds, line, region, sections[a])

    @property
    def _fortran(self) -> bool:
        return self.d.sentinel.startswith("!")

    def _host_line(self, text: str, line: int, name_of, resident: set[str],
                   site: _Site | None) -> None:
        passed = self._calls(text, line, name_of, resident, site)
        fold = self.d.fold
        used = ({name_of(fold(n)) for n in _NAME.findall(text)} & resident) - passed
        at = line if site is None else site.line
        for a in sorted(used):
            if a in self.on_device:
                self.out.append(StaleAccess(at, a, self._stale_message(a, line, site)))
            elif a in self.partial and site is None:
                self._partial_use(a, line)
        for a in ({name_of(fold(n)) for n in self.d.writes(text)} & resident) - passed:
            self.host_wrote.setdefault(a, at)

    def _partial_use(self, a: str, line: int) -> None:
        """A host use of `a`, which an ``update host`` brought back in part: a warning when
        the use reaches outside that part."""
        bounds, update_line, region, section = self.partial[a]
        outside = outside_update(self.own.code, line, self.open_line, a, bounds, self._fortran)
        if not outside:
            return
        del self.partial[a]
        self.out.append(StaleAccess(line, a, (
            f"host code uses {outside}, outside {a}{section}, the part that the update at "
            f"line {update_line} brought back; {region} last wrote the rest on the device "
            f"(data region at line {self.open_line}): add '{self.d.sentinel} update "
            f"host(...)' of what this statement uses before it")))

    def _stale_message(self, a: str, line: int, site: _Site | None) -> str:
        region = self.on_device.pop(a)
        fix = f"add '{self.d.sentinel} update host({a})' before this"
        if site is None:
            return (f"host code reads or writes '{a}', which {region} last wrote on "
                    f"the device (data region at line {self.open_line}): {fix} statement")
        return (f"the call of '{site.name}' reads or writes '{a}' on the host (in "
                f"'{self.active[-1]}', line {line}), which {region} last wrote on the device "
                f"(data region at line {self.open_line}): {fix} call")

    def _calls(self, text: str, line: int, name_of, resident: set[str],
               site: _Site | None) -> set[str]:
        """Follow the calls of a host line; the arrays they pass (handled here)."""
        handled: set[str] = set()
        for callee, args in self.d.calls(text):
            actual = self._actual(args, name_of)
            arrays = {a for a in actual.values() if a in resident}
            handled |= arrays
            target = self.procedures.get(self.d.fold(callee))
            here = site or _Site(line, callee)
            if target is None and mpi_buffers(callee) is not None:
                self._mpi(callee, args, actual, resident, line, site)
            elif target is None:
                self._unseen(callee, sorted(arrays), here.line)
            elif target.name not in self.active:
                rename = {d: actual.get(k, actual.get(d)) for k, d in enumerate(target.dummies)}
                rename = {d: a for d, a in rename.items() if a in resident}
                self.active.append(target.name)
                self.run(target.body, set(rename.values()), here, rename)
                self.active.pop()
        return handled

    def _mpi(self, callee: str, args: list[str], actual: dict[int | str, str | None],
             resident: set[str], line: int, site: _Site | None) -> None:
        """An MPI routine: its send buffers are host reads, its receive buffers host writes."""
        in_place = any(re.fullmatch(r"\s*mpi_in_place\s*", a, re.I) for a in args)
        at = line if site is None else site.line
        for position, keyword, mode in mpi_buffers(callee) or ():
            a = actual.get(position, actual.get(keyword))
            if a not in resident:
                continue
            role = {"r": "send buffer", "w": "receive buffer", "rw": "buffer"}[mode]
            if ("r" in mode or in_place) and a in self.on_device:
                region = self.on_device.pop(a)
                self.out.append(StaleAccess(at, a, (
                    f"'{callee}' reads '{a}' on the host (its {role}), which {region} last "
                    f"wrote on the device (data region at line {self.open_line}): add "
                    f"'{self.d.sentinel} update host({a})' before the call")))
            if "w" in mode:
                self.host_wrote.setdefault(a, at)

    def _actual(self, args: list[str], name_of) -> dict[int | str, str | None]:
        """The array each actual argument passes, by position or by keyword (folded)."""
        out: dict[int | str, str | None] = {}
        for k, arg in enumerate(args):
            m = _KEYWORD.match(arg)
            key: int | str = self.d.fold(m.group(1)) if m else k
            array = self.d.passed(m.group(2) if m else arg)
            out[key] = name_of(self.d.fold(array)) if array else None
        return out

    def _unseen(self, callee: str, arrays: list[str], line: int) -> None:
        for a in arrays:
            self.on_device.pop(a, None)
            self.host_wrote.pop(a, None)
            self.out.append(StaleAccess(line, a, (
                f"'{a}' is on the device (data region at line {self.open_line}) and is passed "
                f"to '{callee}', which the translator cannot see (it is not defined in this "
                f"file): if '{callee}' reads '{a}', add '{self.d.sentinel} update host({a})' "
                f"before the call; if it writes '{a}', add '{self.d.sentinel} update "
                f"device({a})' after it")))


def _buffers(send: int | None, recv: int | None, *, both: int | None = None
             ) -> tuple[tuple[int, str, str], ...]:
    out = []
    if send is not None:
        out.append((send, "sendbuf", "r"))
    if recv is not None:
        out.append((recv, "recvbuf", "w"))
    if both is not None:
        out.append((both, "buffer", "rw"))
    return tuple(out)


#: The buffer arguments of MPI routines (lower-case names): (position from 0, the mpi_f08
#: keyword, "r" for a buffer the routine reads on the host, "w" for one it writes, "rw").
#: Nonblocking routines count at their call (their wait is not followed).
MPI_BUFFERS: dict[str, tuple[tuple[int, str, str], ...]] = {
    **{f"mpi_{k}send": ((0, "buf", "r"),) for k in ("", "b", "s", "r", "i", "ib", "is", "ir")},
    **{f"mpi_{k}recv": ((0, "buf", "w"),) for k in ("", "i", "m", "im")},
    "mpi_sendrecv": _buffers(0, 5), "mpi_isendrecv": _buffers(0, 5),
    "mpi_sendrecv_replace": ((0, "buf", "rw"),), "mpi_bcast": ((0, "buffer", "rw"),),
    "mpi_ibcast": ((0, "buffer", "rw"),),
    **{f"mpi_{k}{op}": _buffers(0, 1) for k in ("", "i")
       for op in ("reduce", "allreduce", "scan", "exscan", "reduce_scatter",
                  "reduce_scatter_block")},
    **{f"mpi_{k}{op}": _buffers(0, 3) for k in ("", "i")
       for op in ("gather", "allgather", "scatter", "alltoall", "gatherv", "allgatherv")},
    **{f"mpi_{k}{op}": _buffers(0, 4) for k in ("", "i")
       for op in ("scatterv", "alltoallv", "alltoallw")},
    "mpi_pack": ((0, "inbuf", "r"), (3, "outbuf", "w")),
    "mpi_unpack": ((0, "inbuf", "r"), (2, "outbuf", "w")),
    "mpi_put": ((0, "origin_addr", "r"),), "mpi_get": ((0, "origin_addr", "w"),),
    "mpi_accumulate": ((0, "origin_addr", "r"),),
}


def mpi_buffers(callee: str) -> tuple[tuple[int, str, str], ...] | None:
    """The buffer arguments of an MPI routine (`MPI_BUFFERS`), or None for another name."""
    return MPI_BUFFERS.get(callee.lower())


def fortran_writes(text: str) -> set[str]:
    """Names assigned by Fortran statements in `text` (``a = ``, ``a(i) = ``)."""
    out = set()
    for stmt in re.split(r"[;\n]", text):
        m = re.match(r"\s*(?:\d+\s+)?(?:if\s*\(.*\)\s*)?([A-Za-z_]\w*)\s*(\(.*\))?\s*=(?!=)",
                     stmt, re.I)
        if m:
            out.add(m.group(1))
    return out


def c_writes(text: str) -> set[str]:
    """Names assigned in C text (``a = ``, ``a[i] += ``, ``a[i]++``)."""
    pattern = (r"([A-Za-z_]\w*)\s*(?:\[[^;=]*?\]\s*)*(?:(?:[-+*/%&|^]|<<|>>)?=(?!=)"
               r"|\+\+|--)")
    return set(re.findall(pattern, text))


def fortran_calls(text: str) -> list[tuple[str, list[str]]]:
    """``call p(a, b)`` statements of Fortran text: (p, actual argument texts)."""
    out = []
    for m in re.finditer(r"\bcall\s+([A-Za-z_]\w*)\s*", text, re.I):
        inner = _parenthesised(text, m.end())
        out.append((m.group(1), split_arguments(inner) if inner else []))
    return out


def fortran_passed(arg: str) -> str | None:
    """The array a Fortran actual argument passes: ``u``, ``u(1, k)``, ``u(:, k)``."""
    m = re.match(r"\s*([A-Za-z_]\w*)\s*", arg)
    if m is None:
        return None
    rest = arg[m.end():]
    if rest.startswith("("):
        inner = _parenthesised(rest, 0)
        rest = rest[len(inner or "") + 2:] if inner is not None else rest
    return m.group(1) if not rest.strip() else None


_NOT_CALLS = frozenset({"if", "for", "while", "switch", "return", "sizeof", "do", "else",
                        "case", "_Alignof", "defined"})


def c_calls(text: str) -> list[tuple[str, list[str]]]:
    """Function calls of C text: (function, actual argument texts)."""
    out = []
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*(?=\()", text):
        if m.group(1) in _NOT_CALLS:
            continue
        inner = _parenthesised(text, m.end())
        out.append((m.group(1), split_arguments(inner) if inner else []))
    return out


def c_passed(arg: str) -> str | None:
    """The array a C argument points into: ``u``, ``u + k``, ``&u[k]`` (not ``u[k]``, a
    value the caller reads)."""
    m = re.fullmatch(r"\s*&\s*\(?\s*([A-Za-z_]\w*)\s*\[.*\]\s*\)?\s*", arg, re.S) or \
        re.fullmatch(r"\s*\(?\s*([A-Za-z_]\w*)\s*\)?\s*([-+][^,]*)?", arg, re.S)
    return m.group(1) if m else None


def _parenthesised(text: str, at: int) -> str | None:
    """The text inside the parentheses that open at `text[at]` (blanks before it skipped), or
    None when no '(' is there or it is not closed on the line."""
    while at < len(text) and text[at] in " \t":
        at += 1
    if at >= len(text) or text[at] != "(":
        return None
    depth = 0
    for k in range(at, len(text)):
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(text[k], 0)
        if depth == 0:
            return text[at + 1:k]
    return None


def split_arguments(inner: str) -> list[str]:
    """Comma-separated arguments at the top level of `inner`."""
    out, depth, start = [], 0, 0
    for k, ch in enumerate(inner):
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            out.append(inner[start:k])
            start = k + 1
    out.append(inner[start:])
    return [a for a in out if a.strip()]


def join_statements(code: dict[int, str], continues: Callable[[str], bool],
                    joined: Callable[[str, str], str]) -> dict[int, str]:
    """`code` with each statement that spans lines joined onto its first line (the others left
    empty), so that a call whose arguments span lines is seen whole."""
    out, lines, k = dict(code), sorted(code), 0
    while k < len(lines):
        first, text = lines[k], code[lines[k]]
        while continues(text) and k + 1 < len(lines):
            k += 1
            text = joined(text, code[lines[k]])
            out[lines[k]] = ""
        out[first] = text
        k += 1
    return out


def fortran_continues(text: str) -> bool:
    """A free-form line that continues on the next (a trailing '&')."""
    return text.rstrip().endswith("&")


def fortran_joined(text: str, more: str) -> str:
    more = more.lstrip()
    return text.rstrip()[:-1] + " " + (more[1:] if more.startswith("&") else more)


def c_continues(text: str) -> bool:
    """A C line whose parentheses are not closed (a call's arguments go on)."""
    return text.count("(") > text.count(")")


def c_joined(text: str, more: str) -> str:
    return text + " " + more.strip()


def strip_fortran(line: str) -> str:
    """A Fortran line without strings and its trailing comment."""
    return re.sub(r"'[^']*'|\"[^\"]*\"", " ", line).split("!")[0]


def strip_c(text: str) -> str:
    """C text without comments and string literals; line breaks are kept."""
    def blank(m: re.Match) -> str:
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", blank,
                  text, flags=re.S)


def data_region_scans(code: dict[int, str], directives: list[tuple[int, Directive]],
                      regions: list[tuple[int, int, str]],
                      fold: Callable[[str], str]) -> list[StaleScan]:
    """One scan per outermost data region; `directives` are (line, directive) in source order
    (data and end data already checked to pair up)."""
    scans, stack = [], []
    for line, d in directives:
        if d.kind == "data":
            stack.append(line)
        elif d.kind == "end_data" and stack:
            open_line = stack.pop()
            if not stack:
                scans.append(_scan_for(code, directives, regions, fold, open_line, line))
    return scans


def callee(name: str, dummies: tuple[str, ...], code: dict[int, str],
           directives: list[tuple[int, Directive]], regions: list[tuple[int, int, str]],
           fold: Callable[[str], str], first: int, last: int) -> Callee:
    """A procedure whose executable text is lines `first`..`last` (after its declarations),
    for `scan` to follow calls into."""
    body = _scan_for(code, directives, regions, fold, first - 1, last + 1)
    folded = tuple(fold(d) for d in dummies)
    return Callee(fold(name), folded, replace(body, resident=frozenset(folded)))


def _arrays(d: Directive, fold: Callable[[str], str], actions=None) -> frozenset[str]:
    return frozenset(fold(i.name) for c in data_clauses(d) for i in c.items
                     if actions is None or c.action in actions)


def _effective_line(line: int, d: Directive, action: str,
                    directives: list[tuple[int, Directive]], close_line: int) -> int | None:
    """Where the host sees what an update clause brings: its own line, or for ``update
    host(...) async(N)`` the first later ``wait`` that covers queue N before `close_line`
    (None: no such wait, the host never sees it in the region)."""
    queue = directive_async(d)
    if queue is None or action != "host":
        return line
    for later, w in directives:
        queues = dict(w.kwargs).get("queues", ())
        if line < later < close_line and w.kind == "wait" and (not queues or queue in queues):
            return later
    return None


def _scan_for(code, directives, regions, fold, open_line: int, close_line: int) -> StaleScan:
    updates, inner, resident = {}, {}, frozenset()
    for line, d in directives:
        if line == open_line:
            resident = _arrays(d, fold)
        elif open_line < line < close_line and d.kind == "update":
            for clause in data_clauses(d):
                at = _effective_line(line, d, clause.action, directives, close_line)
                if at is not None:
                    updates[at] = updates.get(at, ()) + (
                        (clause.action, _arrays(d, fold, (clause.action,)),
                         {fold(i.name): i.section for i in clause.items if i.section}),)
        elif open_line < line < close_line and d.kind in ("data", "enter_data"):
            inner[line] = _arrays(d, fold)
    inside = tuple(r for r in regions if open_line < r[0] < close_line)
    return StaleScan(code=code, open_line=open_line, close_line=close_line, resident=resident,
                     regions=inside, updates=updates, inner_data=inner)
