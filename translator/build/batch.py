"""Many files at once: ``translate -j N a.f90 b.c ...``.

Jobs run in a process pool (each file is independent); their text is printed in source order,
so the output does not depend on which job finished first.  On a terminal a progress line
(``[3/10] b.c``) is kept on stderr and erased before anything else is printed.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from types import SimpleNamespace

from translator.build.job import (JobOptions, JobResult, file_key, planned_paths, print_result,
                                  run_job)

#: typing is not imported at run time (3 ms of a 50 ms result-cache hit)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor


class Progress:
    """A one-line ``[k/N] file`` status on stderr, shown only when stderr is a terminal."""

    def __init__(self, total: int, *, enabled: bool | None = None) -> None:
        self.total = total
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.shown = False

    def update(self, done: int, name: str) -> None:
        if not self.enabled or self.total < 2:
            return
        sys.stderr.write(f"\r\x1b[K[{done}/{self.total}] translating {name}")
        sys.stderr.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False


def _pool(jobs: int, count: int) -> ProcessPoolExecutor:
    # here, not at the top: a run of one file (a cache hit above all) needs no process pool
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    # fork: workers inherit the modules the parent has already imported (fast start)
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    return ProcessPoolExecutor(max_workers=min(jobs, count), mp_context=ctx)


def results(sources: Sequence[str], opts: JobOptions, jobs: int) -> Iterator[JobResult]:
    """Each source's result, in source order (computed `jobs` at a time)."""
    jobs = jobs or os.cpu_count() or 1
    if jobs == 1 or len(sources) == 1:
        for src in sources:
            yield run_job(src, opts)
        return
    import translator.driver  # noqa: F401  (loaded once, before the workers fork)
    with _pool(jobs, len(sources)) as pool:
        futures: list[Future] = [pool.submit(run_job, src, opts) for src in sources]
        for future in futures:
            yield future.result()


def check_paths(sources: Sequence[str], opts: JobOptions, report_to: str | None) -> str:
    """Why the command must not run ("" if it may): a file it would write is one of its
    inputs (also through a link), or two inputs would write the same file.  Checked before
    anything is translated, so nothing is written."""
    if opts.output and os.path.lexists(opts.output) and not os.path.isdir(opts.output):
        return f"-o {opts.output}: not a directory (-o names the output directory)"
    inputs: dict[tuple, str] = {}
    for src in sources:
        key = file_key(src)
        if key in inputs:   # translated twice, the second run would warn of its own regions
            first = inputs[key]
            return (f"{src} is given twice: give each source once" if first == src else
                    f"{src} is the same file as {first}: give each source once")
        inputs[key] = src
    writers: dict[tuple, tuple[str, str]] = {}
    for src in sources:
        for path, writer in _writers(src, opts):
            problem = _one_path(path, writer, inputs, writers)
            if problem:
                return problem
    if report_to not in (None, "", "-"):
        if os.path.isdir(report_to):
            return f"--report={report_to} names a directory: give a file name"
        return _one_path(report_to, "--report", inputs, writers)
    return ""


def _writers(src: str, opts: JobOptions) -> list[tuple[str, str]]:
    """Each path the job for `src` writes, with who writes it: `src` for its outputs,
    ``-MF`` for a dependency file the command line names."""
    paths = planned_paths(src, opts)
    if not opts.depfile:
        return [(path, src) for path in paths]
    return [(path, src) for path in paths[:-1]] + [(paths[-1], "-MF")]


#: Files the command line names, with how a message calls them.
_NAMED_FILES = {"--report": "the report file", "-MF": "the dependency file (-MF)"}


def _one_path(path: str, writer: str, inputs: dict, writers: dict) -> str:
    key = file_key(path)
    if key in inputs:
        return (f"{path} would overwrite the input {inputs[key]}: choose another output "
                "directory (-o) or file")
    if key in writers and writers[key][0] != writer:
        other = writers[key][0]
        if writer in _NAMED_FILES and other in _NAMED_FILES:
            return f"{_NAMED_FILES[writer]} {path} is also {_NAMED_FILES[other]}"
        if writer in _NAMED_FILES:
            return f"{_NAMED_FILES[writer]} {path} is also an output of {other}"
        if other in _NAMED_FILES:   # an output (of a later source) is the -MF file
            return f"{_NAMED_FILES[other]} {path} is also an output of {writer}"
        return (f"{other} and {writer} would both write {path}: translate them into "
                "different output directories (-o), or rename one")
    writers[key] = (writer, path)
    return ""


def run_batch(sources: Sequence[str], opts: JobOptions, *, jobs: int = 1,
              report_to: str | None = None, print_outputs: bool = False) -> int:
    """Translate `sources`, print diagnostics in order; returns the exit status (the worst)."""
    progress = Progress(len(sources))
    status, reports, defined = 0, [], {}
    progress.update(0, sources[0])
    for k, result in enumerate(results(sources, opts, jobs)):
        progress.clear()
        print_result(result, report_to)
        if print_outputs and result.status == 0:
            sys.stdout.write("".join(f"{path}\n" for path in result.outputs))
        reports.append(result.report)
        clash = _clashes(result, defined, opts)
        if clash:
            _remove_outputs(result)
        status = max(status, result.status, clash)
        if k + 1 < len(sources):
            progress.update(k + 1, sources[k + 1])
    if report_to not in (None, "", "-"):
        status = max(status, _write_report(report_to, "".join(reports)))
    return status


def _clashes(result: JobResult, defined: dict, opts: JobOptions) -> int:
    """Warn when a file defines a glue function an earlier file of the command defined (two
    regions of one name): linked into one program, the two would clash.  Returns 1 when
    ``-Werror`` makes that an error."""
    from translator.build.warnpolicy import apply_policy
    from translator.diagnostics import TranslatorWarning
    found = []
    for symbol, where in result.symbols.items():
        if symbol not in defined:
            defined[symbol] = where
            continue
        first = defined[symbol]
        found.append(SimpleNamespace(message=TranslatorWarning(
            "duplicate-region",
            f"the host function {symbol} of this region is also the one of the region at "
            f"{first.file}:{first.line}: the two files cannot be linked into one program "
            "(rename one region, or pass --unique-symbols)", where)))
    text, failed = apply_policy(found, opts.policy)   # records, as warnings.catch_warnings
    sys.stderr.write(text)
    return 1 if failed else 0


def _remove_outputs(result: JobResult) -> None:
    """A file that fails after translation (a warning made an error by ``-Werror``) leaves
    nothing behind, like any failed file."""
    for path in result.outputs:
        try:
            os.unlink(path)
        except OSError:
            pass


def _write_report(path: str, text: str) -> int:
    """Write the report file; a failure is a user error (exit status 1), said on stderr."""
    from translator.atomic_files import write_if_changed
    try:
        write_if_changed(path, text)
    except OSError as e:
        sys.stderr.write(f"translate: error: cannot write the report {path}: {e.strerror}\n")
        return 1
    return 0
