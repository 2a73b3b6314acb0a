"""``translate tune``: time the candidate mappings of a program built with
``translate --tune-candidates`` and print what was tried (docs/tuning.md).

    translate tune [--tune-file FILE] [--reps N] -- CMD [ARG...]
        run CMD with TRANSLATE_TUNE=1 (the runtime rotates and times the candidates and
        appends its records to FILE), then print the records this run appended
    translate tune --show [--tune-file FILE]
        print the latest record of every region, device and size class in FILE

FILE defaults to ``$TRANSLATE_TUNE_FILE``, else ``translate-tune.jsonl``.  The exit status is
CMD's; 1 for a bad command line or a tuning file that is not one.
"""

from __future__ import annotations

import os
import subprocess
import sys

from translator.build.flags import UserErrorParser
from translator.build.tunefile import DEFAULT_FILE, load, table
from translator.diagnostics import TranslatorError


def _parser() -> UserErrorParser:
    ap = UserErrorParser(
        prog="translate tune",
        description="Run a program built with 'translate --tune-candidates' with "
                    "TRANSLATE_TUNE=1 and print the time of each candidate mapping.")
    ap.add_argument("--tune-file", metavar="FILE",
                    help=f"the tuning file (default: $TRANSLATE_TUNE_FILE, else {DEFAULT_FILE})")
    ap.add_argument("--reps", type=int, default=None, metavar="N",
                    help="timed calls per candidate after one warm-up call (default 3; "
                         "TRANSLATE_TUNE_REPS)")
    ap.add_argument("--show", action="store_true", help="print the file's records, run nothing")
    ap.add_argument("command", nargs="*", metavar="CMD", help="the program and its arguments")
    return ap


def main(argv: list[str]) -> int:
    after = argv.index("--") if "--" in argv else len(argv)
    args = _parser().parse_args(argv[:after])
    command = args.command + argv[after + 1:]
    path = args.tune_file or os.environ.get("TRANSLATE_TUNE_FILE") or DEFAULT_FILE
    if args.show == bool(command):
        sys.stderr.write("translate tune: error: give a command to run (after --) or --show\n")
        return 1
    if args.reps is not None and args.reps < 1:
        sys.stderr.write("translate tune: error: --reps needs a number >= 1\n")
        return 1
    try:
        before = len(load(path)) if os.path.exists(path) else 0
        status = 0 if args.show else _run(command, path, args.reps)
        records = load(path) if os.path.exists(path) else []
    except TranslatorError as err:
        sys.stderr.write(err.render())
        return 1
    new = records if args.show else records[before:]
    if not new and not args.show:
        sys.stderr.write(f"translate tune: no tuning record was appended to {path}: was the "
                         "program built with 'translate --tune-candidates', and does it call a "
                         "region with candidates?\n")
    sys.stdout.write(table(new))
    return status


def _run(command: list[str], path: str, reps: int | None) -> int:
    env = dict(os.environ, TRANSLATE_TUNE="1", TRANSLATE_TUNE_FILE=os.path.abspath(path))
    if reps is not None:
        env["TRANSLATE_TUNE_REPS"] = str(reps)
    try:
        return subprocess.run(command, env=env, check=False).returncode
    except OSError as e:
        sys.stderr.write(f"translate tune: error: cannot run {command[0]}: {e.strerror}\n")
        return 1
