"""Where the source of a procedure called inside a region is: `CalleeIndex`.

A name called from procedure P is looked up as Fortran resolves it:

1. a procedure contained in P or in one of its hosts (internal procedures, and the procedures
   of the module P belongs to);
2. a module procedure of a module P (or a host) uses, ``only``/renames respected, searched
   through the modules those modules use; the module's source is the file's own or the one
   `ModuleFinder` finds (other inputs, ``-I``, the file's directory);
3. an external procedure of the same file (the whole file is parsed then: the frontend parses
   only the units holding regions, see `frontends.fortran.units`), then of the other Fortran
   sources of the command.

None when no source is in reach: the caller reports an unknown external procedure.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import field
from typing import Any

from frontends.fortran.modules import ModuleFinder
from frontends.fortran.preprocess import analysed_text
from frontends.fortran.scopes import Procedure, build_procedures
from frontends.fortran.source import (SourceLines, children, class_name, parse_source,
                                      source_form, walk)
from frontends.fortran.types import Scope
from translator.diagnostics import FrontendError
from translator.records import dataclass


@dataclass(frozen=True)
class Callee:
    """A procedure whose source the translator reads, and the lines of its file."""

    proc: Procedure
    lines: SourceLines

    @property
    def key(self) -> tuple[str, str, int]:
        """Identifies the procedure (recursion is a key seen twice on the call stack)."""
        return (self.lines.path, self.proc.name, self.proc.first_line)

    @property
    def attributes(self) -> str:
        """The prefix of its SUBROUTINE/FUNCTION statement, upper case (PURE ELEMENTAL ...)."""
        stmt = next(c for c in children(self.proc.node)
                    if class_name(c) in ("Subroutine_Stmt", "Function_Stmt"))
        prefix = stmt.items[0]
        return str(prefix).upper() if prefix is not None else ""


@dataclass
class CalleeIndex:
    """Finds callees for the regions of one file (files are parsed once, when needed)."""

    finder: ModuleFinder
    lines: SourceLines
    code: str
    form: str
    procedures: list[Procedure]
    #: ``--directives openacc``: a callee declared ``routine gang/worker/vector`` is refused
    openacc: bool = False
    _files: dict[str, list[Procedure]] = field(default_factory=dict)
    _file_lines: dict[str, SourceLines] = field(default_factory=dict)

    def find(self, scope: Scope, name: str) -> Callee | None:
        """The callee `name` denotes in `scope` (see the module docstring), or None."""
        for host in _chain(scope):
            for path, procedures in [(self.lines.path, self.procedures), *self._files.items()]:
                for proc in procedures:
                    if proc.name == name and proc.scope.host is host:
                        return Callee(proc, self._file_lines.get(path, self.lines))
        found = self._from_modules(scope, name)
        if found is not None:
            return found
        for path in (self.lines.path, *self.finder.sources):
            for proc in self._file(path):
                if proc.name == name and proc.scope.host is None and proc.kind != "program":
                    return Callee(proc, self._file_lines[path])
        return None

    def entry_of(self, name: str) -> Procedure | None:
        """The procedure of this file or the command's other sources that has an ENTRY
        statement named `name` (asked only where no procedure of that name is found)."""
        for path in (self.lines.path, *self.finder.sources):
            for proc in self._file(path):
                for node in walk(proc.exec_part) if proc.exec_part is not None else ():
                    if class_name(node) == "Entry_Stmt" and str(node.items[0]).lower() == name:
                        return proc
        return None

    def _from_modules(self, scope: Scope, name: str) -> Callee | None:
        seen: set[str] = set()
        pending = [(m, only) for host in _chain(scope) for m, only in host.uses]
        while pending:
            module, only = pending.pop(0)
            remote = name if only is None else only.get(name)
            if remote is None or (module, remote) in seen:
                continue
            seen.add((module, remote))
            found = self._module_procedure(module, remote)
            if found is not None:
                return found
            mod_scope = scope.modules.get(module)
            if mod_scope is not None:
                pending += [(m, o) for m, o in mod_scope.uses]
        return None

    def _module_procedure(self, module: str, name: str) -> Callee | None:
        for proc in self.procedures:
            host = proc.scope.host
            if proc.name == name and host is not None and host.kind == "module" \
                    and host.name == module:
                return Callee(proc, self.lines)
        path = self.finder.file_of(module)
        if path is None:
            return None
        for proc in self._file(path):
            host = proc.scope.host
            if proc.name == name and host is not None and host.kind == "module" \
                    and host.name == module:
                return Callee(proc, self._file_lines[path])
        return None

    def _file(self, path: str) -> list[Procedure]:
        """Every procedure of file `path` (the file being translated: all of its units)."""
        if path not in self._files:
            tree, lines = self._parse(path)
            self._file_lines[path] = lines
            self._files[path] = build_procedures(tree, lines, self.finder.preload(tree))
        return self._files[path]

    def _parse(self, path: str) -> tuple[Any, SourceLines]:
        if path == self.lines.path:
            return parse_source(path, self.code, self.form, self.lines), self.lines
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError as e:
            raise FrontendError(f"cannot read {path}: {e.strerror}") from None
        form = source_form(path, {})
        lines = SourceLines(path, text, analysed_text(path, text, form,
                                                      self.finder.cpp_options))
        code = text if lines.analysed is None else lines.analysed
        if path not in self.finder.loaded:
            self.finder.loaded.append(path)
        return parse_source(path, code, form, lines), lines


def _chain(scope: Scope | None) -> Iterator[Scope]:
    while scope is not None:
        yield scope
        scope = scope.host


__all__ = ["Callee", "CalleeIndex"]
