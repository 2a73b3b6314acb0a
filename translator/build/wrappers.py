"""Compiler wrappers: ``translate-fc gfortran ...`` and ``translate-cc gcc ...``.

Used as ``make FC="translate-fc gfortran" CC="translate-cc gcc"``.  The wrapper runs the real
compiler with the same arguments, except that

- each source with translate regions is translated into a build-local directory
  (``$TRANSLATE_BUILD_DIR``, else ``.translate/`` next to the object, else in the current
  directory), and the rewritten source is compiled instead, with the original's directory
  first on the include path;
- with ``-c`` the host glue is compiled too and merged into the requested object (``ld -r``),
  so the object carries everything its regions need;
- when linking, the runtime (compiled once into the build directory as an archive, so it is
  linked only when used) and ``-lOpenCL`` (as needed) are added.

Sources without regions, and ``-E``/``-S``/``-M``/``-fsyntax-only`` runs, pass through
untouched.  ``-I``/``-D``/``-U`` (and gfortran's ``-cpp``/``-nocpp``) reach the translator's
preprocessor too.  Translator options go in ``-Xtranslate OPTION`` (repeatable) or
``$TRANSLATE_FLAGS`` (e.g. ``-Werror --report``).
Exit status: the translator's (1 for a diagnosed error, 2 for a bug), else the compiler's.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shlex
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import field, replace
from pathlib import Path

from translator.build.flags import (compiler_fixed_line_length, compiler_preprocessing,
                                   frontend_cpp_args, has_directives)
from translator.languages import language_of
from translator.records import dataclass

#: Options whose value is the next argument.
_TAKES_VALUE = frozenset({
    "-o", "-I", "-D", "-U", "-L", "-J", "-x", "-include", "-imacros", "-isystem", "-iquote",
    "-idirafter", "-MF", "-MT", "-MQ", "-Xlinker", "-Xassembler", "-Xpreprocessor", "-aux-info",
    "-Xtranslate",
})
_NO_TRANSLATE_MODES = frozenset({"-E", "-S", "-M", "-MM", "-fsyntax-only"})
#: Flags of the user's command line that the glue and runtime compiles must share.
_GLUE_FLAGS = ("-fPIC", "-fpic", "-fPIE", "-fpie", "-m32", "-m64", "-g", "-pthread")


class WrapperError(Exception):
    """A failure with an exit status, its message already printed or given here."""

    def __init__(self, status: int, message: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Command:
    """A compiler command line, split into what the wrapper needs to know."""

    compiler: str
    args: list[str]
    sources: list[int] = field(default_factory=list)   # indices into args
    output: str | None = None
    translate_flags: list[str] = field(default_factory=list)

    @property
    def compile_only(self) -> bool:
        return "-c" in self.args

    @property
    def passthrough(self) -> bool:
        return any(a in _NO_TRANSLATE_MODES for a in self.args)


def parse_command(argv: list[str], default_compiler: str) -> Command:
    """Split ``[COMPILER] ARGS...`` (the compiler may be left out)."""
    if argv and not argv[0].startswith("-") and language_of(argv[0]) is None \
            and not argv[0].endswith((".o", ".a", ".so")):
        compiler, rest = argv[0], argv[1:]
    else:
        compiler, rest = default_compiler, list(argv)
    cmd = Command(compiler=compiler, args=[])
    k = 0
    while k < len(rest):
        arg = rest[k]
        if arg == "-Xtranslate" and k + 1 < len(rest):
            cmd.translate_flags.append(rest[k + 1])
            k += 2
            continue
        if arg.startswith("-Xtranslate="):
            cmd.translate_flags.append(arg.split("=", 1)[1])
        elif arg in _TAKES_VALUE and k + 1 < len(rest):
            if arg == "-o":
                cmd.output = rest[k + 1]
            cmd.args += [arg, rest[k + 1]]
            k += 2
            continue
        else:
            if not arg.startswith("-") and language_of(arg) is not None:
                cmd.sources.append(len(cmd.args))
            cmd.args.append(arg)
        k += 1
    return cmd


def build_dir(cmd: Command) -> Path:
    """Where translated files, glue objects and the runtime archive go."""
    env = os.environ.get("TRANSLATE_BUILD_DIR")
    if env:
        return Path(env)
    base = os.path.dirname(cmd.output) if cmd.output else ""
    return Path(base or ".") / ".translate"


def _run(argv: list[str]) -> None:
    proc = subprocess.run(argv)
    if proc.returncode != 0:
        raise WrapperError(proc.returncode)


def _glue_compiler(cmd: Command, language: str) -> str:
    if os.environ.get("TRANSLATE_CC"):
        return os.environ["TRANSLATE_CC"]
    return cmd.compiler if language == "c" else "gcc"


def _glue_flags(cmd: Command) -> list[str]:
    from translator.cli import runtime_dir
    return ["-O2", f"-I{runtime_dir()}"] + [a for a in cmd.args if a in _GLUE_FLAGS]


# ---------------------------------------------------------------------------------------------
# translation of one source

#: Environment variables that change what the wrapper writes into a work folder.
_KEY_ENVIRONMENT = ("TRANSLATE_FLAGS", "TRANSLATE_CC", "TRANSLATE_LD")


def work_folder(cmd: Command, src: str) -> Path:
    """The folder that one source's translation, glue object and rewritten object go to:
    ``<build dir>/<stem>-<key>``, the key a hash of everything that changes those files (the
    source's path as given and absolute, the working directory, the compiler and its whole
    command line with macros, flags and output, the translator options and the environment
    variables the wrapper reads).  Two variants of one source (``-DSCALE=2 -o a.o`` and
    ``-DSCALE=3 -o b.o``) thus never share a folder; identical commands run at once are kept
    apart by `locked`."""
    parts = [os.path.abspath(src), src, os.getcwd(), cmd.compiler, *cmd.args, "\0",
             *cmd.translate_flags, "\0", *(os.environ.get(v, "") for v in _KEY_ENVIRONMENT)]
    digest = hashlib.sha256("\0".join(parts).encode("utf-8", "surrogateescape"))
    return build_dir(cmd) / f"{Path(src).stem}-{digest.hexdigest()[:12]}"


@contextmanager
def locked(folder: Path) -> Iterator[None]:
    """Hold `folder`'s lock: the same command run twice at once (two make invocations) would
    otherwise write the same files at the same time."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


@dataclass(frozen=True)
class Translated:
    """A source the wrapper translated: the rewritten source and its glue object."""

    source: str
    rewritten: str
    glue_object: str
    folder: str


def translate_source(cmd: Command, src: str, language: str, held: ExitStack
                     ) -> Translated | None:
    """Translate `src` if it has regions (else None); diagnostics go to stderr.  The work
    folder's lock is entered into `held`: keep it until its files are compiled and linked."""
    from translator.build.job import run_job
    text = Path(src).read_text(encoding="utf-8", errors="replace")
    folder = work_folder(cmd, src)
    opts = _job_options(cmd, str(folder))
    if not has_directives(text, language, tuple(opts.frontend.get("directives", ()))):
        return None
    stem = Path(src).stem
    held.enter_context(locked(folder))
    result = run_job(src, opts)
    sys.stderr.write(result.stderr)
    if result.report:
        sys.stderr.write(result.report)
    if result.status != 0:
        raise WrapperError(result.status)
    rewritten = folder / Path(src).name
    host = folder / f"{stem}.host.c"
    if not host.exists() or not any(p == str(host) for p in result.outputs):
        return None   # the directives did not form a region: compile the original
    glue_obj = folder / f"{stem}.host.o"
    _run([_glue_compiler(cmd, language), *_glue_flags(cmd), "-c", str(host), "-o",
          str(glue_obj)])
    return Translated(src, str(rewritten), str(glue_obj), str(folder))


def _job_options(cmd: Command, output: str):
    from translator.build.job import JobOptions
    from translator.build.warnpolicy import split_warning_flags
    from translator.cli import _job_options, parse_args
    try:
        flags = shlex.split(os.environ.get("TRANSLATE_FLAGS", "")) + cmd.translate_flags
    except ValueError as e:   # an unbalanced quote
        raise WrapperError(1, f"translate wrapper: error: TRANSLATE_FLAGS: {e}") from None
    policy, rest = split_warning_flags(flags)
    args = parse_args(rest + ["-o", output, "unused.f90"])
    from translator.diagnostics import TranslatorError
    try:
        opts: JobOptions = _job_options(args, policy)
    except TranslatorError as err:   # an unreadable or malformed tuning file
        raise WrapperError(1, err.render().rstrip("\n")) from None
    frontend = dict(opts.frontend)
    frontend["cpp_args"] = frontend_cpp_args(cmd.args) + frontend["cpp_args"]
    preprocess = compiler_preprocessing(cmd.args)
    if preprocess is not None and "preprocess" not in frontend:
        frontend["preprocess"] = preprocess   # the compiler's -cpp/-nocpp, unless -Xtranslate
    width = compiler_fixed_line_length(cmd.args)
    if width is not None and "fixed_line_length" not in frontend:
        frontend["fixed_line_length"] = width   # gfortran's -ffixed-line-length-N
    # objects of different files may be linked together: same-named regions must not clash
    # the result cache is on unless -Xtranslate --no-cache (or TRANSLATE_FLAGS) says not
    return replace(opts, output=output, frontend=frontend, depfile=None, dep_targets=(),
                   unique_symbols=True, cache=args.cache is not False)


# ---------------------------------------------------------------------------------------------
# the three modes

def compile_one(cmd: Command, index: int) -> None:
    """``-c`` with one source: object = rewritten source + glue, merged with ``ld -r``."""
    with ExitStack() as held:
        done = translate_source(cmd, cmd.args[index], language_of(cmd.args[index]) or "c",
                                held)
        if done is None:
            _run([cmd.compiler, *cmd.args])
            return
        _compile_translated(cmd, index, done)


def _compile_translated(cmd: Command, index: int, done: Translated) -> None:
    """The object of `done`: its rewritten source compiled, merged with its glue object."""
    src = done.source
    target = cmd.output or (Path(src).stem + ".o")
    main_obj = os.path.join(done.folder, Path(src).stem + ".main.o")
    args = list(cmd.args)
    args[index] = done.rewritten
    args = _without_output(args) + _depfile_flags(cmd.args, target)
    _run([cmd.compiler, f"-I{os.path.dirname(os.path.abspath(src))}", *args, "-o", main_obj])
    _run([os.environ.get("TRANSLATE_LD", "ld"), "-r", main_obj, done.glue_object,
          "-o", target])
    _add_source_dependency(cmd.args, target, src)


def _without_output(args: list[str]) -> list[str]:
    out, k = [], 0
    while k < len(args):
        if args[k] == "-o":
            k += 2
            continue
        out.append(args[k])
        k += 1
    return out


def _depfile_flags(args: list[str], target: str) -> list[str]:
    """With ``-MD``/``-MMD``, keep the dependency file where the compiler would put it for
    `target`, with `target` as its rule's target."""
    if "-MD" not in args and "-MMD" not in args:
        return []
    extra = []
    if "-MF" not in args:
        extra += ["-MF", os.path.splitext(target)[0] + ".d"]
    if "-MT" not in args and "-MQ" not in args:
        extra += ["-MT", target]
    return extra


def _add_source_dependency(args: list[str], target: str, src: str) -> None:
    """The compiler's dependency file names the rewritten source; add the original."""
    if "-MD" not in args and "-MMD" not in args:
        return
    dep = args[args.index("-MF") + 1] if "-MF" in args else os.path.splitext(target)[0] + ".d"
    if os.path.exists(dep):
        with open(dep, "a", encoding="utf-8") as f:
            f.write(f"\n{target.replace(' ', chr(92) + ' ')}: "
                    f"{src.replace(' ', chr(92) + ' ')}\n")


def compile_and_link(cmd: Command) -> None:
    """Sources and objects to a program: rewritten sources, glue objects and the runtime."""
    args = list(cmd.args)
    extra: list[str] = []
    include_dirs: list[str] = []
    with ExitStack() as held:
        for index in cmd.sources:
            src = cmd.args[index]
            done = translate_source(cmd, src, language_of(src) or "c", held)
            if done is None:
                continue
            args[index] = done.rewritten
            extra.append(done.glue_object)
            folder = f"-I{os.path.dirname(os.path.abspath(src))}"
            if folder not in include_dirs:
                include_dirs.append(folder)
        _run([cmd.compiler, *include_dirs, *args, *extra, *runtime_link_args(cmd)])


def runtime_link_args(cmd: Command) -> list[str]:
    """The runtime archive and OpenCL, for a link (both only pulled in when used)."""
    archive = runtime_archive(cmd)
    return [str(archive), "-Wl,--push-state,--as-needed", "-lOpenCL", "-Wl,--pop-state"]


def runtime_archive(cmd: Command) -> Path:
    """``libtranslate_rt.a`` in the build directory, compiled once (a lock keeps parallel
    make jobs from building it twice; a new runtime source rebuilds it)."""
    from translator.cli import runtime_dir
    rt = Path(runtime_dir())
    folder = build_dir(cmd) / "runtime"
    folder.mkdir(parents=True, exist_ok=True)
    archive = folder / "libtranslate_rt.a"
    newest = max((rt / n).stat().st_mtime for n in ("translate_rt.c", "translate_rt.h"))
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if archive.exists() and archive.stat().st_mtime >= newest:
            return archive
        obj, tmp = folder / "translate_rt.o", folder / f".libtranslate_rt.{os.getpid()}.a"
        _run([_glue_compiler(cmd, "c"), *_glue_flags(cmd), "-fPIC", "-c",
              str(rt / "translate_rt.c"), "-o", str(obj)])
        _run(["ar", "rcs", str(tmp), str(obj)])
        os.replace(tmp, archive)
    return archive


def run_wrapper(argv: list[str], default_compiler: str) -> int:
    """The wrapper's main: returns the exit status."""
    cmd = parse_command(argv, default_compiler)
    if not cmd.args:
        sys.stderr.write(f"usage: translate-{'fc' if 'f' in default_compiler else 'cc'} "
                         "[COMPILER] ARGS...\n")
        return 1
    try:
        if cmd.passthrough or (cmd.compile_only and not cmd.sources):
            _run([cmd.compiler, *cmd.args])
        elif cmd.compile_only:
            for index in cmd.sources:
                single = _single_source(cmd, index)
                compile_one(single, single.sources[0])
        else:
            compile_and_link(cmd)
    except WrapperError as err:
        if err.message:
            sys.stderr.write(err.message + "\n")
        return err.status
    except OSError as err:
        sys.stderr.write(f"translate wrapper: error: {err}\n")
        return 1
    return 0


def _single_source(cmd: Command, index: int) -> Command:
    """`cmd` restricted to one of its sources (``-c a.f90 b.f90`` compiles each alone)."""
    if len(cmd.sources) == 1:
        return cmd
    args = [a for k, a in enumerate(cmd.args) if k not in cmd.sources or k == index]
    new_index = args.index(cmd.args[index])
    return replace(cmd, args=args, sources=[new_index])


def _main(default_compiler: str) -> int:
    """The wrapper command: run by the translation server if one answers
    (`translator.server`), else here."""
    from translator.server import handoff, limit_numeric_threads
    program = "translate-fc" if default_compiler == "gfortran" else "translate-cc"
    served = handoff(program, sys.argv[1:])
    if served is not None:
        return served
    limit_numeric_threads()   # before numpy is imported
    return run_in_process(sys.argv[1:], default_compiler)


def run_in_process(argv: list[str], default_compiler: str) -> int:
    """The wrapper with arguments `argv`, in this process; returns the exit status."""
    try:
        return run_wrapper(argv, default_compiler)
    except KeyboardInterrupt:
        return 130
    except Exception:  # a bug: say so
        import traceback
        sys.stderr.write("translate wrapper: internal error (this is a bug in the "
                         "translator):\n")
        traceback.print_exc()
        return 2


def main_fc() -> int:
    """``translate-fc``: wraps a Fortran compiler (default gfortran)."""
    return _main("gfortran")


def main_cc() -> int:
    """``translate-cc``: wraps a C compiler (default gcc)."""
    return _main("gcc")
