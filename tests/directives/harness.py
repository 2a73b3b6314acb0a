"""Run the labelled directive set (tests/directives/cases.py).

Every case becomes one source file holding one routine; one driver program per language calls
the race-free routines in turn and prints a checksum of every argument after each call.  All
cases are translated by one ``translate --directives openmp,openacc,translate -j 2`` command;
a refused file leaves no outputs, so each case is judged by its own diagnostics.  The original
program (every case as written, compiled without OpenMP/OpenACC) and the translated program
(translated cases where accepted, the original file where refused) are built and run once per
language, on PoCL, and compared line by line: a line per case.

``python -m tests.directives.harness [DIR]`` runs the set and prints the table.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tests.directives.cases import CASES, Case
from tests.e2e.harness import REPO, TRANSLATE, compare_outputs, run, runtime_dir, runtime_object

DIRECTIVES = "openmp,openacc,translate"
SUFFIX = {"fortran": ".f90", "c": ".c"}
N, M = 40, 12
#: every sum and product in the cases is exact (multiples of 1/8): compare almost exactly
RTOL = 1e-12
DOCS = REPO / "docs" / "porting-directives.md"

F_HEAD = """\
subroutine {name}(n, m, a, b, c, u, v, ix, s, k)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(inout) :: a(n), b(n), c(n), u(m, m), v(m, m), s
  integer, intent(inout) :: ix(n), k
"""
C_HEAD = """\
void {name}(int n, int m, double a[n], double b[n], double c[n], double u[m][m],
            double v[m][m], int ix[n], double *s, int *k)
{{
"""


def case_source(case: Case) -> str:
    """The case's routine as a source file."""
    if case.language == "fortran":
        return F_HEAD.format(name=case.name) + case.body.lstrip("\n") + \
            f"end subroutine {case.name}\n"
    return C_HEAD.format(name=case.name) + case.body.lstrip("\n") + "}\n"


def directive_lines(case: Case) -> set[int]:
    """The 1-based line numbers of the case's OpenMP/OpenACC directives."""
    lines = case_source(case).splitlines()
    return {k + 1 for k, text in enumerate(lines)
            if re.match(r"\s*(!\$(omp|acc)|#\s*pragma\s+(omp|acc))\b", text, re.I)}


F_DRIVER = """\
program directive_cases
  implicit none
  integer, parameter :: n = {n}, m = {m}
  real(8) :: a(n), b(n), c(n), u(m, m), v(m, m), s
  integer :: ix(n), k
{calls}end program directive_cases

subroutine setup(n, m, a, b, c, u, v, ix, s, k)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(out) :: a(n), b(n), c(n), u(m, m), v(m, m), s
  integer, intent(out) :: ix(n), k
  integer :: i, j
  do i = 1, n
     a(i) = (mod(7 * i, 13) + 1) * 0.125d0
     b(i) = (mod(5 * i, 11) - 3) * 0.25d0
     c(i) = mod(i, 3) * 0.5d0
     ix(i) = mod(3 * i, n / 2) + 1
  end do
  do j = 1, m
     do i = 1, m
        u(i, j) = mod(i + 3 * j, 7) * 0.5d0
        v(i, j) = 0
     end do
  end do
  s = 1.5d0
  k = 3
end subroutine setup

subroutine report(name, n, m, a, b, c, u, v, ix, s, k)
  implicit none
  character(*), intent(in) :: name
  integer, intent(in) :: n, m
  real(8), intent(in) :: a(n), b(n), c(n), u(m, m), v(m, m), s
  integer, intent(in) :: ix(n), k
  integer :: i, j
  real(8) :: w(n), w2(m, m)
  do i = 1, n
     w(i) = i
  end do
  do j = 1, m
     do i = 1, m
        w2(i, j) = i + 100 * j
     end do
  end do
  print '(a, 6(1x, es24.16e3), 1x, i0, 1x, es24.16e3, 1x, i0)', name, sum(a * w), &
       sum(b * w), sum(c * w), sum(u * w2), sum(v * w2), sum(v), sum(ix * nint(w)), s, k
end subroutine report
"""

C_DRIVER = """\
#include <stdio.h>
#include <string.h>
#define N {n}
#define M {m}
{prototypes}
static double a[N], b[N], c[N], u[M][M], v[M][M], s;
static int ix[N], k;

static void setup(void)
{{
  for (int i = 1; i <= N; i++) {{
    a[i - 1] = (7 * i % 13 + 1) * 0.125;
    b[i - 1] = (5 * i % 11 - 3) * 0.25;
    c[i - 1] = i % 3 * 0.5;
    ix[i - 1] = 3 * i % (N / 2);
  }}
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) {{
      u[i][j] = (i + 1 + 3 * (j + 1)) % 7 * 0.5;
      v[i][j] = 0;
    }}
  s = 1.5;
  k = 3;
}}

static void report(const char *name)
{{
  double sa = 0, sb = 0, sc = 0, su = 0, sv = 0, tv = 0;
  long si = 0;
  for (int i = 0; i < N; i++) {{
    sa += a[i] * (i + 1);
    sb += b[i] * (i + 1);
    sc += c[i] * (i + 1);
    si += (long) ix[i] * (i + 1);
  }}
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) {{
      su += u[i][j] * (i + 1 + 100 * (j + 1));
      sv += v[i][j] * (i + 1 + 100 * (j + 1));
      tv += v[i][j];
    }}
  printf("%s %.16e %.16e %.16e %.16e %.16e %.16e %ld %.16e %d\\n", name, sa, sb, sc, su, sv,
         tv, si, s, k);
}}

int main(void)
{{
{calls}  return 0;
}}
"""


def driver_source(language: str, names: Sequence[str]) -> str:
    """The main program that calls each routine of `names` on fresh data and reports."""
    if language == "fortran":
        calls = "".join(f"  call setup(n, m, a, b, c, u, v, ix, s, k)\n"
                        f"  call {x}(n, m, a, b, c, u, v, ix, s, k)\n"
                        f"  call report('{x}', n, m, a, b, c, u, v, ix, s, k)\n" for x in names)
        return F_DRIVER.format(n=N, m=M, calls=calls)
    protos = "".join(f"void {x}(int n, int m, double a[n], double b[n], double c[n], "
                     f"double u[m][m], double v[m][m], int ix[n], double *s, int *k);\n"
                     for x in names)
    calls = "".join(f"  setup();\n  {x}(N, M, a, b, c, u, v, ix, &s, &k);\n"
                    f"  report(\"{x}\");\n" for x in names)
    return C_DRIVER.format(n=N, m=M, prototypes=protos, calls=calls)


DIAGNOSTIC = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): "
                        r"(?P<kind>error|warning): (?P<message>.*)$", re.M)


@dataclass
class Outcome:
    """What happened to one case."""

    case: Case
    translated: bool = False
    errors: list[tuple[int, str]] = field(default_factory=list)     # (line, message)
    warnings: list[tuple[int, str]] = field(default_factory=list)
    matched: bool | None = None          # race-free and translated: same output as original

    def reason(self) -> str:
        """The first error, else the first warning (a loop left as written says why)."""
        return self.errors[0][1] if self.errors else (self.warnings[0][1] if self.warnings
                                                       else "")


def documented_reasons() -> list[str]:
    """The refusal reasons docs/porting-directives.md lists (section "Why a loop is
    refused"): the backquoted phrase that starts each item; a refusal must quote one."""
    text = DOCS.read_text() if DOCS.exists() else ""
    m = re.search(r"^## Why a loop is refused\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    return re.findall(r"^- `([^`]+)`", m.group(1), re.M) if m else []


def write_cases(work: Path, cases: Sequence[Case]) -> dict[str, Path]:
    paths = {}
    for case in cases:
        folder = work / case.language
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / (case.name + SUFFIX[case.language])
        path.write_text(case_source(case))
        paths[case.name] = path
    return paths


def translate_all(work: Path, paths: dict[str, Path], cases: Sequence[Case]
                  ) -> dict[str, Outcome]:
    """One translate command for every case; each case's diagnostics and outputs."""
    rel = [str(p.relative_to(work)) for p in paths.values()]
    proc = subprocess.run([*TRANSLATE, "--directives", DIRECTIVES, "-j", "2", "-o", "out",
                           *rel], cwd=work, capture_output=True, text=True, timeout=600,
                          env=_env())
    if proc.returncode not in (0, 1):
        raise AssertionError(f"translate exit {proc.returncode}\n{proc.stderr[-4000:]}")
    outcomes = {case.name: Outcome(case) for case in cases}
    by_file = {str(paths[c.name].relative_to(work)): c.name for c in cases}
    for d in DIAGNOSTIC.finditer(proc.stderr):
        name = by_file.get(d["file"])
        if name is None:
            continue
        bucket = outcomes[name].errors if d["kind"] == "error" else outcomes[name].warnings
        bucket.append((int(d["line"]), d["message"]))
    for case in cases:
        o = outcomes[case.name]
        # offloaded: the loop became a region (a file without one gets no host glue)
        o.translated = (work / "out" / f"{paths[case.name].stem}.host.c").exists() \
            and not o.errors
    return outcomes


def _env() -> dict[str, str]:
    import os
    return {**os.environ, "TRANSLATE_DEVICE": "cpu", "PYTHONPATH": str(REPO)}


def build_and_compare(work: Path, language: str, outcomes: dict[str, Outcome],
                      paths: dict[str, Path]) -> None:
    """Build the original and the translated driver program of `language`, run both, mark
    each translated race-free case matched or not."""
    cases = [o.case for o in outcomes.values()
             if o.case.language == language and o.case.label == "race_free"]
    if not cases:
        return
    folder = work / language
    names = [c.name for c in cases]
    main = folder / f"main{SUFFIX[language]}"
    main.write_text(driver_source(language, names))
    originals = [paths[x] for x in names]
    chosen = [work / "out" / paths[x].name if outcomes[x].translated else paths[x]
              for x in names]
    expected = run([str(_link(folder / "orig", language, main, originals, []))], folder)
    hosts = [work / "out" / f"{paths[x].stem}.host.c" for x in names if outcomes[x].translated]
    actual = run([str(_link(folder / "tran", language, main, chosen, hosts))], folder,
                 env={"TRANSLATE_DEVICE": "cpu"})
    _judge(cases, outcomes, expected, actual)


def _link(build: Path, language: str, main: Path, sources: list[Path], hosts: list[Path]
          ) -> Path:
    build.mkdir(exist_ok=True)
    exe = build / "prog"
    objs: list[str] = []
    if hosts:
        rt = runtime_dir()
        run(["gcc", "-c", "-O1", f"-I{rt}", *map(str, hosts)], build)
        objs = [str(build / f"{h.name[:-2]}.o") for h in hosts] + \
            [str(runtime_object()), "-lOpenCL"]
    if language == "fortran":
        run(["gfortran", "-O1", str(main), *map(str, sources), *objs, "-o", str(exe)], build)
    else:
        run(["gcc", "-O1", "-std=c99", str(main), *map(str, sources), *objs, "-lm", "-o",
             str(exe)], build)
    return exe


def _judge(cases: list[Case], outcomes: dict[str, Outcome], expected: str, actual: str
           ) -> None:
    exp = {line.split()[0]: line for line in expected.splitlines() if line.strip()}
    act = {line.split()[0]: line for line in actual.splitlines() if line.strip()}
    for case in cases:
        o = outcomes[case.name]
        if not o.translated:
            continue
        try:
            compare_outputs(exp.get(case.name, "?"), act.get(case.name, "(missing)"), RTOL)
            o.matched = True
        except AssertionError:
            o.matched = False


def run_set(work: Path, cases: Sequence[Case] = CASES) -> dict[str, Outcome]:
    """Translate, build and run the whole set in `work`; every case's outcome."""
    paths = write_cases(work, cases)
    outcomes = translate_all(work, paths, cases)
    for language in ("fortran", "c"):
        build_and_compare(work, language, outcomes, paths)
    return outcomes


def verdict(o: Outcome, reasons: Sequence[str]) -> str:
    """'' when the case behaves as its label requires, else what is wrong."""
    if o.case.label == "racy":
        if o.translated:
            return "racy loop accepted"
        if not o.errors:
            return "not refused (no error), not offloaded either"
        line, message = o.errors[0]
        if line not in directive_lines(o.case):
            return f"error at line {line}, not at a directive line"
        if "directive-race" not in message and not _documented(message, reasons):
            return "error names neither directive-race nor a documented reason"
        if o.case.hint and not any(o.case.hint in msg for _, msg in o.errors):
            return f"no hint {o.case.hint!r} in the diagnostic"
        return ""
    if o.translated:
        return "" if o.matched else "translated program does not match the original"
    # a race-free loop refused as a race is a false alarm, unless the docs name its cause
    specific = [r for r in reasons if r != "directive-race"]
    if not o.errors:   # left as written, with a directive-untranslated warning that says why
        left = [m for _, m in o.warnings if "[-Wdirective-untranslated]" in m]
        if not left:
            return "left on the host without an error or warning"
        return "" if _documented(left[0], specific) else "left on the host for an " \
            "undocumented reason"
    return "" if _documented(o.reason(), specific) else "refused for an undocumented reason"


def _documented(message: str, reasons: Sequence[str]) -> bool:
    low = message.lower()
    return any(r.lower() in low for r in reasons)


def table(outcomes: dict[str, Outcome], reasons: Sequence[str]) -> str:
    """One line per case: name, language, label, family, outcome, verdict."""
    rows = []
    for o in outcomes.values():
        if o.translated and o.case.label == "racy":
            what = "translated (not run: racy)"
        elif o.translated:
            what = "translated, matches" if o.matched else "translated, DIFFERS"
        else:
            what = "refused: " + (o.reason()[:90] or "(no error)")
        bad = verdict(o, reasons)
        rows.append(f"{'FAIL' if bad else 'ok':4} {o.case.name:34} {o.case.label:9} "
                    f"{o.case.family:30} {what}" + (f"  <-- {bad}" if bad else ""))
    return "\n".join(rows) + "\n" + summary(outcomes)


def summary(outcomes: dict[str, Outcome]) -> str:
    counts: dict[str, int] = {}
    for o in outcomes.values():
        key = f"{o.case.language} {o.case.label} " + \
            ("translated" if o.translated else "refused")
        counts[key] = counts.get(key, 0) + 1
    return "; ".join(f"{k}: {v}" for k, v in sorted(counts.items()))


def main(argv: list[str]) -> int:
    """``[DIR [LANGUAGE]]``: run the set (or one language's half) in DIR, print the table."""
    work = Path(argv[0]) if argv else Path(tempfile.mkdtemp(prefix="directive-set-"))
    work.mkdir(parents=True, exist_ok=True)
    cases = [c for c in CASES if len(argv) < 2 or c.language == argv[1]]
    outcomes = run_set(work, cases)
    reasons = documented_reasons()
    print(table(outcomes, reasons))
    return 1 if any(verdict(o, reasons) for o in outcomes.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
