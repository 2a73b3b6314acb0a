"""Many files at once: ``translate -j N a.f90 b.c ...``.

Jobs run in a process pool (each file is independent); their text is printed in source order,
so the output does not depend on which job finished first.  On a terminal a progress line
(``[3/10] b.c``) is kept on stderr and erased before anything else is printed.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor

from translator.build.job import JobOptions, JobResult, print_result, run_job


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
    import multiprocessing
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


def run_batch(sources: Sequence[str], opts: JobOptions, *, jobs: int = 1,
              report_to: str | None = None, print_outputs: bool = False) -> int:
    """Translate `sources`, print diagnostics in order; returns the exit status (the worst)."""
    progress = Progress(len(sources))
    status, reports = 0, []
    progress.update(0, sources[0])
    for k, result in enumerate(results(sources, opts, jobs)):
        progress.clear()
        print_result(result, report_to)
        if print_outputs and result.status == 0:
            sys.stdout.write("".join(f"{path}\n" for path in result.outputs))
        reports.append(result.report)
        status = max(status, result.status)
        if k + 1 < len(sources):
            progress.update(k + 1, sources[k + 1])
    if report_to not in (None, "", "-"):
        from translator.build.deps import write_if_changed
        write_if_changed(report_to, "".join(reports))
    return status
