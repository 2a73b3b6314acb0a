"""Preprocess a C file with ``gcc -E`` and parse it with pycparser; map nodes to source spans.

System headers use GNU extensions that pycparser does not know.  The bundled pycparserext
(`GnuCParser`) does not work with the installed pycparser 3, so the extensions are defined
away on the preprocessor's command line instead (`GNU_COMPAT_DEFINES`); stdio.h, stdlib.h,
string.h and math.h (and the other common headers) parse this way.

The text is fed to the preprocessor on stdin, so what is parsed is exactly the text given to
the frontend; line markers name ``<stdin>``, which is mapped back to the file's path.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Sequence
from functools import cached_property

from pycparser import c_ast, c_parser

from frontends.c.skim import blank_unneeded_bodies
from frontends.macros import MacroValue, candidate_names, split_probes, with_probes
from translator.diagnostics import FrontendError, SourceSpan
from translator.patterns import LazyPattern
from translator.records import dataclass

#: How GNU extensions of system headers are defined away before pycparser sees them.
GNU_COMPAT_DEFINES: tuple[str, ...] = (
    "-D__attribute__(x)=", "-D__extension__=", "-D__restrict=restrict",
    "-D__restrict__=restrict", "-D__asm__(x)=", "-D__asm(x)=", "-D__inline=inline",
    "-D__inline__=inline", "-D__builtin_va_list=char*", "-D_Float128=double",
    "-D_Float64=double", "-D_Float32=float", "-D_Float64x=double", "-D_Float32x=double",
    "-D__float128=double", "-D__signed__=signed", "-D__volatile__=volatile", "-D__const=const",
    "-D__typeof__(x)=int", "-D_Noreturn=", "-D__builtin_offsetof(a,b)=0",
)

_STDIN = "<stdin>"
_CPP_MESSAGE = LazyPattern(r"^<stdin>:(\d+):(?:(\d+):)?\s*(?:fatal )?error:\s*(.*)$", re.M)
_PARSE_MESSAGE = LazyPattern(r"^(.*?):(\d+)(?::(\d+))?:\s*(.*)$", re.S)


@dataclass(frozen=True)
class SourceText:
    """The original text of a file: lines for spans, line offsets for the rewrite."""

    path: str
    text: str

    @cached_property
    def lines(self) -> list[str]:
        # LF only, as the preprocessor counts lines (a form feed does not end a line)
        lines = self.text.split("\n")
        tail = lines.pop()
        return [line + "\n" for line in lines] + ([tail] if tail else [])

    @cached_property
    def _offsets(self) -> list[int]:
        offsets, pos = [], 0
        for line in self.lines:
            offsets.append(pos)
            pos += len(line)
        return offsets

    def line_text(self, line: int) -> str | None:
        return self.lines[line - 1] if 1 <= line <= len(self.lines) else None

    def line_offset(self, line: int) -> int:
        """Character offset of the start of `line` (1-based); len(text) past the end."""
        return self._offsets[line - 1] if 1 <= line <= len(self._offsets) else len(self.text)

    def span(self, line: int, col: int = 1) -> SourceSpan:
        return SourceSpan(file=self.path, line=line, col=max(1, col),
                          source_line=self.line_text(line))

    def node_span(self, node: c_ast.Node | None, token: str | None = None) -> SourceSpan | None:
        """The span of a pycparser node, its column corrected against the original line.

        The preprocessor turns comments and tabs into single spaces and expands macros, so
        the parser's column can drift; when the node's leading `token` is known, the
        occurrence nearest to the parser's column in the original line is used instead.
        """
        coord = getattr(node, "coord", None)
        if coord is None or coord.file not in (_STDIN, self.path):
            return None
        col = coord.column or 1
        text = self.line_text(coord.line)
        if token and text is not None:
            col = _nearest_occurrence(text, token, col)
        return self.span(coord.line, col)


def _nearest_occurrence(text: str, token: str, col: int) -> int:
    pattern = re.escape(token)
    if token[:1].isalnum() or token[:1] == "_":
        pattern = r"(?<![\w])" + pattern + r"(?![\w])"
    starts = [m.start() + 1 for m in re.finditer(pattern, text)]
    if not starts:
        return col
    return min(starts, key=lambda s: (abs(s - col), s))


def preprocess(src: SourceText, cpp_args: Sequence[str] = (), cpp: str = "gcc",
               text: str | None = None) -> str:
    """Run the C preprocessor on the text (or on `text`, the file's with lines appended),
    keeping line markers and pragmas."""
    directory = os.path.dirname(os.path.abspath(src.path))
    cmd = [cpp, "-E", "-x", "c", *GNU_COMPAT_DEFINES, "-iquote", directory, "-I", directory,
           *cpp_args, "-"]
    text = src.text if text is None else text
    try:
        # bytes in and out: a byte that is not UTF-8 (a Latin-1 comment) reaches gcc as it is
        # in the file (the text holds it as a surrogate, see translator.sourcebytes)
        proc = subprocess.run(cmd, input=text.encode("utf-8", "surrogateescape"),
                              capture_output=True, timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise FrontendError(f"cannot run the C preprocessor {cpp!r}: {e}") from None
    if proc.returncode != 0:
        raise _cpp_error(src, proc.stderr.decode("utf-8", "replace"))
    return proc.stdout.decode("utf-8", "surrogateescape")


def _cpp_error(src: SourceText, stderr: str) -> FrontendError:
    m = _CPP_MESSAGE.search(stderr)
    if m:
        span = src.span(int(m.group(1)), int(m.group(2) or 1))
        return FrontendError(f"C preprocessor: {m.group(3).strip()}", span)
    first = stderr.strip().splitlines()[:1]
    return FrontendError(f"C preprocessor failed: {first[0] if first else 'no message'}")


def parse_c(src: SourceText, preprocessed: str) -> c_ast.FileAST:
    """Parse preprocessed text; syntax errors become `FrontendError` at file:line:col."""
    try:
        return c_parser.CParser().parse(preprocessed, src.path)
    except c_parser.ParseError as e:
        raise _parse_error(src, str(e)) from None
    except RecursionError:
        raise FrontendError("C source is nested too deeply to parse",
                            src.span(1)) from None


class _UnplacedSyntaxError(FrontendError):
    """A pycparser error without a line ("Invalid expression"): `parse_file` asks the C
    compiler where it is."""


def _parse_error(src: SourceText, message: str) -> FrontendError:
    m = _PARSE_MESSAGE.match(message)
    if not m:
        return _UnplacedSyntaxError(f"C syntax error: {message.replace(_STDIN + ': ', '')}",
                                    src.span(1))
    file, line, col, msg = m.group(1), int(m.group(2)), int(m.group(3) or 1), m.group(4)
    msg = msg.strip() or "syntax error"
    if file in (_STDIN, src.path):
        return FrontendError(f"C syntax error: {msg}", src.span(line, col))
    return FrontendError(f"C syntax error in {file}:{line}:{col}: {msg} (a compiler "
                         "extension the translator's C parser does not know?)", src.span(1))


def parse_file(src: SourceText, options: dict
               ) -> tuple[c_ast.FileAST, dict[str, MacroValue]]:
    """Preprocess and parse; `options["cpp_args"]` are -D/-U/-I flags for the preprocessor.
    Also what the preprocessor made of each identifier of the file (`frontends.macros`)."""
    cpp_args = [str(a) for a in options.get("cpp_args", ()) or ()]
    cpp = str(options.get("cpp", "gcc"))
    names = candidate_names(src.text)
    text, macros = split_probes(preprocess(src, cpp_args, cpp, with_probes(src.text, names)),
                                names)
    return _parse_skimmed(src, text, options, cpp_args, cpp), macros


def _parse_skimmed(src: SourceText, text: str, options: dict, cpp_args: Sequence[str],
                   cpp: str) -> c_ast.FileAST:
    words = ("translate",) + tuple({"openmp": "omp", "openacc": "acc"}[m]
                                   for m in options.get("directives", ()) if m != "translate")
    # see frontends.c.skim: large files parse fast (the functions regions call are kept; if
    # one of those does not parse, without them: a call of it is then refused as unknown),
    # and so do the system headers (the prototypes nothing names are left out)
    for keep_called in (True, False):
        skimmed = blank_unneeded_bodies(text, words, keep_called=keep_called,
                                        declarations=True)
        if skimmed is not text or keep_called:   # nothing blanked: every body is needed
            try:
                return parse_c(src, skimmed)
            except FrontendError:
                pass   # report what the whole text gives
    try:
        return parse_c(src, text)
    except _UnplacedSyntaxError as err:
        raise _placed_by_compiler(src, cpp_args, cpp, err) from None


def _placed_by_compiler(src: SourceText, cpp_args: Sequence[str], cc: str,
                        err: FrontendError) -> FrontendError:
    """The compiler's first error in the file, at its line and column (pycparser gave
    none); `err` itself, said to be the translator's parser's, if the compiler has none."""
    directory = os.path.dirname(os.path.abspath(src.path))
    cmd = [cc, "-fsyntax-only", "-x", "c", "-iquote", directory, "-I", directory, *cpp_args,
           "-"]
    try:
        proc = subprocess.run(cmd, input=src.text.encode("utf-8", "surrogateescape"),
                              capture_output=True, timeout=120, check=False,
                              env={**os.environ, "LC_ALL": "C"})   # plain quotes
        m = _CPP_MESSAGE.search(proc.stderr.decode("utf-8", "replace"))
    except (OSError, subprocess.TimeoutExpired):
        m = None
    if m:
        return FrontendError(f"C syntax error: {m.group(3).strip()}",
                             src.span(int(m.group(1)), int(m.group(2) or 1)))
    return FrontendError(f"{err.message} (the translator's C parser cannot tell where; "
                         f"{cc} accepts the file)", err.span)
