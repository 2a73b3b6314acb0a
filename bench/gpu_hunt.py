"""Differential hunt on a GPU (h64): every hunt program, every sample and bench/h64_hunt/,
original against translated, on NVIDIA's OpenCL with PoCL as the control.

    .venv/bin/python bench/gpu_hunt.py build DIR [SRC...]   # here: gcc/gfortran, translate
    python3 DIR/gpu_hunt.py run DIR [NAME...]              # on the GPU machine (stdlib only)

(`build-only` builds without the PoCL run, `control DIR [NAME...]` runs it later.  With
GPU_HUNT_BASE_RUNTIME=DIR, `build` also links each translated program with the runtime in DIR
(`translated_base`), which `run` runs with GPU_HUNT_EXE=translated_base: the runtime before a
fix against the one after.)

`build` builds, for each program, the original and the translated binary as the e2e harness
does (tests/e2e/harness.py: its `translate-test:` header gives the options and the tolerance),
runs the original here (`expected.txt`) and the translated one on PoCL (`pocl.txt`, the
control), writes the tolerance (`rtol`), copies libgfortran/libquadmath into DIR/lib and this
script into DIR.  `run` runs each translated binary on the GPU (`TRANSLATE_DEVICE=gpu`) and
prints one line per program: MATCH (bit for bit), WITHIN (differs, but inside the program's
declared tolerance: transcendental built-ins may differ by a few ulp), DIFF (a defect until
explained), FAIL (nonzero exit); and the same verdict for the PoCL control.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve()
GROUPS = ("bench/h50_hunt", "bench/h52_hunt", "bench/h56_hunt", "bench/h57_hunt",
          "bench/h62_hunt", "bench/h63_hunt", "bench/h64_hunt", "bench/h67_hunt",
          "bench/h70_hunt", "bench/h71_hunt", "bench/h72_hunt", "bench/h74_hunt",
          "bench/h78_hunt", "bench/h85_hunt", "bench/h86_hunt", "bench/h87_hunt",
          "bench/h90_hunt",
          "bench/h92_hunt",
          "tests/e2e/arrays_of_structs", "tests/e2e/rodinia_rows", "tests/e2e/fuzz_regressions",
          "tests/e2e/guard_order", "tests/e2e/index_gathers", "tests/e2e/packed_components",
          "tests/e2e/atomic_forms", "bench/h93_hunt", "tests/e2e/fortran_gathers",
          "tests/e2e/fourth_round",
          "samples/c", "samples/fortran", "samples/openmp", "samples/openacc")
SUFFIXES = {".c", ".f90", ".F90", ".f", ".F"}
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eEdD][-+]?\d+)?")
LIBS = ("/lib/x86_64-linux-gnu/libgfortran.so.5", "/lib/x86_64-linux-gnu/libquadmath.so.0")


def default_sources(repo: Path) -> list[Path]:
    """The programs of every hunt folder and sample folder, sorted."""
    return [p for g in GROUPS for p in sorted((repo / g).glob("*")) if p.suffix in SUFFIXES]


def runtime_object(rt: Path, out: Path, name: str) -> Path:
    """The runtime in `rt` compiled once (as the harness compiles it) into `out`/`name`."""
    obj = out / "lib" / name
    if not obj.exists():
        subprocess.run(["gcc", "-c", "-O1", f"-I{rt}", str(rt / "translate_rt.c"), "-o",
                        str(obj)], check=True)
    return obj


def link_translated(src: Path, dest: Path, opts, rt_obj: Path, exe: str) -> None:
    """`dest`/`exe`: the translated program (in `dest`/out) linked with `rt_obj`, built with
    the harness's commands (tests/e2e/harness.py build_translated)."""
    from tests.e2e import harness
    out, rt = dest / "out", harness.runtime_dir()
    harness.run(["gcc", "-c", "-O1", f"-I{rt}", str(out / f"{src.stem}.host.c")], dest)
    objs = [str(dest / f"{src.stem}.host.o"), str(rt_obj)]
    if harness.is_fortran(src):
        cmd = ["gfortran", "-O1", *opts.cppflags, str(out / src.name)]
    else:
        cmd = ["gcc", "-O1", "-std=c99", *opts.cppflags, str(out / src.name)]
    harness.run([*cmd, *objs, "-lOpenCL", *([] if harness.is_fortran(src) else ["-lm"]),
                 "-o", str(dest / exe)], dest)


def build_one(src: Path, dest: Path, control: bool, objs: dict[str, Path]) -> str:
    """Build `src` into `dest` (original, expected.txt, rtol, and one translated program per
    runtime object of `objs`, named by its key; with `control`, pocl.txt too)."""
    from tests.e2e import harness
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    opts = harness.sample_options(src)
    try:
        orig = harness.build_original(src, dest, opts)
        harness.translate(src, dest / "out", opts)
        for exe, obj in objs.items():
            link_translated(src, dest, opts, obj, exe)
    except AssertionError as exc:
        (dest / "build_error.txt").write_text(str(exc))
        shutil.rmtree(dest / "out", ignore_errors=True)
        return "REFUSED" if "translator.cli" in str(exc).split("\n")[0] else "BUILDFAIL"
    (dest / "expected.txt").write_text(harness.run([str(orig)], dest))
    (dest / "rtol").write_text(f"{opts.rtol!r}\n")
    for junk in [*dest.glob("*.o"), *dest.glob("*.mod")]:
        junk.unlink()
    shutil.rmtree(dest / "out", ignore_errors=True)
    return run_one(dest, "cpu", "pocl.txt")[0] if control else "BUILT"


def build(out: Path, sources: list[Path], control: bool, base_rt: Path | None = None,
          skip_built: bool = False) -> int:
    """Build every program of `sources` into `out`/<group>_<file name>; print one line each."""
    repo = HERE.parents[1]
    sys.path.insert(0, str(repo))
    (out / "lib").mkdir(parents=True, exist_ok=True)
    objs = {"translated": runtime_object(repo / "translator" / "runtime", out, "rt_new.o")}
    if base_rt is not None:
        objs["translated_base"] = runtime_object(base_rt, out, "rt_base.o")
    for lib in LIBS:
        shutil.copy(lib, out / "lib")
    shutil.copy(HERE, out / HERE.name)
    for src in sources:
        name = f"{src.parent.name}_{src.name}"
        if skip_built and (out / name / "expected.txt").exists():
            continue
        verdict = build_one(src, out / name, control, objs)
        print(f"{verdict:9} {name}  (PoCL)", flush=True)
    return 0


def max_relative(expected: str, actual: str) -> float | None:
    """Largest relative difference between the numbers of two outputs; None if their words
    differ otherwise."""
    e_tok, a_tok = expected.split(), actual.split()
    if len(e_tok) != len(a_tok):
        return None
    worst = 0.0
    for e, a in zip(e_tok, a_tok):
        if e == a:
            continue
        if not (NUMBER.fullmatch(e) and NUMBER.fullmatch(a)):
            return None
        ev, av = (float(s.replace("D", "E").replace("d", "e")) for s in (e, a))
        worst = max(worst, abs(ev - av) / max(abs(ev), abs(av), 1e-300))
    return worst


def run_one(dest: Path, device: str, out_name: str,
            exe: str = "translated") -> tuple[str, str]:
    """Run `dest`/`exe` on `device`; the verdict and a detail."""
    env = {**os.environ, "TRANSLATE_DEVICE": device}
    try:
        proc = subprocess.run([str(dest / exe)], cwd=dest, capture_output=True,
                              text=True, env=env, timeout=120, check=False)
    except subprocess.TimeoutExpired:
        return "FAIL", "timeout after 120 s"
    (dest / out_name).write_text(proc.stdout)
    if proc.returncode != 0:
        return "FAIL", f"exit {proc.returncode}: {proc.stderr.strip()[-600:]}"
    expected = (dest / "expected.txt").read_text()
    if proc.stdout == expected:
        return "MATCH", ""
    rel = max_relative(expected, proc.stdout)
    rtol = float((dest / "rtol").read_text())
    if rel is not None and rel <= rtol:
        return "WITHIN", f"max relative difference {rel:.3g} <= rtol {rtol:g}"
    return "DIFF", f"max relative difference {rel}  (rtol {rtol:g})"


def first_difference(dest: Path, out_name: str) -> str:
    """The first differing line of the expected output and `out_name`."""
    exp = (dest / "expected.txt").read_text().splitlines()
    got = (dest / out_name).read_text().splitlines()
    for k, (e, g) in enumerate(zip(exp, got)):
        if e != g:
            return f"line {k + 1}: expected {e[:160]!r}\n      got      {g[:160]!r}"
    return f"{len(exp)} lines expected, {len(got)} printed"


def control(out: Path, names: list[str]) -> int:
    """Run every built program on PoCL (here, after a build without control)."""
    for dest in sorted(out.iterdir()):
        if (dest / "translated").is_file() and (not names or dest.name in names):
            verdict, detail = run_one(dest, "cpu", "pocl.txt")
            print(f"{verdict:7} {dest.name}  {detail}  (PoCL)", flush=True)
    return 0


def run(out: Path, names: list[str]) -> int:
    """Run every built program on the GPU; one line each, then the counts."""
    icd = Path("/tmp/icd")
    icd.mkdir(exist_ok=True)
    (icd / "nvidia.icd").write_text("libnvidia-opencl.so.1\n")
    os.environ.update(OCL_ICD_VENDORS=str(icd), OCL_ICD_FILENAMES="libnvidia-opencl.so.1")
    os.environ["LD_LIBRARY_PATH"] = f"{out / 'lib'}:{os.environ.get('LD_LIBRARY_PATH', '')}"
    counts: dict[str, int] = {}
    exe = os.environ.get("GPU_HUNT_EXE", "translated")   # translated_base: the runtime before
    got = "gpu.txt" if exe == "translated" else f"gpu_{exe}.txt"
    dirs = [d for d in sorted(out.iterdir())
            if (d / "translated").is_file() and (d / "expected.txt").is_file()]
    for dest in dirs:
        if names and dest.name not in names:
            continue
        if not (dest / exe).is_file():
            continue
        verdict, detail = run_one(dest, os.environ.get("TRANSLATE_DEVICE", "gpu"), got, exe)
        if verdict in ("WITHIN", "DIFF"):
            pocl = dest / "pocl.txt"
            if pocl.exists():
                same = pocl.read_text() == (dest / got).read_text()
                detail += "; PoCL printed the same" if same else "; PoCL printed otherwise"
        counts[verdict] = counts.get(verdict, 0) + 1
        print(f"{verdict:7} {dest.name}  {detail}", flush=True)
        if verdict == "DIFF":
            print("      " + first_difference(dest, got), flush=True)
    print("counts:", ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 1 if counts.get("DIFF") or counts.get("FAIL") else 0


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] not in ("build", "build-only", "control", "run"):
        print(__doc__, file=sys.stderr)
        return 2
    out = Path(argv[1]).resolve()
    if argv[0] in ("run", "control"):
        return (run if argv[0] == "run" else control)(out, argv[2:])
    base = os.environ.get("GPU_HUNT_BASE_RUNTIME")
    sources = [Path(a).resolve() for a in argv[2:]] or default_sources(HERE.parents[1])
    return build(out, sources, control=argv[0] == "build",
                 base_rt=Path(base).resolve() if base else None,
                 skip_built=bool(os.environ.get("GPU_HUNT_SKIP_BUILT")))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
