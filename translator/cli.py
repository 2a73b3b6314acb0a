"""``translate``: the command line.  Exit 0 on success, 1 on a user error, 2 on a bug.

    translate SRC... [-o OUT] [options]      translate files (see --help)
    translate check SRC... [-- FLAGS]        build original and translated program, compare
    translate devices                        list OpenCL devices as TRANSLATE_DEVICE sees them
    translate help TRANSFORM                 print one transform's documentation
    translate tune [--tune-file F] -- CMD    time the candidate mappings (docs/tuning.md)

Heavy modules are imported only after the arguments are parsed, so ``--version`` and
``--runtime-dir`` start fast.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys

from translator.build.paths import cmake_dir, make_dir, runtime_dir

#: argparse and the option parser's module are imported when parsing, not by a command the
#: translation server runs (`main`)
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

SUBCOMMANDS = ("check", "devices", "help", "tune")


def _parser() -> argparse.ArgumentParser:
    import argparse

    from translator.build.flags import UserErrorParser
    ap = UserErrorParser(
        prog="translate", allow_abbrev=False,
        description="Translate pragma-marked loop nests of Fortran and C files to OpenCL.",
        epilog="Subcommands: 'translate check SRC... [-- FLAGS]' builds and compares the "
               "original and the translated program; 'translate devices' lists OpenCL devices; "
               "'translate help TRANSFORM' prints one transform's documentation; "
               "'translate tune -- CMD' times the candidate mappings of a program built "
               "with --tune-candidates. "
               "Warnings: -Wno-ID silences one, -Werror[=ID] makes warnings errors, -w hides all.")
    ap.add_argument("sources", nargs="*", metavar="SRC", help="Fortran or C source files")
    ap.add_argument("-o", "--output", metavar="OUT", help="output directory")
    ap.add_argument("--emit", default="all", choices=("ir", "ir-unmapped", "cl", "host", "source", "all"),
                    help="what to produce (default: all); without -o it goes to stdout")
    ap.add_argument("--runtime-dir", action="store_true",
                    help="print the directory holding translate_rt.h and translate_rt.c")
    ap.add_argument("--cmake-dir", action="store_true",
                    help="print the directory holding Translator.cmake")
    ap.add_argument("--make-dir", action="store_true",
                    help="print the directory holding translate.mk (make pattern rules)")
    ap.add_argument("--version", action="store_true", help="print the version")
    ap.add_argument("--list-transforms", action="store_true",
                    help="list every transform a pragma can call")
    ap.add_argument("--language", choices=("fortran", "c"), help="override the suffix rule")
    ap.add_argument("--form", choices=("free", "fixed"), help="Fortran source form")
    ap.add_argument("--fixed-line-length", metavar="N", type=_line_length,
                    help="Fortran fixed form: columns past N are ignored, as gfortran "
                    "-ffixed-line-length-N (default 72; 'none' or 0: no limit)")
    ap.add_argument("--cpp", dest="preprocess", action="store_true", default=None,
                    help="Fortran: preprocess every file as gfortran -cpp does (default: "
                         ".F90, .F, .FPP ... files only)")
    ap.add_argument("--no-cpp", dest="preprocess", action="store_false",
                    help="Fortran: preprocess no file (as gfortran -nocpp)")
    ap.add_argument("-I", dest="includes", action="append", default=[], metavar="DIR",
                    help="include directory of the preprocessor; Fortran: also where to look "
                         "for the source of used modules (also the other sources given, and "
                         "the file's own directory)")
    ap.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VAL]")
    ap.add_argument("-U", dest="undefines", action="append", default=[], metavar="NAME")
    ap.add_argument("--report", action="store_const", const="",
                    help="offload report per region on stderr; --report=- puts it on "
                         "stdout, --report=FILE into FILE (only with '=': the next word is "
                         "never taken as the file)")
    # --report=FILE arrives here (see parse_args); hidden, as it is spelled with '='
    ap.add_argument(_REPORT_FILE, dest="report", help=argparse.SUPPRESS)
    ap.add_argument("-MD", dest="depfile_on", action="store_true",
                    help="write a make dependency file (OUT/<stem>.d unless -MF)")
    ap.add_argument("-MF", dest="depfile", metavar="FILE", help="dependency file name")
    ap.add_argument("-MT", dest="dep_targets", action="append", default=[], metavar="TARGET",
                    help="target of the dependency rule (default: the outputs)")
    ap.add_argument("-MP", dest="dep_phony", action="store_true",
                    help="add an empty rule for each dependency (deleted headers)")
    ap.add_argument("--print-outputs", action="store_true",
                    help="print the path of every output file, one per line")
    ap.add_argument("--all-outputs", action="store_true",
                    help="write OUT/<stem>.cl and OUT/<stem>.host.c even for a file without "
                         "regions (placeholders), for build systems that list outputs")
    ap.add_argument("--unique-symbols", action="store_true",
                    help="name glue functions translate_<region>_<hash of the source path>, "
                         "so that same-named regions of different files link into one "
                         "program (Translator.cmake and translate.mk pass it)")
    ap.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                    help="translate N files at once (0: one per CPU)")
    ap.add_argument("--directives", default="translate", metavar="MODELS",
                    help="directives to read, comma-separated: openmp, openacc, translate "
                         "(default: translate, the translator's own pragmas)")
    ap.add_argument("--reassociate", action="store_true",
                    help="let automatic mapping run floating-point sums and products in "
                         "parallel (rounded in another order)")
    ap.add_argument("--tune-candidates", action="store_true",
                    help="emit every candidate mapping of each automatically mapped region; "
                         "the program runs the first unless TRANSLATE_TUNE=1, which times "
                         "them all (docs/tuning.md)")
    ap.add_argument("--tune-file", metavar="FILE",
                    help="map each region with the winner its record in the tuning FILE "
                         "names (default: $TRANSLATE_TUNE_FILE when that file exists)")
    ap.add_argument("--tune-device", metavar="NAME",
                    help="use the tuning records of the device whose name contains NAME "
                         "(needed when the tuning file holds several devices)")
    ap.add_argument("--cache", dest="cache", action="store_true", default=None,
                    help="reuse the result of an earlier translation of the same file under "
                         "the same options (result cache in $TRANSLATE_CACHE_DIR, default "
                         "~/.cache/translate; on by default in translate-fc/translate-cc)")
    ap.add_argument("--no-cache", dest="cache", action="store_false",
                    help="translate even when the result cache has the result")
    ap.add_argument("--no-server", action="store_true",
                    help="translate in this process: neither use nor start the translation "
                         "server (also TRANSLATE_SERVER=0)")
    ap.add_argument("--print-ir-after-all", action="store_true")
    ap.add_argument("--time-passes", action="store_true")
    return ap


#: The hidden option that ``--report=FILE`` becomes (a flag cannot also take ``=FILE``).
_REPORT_FILE = "--report-file"


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The options of `argv`, options and sources in any order.  ``--report`` never takes
    the next word as its file (that word is a source, or an option): ``--report`` alone means
    stderr, ``--report=FILE`` a file."""
    after = argv.index("--") if "--" in argv else len(argv)
    words: list[str] = []
    for arg in argv[:after]:
        words += [_REPORT_FILE, arg[len("--report="):]] if arg.startswith("--report=") \
            else [arg]
    # intermixed parsing loses "--": the words after it are sources, whatever they look like
    args = _parser().parse_intermixed_args(words)
    args.sources += argv[after + 1:]
    return args


_DIRS = {"runtime_dir": runtime_dir, "cmake_dir": cmake_dir, "make_dir": make_dir}


def _skip_exit_collections() -> None:
    """Have the heap frozen (`gc.freeze`) when the command's interpreter exits (h59,
    bench/RESULTS.md "The loops shape").  Finalisation runs full cyclic collections, each a
    traversal of every tracked object left (after a 400-loop file some 230,000: memos, parse
    caches, modules), about 0.4 s of CPU to free memory the system takes back anyway; frozen
    objects are skipped.  Handlers registered earlier (temporary directories' finalizers) still
    run after this one, and every output is closed and renamed into place before `main`
    returns.  Only the command does this: a program using the API keeps its exit as it was."""
    if not _EXIT_FREEZE:
        _EXIT_FREEZE.append(True)
        atexit.register(gc.freeze)


#: Non-empty once `_skip_exit_collections` has registered its handler.
_EXIT_FREEZE: list[bool] = []


def main(argv: list[str] | None = None) -> int:
    """The command line; `argv` None: the process's own arguments, which are first offered
    to the translation server (`translator.server`, before anything heavy is imported)."""
    own = argv is None
    if own:
        from translator.server import handoff
        served = handoff("translate", sys.argv[1:])
        if served is not None:
            return served
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in SUBCOMMANDS:
        return _subcommand(argv[0], argv[1:])
    if own:   # a translation (not `check` or `tune`, whose programs inherit the environment)
        from translator.server import limit_numeric_threads
        limit_numeric_threads()   # before numpy is imported
    from translator.build.warnpolicy import split_warning_flags
    policy, rest = split_warning_flags(argv)
    args = parse_args(rest)
    if args.version:
        from translator import __version__
        print(f"translate {__version__}")
        return 0
    for name, where in _DIRS.items():
        if getattr(args, name):
            print(where())
            return 0
    _skip_exit_collections()
    try:
        return _run(args, policy)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _reader_went_away()
    except Exception:  # a bug: say so, with the traceback, and exit 2
        _report_bug("translate")
        return 2


def _report_bug(prog: str) -> None:
    """The message and traceback of an internal error (exit 2)."""
    import traceback  # here: only a bug needs it, and a cache hit should not pay for it
    sys.stderr.write(f"{prog}: internal error (this is a bug in the translator):\n")
    traceback.print_exc()


def _reader_went_away() -> int:
    """stdout's reader closed the pipe (`translate --emit cl x.c | head`): stop quietly with the
    status a process killed by SIGPIPE has, and keep the interpreter's final flush from failing
    on the closed pipe."""
    import signal
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 128 + signal.SIGPIPE


def _subcommand(name: str, argv: list[str]) -> int:
    try:
        if name == "help":
            return _transform_help(argv)
        if name == "check":
            from translator.build.check import main as check_main
            return check_main(argv)
        if name == "tune":
            from translator.build.tune import main as tune_main
            return tune_main(argv)
        from translator.build.devices import main as devices_main
        return devices_main(argv)
    except KeyboardInterrupt:
        return 130
    except Exception:
        _report_bug(f"translate {name}")
        return 2


def _run(args: argparse.Namespace, policy) -> int:
    if args.list_transforms:
        return _list_transforms()
    if not args.sources:
        sys.stderr.write("translate: error: no source files given\n")
        return 1
    problem = _check_args(args)
    if problem:
        sys.stderr.write(f"translate: error: {problem}\n")
        return 1
    from translator.diagnostics import TranslatorError
    try:
        opts = _job_options(args, policy)
    except TranslatorError as err:   # an unreadable or malformed tuning file
        sys.stderr.write(err.render())
        return 1
    if not problem:
        from translator.build.batch import check_paths
        problem = check_paths(args.sources, opts, args.report)
    if problem:
        sys.stderr.write(f"translate: error: {problem}\n")
        return 1
    from translator.build.batch import run_batch
    return run_batch(args.sources, opts, jobs=args.jobs,
                     report_to=args.report, print_outputs=args.print_outputs)


def _check_args(args: argparse.Namespace) -> str:
    if (args.depfile or args.dep_targets or args.dep_phony) and not args.depfile_on:
        args.depfile_on = True   # as with gcc, -MF/-MT/-MP imply a dependency file here
    if args.depfile and len(args.sources) > 1:
        return "-MF names one dependency file: give one source file, or use -MD alone"
    if args.output == "":
        return "-o needs an output directory (it was given an empty name)"
    if args.print_outputs and not args.output:
        return "--print-outputs needs -o OUT"
    if args.jobs < 0:
        return "-j needs a number >= 0"
    if args.tune_candidates and args.tune_file:
        return "--tune-candidates emits every candidate: it takes no --tune-file"
    from frontends.directive_models import parse_models
    try:
        parse_models(args.directives)
    except ValueError as err:
        return f"--directives: {err}"
    return ""


def _job_options(args: argparse.Namespace, policy):
    from translator.build.job import JobOptions
    return JobOptions(
        output=args.output, emit=args.emit, frontend=_frontend_options(args), policy=policy,
        report=args.report is not None,
        depfile=(args.depfile or "") if args.depfile_on else None,
        dep_targets=tuple(args.dep_targets), dep_phony=args.dep_phony,
        all_outputs=args.all_outputs, print_ir_after_all=args.print_ir_after_all,
        time_passes=args.time_passes, unique_symbols=args.unique_symbols,
        cache=bool(args.cache),
        stdout_headers=not args.output and (len(args.sources) > 1 or args.emit == "all"))


def _line_length(text: str) -> int:
    """``--fixed-line-length``: a number of columns (0 or 'none': no limit)."""
    import argparse
    if text.lower() == "none":
        return 0
    if not text.isdigit() or 0 < int(text) < 7:
        raise argparse.ArgumentTypeError(f"{text!r} is not a line length (a number of "
                                         "columns from 7 on, or 'none')")
    return int(text)


def _frontend_options(args: argparse.Namespace) -> dict:
    cpp = [f"-I{d}" for d in args.includes] + [f"-D{d}" for d in args.defines]
    cpp += [f"-U{u}" for u in args.undefines]
    # the other sources of the command: where a Fortran file's used modules may be defined
    opts: dict = {"cpp_args": cpp, "module_sources": list(args.sources)}
    if args.language:
        opts["language"] = args.language
    if args.form:
        opts["form"] = args.form
    if args.fixed_line_length is not None:
        opts["fixed_line_length"] = args.fixed_line_length
    if args.preprocess is not None:
        opts["preprocess"] = args.preprocess
    if args.reassociate:
        opts["reassociate"] = True
    if args.directives != "translate":
        from frontends.directive_models import parse_models
        opts["directives"] = parse_models(args.directives)
    if args.tune_candidates:
        opts["tune_candidates"] = True
    else:
        path, tuning = _tuning(args)
        if path:
            opts["tune_file"], opts["tuning"] = path, tuning
    return opts


def _tuning(args: argparse.Namespace) -> tuple[str, dict[str, str]]:
    """The tuning file and the records that decide regions
    (`translator.build.tunefile.for_options`): from ``--tune-file``, else from
    ``$TRANSLATE_TUNE_FILE`` if that file exists; ("", {}) without one."""
    path = args.tune_file
    if path is None:
        path = os.environ.get("TRANSLATE_TUNE_FILE") or None
        if path is None or not os.path.exists(path):
            return "", {}
    from translator.build.tunefile import for_options
    return path, for_options(path, args.tune_device)


def _list_transforms() -> int:
    import transforms
    for name, signature, summary in transforms.list_transforms():
        print(f"{name}{signature}")
        if summary:
            print(f"    {summary}")
    return 0


def _transform_help(argv: list[str]) -> int:
    """``translate help NAME``: the signature and the whole docstring of transform NAME."""
    # imported here, as in main: loading the transform library is start-up cost that the
    # other commands do not pay
    import inspect

    import transforms
    from transforms.registry import signature_text
    from translator.diagnostics import TransformError
    if len(argv) != 1 or argv[0].startswith("-"):
        sys.stderr.write("usage: translate help TRANSFORM (translate --list-transforms lists "
                         "them)\n")
        return 1
    try:
        fn = transforms.get_transform(argv[0])
    except TransformError as e:
        sys.stderr.write(f"translate help: error: {e.message}\n")
        return 1
    print(f"{argv[0]}{signature_text(fn)}\n")
    print(inspect.getdoc(fn) or "(no documentation)")
    print(f"\nMore, with an example: the transform reference (docs/transforms.md), section "
          f"{argv[0]}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
