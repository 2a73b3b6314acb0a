"""The stale-data check (``-Wstale-host-access``), for both languages.

Inside a data region, an array listed in its clauses lives on the device.  Scanning the
procedure's text in order from the ``data`` directive to its ``end data``:

- a host statement that reads or writes an array which a kernel region wrote on the device,
  without ``update host(...)`` of it in between, sees stale data;
- a host statement that writes such an array, followed by a region that uses it without
  ``update device(...)`` in between, changes data the device never sees.

Both get a warning at the host statement, naming the region.  The scan is textual and in source
order (a loop's back edge is not followed); an update of part of an array counts for all of it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from frontends.pragmas import Directive, data_clauses

_NAME = re.compile(r"[A-Za-z_]\w*")


@dataclass(frozen=True, slots=True)
class StaleScan:
    """What one data region holds, by source line (lines are 1-based)."""

    code: dict[int, str]                     # host code lines (comments and strings removed)
    open_line: int                           # the data directive
    close_line: int                          # its end data
    resident: frozenset[str]                 # arrays of the region's clauses (folded)
    regions: tuple[tuple[int, int, str], ...]  # kernel regions: first line, last line, name
    updates: dict[int, tuple[tuple[str, frozenset[str]], ...]]  # line -> (direction, arrays)
    inner_data: dict[int, frozenset[str]]    # nested data / enter data lines -> arrays


@dataclass(frozen=True, slots=True)
class StaleAccess:
    line: int
    name: str
    message: str


def scan(s: StaleScan, writes: Callable[[str], set[str]], fold: Callable[[str], str],
         sentinel: str) -> list[StaleAccess]:
    """The stale host accesses of one data region."""
    resident = set(s.resident)
    on_device: dict[str, str] = {}          # array -> region that last wrote it there
    host_wrote: dict[str, int] = {}         # array -> host line that wrote it since
    out: list[StaleAccess] = []
    region_at = {first: (first, last, name) for first, last, name in s.regions}
    line = s.open_line + 1
    while line < s.close_line:
        if line in region_at:
            first, last, name = region_at[line]
            body = "\n".join(s.code.get(k, "") for k in range(first + 1, last))
            used = {fold(n) for n in _NAME.findall(body)} & resident
            for a in sorted(used):
                if a in host_wrote:
                    out.append(StaleAccess(host_wrote.pop(a), a, (
                        f"host code writes '{a}', which is on the device (data region at line "
                        f"{s.open_line}), and region '{name}' uses it there without "
                        f"'{sentinel} update device({a})' between them")))
            for a in {fold(n) for n in writes(body)} & resident:
                on_device[a] = name
            line = last + 1
            continue
        if line in s.updates:
            for direction, arrays in s.updates[line]:
                for a in arrays:
                    (on_device if direction == "host" else host_wrote).pop(a, None)
        elif line in s.inner_data:
            resident |= s.inner_data[line]
        elif line in s.code:
            out += _host_line(s, line, resident, on_device, host_wrote, writes, fold, sentinel)
        line += 1
    return out


def _host_line(s: StaleScan, line: int, resident: set[str], on_device: dict[str, str],
               host_wrote: dict[str, int], writes: Callable[[str], set[str]],
               fold: Callable[[str], str], sentinel: str) -> list[StaleAccess]:
    text = s.code[line]
    used = {fold(n) for n in _NAME.findall(text)} & resident
    out = []
    for a in sorted(used):
        if a in on_device:
            out.append(StaleAccess(line, a, (
                f"host code reads or writes '{a}', which region '{on_device.pop(a)}' last wrote "
                f"on the device (data region at line {s.open_line}): add "
                f"'{sentinel} update host({a})' before this statement")))
    for a in {fold(n) for n in writes(text)} & resident:
        host_wrote.setdefault(a, line)
    return out


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


def _arrays(d: Directive, fold: Callable[[str], str], actions=None) -> frozenset[str]:
    return frozenset(fold(i.name) for c in data_clauses(d) for i in c.items
                     if actions is None or c.action in actions)


def _scan_for(code, directives, regions, fold, open_line: int, close_line: int) -> StaleScan:
    updates, inner, resident = {}, {}, frozenset()
    for line, d in directives:
        if line == open_line:
            resident = _arrays(d, fold)
        elif open_line < line < close_line and d.kind == "update":
            updates[line] = tuple((c.action, _arrays(d, fold, (c.action,)))
                                  for c in data_clauses(d))
        elif open_line < line < close_line and d.kind in ("data", "enter_data"):
            inner[line] = _arrays(d, fold)
    inside = tuple(r for r in regions if open_line < r[0] < close_line)
    return StaleScan(code=code, open_line=open_line, close_line=close_line, resident=resident,
                     regions=inside, updates=updates, inner_data=inner)
