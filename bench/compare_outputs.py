"""Record every output of the translator on a fixed set of inputs, to show that a change
leaves them byte-identical.

For each input it runs ``python -m translator.cli SRC -o WORK --report`` (in a fresh process,
``TRANSLATE_SERVER=0``, from a fixed working directory so that paths in messages agree) and
copies the output files, stdout, stderr and the exit status into ``DEST/<name>/``.  The OpenMP
and OpenACC samples run a second time with their ``--directives`` model.  Compare two trees::

    PYTHONPATH=/path/to/before python bench/compare_outputs.py /tmp/before
    PYTHONPATH=/path/to/after python bench/compare_outputs.py /tmp/after
    diff -r /tmp/before /tmp/after && echo identical

The inputs: ``samples/*/*.{c,f90,F90,f}``, ``bench/gpu/*.c``, the C and Fortran sources under
``tests/`` and bench_scale's ``regions``, ``loops``, ``nests`` and ``halo`` at 50 and 100
(sizes of ``halo`` in tens of lines), both languages.
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SCALE_KINDS = ("regions", "loops", "nests", "halo")
SUFFIXES = ("c", "f90", "F90", "f")


def repository_inputs() -> list[str]:
    """The samples, the GPU bench programs and the sources under tests/, sorted."""
    found: list[str] = []
    for suffix in SUFFIXES:
        found += glob.glob(os.path.join(ROOT, "samples", "*", f"*.{suffix}"))
        found += glob.glob(os.path.join(ROOT, "tests", "**", f"*.{suffix}"), recursive=True)
    found += glob.glob(os.path.join(ROOT, "bench", "gpu", "*.c"))
    return sorted(set(found))


def scale_inputs(directory: str) -> list[str]:
    """bench_scale's many-region shapes at 50 and 100, written into `directory`."""
    sys.path.insert(0, HERE)
    import bench_scale   # the bench's generators, beside this file (on sys.path now)
    paths = []
    for kind in SCALE_KINDS:
        for lang in ("fortran", "c"):
            for size in (50, 100):
                scaled = size * 10 if kind in bench_scale.LINE_KINDS else size
                paths.append(bench_scale.write_input(directory, kind, lang, scaled))
    return paths


def directive_model(path: str) -> str | None:
    """The ``--directives`` model a sample under samples/openmp or samples/openacc uses."""
    parent = os.path.basename(os.path.dirname(path))
    return parent if parent in ("openmp", "openacc") else None


def record(src: str, extra: list[str], dest: str, work: str) -> None:
    """Translate `src` into `work` and copy what came out into `dest`."""
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = dict(os.environ, TRANSLATE_SERVER="0")
    cmd = [sys.executable, "-m", "translator.cli", src, "-o", work, "--report", *extra]
    done = subprocess.run(cmd, capture_output=True, env=env, cwd=os.path.dirname(work),
                          check=False)
    shutil.copytree(work, os.path.join(dest, "files"))
    for name, data in (("stdout", done.stdout), ("stderr", done.stderr),
                       ("status", f"{done.returncode}\n".encode())):
        with open(os.path.join(dest, name), "wb") as f:
            f.write(data)


def label(path: str) -> str:
    """A directory name for `path`: its location under the repository, slashes replaced."""
    rel = os.path.relpath(path, ROOT) if path.startswith(ROOT) else os.path.basename(path)
    return rel.replace(os.sep, "__")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dest", help="directory to fill (must not exist)")
    ap.add_argument("--inputs-dir", default=os.path.join(tempfile.gettempdir(),
                                                         f"compare-inputs-{os.getuid()}"),
                    help="where the generated inputs are written (the same for both trees)")
    args = ap.parse_args(argv)
    os.makedirs(args.dest)
    os.makedirs(args.inputs_dir, exist_ok=True)
    work = os.path.join(args.inputs_dir, "work", "out")
    runs = [(p, []) for p in repository_inputs() + scale_inputs(args.inputs_dir)]
    runs += [(p, ["--directives", m]) for p, _ in list(runs) if (m := directive_model(p))]
    for src, extra in runs:
        name = label(src) + ("__" + extra[1] if extra else "")
        record(src, extra, os.path.join(args.dest, name), work)
    print(f"{len(runs)} runs recorded in {args.dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
