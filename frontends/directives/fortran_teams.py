"""The code of an OpenMP ``parallel`` construct outside its worksharing loops (Fortran): every
thread of the team runs it.  The translator offloads each worksharing loop as its own region
and leaves that code on the host, where a program built without -fopenmp runs it once; that
is the team's meaning only when running it once has the effect of running it in every thread
(h92).  `team_code_problem` says why not, or "" when it does:

- an assignment writes a variable private to each thread (the construct's ``private`` or
  ``firstprivate`` list, its ``default(private|firstprivate)``, a DO index of the construct,
  a ``threadprivate`` variable); a shared one written by every thread is refused (``d = 0``:
  put it in ``single``);
- ``single``, ``master`` and ``masked`` blocks run once anyway; ``barrier`` and ``flush``
  order nothing in a sequential program;
- a CALL runs the procedure in every thread: its body (a procedure of this file) is checked
  by the same rules, with its own local variables private (an orphaned ``!$omp do`` in it is
  shared by the team: its own region);
- I/O, ``critical``, ``atomic``, tasks, sections ... are refused, naming them.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from frontends.directives.claims import EndDirective, LoopClaim, Untouched, redundant_loop
from frontends.fortran.scopes import Procedure
from frontends.fortran.source import children, class_name, node_lines, walk

#: Directives that may stand in the construct's own code: their blocks run once.
_ONCE = frozenset({"single", "master", "masked"})
#: Directives that change nothing when the code runs once.
_HARMLESS = frozenset({"barrier", "flush"})
#: Statements with no effect of their own (their expressions are read only).
_NEUTRAL = frozenset({"If_Then_Stmt", "Else_If_Stmt", "Else_Stmt", "End_If_Stmt",
                      "End_Do_Stmt", "Continue_Stmt", "Cycle_Stmt", "Exit_Stmt",
                      "Select_Case_Stmt", "Case_Stmt", "End_Select_Stmt", "If_Stmt",
                      "Nonlabel_Do_Stmt", "Label_Do_Stmt", "Return_Stmt"})
_IO = frozenset({"Write_Stmt", "Print_Stmt", "Read_Stmt", "Open_Stmt", "Close_Stmt",
                 "Inquire_Stmt", "Rewind_Stmt", "Backspace_Stmt", "Flush_Stmt",
                 "Endfile_Stmt", "Stop_Stmt", "Error_Stop_Stmt"})
_NAME = re.compile(r"\s*([A-Za-z_]\w*)")


def team_code_problem(found: list, first: int, last: int, loop_lines: Callable,
                      private: set[str], procedures: list[Procedure], proc: Procedure,
                      assigned: dict[str, int] | None = None, depth: int = 0) -> str:
    """Why the statements of lines `first`..`last` of `proc` that lie outside the
    worksharing loops cannot run once for every thread ("" if they can).  `found` are the
    file's directives (`FoundClaim`s); `loop_lines(first, last)` the lines of the worksharing
    loops whose directives lie there (directives included); `private` the variables each
    thread has its own copy of.  The private variables the code assigns go into
    `assigned`, with the first line where it does."""
    assigned = {} if assigned is None else assigned
    loops = loop_lines(first, last)
    once, why = _once_lines(found, first, last, loops)
    if why:
        return why
    skip = loops | once
    private = private | _do_variables(proc, first, last)
    for node in _statements(proc, first, last, skip):
        name = class_name(node)
        line = node_lines(node)[0]
        if name in _NEUTRAL:
            continue
        if name == "Assignment_Stmt":
            m = _NAME.match(str(children(node)[0]))
            target = m.group(1).lower() if m else "?"
            if target not in private:
                return (f"line {line} writes the shared variable {target!r}, and every thread "
                        f"runs it (put it in a single construct, or make {target!r} private)")
            assigned.setdefault(target, line)
            continue
        if name == "Call_Stmt":
            why = _call_problem(found, node, line, procedures, loop_lines, depth)
            if why:
                return why
            continue
        if name in _IO:
            return (f"line {line} does I/O, and every thread runs it (put it in a single or "
                    "master construct)")
        return (f"line {line} holds a statement the translator does not check for a team of "
                f"threads ({name.removesuffix('_Stmt').replace('_', ' ').lower()})")
    return ""


def _once_lines(found: list, first: int, last: int, loops: set[int]
                ) -> tuple[set[int], str]:
    """The lines of the ``single``/``master`` blocks in `first`..`last`, and a reason when a
    directive there, outside the worksharing loops (`loops`), is one the code every thread
    runs may not hold."""
    lines: set[int] = set()
    open_at: dict[str, int] = {}
    for f in found:
        claim, line = f.claim, f.raw.line
        if first <= line <= last and redundant_loop(claim) and not open_at and \
                not any(lo < line for lo in _outer_loops(found, line, loops)):
            return lines, redundant_loop(claim)
        if not first <= line <= last or line in loops or isinstance(claim, LoopClaim):
            continue
        if isinstance(claim, Untouched) and claim.name in _ONCE:
            open_at[claim.name] = line
        elif isinstance(claim, EndDirective) and claim.words[:1] and claim.words[0] in _ONCE:
            start = open_at.pop(claim.words[0], line)
            lines |= set(range(start, f.raw.last_line + 1))
        elif isinstance(claim, EndDirective) or open_at or (
                isinstance(claim, Untouched) and claim.name in _HARMLESS):
            continue
        else:
            name = getattr(claim, "name", "") or " ".join(getattr(claim, "words", ()))
            return lines, (f"line {line} holds '{name or 'parallel'}' outside its worksharing "
                           "loops, which the translator does not take there")
    return lines, ""


def _outer_loops(found: list, line: int, loops: set[int]) -> list[int]:
    """The lines of the worksharing-loop directives whose loops (`loops`: their lines) hold
    the directive at `line`."""
    return [f.raw.line for f in found if isinstance(f.claim, LoopClaim)
            and not redundant_loop(f.claim) and f.raw.line < line
            and all(n in loops for n in range(f.raw.line, line + 1))]


def _statements(proc: Procedure, first: int, last: int, skip: set[int]) -> list[Any]:
    out = []
    for node in walk(proc.exec_part) if proc.exec_part is not None else ():
        name = class_name(node)
        if not name.endswith("_Stmt") or name.startswith("End_") and name not in _NEUTRAL:
            continue
        rng = node_lines(node)
        if rng is None or not first <= rng[0] <= last or rng[0] in skip:
            continue
        out.append(node)
    return sorted(out, key=lambda n: node_lines(n)[0])


def _do_variables(proc: Procedure, first: int, last: int) -> set[str]:
    """The DO indices of loops in `first`..`last`: private in the construct (Fortran)."""
    out = set()
    for node in walk(proc.exec_part) if proc.exec_part is not None else ():
        if class_name(node) not in ("Nonlabel_Do_Stmt", "Label_Do_Stmt"):
            continue
        rng = node_lines(node)
        if rng is None or not first <= rng[0] <= last:
            continue
        for part in walk(node):
            if class_name(part) == "Loop_Control":
                m = _NAME.match(str(part))
                if m and "=" in str(part):
                    out.add(m.group(1).lower())
    return out


def _call_problem(found: list, node: Any, line: int, procedures: list[Procedure],
                  loop_lines: Callable, depth: int) -> str:
    callee_name = str(children(node)[0]).strip().lower()
    callee = _procedure(procedures, callee_name)
    if callee is None or callee.exec_part is None:
        return (f"line {line} calls {callee_name!r}, whose body is not in this file, and every "
                "thread runs the call")
    if depth >= 3:
        return f"line {line} calls {callee_name!r} through too many levels to check"
    rng = (callee.first_line, callee.body_last_line)
    saved = _saved(callee)
    private = {n for n, sym in callee.scope.symbols.items()
               if sym.scope_kind == "local" and not sym.is_dummy and not sym.in_common
               and not sym.is_parameter and n not in saved and "*" not in saved}
    why = team_code_problem(found, rng[0], rng[1], loop_lines, private, procedures, callee,
                            None, depth + 1)
    return f"{why} (in {callee_name!r}, called at line {line})" if why else ""


def _saved(proc: Procedure) -> set[str]:
    """The local variables of `proc` that keep their value between calls (SAVE, a
    declaration with an initial value): one copy for all threads; "*" for a bare SAVE."""
    out: set[str] = set()
    for node in walk(proc.spec_part) if proc.spec_part is not None else ():
        name = class_name(node)
        if name == "Save_Stmt":
            listed = str(node).partition("::")[2] or str(node)[4:]
            names = {n.strip().lower() for n in listed.split(",") if n.strip()}
            out |= names or {"*"}
        elif name == "Type_Declaration_Stmt":
            text = str(node)
            head, _, entities = text.partition("::")
            for entity in _entities(entities):
                m = _NAME.match(entity)
                if m and ("SAVE" in head.upper() or ("=" in entity and "=>" not in entity)):
                    out.add(m.group(1).lower())
    return out


def _entities(text: str) -> list[str]:
    """The entities of a declaration's list, split at the commas outside parentheses."""
    out, depth, start = [], 0, 0
    for k, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            out.append(text[start:k])
            start = k + 1
    return out + [text[start:]]


def _procedure(procedures: list[Procedure], name: str) -> Procedure | None:
    stack = list(procedures)
    while stack:
        p = stack.pop()
        if p.name.lower() == name:
            return p
        stack.extend(p.internal)
    return None
