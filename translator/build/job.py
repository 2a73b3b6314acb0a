"""One source file through the translator, as the CLI and the compiler wrappers run it.

`run_job` never raises for a bad input: it returns a `JobResult` whose status is the exit code
the CLI uses (0 success, 1 a user error or a warning promoted by ``-Werror``, 2 a bug) and the
text it would print.  Results are plain data, so jobs can run in a process pool and the parent
prints them in source order.  A job that fails writes nothing.
"""

from __future__ import annotations

import os
import sys
import warnings
from dataclasses import field

from translator.build.warnpolicy import WarningPolicy, apply_policy
from translator.records import dataclass

#: typing is not imported at run time (3 ms of a 50 ms result-cache hit)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True)
class JobOptions:
    """Everything about a translation that does not depend on the file (picklable)."""

    output: str | None = None
    emit: str = "all"
    frontend: dict[str, Any] = field(default_factory=dict)
    policy: WarningPolicy = field(default_factory=WarningPolicy)
    report: bool = False
    #: ``-MD``: None = no dependency file, "" = ``OUT/<stem>.d``, else the ``-MF`` path.
    depfile: str | None = None
    dep_targets: tuple[str, ...] = ()
    dep_phony: bool = False
    all_outputs: bool = False
    print_ir_after_all: bool = False
    time_passes: bool = False
    #: ``--unique-symbols``: glue functions named ``translate_<region>_<hash of the path>``.
    unique_symbols: bool = False
    #: Without ``-o``, when the command prints several files: a comment line naming each.
    stdout_headers: bool = False
    #: Look the result up in (and store it into) the result cache (`translator.build.cache`).
    cache: bool = False


@dataclass
class JobResult:
    """What one job did and what the CLI prints for it."""

    source: str
    status: int = 0
    stdout: str = ""
    stderr: str = ""
    report: str = ""
    #: Output paths (written or already up to date), in name order.
    outputs: list[str] = field(default_factory=list)
    #: The host glue functions the file defines: C symbol -> its region's span.
    symbols: dict[str, Any] = field(default_factory=dict)
    #: What the result cache stores of a successful translation (only with `JobOptions.cache`;
    #: `run_job` takes it out before returning).
    for_cache: dict[str, Any] | None = field(default=None, repr=False, compare=False)


def run_job(src: str, opts: JobOptions) -> JobResult:
    """Translate the file `src` under `opts`; see the module docstring."""
    from translator.diagnostics import TranslatorError
    result = JobResult(source=src)
    if "tuning" in opts.frontend:   # only this file's records: they are part of the cache key
        from dataclasses import replace

        from translator.build.tunefile import for_source
        opts = replace(opts, frontend={**opts.frontend,
                                       "tuning": for_source(opts.frontend["tuning"], src)})
    try:
        refuse_overwriting_input(src, opts)
        data = read_source(src)
    except TranslatorError as err:
        result.status, result.stderr = 1, err.render()
        return result
    if not opts.cache or opts.time_passes or opts.print_ir_after_all:
        return translate_source_text(src, data, opts, result)
    return _through_cache(src, data, opts, result)


def _through_cache(src: str, data: bytes, opts: JobOptions, result: JobResult) -> JobResult:
    """`translate_source_text`, or the stored result of the same translation (replayed: the
    outputs written or printed, the warnings and the report as the first run printed them)."""
    from translator.build.cache import ResultCache
    store = ResultCache()
    try:
        direct = store.direct_key(src, data, opts)
        entry = store.lookup(direct)
    except OSError:   # an unreadable cache (or translator file): translate
        return translate_source_text(src, data, opts, result)
    if entry is not None:
        return _replay(src, entry, opts, result)
    result = translate_source_text(src, data, opts, result)
    kept, result.for_cache = result.for_cache, None
    if result.status == 0 and kept is not None:
        store.store(direct, kept.pop("read"), {
            **kept, "stderr": result.stderr, "report": result.report,
            "symbols": [[name, *_span_fields(span)] for name, span in result.symbols.items()]})
    return result


_SPAN_FIELDS = ("file", "line", "col", "end_line", "end_col", "source_line")


def _span_fields(span: Any) -> list[Any]:
    return [getattr(span, name) for name in _SPAN_FIELDS]


def _replay(src: str, entry: dict[str, Any], opts: JobOptions, result: JobResult
            ) -> JobResult:
    """A stored translation's outputs written (or printed) as `_emit` writes them."""
    from translator.diagnostics import SourceSpan, TranslatorError
    result.stderr, result.report = entry["stderr"], entry["report"]
    result.symbols = {name: SourceSpan(**dict(zip(_SPAN_FIELDS, fields)))
                      for name, *fields in entry["symbols"]}
    try:
        _emit(src, entry["language"], entry["outputs"], opts, result, depfile_deps=entry["deps"])
    except TranslatorError as err:
        result.status = 1
        result.stderr += err.render()
        result.stdout, result.report, result.outputs, result.symbols = "", "", [], {}
    return result


def read_source(src: str) -> bytes:
    """The bytes of `src` (decoded by the driver, every byte kept), or a `FrontendError`."""
    from translator.diagnostics import FrontendError
    try:
        with open(src, "rb") as f:
            return f.read()
    except OSError as e:
        raise FrontendError(f"{src}: cannot read: {e.strerror}") from None


def output_names(src: str, emit: str) -> list[str]:
    """The names of the files a job may write into the output directory (at most)."""
    base = os.path.basename(src)
    stem = os.path.splitext(base)[0]
    names = {"all": [base, f"{stem}.cl", f"{stem}.host.c"], "ir": [f"{stem}.ir"],
             "ir-unmapped": [f"{stem}.ir"],
             "cl": [f"{stem}.cl"], "host": [f"{stem}.host.c"], "source": [base]}
    return names[emit]


def planned_paths(src: str, opts: JobOptions) -> list[str]:
    """Every path a job for `src` may write: its outputs and its dependency file."""
    paths = [os.path.join(opts.output, n) for n in output_names(src, opts.emit)
             ] if opts.output else []
    if opts.depfile:
        paths.append(opts.depfile)
    elif opts.depfile is not None and opts.output:
        stem = os.path.splitext(os.path.basename(src))[0]
        paths.append(os.path.join(opts.output, f"{stem}.d"))
    return paths


def file_key(path: str) -> tuple:
    """What makes two paths the same file: device and inode where it exists (hard links,
    symbolic links), else the real path."""
    try:
        st = os.stat(path)
        return ("inode", st.st_dev, st.st_ino)
    except OSError:
        return ("path", os.path.realpath(path))


def refuse_overwriting_input(src: str, opts: JobOptions) -> None:
    """A `FrontendError` if a path the job would write is `src` itself (also through a link
    or ``-o .``)."""
    from translator.diagnostics import FrontendError
    key = file_key(src)
    for path in planned_paths(src, opts):
        if file_key(path) == key:
            raise FrontendError(f"{path} would overwrite the input {src}: choose another "
                                "output directory (-o) or file")


def translate_file(src: str, out_dir: str, *, emit: str = "all",
                   options: dict[str, Any] | None = None) -> list[str]:
    """What ``translate SRC -o OUT`` does for one file; returns the paths written."""
    from translator.driver import outputs_for_emit, translate_text, write_outputs
    refuse_overwriting_input(src, JobOptions(output=out_dir, emit=emit))
    if emit == "ir-unmapped":
        from translator.driver import unmapped_ir
        return write_outputs(out_dir, unmapped_ir(src, read_source(src), options))
    result = translate_text(src, read_source(src), options)
    return write_outputs(out_dir, outputs_for_emit(result, emit))


def translate_source_text(src: str, text: str | bytes, opts: JobOptions,
                          result: JobResult | None = None) -> JobResult:
    """`run_job` on a file's text or bytes already in memory (the fuzzer calls this)."""
    from translator.diagnostics import TranslatorError
    result = result or JobResult(source=src)
    err_lines: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            _translate(src, text, opts, result, err_lines, caught)
        except TranslatorError as err:
            result.status = 1
            err_lines.append(err.render())
        except KeyboardInterrupt:
            raise
        except Exception:  # a bug in the translator: say so, with the traceback
            import traceback  # here: only a bug needs it (not a cache hit)
            result.status = 2
            err_lines.append(f"translate: internal error while translating {src} "
                             "(this is a bug in the translator):\n" + traceback.format_exc())
    shown, promoted = apply_policy(caught, opts.policy)
    result.stderr = shown + "".join(err_lines) + result.stderr
    if promoted and result.status == 0:
        result.status = 1
    if result.status != 0:   # a failed job prints no partial output
        result.stdout, result.report, result.outputs, result.symbols = "", "", [], {}
    return result


def _translate(src: str, text: str | bytes, opts: JobOptions, result: JobResult,
               err_lines: list[str], caught: list[Any]) -> None:
    frontend = opts.frontend
    if opts.emit == "ir-unmapped":   # the frontend only: no pragma, no mapping, no glue
        from translator.driver import unmapped_ir
        _emit(src, "", unmapped_ir(src, text, frontend), opts, result)
        return
    from translator.passthrough import untranslated
    plain = untranslated(src, text, frontend) \
        if not (opts.time_passes or opts.print_ir_after_all) else None
    if plain is not None:   # nothing to translate: the heavy modules are not imported
        _finish(src, plain[0], _passthrough(src, plain[1], opts, result), (), opts, result,
                caught)
        return
    from translator.driver import outputs_for_emit, translate_text
    from translator.passthrough import placeholder_outputs
    from translator.pipeline import PassOptions
    popts = PassOptions(print_ir_after_all=opts.print_ir_after_all,
                        time_passes=opts.time_passes, log=lambda s: err_lines.append(s + "\n"))
    if opts.unique_symbols:
        from translator.driver import symbol_suffix
        frontend = {**frontend, "glue_suffix": symbol_suffix(src)}
    translated = translate_text(src, text, frontend, popts)
    result.symbols = {translated.glue[region.name].symbol: region.span
                      for region, _, _ in translated.regions}
    outputs = outputs_for_emit(translated, opts.emit)
    if opts.all_outputs and not translated.regions and opts.emit == "all":
        outputs.update(placeholder_outputs(src))
    if opts.report:
        from translator.build.report import file_report
        result.report = file_report(src, translated.language, translated.regions,
                                    translated.mappings,
                                    getattr(translated.parsed, "data_sites", ()),
                                    getattr(translated.parsed, "directive_notes", ()))
    if opts.time_passes:
        err_lines += [f"translate: pass {name}: {secs * 1e3:.2f} ms\n"
                      for name, secs in popts.timings.items()]
    _finish(src, translated.language, outputs, tuple(translated.parsed.dependencies), opts,
            result, caught)


def _passthrough(src: str, source: Any, opts: JobOptions, result: JobResult
                 ) -> dict[str, str]:
    """The outputs (and report) of a file with nothing to translate (`translator.passthrough`)."""
    from translator.passthrough import no_regions_report, passthrough_outputs
    if opts.report:
        result.report = no_regions_report(src)
    return passthrough_outputs(src, source, opts.emit, opts.all_outputs)


def _finish(src: str, language: str, outputs: dict[str, str], extra: tuple[str, ...],
            opts: JobOptions, result: JobResult, caught: list[Any]) -> None:
    """Write (or print) a translation's outputs and dependency file, and keep it for the
    result cache; `extra`: other files the frontend read."""
    if apply_policy(caught, opts.policy)[1]:
        return   # a warning promoted to an error: fail without writing anything
    read = _files_read(src, language, opts, extra) if opts.depfile is not None else None
    depfile_deps = _with_toolchain(read, opts) if read is not None else []
    _emit(src, language, outputs, opts, result, depfile_deps)
    if opts.cache:
        _keep_for_cache(src, language, opts, outputs, read, extra, result)


def _keep_for_cache(src: str, language: str, opts: JobOptions, outputs: dict[str, str],
                    read: list[str] | None, extra: tuple[str, ...], result: JobResult) -> None:
    """What the cache stores; nothing when the included files cannot be listed (the
    translation stands, uncached)."""
    from translator.diagnostics import TranslatorError
    if read is None:
        try:
            read = _files_read(src, language, opts, extra)
        except TranslatorError:
            return
    result.for_cache = {"outputs": outputs, "language": language, "read": read[1:],
                        "deps": _with_toolchain(read, opts) if opts.depfile is not None
                        else []}


def _files_read(src: str, language: str, opts: JobOptions, extra: tuple[str, ...]
                ) -> list[str]:
    """The source, every file it includes, and `extra` (other files the frontend read, such
    as the sources of used Fortran modules)."""
    from translator.build.deps import source_dependencies
    deps = source_dependencies(src, language, opts.frontend.get("cpp_args", ()))
    return deps + [d for d in extra if d not in deps]


def _with_toolchain(deps: list[str], opts: JobOptions) -> list[str]:
    """The dependency file's list: `deps`, the tuning file (``--tune-file``), the
    translator's own files.  The result cache keys on the tuning file's records for the
    source instead (they are options), not on its other lines."""
    from translator.build.deps import toolchain_files
    tune_file = opts.frontend.get("tune_file")
    return deps + ([tune_file] if tune_file else []) + list(toolchain_files())


def _emit(src: str, language: str, outputs: dict[str, str], opts: JobOptions,
          result: JobResult, depfile_deps: list[str] = ()) -> None:
    """Write (or print) the outputs and the dependency file, all or none: everything that
    can fail is worked out before the first byte is written, and the files go to temporary
    files first, renamed only when all of them are complete."""
    from translator.atomic_files import write_files
    from translator.diagnostics import FrontendError
    out_files: dict[str, str] = {}
    if opts.output:
        out_files = {os.path.join(opts.output, name): outputs[name] for name in sorted(outputs)}
    else:
        result.stdout = "".join((stdout_header(src, name) if opts.stdout_headers else "")
                                + outputs[name] for name in sorted(outputs))
    files = dict(out_files)
    if opts.depfile is not None:
        path, text = _depfile(src, opts, outputs, depfile_deps)
        files[path] = text
    try:
        write_files(files)
    except OSError as e:
        raise FrontendError(f"cannot write {e.filename or opts.output}: {e.strerror} "
                            f"(no output of {src} was written)") from None
    result.outputs = list(out_files)


#: Comment syntax of each kind of output printed on stdout.
_COMMENTS = {".ir": "# {}\n", ".cl": "// {}\n", ".c": "/* {} */\n"}


def stdout_header(src: str, name: str) -> str:
    """The line that starts output `name` of `src` on stdout, a comment in the output's own
    language (Fortran: ``!``, which fixed form takes in column 1 too)."""
    from translator.languages import language_of
    suffix = os.path.splitext(name)[1]
    form = _COMMENTS.get(suffix) or ("! {}\n" if language_of(name) == "fortran" else "# {}\n")
    return form.format(f"translate: {name} (from {src})")


def _depfile(src: str, opts: JobOptions, outputs: dict[str, str], deps: list[str]
             ) -> tuple[str, str]:
    """The dependency file's path and text (`deps`: the files read, then the translator's
    own files)."""
    from translator.build.deps import depfile_text
    from translator.diagnostics import FrontendError
    path = opts.depfile
    if not path:
        if not opts.output:
            raise FrontendError("-MD without -o needs -MF FILE")
        stem = os.path.splitext(os.path.basename(src))[0]
        path = os.path.join(opts.output, f"{stem}.d")
    targets = list(opts.dep_targets)
    if not targets and opts.output:
        targets = [os.path.join(opts.output, name) for name in sorted(outputs)]
    if not targets:
        raise FrontendError("-MD without -o needs -MT TARGET (there is no output to name)")
    return path, depfile_text(targets, deps, phony=opts.dep_phony)


def print_result(result: JobResult, report_to: str | None) -> None:
    """Print a job's text: diagnostics on stderr, emitted text on stdout, the report on stderr
    (`report_to` "") or stdout ("-"); a report for a file is collected by the caller."""
    if result.stdout:
        write_stdout(result.stdout)
    if result.stderr:
        sys.stderr.write(result.stderr)
    if result.report and report_to == "":
        sys.stderr.write(result.report)
    elif result.report and report_to == "-":
        sys.stdout.write(result.report)


def write_stdout(text: str) -> None:
    """`text` on stdout, bytes of the source that are not UTF-8 as they were."""
    from translator.sourcebytes import encode
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:   # a replaced stdout (tests): text only
        sys.stdout.write(text.encode("utf-8", "surrogateescape").decode("utf-8", "replace"))
        return
    sys.stdout.flush()
    buffer.write(encode(text))
    buffer.flush()
