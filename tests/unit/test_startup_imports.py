"""Start-up cost: a translation imports what its input needs, not the other language's
frontend or the whole transform library (issue 24; bench/RESULTS.md, h55).

Each check runs the real command line in a fresh interpreter (``TRANSLATE_SERVER=0``, so the
process translates itself) and reads the modules it had imported when it finished.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Runs ``translate ARGS`` as the console script does, then prints the loaded modules.
_CHILD = """
import sys
from translator.cli import main
sys.argv = ["translate", *sys.argv[1:]]
try:
    code = main()
finally:
    loaded = sorted(sys.modules)   # before this script's own json
    import json
    print(json.dumps(loaded), file=sys.stderr)
sys.exit(code)
"""

#: Transform modules that automatic mapping and a ``split_iname`` pragma never need.
_LIBRARY_ONLY = ("transforms.precompute", "transforms.prefetch", "transforms.buffer",
                 "transforms.rules", "transforms.fusion", "transforms.cleanup",
                 "transforms.statements", "transforms.temporaries")


def _modules_after(source: Path, out: Path, *options: str) -> set[str]:
    env = dict(os.environ, TRANSLATE_SERVER="0")
    proc = subprocess.run([sys.executable, "-c", _CHILD, "--no-cache", str(source), "-o",
                           str(out), *options], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    assert any(out.iterdir())
    return set(json.loads(proc.stderr.strip().splitlines()[-1]))


def test_a_fortran_translation_loads_neither_c_nor_the_transform_library(tmp_path):
    loaded = _modules_after(ROOT / "samples/fortran/saxpy.f90", tmp_path / "out")
    assert {"frontends.fortran", "transforms.split"} <= loaded   # it did translate
    assert not {"pycparser", "frontends.c"} & loaded
    assert not set(_LIBRARY_ONLY) & loaded


def test_a_c_translation_loads_no_fortran_frontend(tmp_path):
    loaded = _modules_after(ROOT / "samples/c/saxpy.c", tmp_path / "out")
    assert "frontends.c" in loaded
    assert not {m for m in loaded if m == "frontends.fortran" or m.startswith(("fparser",
                                                                             "frontends.fortran."))}
    assert not set(_LIBRARY_ONLY) & loaded


def test_a_small_translation_without_the_server_loads_neither_json_nor_subprocess(tmp_path):
    """With ``TRANSLATE_SERVER=0`` the server client's json is not loaded, nor, for a Fortran
    file that is not preprocessed (``.f90``), the preprocessor's subprocess (h60)."""
    fortran = _modules_after(ROOT / "samples/fortran/saxpy.f90", tmp_path / "f")
    assert "frontends.fortran" in fortran
    assert not {"json", "subprocess"} & fortran
    c = _modules_after(ROOT / "samples/c/saxpy.c", tmp_path / "c")
    assert "frontends.c" in c and "json" not in c   # C runs cpp: subprocess it needs


#: After a translation: how many of the translator's dataclasses exist, and how many of their
#: methods were compiled (`translator.records` compiles a method on first use).
_COMPILED = """
import inspect, json, sys
from translator.cli import main
sys.argv = ["translate", *sys.argv[1:]]
code = main()
classes = [v for m in list(sys.modules.values()) for v in vars(m).values()
           if isinstance(v, type) and "__records_frozen__" in v.__dict__]
names = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__")
compiled = sum(inspect.isfunction(c.__dict__.get(n)) for c in set(classes) for n in names)
waiting = sum(type(c.__dict__.get(n)).__name__ == "_Compiled" for c in set(classes) for n in names)
print(json.dumps([len(set(classes)), compiled, waiting]), file=sys.stderr)
sys.exit(code)
"""


@pytest.mark.parametrize("source", ["samples/fortran/saxpy.f90", "samples/c/saxpy.c"])
def test_a_small_translation_compiles_few_dataclass_methods(tmp_path, source):
    """Creating the translator's dataclasses compiles nothing; a small translation compiles
    the methods it uses, a minority of them (issue 24: `dataclasses` compiled six per frozen
    class at every start)."""
    env = dict(os.environ, TRANSLATE_SERVER="0")
    proc = subprocess.run([sys.executable, "-c", _COMPILED, "--no-cache", str(ROOT / source),
                           "-o", str(tmp_path / "out")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    classes, compiled, waiting = json.loads(proc.stderr.strip().splitlines()[-1])
    assert classes > 100
    assert compiled < waiting, (classes, compiled, waiting)


_LAZY_LIBRARY = """
import transforms, transforms.precompute
from transforms.registry import transform
assert callable(transforms.precompute), transforms.precompute
assert "precompute" in dir(transforms) and "add_prefetch" in dir(transforms)
try:
    @transform("split_iname")
    def split_iname(kernel):
        return kernel
except ValueError as err:
    print(err)
"""


def test_the_lazy_library_keeps_names_and_built_ins():
    """A transform named like its module is the function once the module loaded; a name
    taken by a built-in not yet imported is refused as when the library loaded whole."""
    proc = subprocess.run([sys.executable, "-c", _LAZY_LIBRARY], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "transform 'split_iname' is already registered (by transforms.split.split_iname)" \
        in proc.stdout


@pytest.mark.parametrize("name", ["split_iname", "add_prefetch", "precompute"])
def test_a_built_in_is_found_by_name_alone(name):
    code = (f"import sys, transforms; print(transforms.get_transform({name!r}).__module__, "
            "'transforms.buffer' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    module, buffer_loaded = proc.stdout.split()
    assert module.startswith("transforms.") and buffer_loaded == "False"


#: The OpenMP/OpenACC directive parsers and the claims' helpers.
_DIRECTIVE_PARSERS = ("frontends.directives.openmp", "frontends.directives.openacc",
                      "frontends.directives.clauses")


def test_without_directives_the_directive_parsers_do_not_load(tmp_path):
    """Without ``--directives`` a Fortran translation loads no module of
    `frontends.directives` (the frontend's package and the inliner's ``!$acc routine`` check
    imported them for every file), a C one none of the parsers (h68)."""
    fortran = _modules_after(ROOT / "samples/fortran/saxpy.f90", tmp_path / "f")
    assert "frontends.fortran" in fortran
    assert not {m for m in fortran if m.startswith("frontends.directives")}, fortran
    c = _modules_after(ROOT / "samples/c/saxpy.c", tmp_path / "c")
    assert "frontends.c" in c
    assert not set(_DIRECTIVE_PARSERS) & c
    assert "frontends.directives.c" not in c


def test_with_directives_a_fortran_translation_reads_them(tmp_path):
    """The lazy imports still run where a file has directives: an OpenACC sample (a region
    calls a ``routine seq`` procedure) translates with its model, and an OpenMP one."""
    acc = ROOT / "samples/openacc/routine_seq.f90"
    loaded = _modules_after(acc, tmp_path / "a", "--directives", "openacc")
    assert {"frontends.directives.fortran", "frontends.directives.openacc"} <= loaded
    omp = ROOT / "samples/openmp/lastprivate.f90"
    loaded = _modules_after(omp, tmp_path / "o", "--directives", "openmp")
    assert "frontends.directives.openmp" in loaded


def test_a_result_cache_hit_imports_no_pathlib(tmp_path):
    """A result-cache hit loads no pathlib (15 M instructions, 8 % of a hit) where the
    installation does not load it either: a regular install's site has no editable finder,
    so the interpreter runs here without ``site`` and with the packages on ``PYTHONPATH``
    (the setuptools finder of an editable install imports pathlib itself; h68)."""
    import sysconfig
    env = dict(os.environ, TRANSLATE_SERVER="0", TRANSLATE_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join([str(ROOT), sysconfig.get_paths()["purelib"]]))
    args = ["--cache", str(ROOT / "samples/c/saxpy.c"), "-o", str(tmp_path / "out")]
    loaded = []
    for _ in range(2):   # a miss stores the result, then the hit
        proc = subprocess.run([sys.executable, "-S", "-c", _CHILD, *args], cwd=tmp_path,
                              env=env, capture_output=True, text=True, timeout=300,
                              check=False)
        assert proc.returncode == 0, proc.stderr
        loaded.append(set(json.loads(proc.stderr.strip().splitlines()[-1])))
    assert "translator.driver" in loaded[0] and "translator.driver" not in loaded[1]
    assert "pathlib" not in loaded[1]


@pytest.mark.parametrize("name, text", [
    ("plain.f90", "program plain\n  integer :: i\n  real :: a(9)\n  do i = 1, 9\n"
                  "    a(i) = i\n  end do\n  print *, sum(a)\nend program plain\n"),
    ("plain.c", "#include <stdio.h>\nint main(void) {\n  double a[9];\n"
                "  for (int i = 0; i < 9; i++) a[i] = i;\n  printf(\"%g\\n\", a[8]);\n}\n"),
])
def test_a_file_with_nothing_to_translate_loads_no_parser_ir_or_isl(tmp_path, name, text):
    """Most files of a program hold no region: they come out as they went in without the
    frontends' parsers, the IR, isl, pymbolic or numpy (`translator.passthrough`)."""
    src = tmp_path / name
    src.write_text(text)
    loaded = _modules_after(src, tmp_path / "out", "-MD", "--all-outputs")
    heavy = {m for m in loaded if m.split(".")[0] in ("numpy", "islpy", "pymbolic", "fparser",
                                                      "pycparser")}
    assert not heavy, sorted(heavy)
    assert not {"translator.driver", "translator.ir", "frontends.fortran", "frontends.c"} & loaded
    assert (tmp_path / "out" / name).read_text() == text


#: After a translation: which of these module-level patterns are compiled (a `re.Pattern`, or
#: a `translator.patterns.LazyPattern` that was used).
_PATTERNS = """
import json, re, sys
from translator.cli import main
names = json.loads(sys.argv[1])
sys.argv = ["translate", *sys.argv[2:]]
code = main()
compiled = {}
for name in names:
    module, _, attr = name.rpartition(".")
    if module in sys.modules:
        value = getattr(sys.modules[module], attr)
        compiled[name] = isinstance(value, re.Pattern) or "match" in vars(value)
print(json.dumps(compiled), file=sys.stderr)
sys.exit(code)
"""

#: Patterns that only some inputs need: the kernel-language lexers, isl's set text, data
#: regions' scans, macro values, OpenACC and OpenMP lines, module files, name folding.
_RARE_PATTERNS = (
    "translator.ir.parse_expr._TOKEN_RE", "translator.ir.parse_fast._TOKEN_RE",
    "translator.ir.isl_glue.core._SET_TEXT", "frontends.partial_updates._C_FOR",
    "frontends.stale._KEYWORD", "frontends.macros._INTEGER",
    "frontends.fortran.inline._ACC_LINE", "frontends.fortran.threadprivate._OMP_LINE",
    "frontends.fortran.modules._MODULE_LINE", "transforms.match._TOKEN",
    "transforms.registry._WORD", "translator.atomic_files._TEMPORARY",
)


@pytest.mark.parametrize("source", ["samples/fortran/saxpy.f90", "samples/c/saxpy.c"])
def test_a_small_translation_compiles_no_pattern_it_does_not_use(tmp_path, source):
    """A module-level ``re.compile`` runs at every start; the patterns that only some inputs
    need are `LazyPattern`s, compiled at their first use (h89: 4 ms of a small translation)."""
    env = dict(os.environ, TRANSLATE_SERVER="0")
    proc = subprocess.run([sys.executable, "-c", _PATTERNS, json.dumps(_RARE_PATTERNS),
                           "--no-cache", str(ROOT / source), "-o", str(tmp_path / "out")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    compiled = json.loads(proc.stderr.strip().splitlines()[-1])
    assert len(compiled) >= 6, compiled   # most of them are loaded
    assert not [name for name, done in compiled.items() if done]


def test_a_small_translation_loads_neither_the_stale_scan_nor_difflib(tmp_path):
    """The stale-access scan of data regions (`frontends.stale`, `frontends.partial_updates`)
    loads only for a file with data directives, difflib only for a near miss or an error that
    suggests a name (h89)."""
    for source in ("samples/fortran/saxpy.f90", "samples/c/saxpy.c"):
        loaded = _modules_after(ROOT / source, tmp_path / source.split("/")[1])
        assert "translator.driver" in loaded
        assert not {"frontends.stale", "frontends.partial_updates", "difflib"} & loaded
    data = _modules_after(ROOT / "samples/fortran/data_update.f90", tmp_path / "data")
    assert "frontends.stale" in data
