"""``translate check``: build the original and the translated program, run both, and compare
what every region wrote at every region exit.

    translate check SRC... [--args 'ARGS'] [--rtol R] [--atol A] [--keep DIR]
                           [--launcher 'mpirun -np 2'] [-- FLAGS]

The original program is instrumented (each region keeps its code; a call to a dumping glue
function follows it, see `translator.build.checkglue`); the translated program dumps after
each real glue call.  The translated program runs on ``$TRANSLATE_DEVICE`` (default: ``cpu``).
Exit 0 when every region execution matches, 1 on the first mismatch (region, array, index,
both values) or when a build or a run fails.

With ``--launcher`` (an MPI code: ``--launcher 'mpirun -np 2' --cc mpicc --fc mpif90``) both
programs run under the launcher; each rank dumps its own region executions (``%r`` in
``$TRANSLATE_DUMP``), and rank r of the translated program is compared with rank r of the
original.  The standard outputs are compared as sorted lines (the ranks' lines interleave in
any order).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import warnings
from dataclasses import field
from pathlib import Path
from typing import Any

from translator.build.checkcompare import (Record, compare_runs, read_dump)
from translator.build.checkglue import (ORIGINAL_C, SUPPORT_C, check_glue_file,
                                        real_symbol_defines)
from translator.build.flags import (UserErrorParser, compiler_fixed_line_length,
                                   compiler_preprocessing, frontend_cpp_args)
from translator.build.paths import runtime_dir
from translator.build.warnpolicy import apply_policy, split_warning_flags
from translator.languages import language_of
from translator.diagnostics import FrontendError, TranslatorError
from translator.records import dataclass


class CheckFailed(Exception):
    """A build or run step failed; the message is what the user sees."""


@dataclass
class Unit:
    """One source file of the program and its translation."""

    src: Path
    language: str
    result: Any = None          # TranslationResult, or None for a file without regions
    stem: str = ""

    @property
    def has_regions(self) -> bool:
        return self.result is not None and bool(
            self.result.regions or getattr(self.result.parsed, "data_sites", ()))


@dataclass
class Settings:
    sources: list[str]
    flags: list[str] = field(default_factory=list)
    run_args: list[str] = field(default_factory=list)
    rtol: float | None = None
    atol: float = 0.0
    keep: str | None = None
    fc: str = "gfortran"
    cc: str = "gcc"
    timeout: float = 600.0
    launcher: list[str] = field(default_factory=list)
    directives: tuple[str, ...] = ("translate",)


def _parser() -> argparse.ArgumentParser:
    ap = UserErrorParser(
        prog="translate check",
        description="Build the original and the translated program, run both and compare "
                    "every array and scalar each region writes, at each region exit.")
    ap.add_argument("sources", nargs="+", metavar="SRC")
    ap.add_argument("--args", default="", help="arguments for both programs (one string)")
    ap.add_argument("--rtol", type=float, help="relative tolerance for floating-point values "
                    "(default 1e-9 for double, 1e-4 for float and for values computed in float)")
    ap.add_argument("--atol", type=float, default=0.0, help="absolute tolerance (default 0)")
    ap.add_argument("--keep", metavar="DIR", help="build in DIR and keep it")
    ap.add_argument("--fc", default=os.environ.get("FC") or "gfortran")
    ap.add_argument("--cc", default=os.environ.get("CC") or "gcc")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per program run")
    ap.add_argument("--launcher", default="", metavar="CMD",
                    help="run both programs under this command, e.g. 'mpirun -np 2'; each "
                         "rank's region executions are compared with the same rank's")
    ap.add_argument("--directives", default="translate", metavar="MODELS",
                    help="directives to read, as for translate (openmp, openacc, translate)")
    return ap


def parse_args(argv: list[str]) -> Settings:
    flags: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, flags = argv[:cut], argv[cut + 1:]
    ap = _parser()
    a = ap.parse_args(argv)
    from frontends.directive_models import parse_models
    try:
        models = parse_models(a.directives)
    except ValueError as err:
        ap.error(f"--directives: {err}")
    return Settings(sources=a.sources, flags=flags, run_args=shlex.split(a.args), rtol=a.rtol,
                    atol=a.atol, keep=a.keep, fc=a.fc, cc=a.cc, timeout=a.timeout,
                    launcher=shlex.split(a.launcher), directives=models)


def main(argv: list[str]) -> int:
    policy, argv = split_warning_flags(argv)
    settings = parse_args(argv)
    try:
        units = translate_units(settings, policy)
        return _check(settings, units)
    except TranslatorError as err:
        sys.stderr.write(err.render())
        return 1
    except CheckFailed as err:
        sys.stderr.write(f"translate check: error: {err}\n")
        return 1


def translate_units(settings: Settings, policy) -> list[Unit]:
    """Translate every source in memory (warnings shown under `policy`)."""
    # imported here: the driver loads every frontend and the code generator, which
    # `translate check --help` and argument errors do not need
    from translator.build.job import read_source
    from translator.driver import translate_text
    options: dict = {"cpp_args": frontend_cpp_args(settings.flags)}
    if settings.directives != ("translate",):
        options["directives"] = settings.directives
    if compiler_preprocessing(settings.flags) is not None:   # gfortran's -cpp / -nocpp
        options["preprocess"] = compiler_preprocessing(settings.flags)
    if compiler_fixed_line_length(settings.flags) is not None:   # -ffixed-line-length-N
        options["fixed_line_length"] = compiler_fixed_line_length(settings.flags)
    units, stems = [], set()
    for name in settings.sources:
        src = Path(name)
        lang = language_of(name)
        if lang is None:
            raise FrontendError(f"{name}: not a Fortran or C source")
        unit = Unit(src=src, language=lang, stem=src.stem)
        if unit.stem in stems:
            raise FrontendError(f"{name}: two sources named {unit.stem}.*; rename one")
        stems.add(unit.stem)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            unit.result = translate_text(name, read_source(name), options)
        shown, failed = apply_policy(caught, policy)
        sys.stderr.write(shown)
        if failed:
            raise TranslatorError(f"{name}: warnings treated as errors")
        units.append(unit)
    if not any(u.has_regions for u in units):
        raise FrontendError("no translate regions in the given sources: nothing to check")
    return units


def instrumented_original(unit: Unit) -> str:
    """The original text with a call to the region's (dumping) glue after each region."""
    res = unit.result
    parsed = res.parsed
    regions = tuple(dataclasses.replace(r, start=r.end) for r in parsed.regions)
    frontend = _frontend(unit)
    changes = {"regions": regions}
    if parsed.data_sites:
        changes["data_sites"] = ()        # the original keeps its data directives as comments
    return frontend.rewrite(dataclasses.replace(parsed, **changes), res.glue)


def _frontend(unit: Unit):
    from translator.driver import frontend_for   # start-up cost, as in translate_units
    return frontend_for(str(unit.src), unit.language)


def _glue_regions(unit: Unit) -> list[tuple[str, str, Any]]:
    res = unit.result
    return [(res.glue[region.name].symbol, region.name, code)
            for region, _kernel, code in res.regions]


def write_trees(units: list[Unit], work: Path) -> None:
    """``work/orig`` and ``work/tran``: the sources and glue of both programs."""
    from translator.sourcebytes import encode
    for tree in ("orig", "tran"):
        (work / tree).mkdir(parents=True, exist_ok=True)
        # the original program links no runtime: what its region calls use of it is here
        extra = ORIGINAL_C if tree == "orig" else ""
        (work / tree / "tr_check_support.c").write_text(SUPPORT_C + extra)
    for u in units:
        name = u.src.name
        if not u.has_regions:
            continue
        glue = check_glue_file(name, _glue_regions(u))
        (work / "orig" / name).write_bytes(encode(instrumented_original(u)))
        (work / "orig" / f"{u.stem}.check.c").write_text(glue)
        outs = u.result.outputs
        (work / "tran" / name).write_bytes(encode(outs[name]))
        (work / "tran" / f"{u.stem}.host.c").write_text(outs[f"{u.stem}.host.c"])
        (work / "tran" / f"{u.stem}.check.c").write_text(glue)


def _compile(cmd: list[str], cwd: Path, what: str) -> None:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise CheckFailed(f"building the {what} failed:\n$ {shlex.join(cmd)}\n"
                          f"{proc.stdout}{proc.stderr}")


def build(settings: Settings, units: list[Unit], work: Path, tree: str) -> Path:
    """Compile and link one of the two programs; returns the executable."""
    rt = runtime_dir()
    d = work / tree
    what = "original program (instrumented)" if tree == "orig" else "translated program"
    objs: list[str] = []
    for u in units:
        src = d / u.src.name if u.has_regions else u.src.resolve()
        inc = [f"-I{u.src.resolve().parent}"]
        comp = settings.fc if u.language == "fortran" else settings.cc
        obj = f"{u.stem}.o"
        _compile([comp, *settings.flags, *inc, "-c", str(src), "-o", obj], d, what)
        objs.append(obj)
    glue_flags = ["-O1", f"-I{rt}"]
    c_files = ["tr_check_support.c"]
    for u in units:
        if not u.has_regions:
            continue
        defines = ["-DTR_CHECK_TRANSLATED"] if tree == "tran" else []
        _compile([settings.cc, *glue_flags, *defines, "-c", f"{u.stem}.check.c",
                  "-o", f"{u.stem}.check.o"], d, what)
        objs.append(f"{u.stem}.check.o")
        if tree == "tran":
            syms = [sym for sym, _, _ in _glue_regions(u)]
            _compile([settings.cc, *glue_flags, *real_symbol_defines(syms), "-c",
                      f"{u.stem}.host.c", "-o", f"{u.stem}.host.o"], d, what)
            objs.append(f"{u.stem}.host.o")
    if tree == "tran":
        c_files.append(os.path.join(rt, "translate_rt.c"))
    for c in c_files:
        obj = Path(c).stem + ".o"
        _compile([settings.cc, *glue_flags, "-c", c, "-o", obj], d, what)
        objs.append(obj)
    linker = settings.fc if any(u.language == "fortran" for u in units) else settings.cc
    libs = ["-lOpenCL"] if tree == "tran" else []
    _compile([linker, *settings.flags, *objs, "-o", "program", *libs, "-lm"], d, what)
    return d / "program"


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    records: list[Record]
    #: Under a launcher: each rank's records (`records` is rank 0's).
    ranks: dict[int, list[Record]] = field(default_factory=dict)


def run_program(settings: Settings, exe: Path, dump: Path, label: str) -> Run:
    ranked = bool(settings.launcher)
    env = dict(os.environ, TRANSLATE_DUMP=str(dump) + (".%r" if ranked else ""))
    env.setdefault("TRANSLATE_DEVICE", "cpu")
    for old in [dump, *dump.parent.glob(dump.name + ".*")]:
        old.unlink(missing_ok=True)
    try:
        # run where check was started, so input files given in --args are found
        proc = subprocess.run([*settings.launcher, str(exe), *settings.run_args], env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              errors="replace", timeout=settings.timeout)
    except subprocess.TimeoutExpired:
        raise CheckFailed(f"the {label} program did not finish in {settings.timeout:g} s")
    except OSError as err:
        raise CheckFailed(f"cannot run the {label} program: {err}")
    if not ranked:
        records = read_dump(dump) if dump.exists() else []
        return Run(proc.returncode, proc.stdout, proc.stderr, records)
    ranks = {int(p.name.rsplit(".", 1)[1]): read_dump(p)
             for p in dump.parent.glob(dump.name + ".*") if p.name.rsplit(".", 1)[1].isdigit()}
    return Run(proc.returncode, proc.stdout, proc.stderr, ranks.get(0, []), ranks)


def _check(settings: Settings, units: list[Unit]) -> int:
    if settings.keep:
        work = Path(settings.keep).resolve()
        work.mkdir(parents=True, exist_ok=True)
        return _check_in(settings, units, work)
    work = Path(tempfile.mkdtemp(prefix="translate-check."))
    try:
        return _check_in(settings, units, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _check_in(settings: Settings, units: list[Unit], work: Path) -> int:
    write_trees(units, work)
    orig_exe = build(settings, units, work, "orig")
    tran_exe = build(settings, units, work, "tran")
    orig = run_program(settings, orig_exe, work / "orig.dump", "original")
    tran = run_program(settings, tran_exe, work / "tran.dump", "translated")
    regions = {region.name: (region, kernel, u.language)
               for u in units if u.has_regions for region, kernel, _ in u.result.regions}
    if settings.launcher:
        text, ok = compare_ranks(orig, tran, regions, settings)
    else:
        text, ok = compare_runs(orig, tran, regions, rtol=settings.rtol, atol=settings.atol)
    (sys.stdout if ok else sys.stderr).write(text)
    return 0 if ok else 1


def compare_ranks(orig: Run, tran: Run, regions: dict, settings: Settings) -> tuple[str, bool]:
    """Rank r of the translated program against rank r of the original (under a launcher);
    the standard outputs as sorted lines."""
    texts = []
    for rank in sorted(set(orig.ranks) | set(tran.ranks)) or [0]:
        mine = [Run(r.returncode, "\n".join(sorted(r.stdout.splitlines())), r.stderr,
                    r.ranks.get(rank, [])) for r in (orig, tran)]
        text, ok = compare_runs(*mine, regions, rtol=settings.rtol, atol=settings.atol)
        if not ok:
            return text.replace("error: ", f"error: rank {rank}: ", 1), False
        texts.append(text.replace("translate check: ", f"translate check: rank {rank}: ", 1))
    return "".join(texts), True
