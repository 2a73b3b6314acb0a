"""The end-to-end differential fuzzer's runner (bench/e2e_fuzz.py, tests/e2e/test_e2e_fuzz.py).

A batch is several random programs of one language (tests/e2e/random_programs.py), each in
its own file.  Each file is translated in this process (`translator.cli.main`, as the command
runs it); the originals, the translated programs and the *reversed* originals (claimed loops
backwards) are each linked into one program whose main runs every case, and run (the
translated one on the CPU OpenCL device).  Every case gets one class:

- MATCH: translated, and prints what the original prints, bit for bit;
- WITHIN: translated, and prints what the original prints up to the ulps OpenCL allows its
  built-ins (only a case that calls exp, log, sin, cos, atan2 or a real power:
  ``Case.tolerant``);
- REFUSED: exit 1 with a located diagnostic (or the glue's run-time check of an assumption);
- DIFF: translated, and prints something else: a silent wrong result;
- UNSOUND: translated, prints the same, but a loop the pragmas or directives declared parallel
  gives another result when its iterations run backwards: a false claim was accepted;
- FAIL: exit 2, a traceback, exit 1 without a diagnostic, a translated program that does not
  build or that stops with an error.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tests.e2e.harness import runtime_object
from tests.e2e.random_programs import Case, make_case
from tests.e2e.random_render import all_regions, main_program, render

REPO = Path(__file__).resolve().parents[2]
RUNTIME = REPO / "translator" / "runtime"
ENV = {**os.environ, "TRANSLATE_DEVICE": "cpu", "TRANSLATE_KERNEL_CACHE": "off"}
CLASSES = ("MATCH", "WITHIN", "REFUSED", "DIFF", "UNSOUND", "FAIL")
GOOD = ("MATCH", "WITHIN", "REFUSED")


@dataclass
class Result:
    seed: int
    lang: str
    cls: str
    detail: str = ""
    text: str = ""
    used: frozenset = frozenset()

    @property
    def name(self) -> str:
        return f"{self.lang}:{self.seed}"


def translate_in_process(src: Path, out: Path, directives: str, timeout: int = 60
                         ) -> tuple[int, str]:
    """Exit status and stderr of ``translate SRC -o OUT --directives D``, run by a forked
    child of this process (the translator's modules stay imported; a crash or a hang of the
    translator is the child's).  A child killed by a signal gives status 128 + signal."""
    import translator.cli  # noqa: F401  (imported once, before the fork)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:                          # the child: translate, send stderr, exit
        os.close(read_end)
        rc, err = _translate_here(src, out, directives)
        with os.fdopen(write_end, "w") as pipe:
            pipe.write(err)
        os._exit(rc)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        err = _read_with_timeout(pipe, pid, timeout)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status), err + f"\nkilled by signal {os.WTERMSIG(status)}"
    return os.WEXITSTATUS(status), err


def _read_with_timeout(pipe, pid: int, timeout: int) -> str:
    import select
    import signal
    ready, _, _ = select.select([pipe], [], [], timeout)
    if not ready:
        os.kill(pid, signal.SIGKILL)
        return f"translation timed out after {timeout} s"
    return pipe.read()


def _translate_here(src: Path, out: Path, directives: str) -> tuple[int, str]:
    from translator.cli import main
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            rc = main([str(src), "-o", str(out), "--directives", directives, "--no-cache"])
        except SystemExit as exc:        # argparse
            rc = exc.code if isinstance(exc.code, int) else 2
        except BaseException as exc:      # noqa: BLE001 (a bug of the translator: say so)
            return 2, f"uncaught {type(exc).__name__}: {exc}"
    return rc, err.getvalue()


_LOCATION = re.compile(r"^\S+:\d+:\d+: error: (.*)$", re.MULTILINE)


def refusal_kind(stderr: str) -> str:
    """The first error message with names and numbers blanked, to count refusals by kind."""
    m = _LOCATION.search(stderr)
    text = m.group(1) if m else stderr.strip().splitlines()[0]
    text = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "'_'", text)
    text = re.sub(r"\b[a-z]\w*(\[[^\]]*\])+", "X[..]", text)
    text = re.sub(r"-?\d+", "N", text)
    text = re.sub(r"\([^()]*\)", "(..)", text)
    return text[:90]


def _sh(cmd: list[str], cwd: Path, timeout: int = 120, env: dict | None = None
        ) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                              check=False, env=env or os.environ)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(cmd, 124, "", f"timed out after {timeout} s")


def _compile(lang: str, sources: list[Path], exe: Path, extra: list[str], cwd: Path
             ) -> subprocess.CompletedProcess:
    if lang == "c":
        cmd = ["gcc", "-O1", "-std=c99", "-w", *map(str, sources), *extra, "-lm"]
    else:
        cmd = ["gfortran", "-O1", "-w", *map(str, sources), *extra]
    return _sh([*cmd, "-o", str(exe)], cwd)


def _split_outputs(stdout: str) -> dict[int, str]:
    out: dict[int, str] = {}
    key = None
    for line in stdout.splitlines(keepends=True):
        if line.startswith("@case "):
            key = int(line.split()[1])
            out[key] = ""
        elif key is not None:
            out[key] += line
    return out


class Batch:
    """One batch of cases of one language in a scratch directory."""

    def __init__(self, seeds: list[int], lang: str, work: Path,
                 features: frozenset = frozenset(), cases: list[Case] | None = None) -> None:
        self.lang, self.work = lang, work
        self.cases = cases if cases is not None else \
            [make_case(seed, lang, k, features) for k, seed in enumerate(seeds)]
        self.results: dict[int, Result] = {}
        self.texts = {c.index: render(c) for c in self.cases}
        self.sequential: dict[int, frozenset] = {}

    def run(self) -> list[Result]:
        main = self.work / f"main{self.cases[0].suffix}"
        main.write_text(main_program(self.lang, [c.index for c in self.cases]))
        for case in self.cases:
            (self.work / f"{case.stem}{case.suffix}").write_text(self.texts[case.index])
        original = self._original(main)
        translated = [c for c in self.cases if self._translate(c)]
        if translated:
            outputs = self._run_translated(translated, main)
            self._compare(translated, original, outputs, main)
        return [self.results[c.index] for c in self.cases]

    def _set(self, case: Case, cls: str, detail: str = "") -> None:
        self.results[case.index] = Result(case.seed, self.lang, cls, detail,
                                          self.texts[case.index], case.used)

    def _original(self, main: Path) -> dict[int, str]:
        files = [self.work / f"{c.stem}{c.suffix}" for c in self.cases]
        built = _compile(self.lang, [*files, main], self.work / "original", [], self.work)
        if built.returncode != 0:
            raise RuntimeError(f"the generator wrote a program that does not build:\n"
                               f"{built.stderr[-3000:]}")
        ran = _sh([str(self.work / "original")], self.work, timeout=60)
        if ran.returncode != 0:
            raise RuntimeError(f"an original program failed: {ran.stderr[-2000:]}")
        return _split_outputs(ran.stdout)

    def _translate(self, case: Case) -> bool:
        src = self.work / f"{case.stem}{case.suffix}"
        rc, err = translate_in_process(src, self.work / f"out{case.index}", case.directives)
        if rc == 0:
            self.sequential[case.index] = _claims_not_taken(self.texts[case.index], case, err)
            return True
        if rc == 1 and ": error: " in err and "Traceback" not in err:
            self._set(case, "REFUSED", refusal_kind(err))
        else:
            self._set(case, "FAIL", f"translate exit {rc}: {err.strip()[-1500:]}")
        return False

    def _runtime_object(self) -> Path:
        return runtime_object()

    def _objects(self, case: Case) -> list[Path] | str:
        """The translated case's objects, or why they do not build."""
        out = self.work / f"out{case.index}"
        objs = []
        for src in (out / f"{case.stem}{case.suffix}", out / f"{case.stem}.host.c"):
            if src.suffix == ".c" and src.name.endswith(".host.c") and not src.exists() \
                    and case.directives != "translate":
                continue        # every directive left as written: no glue
            obj = self.work / f"{src.name}.{case.index}.o"
            compiler = ["gcc", "-std=c99"] if src.suffix == ".c" else ["gfortran"]
            built = _sh([*compiler, "-c", "-O1", "-w", f"-I{RUNTIME}", str(src), "-o",
                         str(obj)], self.work)
            if built.returncode != 0:
                return f"{src.name} does not build: {built.stderr.strip()[-1500:]}"
            objs.append(obj)
        return objs

    def _run_translated(self, cases: list[Case], main: Path) -> dict[int, str]:
        objects: list[Path] = []
        for case in list(cases):
            objs = self._objects(case)
            if isinstance(objs, str):
                self._set(case, "FAIL", objs)
                cases.remove(case)
            else:
                objects += objs
        if not cases:
            return {}
        main_text = main_program(self.lang, [c.index for c in cases])
        tmain = self.work / f"tmain{main.suffix}"
        tmain.write_text(main_text)
        exe = self.work / "translated"
        built = _compile(self.lang, [tmain, *objects, self._runtime_object()], exe,
                         ["-lOpenCL"] + (["-lm"] if self.lang == "fortran" else []), self.work)
        if built.returncode != 0:
            for case in cases:
                self._set(case, "FAIL", f"link: {built.stderr.strip()[-1500:]}")
            return {}
        ran = _sh([str(exe)], self.work, timeout=300, env=ENV)
        outputs = _split_outputs(ran.stdout)
        if ran.returncode != 0:      # who stopped it: each case alone
            outputs = {}
            for case in cases:
                one = _sh([str(exe), str(case.index)], self.work, timeout=120, env=ENV)
                if one.returncode == 0:
                    outputs.update(_split_outputs(one.stdout))
                elif "generated assuming" in one.stderr:
                    self._set(case, "REFUSED", "run-time check of an assumption")
                else:
                    self._set(case, "FAIL", f"translated program exit {one.returncode}: "
                                            f"{one.stderr.strip()[-1500:]}")
        return outputs

    def _compare(self, cases: list[Case], original: dict[int, str], outputs: dict[int, str],
                 main: Path) -> None:
        claims = []
        for case in cases:
            if case.index in self.results:
                continue
            got, want = outputs.get(case.index), original.get(case.index)
            cls = "MATCH"
            if got != want:
                if case.tolerant and within_tolerance(case, want or "", got or ""):
                    cls = "WITHIN"
                else:
                    self._set(case, "DIFF", _first_difference(want or "", got or ""))
                    continue
            if case.has_claims():
                claims.append((case, cls))
            else:
                self._set(case, cls)
        if claims:
            reversed_ = self._reversed(main)
            for case, cls in claims:
                if reversed_.get(case.index) != original.get(case.index):
                    self._set(case, "UNSOUND", "a loop declared parallel gives another "
                              "result backwards: " + _first_difference(
                                  original.get(case.index, ""),
                                  reversed_.get(case.index, "")))
                else:
                    self._set(case, cls)

    def _reversed(self, main: Path) -> dict[int, str]:
        files = []
        for case in self.cases:
            path = self.work / f"rev{case.index}{case.suffix}"
            path.write_text(render(case, reversed_=True,
                                   sequential=self.sequential.get(case.index, frozenset())))
            files.append(path)
        built = _compile(self.lang, [*files, main], self.work / "reversed", [], self.work)
        if built.returncode != 0:
            raise RuntimeError(f"a reversed program does not build:\n{built.stderr[-3000:]}")
        return _split_outputs(_sh([str(self.work / "reversed")], self.work, 60).stdout)


_NOT_TAKEN = re.compile(
    r"^\S+:(\d+):\d+: warning: .*\[-Wdirective-(?:untranslated|sequential)\]$", re.MULTILINE)


def _claims_not_taken(text: str, case: Case, stderr: str) -> frozenset:
    """The regions (numbers in `all_regions` order) whose OpenMP directive the translator left
    as written or ran sequentially (a warning at the directive's line): they claim nothing."""
    lines = {int(m.group(1)) for m in _NOT_TAKEN.finditer(stderr)}
    if not lines:
        return frozenset()
    directive_lines = [k + 1 for k, line in enumerate(text.splitlines())
                       if re.match(r"\s*(#pragma omp parallel for|!\$omp parallel do)", line)]
    numbers = [k for k, r in enumerate(all_regions(case)) if r.omp is not None]
    return frozenset(k for k, line in zip(numbers, directive_lines) if line in lines)


def _number(text: str) -> float | None:
    text = text.strip()
    try:
        return float.fromhex(text) if "0x" in text else float(text)
    except ValueError:
        return None


def within_tolerance(case: Case, want: str, got: str) -> bool:
    """Whether `got` is `want` but for float outputs within a relative 1e-4 (a single-precision
    built-in called) or 1e-9 (double only): OpenCL allows exp, log, sin, cos 3-4 ulps, and the
    values go through a few more operations.  Integers, and the number of lines, exactly."""
    from tests.e2e.random_programs import _exprs, _walk
    single = any(x[0] == "call" and x[1] in ("exp", "log", "sin", "cos", "pow", "atan2")
                 and x[3] == "f32"
                 for r in case.regions for s in _walk([*r.init, r.nest, *r.after])
                 for e in ([s.target, s.value] if hasattr(s, "value") else [])
                 for x in _exprs(e))
    rtol = 1e-4 if single else 1e-9
    dtypes = {a.name: a.dtype for a in case.arrays}
    dtypes.update(fres="f64", ires="i64")
    a, b = want.splitlines(), got.splitlines()
    if len(a) != len(b):
        return False
    dtype = None
    for x, y in zip(a, b):
        if x.strip() in dtypes:
            dtype = dtypes[x.strip()]
        if x == y:
            continue
        if dtype is None or not dtype.startswith("f"):
            return False
        u, v = _number(x), _number(y)
        if u is None or v is None or not abs(u - v) <= rtol * max(abs(u), abs(v), 1.0):
            return False
    return True


def _first_difference(want: str, got: str) -> str:
    section, base = "?", 0
    a, b = want.splitlines(), got.splitlines()
    for k, (x, y) in enumerate(zip(a, b)):
        if not re.match(r"^[-+0-9. ]|^0x|^-0x|^inf|^nan|^-", x):
            section, base = x, k
        if x != y:
            return f"{section}[{k - base - 1}]: original {x.strip()}, translated {y.strip()}"
    return f"{len(a)} lines in the original, {len(b)} translated"


def run_batch(seeds: list[int], lang: str, keep: Path | None = None,
              features: frozenset = frozenset()) -> list[Result]:
    """Classify the cases `seeds` of `lang` (drawing on `features` too, see
    random_programs.FEATURES); the scratch directory goes unless `keep`."""
    with tempfile.TemporaryDirectory(prefix="e2e_fuzz_") as tmp:
        work = Path(tmp)
        results = Batch(seeds, lang, work, features).run()
        if keep is not None:
            for r in results:
                if r.cls in ("DIFF", "FAIL", "UNSOUND"):
                    keep.mkdir(parents=True, exist_ok=True)
                    suffix = ".c" if lang == "c" else ".f90"
                    (keep / f"{lang}_{r.seed}{suffix}").write_text(r.text)
        return results
