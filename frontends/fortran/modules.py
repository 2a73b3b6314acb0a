"""Modules a region's procedure uses that its own file does not define.

Fortran compilers read such modules from ``.mod`` files; the translator reads their source
instead, found in this order:

1. the other Fortran sources of the same command (``translate mod.f90 main.f90 -o out``);
2. every Fortran source in each ``-I DIR``, in the order given;
3. every Fortran source in the directory of the file being translated.

A file is a candidate when one of its lines is a ``MODULE name`` statement; only its modules
are parsed (see `frontends.fortran.units`).  A module that none of them defines is recorded as
missing: a region that then uses an undeclared name gets an error naming the module, its USE
line and where the translator looked (an unused missing module, ``use mpi`` say, is harmless).
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Callable, Iterator
from translator.records import dataclass
from dataclasses import field
from typing import Any

from frontends.fortran.preprocess import analysed_text
from frontends.fortran.source import (SourceLines, children, class_name, parse_source,
                                      source_form)
from frontends.fortran.types import INTRINSIC_MODULE_CONSTANTS, Scope
from frontends.fortran.units import blank_unneeded_units
from translator.diagnostics import FrontendError, Note, SourceSpan
from translator.patterns import LazyPattern

FORTRAN_SUFFIXES = (".f90", ".F90", ".f95", ".F95", ".f03", ".F03", ".f08", ".F08", ".f", ".F",
                    ".for", ".FOR", ".fpp", ".FPP", ".ftn", ".FTN")
_MODULE_LINE = LazyPattern(r"^[ \t]*module[ \t]+(?!procedure\b)([a-z]\w*)[ \t]*(?:!.*)?$",
                          re.I | re.M)


@dataclass
class MissingModule(Scope):
    """A used module whose source was not found: it declares nothing."""

    searched: str = ""
    #: Why its source could not be read, when it was found (a syntax error fparser reports):
    #: raised only where a region needs a name the module may declare.
    error: FrontendError | None = None


@dataclass
class ModuleFinder:
    """Finds and loads the source of modules by name (one per translated file)."""

    path: str
    #: Declares one module node of a parsed file (`frontends.fortran.scopes.load_module`;
    #: passed in, as scopes imports the expression builder, which reports missing modules).
    loader: Callable[[Any, SourceLines, dict[str, Scope]], Scope]
    sources: tuple[str, ...] = ()
    include_dirs: tuple[str, ...] = ()
    #: How module sources are preprocessed: the command's ``cpp_args`` and ``preprocess``.
    cpp_options: dict[str, Any] = field(default_factory=dict)
    _index: dict[str, str] | None = field(default=None, repr=False)
    #: The files read, in order (a dependency file lists them).
    loaded: list[str] = field(default_factory=list)
    #: Modules being loaded (modules using each other must not recurse).
    _loading: set[str] = field(default_factory=set, repr=False)

    @classmethod
    def from_options(cls, path: str, options: dict[str, Any],
                     loader: Callable[[Any, SourceLines, dict[str, Scope]], Scope]
                     ) -> ModuleFinder:
        dirs = [a[2:] for a in options.get("cpp_args", ()) or ()
                if str(a).startswith("-I") and len(a) > 2]
        dirs += [str(d) for d in options.get("module_path", ()) or ()]
        own = os.path.abspath(path)
        sources = tuple(s for s in options.get("module_sources", ()) or ()
                        if os.path.abspath(s) != own and str(s).endswith(FORTRAN_SUFFIXES))
        cpp = {k: options[k] for k in ("cpp_args", "preprocess", "fixed_line_length")
               if k in options}
        return cls(path=path, loader=loader, sources=sources, include_dirs=tuple(dirs),
                   cpp_options=cpp)

    def resolve(self, scope: Scope) -> None:
        """Load every module `scope` (or a host, or a loaded module) uses and lacks."""
        for name in scope.unknown_modules():
            self._load(name, scope.modules)

    def preload(self, tree: Any) -> dict[str, Scope]:
        """The modules that the units of `tree` use and `tree` does not define, loaded before
        its declarations are read (``real(dp)`` needs ``dp`` of ``use prec``)."""
        modules: dict[str, Scope] = {}
        for name in used_modules(tree):
            self._load(name, modules)
        return modules

    def _load(self, name: str, modules: dict[str, Scope]) -> None:
        if name in modules or name in INTRINSIC_MODULE_CONSTANTS or name in self._loading:
            return
        where = self._files().get(name)
        if where is None:
            modules[name] = MissingModule(name=name, kind="missing", searched=self._searched())
            return
        if where not in self.loaded:
            self.loaded.append(where)
        self._loading.add(name)
        try:
            tree, lines = _parse_module_file(where, self.cpp_options)
            for used in used_modules(tree):   # their constants before this file's kinds
                self._load(used, modules)
            _declare_modules(tree, lines, modules, self.loader)
        except FrontendError as e:   # only an error if a region needs the module
            modules[name] = MissingModule(name=name, kind="missing", searched=where, error=e)
        finally:
            self._loading.discard(name)
        if name not in modules:   # the MODULE line was not a module after all
            modules[name] = MissingModule(name=name, kind="missing", searched=self._searched())

    def file_of(self, module: str) -> str | None:
        """The file defining `module` (the first candidate), None if none does."""
        return self._files().get(module)

    def _files(self) -> dict[str, str]:
        """Module name -> the first candidate file defining it."""
        if self._index is None:
            self._index = {}
            for file in self._candidates():
                for module in _modules_in(file):
                    self._index.setdefault(module, file)
        return self._index

    def _candidates(self) -> list[str]:
        out = list(self.sources)
        for d in (*self.include_dirs, os.path.dirname(self.path) or "."):
            out += sorted(os.path.normpath(f)
                          for f in glob.glob(os.path.join(glob.escape(d), "*"))
                          if f.endswith(FORTRAN_SUFFIXES))
        own = os.path.abspath(self.path)
        return [f for f in dict.fromkeys(out) if os.path.abspath(f) != own]

    def _searched(self) -> str:
        places = [f"the other sources of the command ({', '.join(self.sources)})"
                  if self.sources else ""]
        places += [f"-I {d}" for d in self.include_dirs]
        places.append(f"the directory of {os.path.basename(self.path)}")
        return "; ".join(p for p in places if p)


def _modules_in(file: str) -> list[str]:
    try:
        with open(file, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return []
    return [m.lower() for m in _MODULE_LINE.findall(text)]


def _parse_module_file(file: str, cpp_options: dict[str, Any]) -> tuple[Any, SourceLines]:
    """The fparser tree of `file`'s modules (other units blanked) and its lines (preprocessed
    as the file being translated would be)."""
    try:
        with open(file, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as e:
        raise FrontendError(f"cannot read module source {file}: {e.strerror}") from None
    form = source_form(file, {})
    lines = SourceLines(file, text, analysed_text(file, text, form, cpp_options))
    code = text if lines.analysed is None else lines.analysed
    return parse_source(file, blank_unneeded_units(code, form, []), form, lines), lines


def _declare_modules(tree: Any, lines: SourceLines, modules: dict[str, Scope],
                     load_module: Callable[[Any, SourceLines, dict[str, Scope]], Scope]) -> None:
    """Declare the modules of a parsed file into `modules` (those not there yet)."""
    for unit in children(tree):
        if class_name(unit) == "Module" and _module_name(unit) not in modules:
            load_module(unit, lines, modules)


def used_modules(tree: Any) -> list[str]:
    """The modules that units of `tree` use and that `tree` itself does not define, in
    order of first use (intrinsic modules excluded)."""
    own = {_module_name(u) for u in children(tree) if class_name(u) == "Module"}
    out: dict[str, None] = {}
    for node in _blocks_and_statements(tree):
        if class_name(node) == "Use_Stmt":
            name = str(node.items[2]).lower()
            if name not in own and name not in INTRINSIC_MODULE_CONSTANTS:
                out.setdefault(name)
    return list(out)


def _blocks_and_statements(tree: Any) -> Iterator[Any]:
    """The nodes of `tree` in `walk` order, but none inside a statement (a USE statement is
    one of a block's statements, never part of another statement)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if node is None or isinstance(node, str):
            continue
        yield node
        if hasattr(node, "content") or node is tree:
            pending = []
            for c in children(node):
                pending.extend(c if isinstance(c, (tuple, list)) else (c,))
            stack.extend(reversed(pending))


def _module_name(unit: Any) -> str:
    return str(children(unit)[0].items[1]).lower()


def missing_module_error(scope: Scope, name: str, span: SourceSpan | None,
                         lines: SourceLines | None = None) -> FrontendError | None:
    """The error for an undeclared `name` that a module whose source was not found may
    declare; None if no such module is in reach."""
    for owner in _scope_chain(scope):
        for module, only in owner.uses:
            found = owner.modules.get(module)
            if not isinstance(found, MissingModule) or (only is not None and name not in only):
                continue
            if found.error is not None:
                return found.error
            line = owner.use_lines.get(module, 0)
            where = None
            if line and lines is not None:
                where = lines.span(line, word=module)
            elif line and span is not None:
                where = SourceSpan(file=span.file, line=line)
            return FrontendError(
                f"{name!r} is not declared here; it may come from module {module!r}, whose "
                f"source was not found: name the file that defines it in the same translate "
                f"command, or its directory with -I DIR (searched: {found.searched})", span,
                notes=(Note(f"module {module!r} is used here", where),) if where else ())
    return None


def _scope_chain(scope: Scope):
    while scope is not None:
        yield scope
        scope = scope.host
