"""The house rules of the source tree, checked on the files themselves.

- No import circle between the modules of ``translator/``, ``frontends/`` and ``transforms/``.
  Every ``import`` statement counts, at module level or inside a function (a function-level
  import still ties the two files together); imports under ``if TYPE_CHECKING:`` do not, as
  they never run.
- The IR (``translator/ir``) imports nothing from code generation or analysis, not even for
  type checking: the layers read bottom-up from the folder names.
- Every import follows the layer table of docs/architecture.md (`LAYERS`): no module imports
  a layer below its own; frontends see only the diagnostics and the IR.
- No unused definition: every module-level function, class and constant of the three packages,
  and every method, is used by name somewhere in the project (code, tests, benchmarks, docs),
  except the entries of ``UNUSED_ALLOWED``, each with the reason it stays.
- No file of the project names a path outside it (the helper folder the project was written
  next to, spelled below without its slash so that this file does not name it either).
"""

from __future__ import annotations

import ast
import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("translator", "frontends", "transforms")
OUTSIDE = "shared" + "/"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """ids of the nodes under ``if TYPE_CHECKING:`` (imports there never run)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                skipped.update(id(n) for n in ast.walk(child))
    return skipped


def _imported_names(module: str, path: Path, tree: ast.AST,
                    with_type_checking: bool) -> list[tuple[str, int]]:
    """(dotted name, line) of everything `module` imports; ``from a import b`` gives ``a.b``
    (a submodule, or an attribute of ``a`` that `_resolve` trims back to ``a``)."""
    skipped = set() if with_type_checking else _type_checking_nodes(tree)
    out: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            out += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".") if path.name == "__init__.py" \
                    else module.split(".")[:-1]
                package = package[:len(package) - node.level + 1]
                base = ".".join(package + ([node.module] if node.module else []))
            out += [(f"{base}.{alias.name}", node.lineno) for alias in node.names]
    return out


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph(with_type_checking: bool = False) -> dict[str, dict[str, int]]:
    """module -> {imported module of the project: line of the first such import}."""
    modules = _modules()
    graph: dict[str, dict[str, int]] = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(), str(path))
        edges: dict[str, int] = {}
        for name, line in _imported_names(module, path, tree, with_type_checking):
            target = _resolve(name, modules) if name.split(".")[0] in PACKAGES else None
            if target is not None and target != module:
                edges.setdefault(target, line)
        graph[module] = edges
    return graph


def circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _describe(component: list[str], graph: dict[str, dict[str, int]]) -> str:
    modules = _modules()
    lines = [f"  {modules[a].relative_to(ROOT)}:{line} imports {b}"
             for a in component for b, line in sorted(graph[a].items()) if b in component]
    return "import circle of " + ", ".join(component) + ":\n" + "\n".join(lines)


def test_no_import_circles() -> None:
    graph = import_graph()
    found = circles(graph)
    assert not found, "\n".join(_describe(c, graph) for c in found)


def test_the_ir_imports_no_codegen_or_analysis() -> None:
    graph = import_graph(with_type_checking=True)
    bad = [f"{_modules()[m].relative_to(ROOT)}:{line} imports {target}"
           for m, edges in sorted(graph.items()) if m.startswith("translator.ir")
           for target, line in sorted(edges.items())
           if target.startswith(("translator.codegen", "translator.analysis"))]
    assert not bad, "\n".join(bad)


#: The layer table of docs/architecture.md, top (imported by all) to bottom: (layer, module
#: prefixes).  A module may import its own layer and the layers before it.
LAYERS = (
    ("diagnostics", ("translator.diagnostics", "translator.records", "translator.patterns")),
    ("ir", ("translator.ir",)),
    ("schedule", ("translator.schedule",)),
    ("analysis", ("translator.analysis",)),
    ("transforms", ("transforms",)),
    ("codegen", ("translator.codegen", "translator.finish")),
    ("pipeline", ("translator.split", "translator.automap", "translator.pipeline",
                  "translator.deep", "translator.launch_cost", "translator.dense_map",
                  "translator.directive_proof", "translator.tuning")),
    ("api", ("translator.execution", "translator.testing")),
    ("driver", ("translator.driver", "translator.fortran_api", "translator.sourcebytes",
                "translator.atomic_files", "translator.languages", "translator.passthrough")),
    ("build", ("translator.build", "translator.cli", "translator.server",
               "translator.server_process")),
)
#: Frontends may import only these layers (and each other); only these layers import them.
FRONTEND_USES = ("diagnostics", "ir")
FRONTEND_USERS = ("driver", "build")
#: Upward imports not yet moved to where they belong (issue 27): each is a debt, not a rule.
UPWARD_DEBTS: set[tuple[str, str]] = set()   # none left


def layer_of(module: str) -> str:
    if module == "translator":
        return "api"
    if module.startswith("frontends"):
        return "frontends"
    for name, prefixes in LAYERS:
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return name
    raise AssertionError(f"module {module} is in no layer of LAYERS (add it to the table "
                         "and to docs/architecture.md)")


def upward_imports(graph: dict[str, dict[str, int]]) -> list[tuple[str, str, int]]:
    rank = {name: k for k, (name, _) in enumerate(LAYERS)}
    found = []
    for a, edges in sorted(graph.items()):
        for b, line in sorted(edges.items()):
            la, lb = layer_of(a), layer_of(b)
            if la == "frontends":
                bad = lb not in (*FRONTEND_USES, "frontends")
            elif lb == "frontends":
                bad = la not in FRONTEND_USERS
            else:
                bad = rank[lb] > rank[la]
            if bad:
                found.append((a, b, line))
    return found


def test_imports_follow_the_layer_table() -> None:
    graph = import_graph()
    found = [(a, b, line) for a, b, line in upward_imports(graph) if (a, b) not in UPWARD_DEBTS]
    assert not found, "imports that point up the layers of docs/architecture.md:\n" + "\n".join(
        f"  {_modules()[a].relative_to(ROOT)}:{line} ({layer_of(a)}) imports {b} "
        f"({layer_of(b)})" for a, b, line in found)
    paid = sorted(d for d in UPWARD_DEBTS if d[1] not in graph.get(d[0], {}))
    assert not paid, f"remove these from UPWARD_DEBTS, they are fixed: {paid}"


def test_the_layer_check_sees_an_upward_import() -> None:
    graph = {"translator.ir.kernel": {"translator.codegen.opencl": 3},
             "frontends.c.build": {"transforms.split": 9},
             "translator.analysis.access": {"frontends.c": 1},
             "translator.driver": {"frontends.c": 2, "translator.ir.kernel": 4}}
    assert upward_imports(graph) == [
        ("frontends.c.build", "transforms.split", 9),
        ("translator.analysis.access", "frontends.c", 1),
        ("translator.ir.kernel", "translator.codegen.opencl", 3)]


def test_the_circle_finder_finds_circles() -> None:
    graph = {"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3}, "d": {"a": 4}, "e": {}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b": 1}, "b": {}}) == []


def test_relative_and_function_level_imports_count(tmp_path: Path) -> None:
    src = "def f():\n    from . import sibling\n    from ..other import thing\n"
    tree = ast.parse(src)
    names = _imported_names("translator.ir.mod", ROOT / "translator/ir/mod.py", tree, False)
    assert names == [("translator.ir.sibling", 2), ("translator.other.thing", 3)]
    guarded = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import translator.cli\n"
    tree = ast.parse(guarded)
    assert _imported_names("m", ROOT / "m.py", tree, False) == [("typing.TYPE_CHECKING", 1)]


def _project_files() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                             cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the project's file list is unknown")
    return [ROOT / line for line in out.splitlines() if (ROOT / line).is_file()]


def test_no_file_names_a_path_outside_the_project() -> None:
    hits = []
    for path in _project_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE in line:
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not hits, "files that name the folder outside the project:\n" + "\n".join(hits)


#: Definitions nothing in the tree names, and why each stays.
UNUSED_ALLOWED = {
    "__getattr__": "module-level lazy attribute hook of translator/__init__.py (PEP 562)",
    "__dir__": "transforms/__init__.py lists its lazily loaded names to dir() (PEP 562)",
    "main_fc": "console-script entry point named in pyproject.toml",
    "main_cc": "console-script entry point named in pyproject.toml",
    "parse_float": "pymbolic parser hook, called by name by the base class",
    "handle_unsupported_expression": "pymbolic mapper hook, called by the base class",
}
#: Method prefixes that mappers and visitors dispatch to by name.
_DISPATCHED = ("map_", "visit_", "_map_")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _used_names(files: list[Path]) -> Counter:
    """How often each name is used (loaded, an attribute, an import's source name, or a word
    in a string or a Markdown page) across the project; definitions do not count."""
    used: Counter = Counter()
    for path in files:
        if path.suffix == ".md":
            used.update(_WORD.findall(path.read_text(encoding="utf-8")))
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                used[node.id] += 1
            elif isinstance(node, ast.Attribute):
                used[node.attr] += 1
            elif isinstance(node, ast.alias) and node.asname and node.asname != node.name:
                used[node.name.split(".")[-1]] += 1
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                used.update(_WORD.findall(node.value))
    return used


def _definitions(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            found.append((node.lineno, node.name))
        elif isinstance(node, ast.Assign):
            found += [(node.lineno, t.id) for t in node.targets if isinstance(t, ast.Name)]
        if isinstance(node, ast.ClassDef):
            found += [(sub.lineno, sub.name) for sub in node.body
                      if isinstance(sub, ast.FunctionDef) and not sub.name.startswith("__")]
    return found


def test_no_unused_definitions() -> None:
    files = [p for p in _project_files() if p.suffix in (".py", ".md")]
    used = _used_names(files)
    unused = [f"{path.relative_to(ROOT)}:{line}: {name}"
              for path in files if path.suffix == ".py"
              and path.relative_to(ROOT).parts[0] in PACKAGES
              for line, name in _definitions(path)
              if not used[name] and name not in UNUSED_ALLOWED
              and not name.startswith(_DISPATCHED) and name != "__all__"]
    assert not unused, "definitions nothing uses (delete them, or allow one with a reason):\n" \
        + "\n".join(unused)


def test_the_unused_check_sees_a_definition_only_its_own_file_names(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def lonely():\n    return 1\n\ndef used():\n    return 2\n\nused()\n")
    used = _used_names([module])
    assert [n for _, n in _definitions(module) if not used[n]] == ["lonely"]


#: Modules (or packages, by prefix) that may import inside functions, and why: only entry
#: layers, where an import deferred to its use saves start-up time, and debts.  Everywhere
#: else imports go at the top of the file (one place to read what a module depends on).
FUNCTION_IMPORTS_ALLOWED = {
    "translator.cli": "start-up time: each command loads only what it runs",
    "translator.server": "start-up time: a served command's client loads only the standard "
                         "library (docs/build.md, translation server)",
    "translator.server_process": "the server imports the translator once, before it forks "
                                 "its children",
    "translator.driver": "start-up time: a result-cache hit imports nothing heavy",
    "translator.pipeline": "imported by the driver at start-up; the passes load only when a "
                           "region is translated (a cache hit runs none)",
    "translator.build": "start-up time: the commands and a result-cache hit load only what "
                        "they run",
    "translator.atomic_files": "start-up time: tempfile and shutil only when a file is written",
    "frontends.fortran.source": "fparser loads only when Fortran is parsed",
    "frontends.fortran.chains": "fparser loads only when Fortran is parsed",
    "frontends.fortran.comment_scan": "fparser loads only when Fortran is parsed",
    "frontends.fortran.preprocess": "subprocess loads only when a file is preprocessed (a "
                                    ".f90 file is not)",
    "transforms.registry": "plugin entry points are looked up only on demand",
    "frontends.directives": "debt (issue 27): the directive proof runs analysis from inside "
                            "the frontends; its imports move with it to the pipeline",
    "frontends.c.assemble": "debt (issue 27): calls the directive proof (above)",
    "translator.automap": "debt: edited in parallel (issue 23); hoisted after that lands",
    "frontends.fortran.inline": "start-up time: the OpenACC parser loads only for a file "
                                "translated with --directives openacc",
    "frontends.fortran.rewrite": "start-up time: the claims' helpers load only for a region "
                                 "of OpenMP/OpenACC directives",
    "translator.diagnostics": "start-up time: difflib loads only for a near miss or an error "
                              "that suggests a name (h89)",
    "frontends.fortran.datadirs": "start-up time: the stale-access scan loads only for a file "
                                  "with data directives (h89)",
    "frontends.c.datadirs": "start-up time: the stale-access scan loads only for a file with "
                            "data directives (h89)",
}

#: Modules allowed imports inside functions themselves, not their submodules (a package).
FUNCTION_IMPORTS_ALLOWED_HERE = {
    "frontends.fortran": "start-up time: the directive parsers load only with --directives "
                         "(h68)",
    "frontends.c": "start-up time: the directive parsers load only with --directives (h68)",
}


def function_level_imports(module: str, tree: ast.AST) -> list[int]:
    """Lines of the import statements inside functions of `tree`."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines.update(sub.lineno for sub in ast.walk(node)
                         if isinstance(sub, (ast.Import, ast.ImportFrom)))
    return sorted(lines)


def _import_allowed_inside_functions(module: str) -> bool:
    return module in FUNCTION_IMPORTS_ALLOWED_HERE or any(
        module == m or module.startswith(m + ".") for m in FUNCTION_IMPORTS_ALLOWED)


def test_imports_inside_functions_only_at_entry_layers() -> None:
    found = [f"{path.relative_to(ROOT)}:{line}"
             for module, path in sorted(_modules().items())
             if not _import_allowed_inside_functions(module)
             for line in function_level_imports(module, ast.parse(path.read_text()))]
    assert not found, ("imports inside functions (move them to the top of the file, or add "
                       "the module to FUNCTION_IMPORTS_ALLOWED with the start-up time it "
                       "saves):\n" + "\n".join(found))
    unknown = [m for m in [*FUNCTION_IMPORTS_ALLOWED, *FUNCTION_IMPORTS_ALLOWED_HERE]
               if not any(k == m or k.startswith(m + ".") for k in _modules())]
    assert not unknown, f"FUNCTION_IMPORTS_ALLOWED names modules that do not exist: {unknown}"


def test_the_function_import_check_sees_an_import_in_a_method() -> None:
    tree = ast.parse("import os\n\nclass A:\n    def f(self):\n        import re\n"
                     "        def g():\n            from x import y\n")
    assert function_level_imports("translator.ir.m", tree) == [5, 7]
    assert not _import_allowed_inside_functions("translator.ir.m")
    assert _import_allowed_inside_functions("translator.build.job")
    assert _import_allowed_inside_functions("frontends.fortran")
    assert not _import_allowed_inside_functions("frontends.fortran.build")
