"""The code of an OpenMP ``parallel`` construct outside its worksharing loops (C): every
thread of the team runs it.  The translator offloads each ``#pragma omp for`` loop as its
own region and leaves that code on the host, where a program built without -fopenmp runs it
once; that is the team's meaning only when running it once has the effect of running it in
every thread (h92; the Fortran rules are `frontends.directives.fortran_teams`'s):

- it writes only variables private to each thread: declared inside the construct, or named
  by its ``private``/``firstprivate`` clause (``default(private|firstprivate)``: all); a
  shared one (a ``for`` index declared outside, ``d = 0``) is refused;
- the statement after ``single``, ``master`` or ``masked`` runs once anyway; ``barrier`` and
  ``flush`` order nothing in a sequential program;
- a call of a function of this file runs it in every thread: its body is checked by the same
  rules (its locals and by-value parameters private; an orphaned ``omp for`` in it is shared
  by the team); math functions read only; any other call (I/O) is refused;
- ``critical``, ``atomic``, tasks, sections ... there are refused, naming them.
"""

from __future__ import annotations

from typing import Any

from pycparser import c_ast

from frontends.directives.claims import LoopClaim, Untouched, redundant_loop

_ONCE = frozenset({"single", "master", "masked"})
_HARMLESS = frozenset({"barrier", "flush"})
_LOOPS = frozenset({"for", "for simd"})
#: Library functions that only compute a value from their arguments.
_PURE = frozenset({"sqrt", "sqrtf", "fabs", "fabsf", "abs", "labs", "exp", "expf", "log",
                   "logf", "pow", "powf", "sin", "cos", "tan", "sinf", "cosf", "atan",
                   "atan2", "floor", "ceil", "fmax", "fmin", "fmaxf", "fminf", "hypot",
                   "log10", "tanh", "cbrt", "round", "fmod", "erf", "exp2", "log2"})


class TeamCode:
    """Checks the statements of a construct's block (`problem`); `assigned` collects the
    private variables they assign, with the first line where they do."""

    def __init__(self, claims: dict, functions: dict[str, c_ast.FuncDef]) -> None:
        self.claims = claims            # line -> (directive, claim)
        self.functions = functions
        self.assigned: dict[str, int] = {}
        #: the variables declared in the construct (private to each thread), with their line
        self.declared: dict[str, int] = {}
        #: the worksharing loops of the construct itself (the statements after its ``omp
        #: for`` directives), and the functions its code calls
        self.loops: list[c_ast.Node] = []
        self.callees: set[str] = set()
        self.depth = 0

    def problem(self, block: c_ast.Node, private: set[str]) -> str:
        """Why the code of `block` outside its worksharing loops cannot run once for every
        thread ("" if it can)."""
        try:
            self._statement(block, set(private))
        except _Refused as why:
            return str(why)
        return ""

    def _claim(self, node: c_ast.Node) -> Any:
        if not isinstance(node, c_ast.Pragma) or node.coord is None:
            return None
        found = self.claims.get(node.coord.line)
        return found[1] if found else None

    def _statement(self, node: c_ast.Node, private: set[str]) -> None:
        if node is None:
            return
        if isinstance(node, c_ast.Compound):
            private = set(private)
            skip = ""
            for item in node.block_items or []:
                if skip:
                    if skip == "loop" and self.depth == 0:
                        self.loops.append(item)
                    skip = ""
                    continue
                if isinstance(item, c_ast.Pragma):
                    skip = self._pragma(item)
                else:
                    self._statement(item, private)
            return
        if isinstance(node, c_ast.Decl):
            private.add(node.name)
            if self.depth == 0 and node.name and isinstance(_line(node), int):
                self.declared.setdefault(node.name, _line(node))
                if node.init is not None:
                    self.assigned.setdefault(node.name, _line(node))
            if node.init is not None:
                self._expression(node.init, private)
            return
        if isinstance(node, c_ast.DeclList):
            for d in node.decls:
                self._statement(d, private)
            return
        if isinstance(node, c_ast.For):
            inner = set(private)
            self._statement(node.init, inner)
            for part in (node.cond, node.next):
                self._expression(part, inner)
            self._statement(node.stmt, inner)
            return
        if isinstance(node, (c_ast.While, c_ast.DoWhile)):
            self._expression(node.cond, private)
            self._statement(node.stmt, private)
            return
        if isinstance(node, c_ast.If):
            self._expression(node.cond, private)
            self._statement(node.iftrue, private)
            self._statement(node.iffalse, private)
            return
        if isinstance(node, (c_ast.Break, c_ast.Continue, c_ast.EmptyStatement)):
            return
        if isinstance(node, c_ast.Return):
            self._expression(node.expr, private)
            return
        if isinstance(node, c_ast.Pragma):
            self._pragma(node)
            return
        if isinstance(node, (c_ast.Assignment, c_ast.UnaryOp, c_ast.FuncCall, c_ast.ExprList,
                             c_ast.BinaryOp, c_ast.TernaryOp, c_ast.Cast, c_ast.ID,
                             c_ast.Constant)):
            self._expression(node, private)
            return
        raise _Refused(f"line {_line(node)} holds a statement the translator does not check "
                       f"for a team of threads ({type(node).__name__})")

    def _pragma(self, node: c_ast.Pragma) -> str:
        """Whether the statement after the directive `node` is skipped: "loop" (a
        worksharing loop), "once" (a single block) or ""."""
        claim = self._claim(node)
        if redundant_loop(claim):
            raise _Refused(redundant_loop(claim))
        if isinstance(claim, LoopClaim):
            return "loop"
        if isinstance(claim, Untouched) and claim.name in _ONCE:
            return "once"
        if isinstance(claim, Untouched) and claim.carries_work and claim.name in _LOOPS:
            raise _Refused(f"its loop at line {_line(node)} is not offloaded ({claim.reason})")
        if isinstance(claim, Untouched) and claim.name in _HARMLESS:
            return ""
        name = getattr(claim, "name", None) or node.string.split("(")[0].strip()
        raise _Refused(f"line {_line(node)} holds '{name}' outside its worksharing loops, "
                       "which the translator does not take there")

    def _expression(self, node: c_ast.Node, private: set[str]) -> None:
        if node is None:
            return
        if isinstance(node, c_ast.Assignment):
            self._written(node.lvalue, private)
            self._expression(node.rvalue, private)
            self._reads(node.lvalue, private)
            return
        if isinstance(node, c_ast.UnaryOp) and node.op in ("++", "--", "p++", "p--"):
            self._written(node.expr, private)
            return
        if isinstance(node, c_ast.FuncCall):
            self._call(node, private)
            return
        for _, child in node.children():
            self._expression(child, private)

    def _reads(self, target: c_ast.Node, private: set[str]) -> None:
        if isinstance(target, c_ast.ArrayRef):
            self._expression(target.subscript, private)
            self._reads(target.name, private)

    def _written(self, target: c_ast.Node, private: set[str]) -> None:
        base = target
        while isinstance(base, (c_ast.ArrayRef, c_ast.StructRef)):
            base = base.name
        name = base.name if isinstance(base, c_ast.ID) else None
        if name is None or name not in private:
            what = f"the shared variable {name!r}" if name else "memory through a pointer"
            fix = f"make {name!r} private" if name else "make the pointer's target private"
            raise _Refused(f"line {_line(target)} writes {what}, and every thread runs it "
                           f"(put it in a single construct, or {fix})")
        line = _line(target)
        if self.depth == 0 and isinstance(line, int):
            self.assigned.setdefault(name, line)

    def _call(self, node: c_ast.FuncCall, private: set[str]) -> None:
        name = node.name.name if isinstance(node.name, c_ast.ID) else "?"
        for arg in (node.args.exprs if node.args is not None else ()):
            self._expression(arg, private)
        if name in _PURE:
            return
        self.callees.add(name)
        func = self.functions.get(name)
        if func is None:
            raise _Refused(f"line {_line(node)} calls {name!r}, whose body is not in this file "
                           "(or does I/O), and every thread runs the call")
        if self.depth >= 3:
            raise _Refused(f"line {_line(node)} calls {name!r} through too many levels to check")
        own = set()
        params = func.decl.type.args.params if func.decl.type.args is not None else []
        for prm in params:   # passed by value: the thread's copy (a pointer's target is not)
            if isinstance(prm, c_ast.Decl) and prm.name and \
                    not isinstance(prm.type, (c_ast.PtrDecl, c_ast.ArrayDecl)):
                own.add(prm.name)
        self.depth += 1
        try:
            self._statement(func.body, own)
        except _Refused as why:
            raise _Refused(f"{why} (in {name!r}, called at line {_line(node)})") from None
        finally:
            self.depth -= 1


def resident_arrays(team: TeamCode, block: c_ast.Node, arrays: set[str],
                    pointers: set[str]) -> list[str]:
    """Of `arrays` (arrays with a declared extent, visible at the construct), those its
    worksharing loops use and nothing else in the construct names (its other code, the
    bodies of the functions it calls, whole): they may stay on the device between the loops,
    the host never touches them there (h92).  None where that code names one of
    `pointers` (visible pointers: they may point into the arrays)."""
    loops = {id(n) for n in team.loops}
    used = {n.name for loop in team.loops for n in _walk(loop) if isinstance(n, c_ast.ID)}
    other: set[str] = set()
    stack = [block]
    while stack:
        node = stack.pop()
        if id(node) in loops:
            continue
        if isinstance(node, c_ast.ID):
            other.add(node.name)
        stack.extend(child for _, child in node.children())
    seen: set[str] = set()
    pending = sorted(team.callees)
    while pending:
        name = pending.pop()
        func = team.functions.get(name)
        if name in seen or func is None:
            continue
        seen.add(name)
        for node in _walk(func):
            if isinstance(node, c_ast.ID):
                other.add(node.name)
            if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID):
                pending.append(node.name.name)
    if other & pointers:
        return []
    return sorted((used & arrays) - other)


def _walk(node: c_ast.Node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(child for _, child in n.children())


class _Refused(Exception):
    pass


def _line(node: c_ast.Node) -> int | str:
    return node.coord.line if node.coord is not None else "?"
