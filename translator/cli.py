"""``translate``: the command line.  Exit 0 on success, 1 on a user error, 2 on a bug.

Heavy modules are imported only after the arguments are parsed, so ``--version`` and
``--runtime-dir`` start fast.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
import warnings


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="translate",
        description="Translate pragma-marked loop nests of Fortran and C files to OpenCL.")
    ap.add_argument("sources", nargs="*", metavar="SRC", help="Fortran or C source files")
    ap.add_argument("-o", "--output", metavar="OUT", help="output directory")
    ap.add_argument("--emit", default="all", choices=("ir", "cl", "host", "source", "all"),
                    help="what to produce (default: all); without -o it goes to stdout")
    ap.add_argument("--runtime-dir", action="store_true",
                    help="print the directory holding translate_rt.h and translate_rt.c")
    ap.add_argument("--version", action="store_true", help="print the version")
    ap.add_argument("--list-transforms", action="store_true",
                    help="list every transform a pragma can call")
    ap.add_argument("--language", choices=("fortran", "c"), help="override the suffix rule")
    ap.add_argument("--form", choices=("free", "fixed"), help="Fortran source form")
    ap.add_argument("-I", dest="includes", action="append", default=[], metavar="DIR")
    ap.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VAL]")
    ap.add_argument("-U", dest="undefines", action="append", default=[], metavar="NAME")
    ap.add_argument("--print-ir-after-all", action="store_true")
    ap.add_argument("--time-passes", action="store_true")
    return ap


def runtime_dir() -> str:
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "runtime")


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.version:
        from translator import __version__
        print(f"translate {__version__}")
        return 0
    if args.runtime_dir:
        print(runtime_dir())
        return 0
    try:
        return _run(args)
    except KeyboardInterrupt:
        return 130
    except Exception:  # a bug: say so, with the traceback, and exit 2
        sys.stderr.write("translate: internal error (this is a bug in the translator):\n")
        traceback.print_exc()
        return 2


def _run(args: argparse.Namespace) -> int:
    from translator.diagnostics import TranslatorError
    if args.list_transforms:
        return _list_transforms()
    if not args.sources:
        sys.stderr.write("translate: error: no source files given\n")
        return 1
    options = _frontend_options(args)
    status = 0
    for src in args.sources:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                _translate_one(src, args, options)
            except TranslatorError as err:
                sys.stderr.write(err.render())
                status = 1
        _report_warnings(caught)
    return status


def _frontend_options(args: argparse.Namespace) -> dict:
    cpp = [f"-I{d}" for d in args.includes] + [f"-D{d}" for d in args.defines]
    cpp += [f"-U{u}" for u in args.undefines]
    opts: dict = {"cpp_args": cpp}
    if args.language:
        opts["language"] = args.language
    if args.form:
        opts["form"] = args.form
    return opts


def _translate_one(src: str, args: argparse.Namespace, options: dict) -> None:
    from translator.driver import outputs_for_emit, translate_text, write_outputs
    from translator.diagnostics import FrontendError
    from translator.pipeline import PassOptions
    if args.output and os.path.abspath(os.path.dirname(src) or ".") == os.path.abspath(args.output):
        raise FrontendError(f"output directory {args.output!r} is the directory of {src}: the "
                            "translated file would overwrite the input")
    try:
        with open(src, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise FrontendError(f"{src}: cannot read: {e.strerror if isinstance(e, OSError) else e}")
    popts = PassOptions(print_ir_after_all=args.print_ir_after_all,
                        time_passes=args.time_passes, log=lambda s: print(s, file=sys.stderr))
    result = translate_text(src, text, options, popts)
    outputs = outputs_for_emit(result, args.emit)
    if args.output:
        write_outputs(args.output, outputs)
    else:
        for name in sorted(outputs):
            sys.stdout.write(outputs[name])
    if args.time_passes:
        for name, secs in popts.timings.items():
            print(f"translate: pass {name}: {secs * 1e3:.2f} ms", file=sys.stderr)


def _report_warnings(caught) -> None:
    from translator.diagnostics import TranslatorWarning
    for w in caught:
        if isinstance(w.message, TranslatorWarning):
            sys.stderr.write(w.message.render())


def _list_transforms() -> int:
    import transforms
    for name, signature, summary in transforms.list_transforms():
        print(f"{name}{signature}")
        if summary:
            print(f"    {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
