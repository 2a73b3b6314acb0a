"""How translation time and memory grow with the size of a region and of a file.

Generates three kinds of input and times ``translate SRC -o OUT --time-passes`` on each, in a
fresh process per run (so the peak resident set size is that run's own):

- ``line``: one loop of N straight-line statements (each reads the previous one's result);
- ``nests``: N statements spread over N/4 loop nests of four statements each, every nest
  reading the array the previous nest wrote;
- ``loops``: N loops of one statement each, loop k reading what loop k-1 wrote;
- ``mapped``: ``line`` with the loop split onto work groups by a pragma;
- ``file``: a file of about N lines of plain code with three small regions;
- ``same``: one loop of N statements on one array, ``a(i, k) = k*a(i, k) + 1`` (issue 24);
- ``deep``: N statements on eight 3-D arrays inside one triple loop nest;
- ``regions``: N small regions in one file, each a loop copying one edge strip;
- ``halo``: a halo-update file of about N lines: many small subroutines, each with two
  regions copying the edge strips of a 2-D field (periodic boundaries);
- ``statements``, ``sum``, ``product``, ``parens``: the programs of issue 28 (items 8-10,
  tests/build/shapes.py): N statements ``y[k*n + i] = ...`` on one pointer (Fortran: an
  assumed-size array), a sum or product of N terms, N nested parentheses.

Usage::

    python bench/bench_scale.py                     # the default sizes, both languages
    python bench/bench_scale.py --kind line --sizes 100 400 --lang fortran
    python bench/bench_scale.py --write DIR         # only write the inputs, for profiling
    python bench/bench_scale.py --repeat 3          # least CPU of three runs each
    python bench/bench_scale.py --table --kind same --lang fortran   # the scaling table

Prints one line per run: kind, language, size, wall and CPU (user + system) seconds, peak
RSS in MB, and the ``--time-passes`` lines summed over regions.  On a loaded machine the CPU
seconds are the steadier number.  The translator comes from PYTHONPATH (or the installed
package): ``PYTHONPATH=/path/to/checkout python bench/bench_scale.py``.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

DEFAULT_SIZES = {"line": (100, 200, 400), "nests": (100, 400), "loops": (100, 200, 400),
                 "mapped": (100, 400), "file": (20000,),
                 # issue 28: many statements on one pointer, long chains, deep parentheses
                 "statements": (25, 50, 100, 400), "sum": (200, 1000, 5000),
                 "product": (1000,), "parens": (100, 200),
                 # issue 24: statements on one array, deep nests, many small regions
                 "same": (100, 400), "deep": (100, 400), "regions": (100, 400),
                 "halo": (1000,)}
#: The sizes of the scaling table (``--table``); kinds sized in lines get ten times these.
TABLE_SIZES = (50, 100, 200, 400, 800)
LINE_KINDS = ("file", "halo")
SPLIT = 'split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")'


def fortran_line(n: int) -> str:
    """A subroutine with one loop of `n` statements, each using the previous result."""
    decls = "\n".join(f"  real(8) :: t{k}(m)" for k in range(n))
    body = ["     t0(i) = a(i) * 2.0d0 + 1.0d0"]
    body += [f"     t{k}(i) = t{k - 1}(i) * 0.5d0 + a(i) - {k}.0d0" for k in range(1, n)]
    body.append(f"     b(i) = t{n - 1}(i)")
    return _fortran_sub(decls, "\n".join(["  do i = 1, m"] + body + ["  end do"]))


def fortran_nests(n: int) -> str:
    """`n` statements in n/4 loop nests; nest j reads what nest j-1 wrote."""
    nests = max(1, n // 4)
    decls = "\n".join(f"  real(8) :: t{k}(m)" for k in range(nests))
    parts = []
    for j in range(nests):
        src = "a" if j == 0 else f"t{j - 1}"
        parts.append("  do i = 1, m")
        parts.append(f"     t{j}(i) = {src}(i) * 0.5d0 + 1.0d0")
        parts += [f"     t{j}(i) = t{j}(i) + {src}(i) * {s}.0d0" for s in range(1, 4)]
        parts.append("  end do")
    parts += ["  do i = 1, m", f"     b(i) = t{nests - 1}(i)", "  end do"]
    return _fortran_sub(decls, "\n".join(parts))


def fortran_loops(n: int) -> str:
    """`n` loops of one statement; loop k reads the array loop k-1 wrote."""
    decls = "\n".join(f"  real(8) :: t{k}(m)" for k in range(n))
    parts = []
    for k in range(n):
        src = "a" if k == 0 else f"t{k - 1}"
        parts += ["  do i = 1, m", f"     t{k}(i) = {src}(i) * 0.5d0 + {k}.0d0", "  end do"]
    parts += ["  do i = 1, m", f"     b(i) = t{n - 1}(i)", "  end do"]
    return _fortran_sub(decls, "\n".join(parts))


def fortran_mapped(n: int) -> str:
    return fortran_line(n).replace("!$translate kernel\n",
                                   f"!$translate kernel\n  !$translate {SPLIT}\n")


def _fortran_sub(decls: str, region: str) -> str:
    return f"""subroutine big(m, a, b)
  implicit none
  integer, intent(in) :: m
  real(8), intent(in) :: a(m)
  real(8), intent(out) :: b(m)
{decls}
  integer :: i
  !$translate kernel
{region}
  !$translate end kernel
end subroutine big
"""


def c_line(n: int) -> str:
    """The C form of `fortran_line`: scalars in one loop."""
    body = ["    double t0 = a[i] * 2.0 + 1.0;"]
    body += [f"    double t{k} = t{k - 1} * 0.5 + a[i] - {k}.0;" for k in range(1, n)]
    body.append(f"    b[i] = t{n - 1};")
    loop = "\n".join(["  for (int i = 0; i < m; i++) {"] + body + ["  }"])
    return _c_func("", loop)


def c_nests(n: int) -> str:
    nests = max(1, n // 4)
    decls = "\n".join(f"static double t{k}[4096];" for k in range(nests))
    parts = []
    for j in range(nests):
        src = "a" if j == 0 else f"t{j - 1}"
        parts.append("  for (int i = 0; i < m; i++) {")
        parts.append(f"    t{j}[i] = {src}[i] * 0.5 + 1.0;")
        parts += [f"    t{j}[i] = t{j}[i] + {src}[i] * {s}.0;" for s in range(1, 4)]
        parts.append("  }")
    parts += ["  for (int i = 0; i < m; i++)", f"    b[i] = t{nests - 1}[i];"]
    return _c_func(decls, "\n".join(parts))


def c_loops(n: int) -> str:
    decls = "\n".join(f"static double t{k}[4096];" for k in range(n))
    parts = []
    for k in range(n):
        src = "a" if k == 0 else f"t{k - 1}"
        parts += ["  for (int i = 0; i < m; i++)", f"    t{k}[i] = {src}[i] * 0.5 + {k}.0;"]
    parts += ["  for (int i = 0; i < m; i++)", f"    b[i] = t{n - 1}[i];"]
    return _c_func(decls, "\n".join(parts))


def c_mapped(n: int) -> str:
    return c_line(n).replace("#pragma translate kernel\n",
                             f"#pragma translate kernel\n#pragma translate {SPLIT}\n")


def _c_func(decls: str, region: str) -> str:
    return f"""{decls}
void big(int m, const double *restrict a, double *restrict b)
{{
#pragma translate kernel
{region}
#pragma translate end kernel
}}
"""


def fortran_file(lines: int) -> str:
    """About `lines` lines: many small plain subroutines and three small regions."""
    out, k = [], 0
    while sum(s.count("\n") for s in out) < lines:
        out.append(_fortran_plain(k) if k % 200 else _fortran_region(k))
        k += 1
    return "".join(out)


def _fortran_plain(k: int) -> str:
    return f"""subroutine plain{k}(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: x(n), y(n)
  integer :: i
  ! a comment line in plain code {k}
  do i = 1, n
     x(i) = x(i) + {k}.0d0 * y(i)
     if (x(i) > 1.0d6) x(i) = 0.0d0
  end do
end subroutine plain{k}
"""


def _fortran_region(k: int) -> str:
    return f"""subroutine reg{k}(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: x(n), y(n)
  integer :: i
  !$translate kernel
  do i = 1, n
     y(i) = y(i) + 2.0d0 * x(i)
  end do
  !$translate end kernel
end subroutine reg{k}
"""


def c_file(lines: int) -> str:
    out, k = [], 0
    while sum(s.count("\n") for s in out) < lines:
        out.append(_c_plain(k) if k % 200 else _c_region(k))
        k += 1
    return "".join(out)


def _c_plain(k: int) -> str:
    return f"""void plain{k}(int n, double *x, const double *y)
{{
  /* a comment line in plain code {k} */
  for (int i = 0; i < n; i++) {{
    x[i] = x[i] + {k}.0 * y[i];
    if (x[i] > 1.0e6)
      x[i] = 0.0;
  }}
}}

"""


def _c_region(k: int) -> str:
    return f"""void reg{k}(int n, const double *restrict x, double *restrict y)
{{
#pragma translate kernel
  for (int i = 0; i < n; i++)
    y[i] = y[i] + 2.0 * x[i];
#pragma translate end kernel
}}

"""


def fortran_same(n: int) -> str:
    """One loop of `n` statements on one array: ``a(i, k) = k*a(i, k) + 1``."""
    body = "\n".join(f"     a(i, {k}) = {k}*a(i, {k}) + 1" for k in range(1, n + 1))
    return f"""subroutine same(m, a)
  implicit none
  integer, intent(in) :: m
  real(8), intent(inout) :: a(m, {n})
  integer :: i
  !$translate kernel
  do i = 1, m
{body}
  end do
  !$translate end kernel
end subroutine same
"""


def c_same(n: int) -> str:
    body = "\n".join(f"    a[{k}][i] = {k + 1}*a[{k}][i] + 1;" for k in range(n))
    return f"""void same(int m, double (*restrict a)[4096])
{{
#pragma translate kernel
  for (int i = 0; i < m; i++) {{
{body}
  }}
#pragma translate end kernel
}}
"""


def fortran_deep(n: int) -> str:
    """`n` statements on eight 3-D arrays in one triple nest."""
    decls = "\n".join(f"  real(8) :: u{k}(m, m, m)" for k in range(8))
    body = [f"        u{s % 8}(i, j, k) = u{s % 8}(i, j, k) + {s}.0d0 * u{(s + 1) % 8}(i, j, k)"
            for s in range(n)]
    loops = ["  do k = 1, m", "    do j = 1, m", "      do i = 1, m", *body,
             "      end do", "    end do", "  end do", "  b(1) = u0(1, 1, 1)"]
    return _fortran_sub(decls + "\n  integer :: j, k", "\n".join(loops))


def c_deep(n: int) -> str:
    decls = "\n".join(f"static double u{k}[32][32][32];" for k in range(8))
    body = [f"        u{s % 8}[k][j][i] = u{s % 8}[k][j][i] + {s}.0 * u{(s + 1) % 8}[k][j][i];"
            for s in range(n)]
    loops = ["  for (int k = 0; k < m; k++)", "    for (int j = 0; j < m; j++)",
             "      for (int i = 0; i < m; i++) {", *body, "      }", "  b[0] = u0[0][0][0];"]
    return _c_func(decls, "\n".join(loops))


def fortran_regions(n: int) -> str:
    """`n` small regions in one file, one subroutine each."""
    return "".join(_fortran_region(k) for k in range(n))


def c_regions(n: int) -> str:
    return "".join(_c_region(k) for k in range(n))


def fortran_halo(lines: int) -> str:
    """About `lines` lines of halo updates: per field a subroutine with two regions, one
    copying the x edges, one the y edges (with corners) of a field with one ghost layer."""
    out, k = [], 0
    while sum(s.count("\n") for s in out) < lines:
        out.append(f"""subroutine halo{k}(nx, ny, u)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(inout) :: u(0:nx + 1, 0:ny + 1)
  integer :: i, j
  !$translate kernel
  do j = 1, ny
     u(0, j) = u(nx, j)
     u(nx + 1, j) = u(1, j)
  end do
  !$translate end kernel
  !$translate kernel
  do i = 0, nx + 1
     u(i, 0) = u(i, ny)
     u(i, ny + 1) = u(i, 1)
  end do
  !$translate end kernel
end subroutine halo{k}
""")
        k += 1
    return "".join(out)


def c_halo(lines: int) -> str:
    out, k = [], 0
    while sum(s.count("\n") for s in out) < lines:
        out.append(f"""void halo{k}(int nx, int ny, double (*restrict u)[nx + 2])
{{
#pragma translate kernel
  for (int j = 1; j <= ny; j++) {{
    u[j][0] = u[j][nx];
    u[j][nx + 1] = u[j][1];
  }}
#pragma translate end kernel
#pragma translate kernel
  for (int i = 0; i <= nx + 1; i++) {{
    u[0][i] = u[ny][i];
    u[ny + 1][i] = u[1][i];
  }}
#pragma translate end kernel
}}

""")
        k += 1
    return "".join(out)


def _shape(kind: str, lang: str):
    """The issue-28 shapes of tests/build/shapes.py (whole programs)."""
    def make(size: int) -> str:
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
        from tests.build.shapes import shape
        return shape(kind, lang, size)[1]
    return make


GENERATORS = {
    ("line", "fortran"): fortran_line, ("line", "c"): c_line,
    ("nests", "fortran"): fortran_nests, ("nests", "c"): c_nests,
    ("loops", "fortran"): fortran_loops, ("loops", "c"): c_loops,
    ("mapped", "fortran"): fortran_mapped, ("mapped", "c"): c_mapped,
    ("file", "fortran"): fortran_file, ("file", "c"): c_file,
    ("same", "fortran"): fortran_same, ("same", "c"): c_same,
    ("deep", "fortran"): fortran_deep, ("deep", "c"): c_deep,
    ("regions", "fortran"): fortran_regions, ("regions", "c"): c_regions,
    ("halo", "fortran"): fortran_halo, ("halo", "c"): c_halo,
    **{(kind, lang): _shape(kind, lang) for kind in ("statements", "sum", "product", "parens")
       for lang in ("fortran", "c")},
}


def write_input(directory: str, kind: str, lang: str, size: int) -> str:
    """Write one generated input and return its path."""
    suffix = ".f90" if lang == "fortran" else ".c"
    path = os.path.join(directory, f"{kind}_{size}{suffix}")
    with open(path, "w", encoding="utf-8") as f:
        f.write(GENERATORS[kind, lang](size))
    return path


def time_one(path: str, out_dir: str) -> tuple[float, float, float, str, str]:
    """Run the CLI on `path`: wall and CPU seconds, peak RSS in MB, --time-passes summary,
    status.  It runs in `out_dir`'s parent, so ``-m`` finds the translator through
    PYTHONPATH or the installed package, not through the current directory."""
    cmd = [sys.executable, "-m", "translator.cli", os.path.abspath(path), "-o",
           os.path.abspath(out_dir), "--time-passes"]
    t0 = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as errf:
        proc = subprocess.Popen(cmd, stdout=out, stderr=errf,
                                cwd=os.path.dirname(os.path.abspath(out_dir)))
        # this child's own usage (RUSAGE_CHILDREN would give the largest of all runs so far)
        _, code, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(code)
        wall = time.perf_counter() - t0
        errf.seek(0)
        err = errf.read().decode("utf-8", "replace")
    cpu, rss = usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0
    status = "ok" if proc.returncode == 0 else f"exit {proc.returncode}: {err.strip()[-300:]}"
    return wall, cpu, rss, _summarise_passes(err), status


def _summarise_passes(stderr: str) -> str:
    """Sum the ``translate: pass NAME: X ms`` lines per pass name."""
    totals: dict[str, float] = {}
    for name, ms in re.findall(r"pass ([\w-]+): ([\d.]+) ms", stderr):
        totals[name] = totals.get(name, 0.0) + float(ms)
    return " ".join(f"{k}={v / 1e3:.2f}s" for k, v in totals.items())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kind", choices=sorted(DEFAULT_SIZES), action="append")
    ap.add_argument("--lang", choices=("fortran", "c"), action="append")
    ap.add_argument("--sizes", type=int, nargs="+")
    ap.add_argument("--write", metavar="DIR", help="only write the inputs into DIR")
    ap.add_argument("--table", action="store_true",
                    help="print a scaling table (CPU s / peak MB per size) for the sizes "
                         f"{', '.join(map(str, TABLE_SIZES))} (x10 for {', '.join(LINE_KINDS)})")
    ap.add_argument("--repeat", type=int, default=1, metavar="N",
                    help="run each input N times and print the run with the least CPU time "
                         "(steadier on a loaded machine)")
    args = ap.parse_args(argv)
    kinds = args.kind or sorted(DEFAULT_SIZES)
    langs = args.lang or ["fortran", "c"]
    if args.table:
        return _table(kinds, langs, args.sizes, args.repeat)
    with tempfile.TemporaryDirectory() as tmp:
        where = args.write or tmp
        os.makedirs(where, exist_ok=True)
        for kind in kinds:
            for lang in langs:
                for size in args.sizes or DEFAULT_SIZES[kind]:
                    path = write_input(where, kind, lang, size)
                    if args.write:
                        print(path)
                        continue
                    _report(kind, lang, size, path, os.path.join(tmp, "out"), args.repeat)
    return 0


def _table(kinds: list[str], langs: list[str], sizes: list[int] | None, repeat: int) -> int:
    """One row per kind and language: CPU seconds / peak RSS MB at each size."""
    for kind in kinds:
        row = [n * (10 if kind in LINE_KINDS else 1) for n in (sizes or TABLE_SIZES)]
        print(f"| {kind} | lang | " + " | ".join(map(str, row)) + " |", flush=True)
        print("| --- | --- |" + " ---: |" * len(row))
        for lang in langs:
            cells = []
            with tempfile.TemporaryDirectory() as tmp:
                for size in row:
                    path = write_input(tmp, kind, lang, size)
                    cpu, rss, status = _least(path, os.path.join(tmp, "out"), repeat)
                    cells.append(f"{cpu:.2f} s / {rss:.0f}" if status == "ok" else status[:40])
            print(f"| {kind} | {lang} | " + " | ".join(cells) + " |", flush=True)
    return 0


def _least(path: str, out_dir: str, repeat: int) -> tuple[float, float, str]:
    """CPU seconds, peak RSS (MB) and status of the run with the least CPU of `repeat`."""
    runs = []
    for _ in range(max(1, repeat)):
        done = subprocess.run([sys.executable, __file__, "--_one", path, out_dir],
                              capture_output=True, text=True)
        found = re.search(r"cpu\s+([\d.]+) s\s+(\d+) MB\s+(\S+)", done.stdout)
        runs.append((float(found.group(1)), float(found.group(2)), found.group(3))
                    if found else (float("inf"), 0.0, "failed"))
    return min(runs)


def _report(kind: str, lang: str, size: int, path: str, out_dir: str, repeat: int = 1) -> None:
    # One child per run: run it through a fresh interpreter so RUSAGE_CHILDREN is its own.
    cmd = [sys.executable, __file__, "--_one", path, out_dir]
    best, best_cpu = "", float("inf")
    for _ in range(max(1, repeat)):
        done = subprocess.run(cmd, capture_output=True, text=True)
        line = done.stdout.strip() or done.stderr.strip()[-300:]
        found = re.search(r"cpu\s+([\d.]+) s", line)
        cpu = float(found.group(1)) if found else float("inf")
        if not best or cpu < best_cpu:
            best, best_cpu = line, cpu
    note = f"  (least CPU of {repeat})" if repeat > 1 else ""
    print(f"{kind:6} {lang:8} {size:6} {best}{note}", flush=True)


def _one(path: str, out_dir: str) -> None:
    wall, cpu, rss, passes, status = time_one(path, out_dir)
    print(f"wall {wall:6.2f} s  cpu {cpu:6.2f} s {rss:5.0f} MB  {status}  {passes}")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--_one":
        _one(sys.argv[2], sys.argv[3])
        sys.exit(0)
    sys.exit(main())
