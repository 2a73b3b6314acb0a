"""Reading Fortran with fparser2: source form, parsing, line spans of tree nodes.

fparser2 reports line numbers only (``node.item.span``), so columns are recovered from the text:
the first non-blank column of the line, or the column of a word on it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from frontends.fortran.chains import ParserGaveUp, install_chain_matching, parse_budget
from frontends.fortran.comment_scan import install_comment_scan
from frontends.fortran.parse_memo import memo_scope
from frontends.fortran.stmt_filter import statement_filter
from frontends.quick import source_form  # noqa: F401 (re-exported)
from translator.diagnostics import FrontendError, SourceSpan
from translator.patterns import LazyPattern
from translator.records import dataclass

_PARSER: Any = None


def _parser() -> Any:
    global _PARSER
    if _PARSER is None:
        # here: fparser loads only when Fortran is parsed (not for a module scan or a cache hit)
        from fparser.two.Fortran2008.intrinsics_f08 import Intrinsic_Name
        from fparser.two.parser import ParserFactory
        _PARSER = ParserFactory().create(std="f2008")
        # fparser checks intrinsic arities against Fortran 2003; Fortran 2008 added ATAN(Y, X)
        # (gfortran accepts it, and a file using it anywhere failed to parse)
        Intrinsic_Name.generic_function_names["ATAN"] = {"min": 1, "max": 2}
        install_chain_matching()
        install_comment_scan()
        _install_real_do_control()
    return _PARSER


def _install_real_do_control() -> None:
    """fparser2 reads a DO loop's bounds as integer expressions only, so a REAL DO variable
    (``DO 10 X = 1.0, 5.0``: deleted in Fortran 95, gfortran still accepts it) was a syntax
    error that stopped the whole file.  A loop control fparser2 refuses is read again with
    any expressions as bounds; the region builder refuses a REAL loop inside a region."""
    # here: fparser loads with the parser (`_parser`)
    from fparser.common.splitline import string_replace_map
    from fparser.two import Fortran2003
    from fparser.two.utils import NoMatchError
    integer_match = Fortran2003.Loop_Control.match

    def match(string: str) -> Any:
        try:
            return integer_match(string)
        except NoMatchError:
            pass
        line, repmap = string_replace_map(string.strip().removeprefix(",").lstrip())
        var, eq, rhs = line.partition("=")
        bounds = [b.strip() for b in rhs.split(",")]
        if not eq or "=" in rhs or not 2 <= len(bounds) <= 3 or line.upper().startswith(
                ("WHILE", "CONCURRENT")):
            return None
        delim = "," if string.lstrip().startswith(",") else None
        return (None, (Fortran2003.Do_Variable(repmap(var.rstrip())),
                       [Fortran2003.Expr(repmap(b)) for b in bounds]), delim)
    Fortran2003.Loop_Control.match = staticmethod(match)


#: A DIMENSION or COMMON statement (free or fixed form) and the names it gives bounds to.
_ARRAY_STATEMENT = re.compile(r"^(?:\s{6}|\s*)(?:\d+\s+)?(?:dimension|common)\b(.*)$",
                              re.IGNORECASE | re.MULTILINE)
_BOUNDED_NAME = LazyPattern(r"([A-Za-z]\w*)\s*\(")


@contextmanager
def _arrays_not_intrinsics(text: str) -> Iterator[None]:
    """While a file parses, a name the file declares as an array by a DIMENSION or COMMON
    statement is never an intrinsic function reference to fparser2 (only type declarations
    enter its symbol tables): ``INDEX(I)`` of ``DIMENSION INDEX(N)``, legal FORTRAN 77, was
    a syntax error ("Intrinsic 'INDEX' expects between 2 and 4 args"), ``DIM(I, J)`` a call
    of DIM.  The frontend tells arrays from intrinsics by its own scopes."""
    names = frozenset(n.upper() for m in _ARRAY_STATEMENT.finditer(text)
                      for n in _BOUNDED_NAME.findall(m.group(1)))
    if not names:
        yield
        return
    from fparser.two.Fortran2003 import Intrinsic_Function_Reference as Ref
    saved = Ref.__dict__["match"]
    original = saved.__func__

    def match(cls: type, string: str) -> Any:
        head = _BOUNDED_NAME.match(string.lstrip())
        if head is not None and head.group(1).upper() in names:
            return None
        return original(cls, string)

    Ref.match = classmethod(match)
    try:
        yield
    finally:
        Ref.match = saved


def parse_source(path: str, text: str, form: str, lines: SourceLines | None = None) -> Any:
    """The fparser2 tree of `text`; syntax errors become `FrontendError` at file:line:col
    (shown from `lines`, the file as written, when `text` is its preprocessed form)."""
    # here: fparser loads only when Fortran is parsed (not for a module scan or a cache hit)
    from fparser.common.readfortran import FortranStringReader
    from fparser.common.sourceinfo import FortranFormat
    from fparser.two.symbol_table import SYMBOL_TABLES
    from fparser.two.utils import FparserException

    lines = lines or SourceLines(path, text)
    check_nesting(lines, form)
    parser = _parser()
    _LINES.clear()
    SYMBOL_TABLES.clear()  # fparser keeps tables across parses; each file starts afresh
    logged = _LogCollector()
    logger = logging.getLogger("fparser")
    saved = (logger.level, logger.propagate)
    logger.addHandler(logged)
    logger.setLevel(logging.ERROR)
    logger.propagate = False   # fparser's messages become our diagnostics, not stderr noise
    try:
        reader = FortranStringReader(text, ignore_comments=False)
        reader.set_format(FortranFormat(form == "free", False))
        reader.exit_on_error = False   # fparser would otherwise call sys.exit
        parse_budget(NODES_PER_CHARACTER * len(text) + NODES_BASE)
        with memo_scope(), statement_filter(), _arrays_not_intrinsics(text):
            tree = parser(reader)
    except ParserGaveUp:
        raise FrontendError("the Fortran parser gave up on this statement (it tried too many "
                            "ways to read it: is there a syntax error in a nested expression?)",
                            lines.span(max(reader.linecount, 1))) from None
    except FparserException as e:
        raise _syntax_error(e, lines) from None
    except RecursionError:
        raise FrontendError("statement nested too deeply for the Fortran parser",
                            lines.span(1)) from None
    except Exception as e:  # fparser raises assorted internal errors on odd input
        raise FrontendError(f"the Fortran parser failed: {type(e).__name__}: {e}",
                            lines.span(1)) from None
    finally:
        parse_budget(None)
        SYMBOL_TABLES.clear()
        logger.removeHandler(logged)
        logger.setLevel(saved[0])
        logger.propagate = saved[1]
    if logged.errors:
        raise _logged_error(logged.errors[0], lines)
    if tree is None:
        raise FrontendError("no Fortran program unit found", lines.span(1))
    return tree


#: The parse-tree nodes (tries included) fparser2 may make per character of a file, beyond a
#: base of 100,000: valid code takes 3 to 6 (samples, 5,000-term sums, 200 nested levels).
NODES_PER_CHARACTER = 50
NODES_BASE = 100_000

#: The deepest parentheses fparser2 is given (anywhere in a file): its time grows with the
#: square of the depth (200 deep: seconds; 1,000 deep: minutes), see bench/RESULTS.md.
MAX_PAREN_DEPTH = 200


def check_nesting(lines: SourceLines, form: str) -> None:
    """Refuse, at the parenthesis, a statement nested deeper than `MAX_PAREN_DEPTH` (strings
    and comments skipped; a free-form statement ends at a line without a trailing ``&``, a
    fixed-form one at the next line that is not a continuation)."""
    depth = 0
    for number, line in enumerate(lines.lines, 1):
        if form == "fixed":
            if line[:1] in ("c", "C", "*", "!"):
                continue   # a comment line
            if line[5:6] in ("", " ", "0"):
                depth = 0   # not a continuation line: a new statement
        elif "&" not in line and depth + line.count("(") <= MAX_PAREN_DEPTH:
            depth = 0   # a free-form statement that ends here within the limit (most lines)
            continue
        depth, col = _line_depth(line, depth)
        if col:
            raise FrontendError(f"parentheses nested more than {MAX_PAREN_DEPTH} deep (the "
                                "Fortran parser's limit)", lines.span(number, col))
        if form == "free" and not strip_comment(line).rstrip().endswith("&"):
            depth = 0


def _line_depth(line: str, depth: int) -> tuple[int, int]:
    """The depth after `line` and the 1-based column where it passes the limit (0: never)."""
    quote = ""
    for k, ch in enumerate(line):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "!":
            break
        elif ch == "(":
            depth += 1
            if depth > MAX_PAREN_DEPTH:
                return depth, k + 1
        elif ch == ")":
            depth = max(depth - 1, 0)
    return depth, 0


def strip_comment(line: str) -> str:
    """`line` without its trailing ``!`` comment (a ``!`` inside a string is kept)."""
    quote = ""
    for k, ch in enumerate(line):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "!":
            return line[:k]
    return line


class _LogCollector(logging.Handler):
    """Collects the error messages fparser logs (it logs some errors instead of raising)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.errors: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.errors.append(record.getMessage())


def _logged_error(message: str, lines: SourceLines) -> FrontendError:
    m = re.search(r"^\s*(\d+):.*<== (.*)$", message, re.M)
    if m is None:
        return FrontendError(f"Fortran syntax error: {message.strip()}", lines.span(1))
    detail = m.group(2).strip().removesuffix("Ignoring.").strip()
    return FrontendError(f"Fortran syntax error: {detail}", lines.span(int(m.group(1))))


def _syntax_error(e: Exception, lines: SourceLines) -> FrontendError:
    msg = str(e)
    m = re.match(r"at line (\d+)\n>>>.*?\n(.*)", msg, re.S)
    if not m:
        return FrontendError(f"Fortran syntax error: {msg.strip()}", lines.span(1))
    line = int(m.group(1))
    detail = m.group(2).strip()
    text = "Fortran syntax error (fparser could not parse this statement)"
    if detail:
        text = f"Fortran syntax error: {detail}"
    return FrontendError(text, lines.span(line))


@dataclass
class SourceLines:
    """The lines of a file, for spans and columns.

    `text` is the file as written: spans show its lines, offsets index it.  A preprocessed
    file also has `analysed`, its line-aligned preprocessed text
    (`frontends.fortran.preprocess`): `line` answers from it, so the frontend reads what the
    compiler compiles, at the file's own line numbers.
    """

    path: str
    text: str
    analysed: str | None = None

    def __post_init__(self) -> None:
        # lines end at LF only, as fparser and gfortran count them (str.splitlines would also
        # split at a form feed or a lone CR and put later lines out of step)
        kept = lf_lines(self.text)
        self.written = [line.removesuffix("\n") for line in kept]
        self.lines = self.written
        if self.analysed is not None:
            self.lines = [line.removesuffix("\n") for line in lf_lines(self.analysed)]
        offsets = [0]
        for line in kept:
            offsets.append(offsets[-1] + len(line))
        self.offsets = offsets

    def line(self, number: int) -> str:
        """Line `number` as the frontend reads it (preprocessed, for a preprocessed file)."""
        return self.lines[number - 1] if 1 <= number <= len(self.lines) else ""

    def written_line(self, number: int) -> str:
        """Line `number` as the file has it."""
        return self.written[number - 1] if 1 <= number <= len(self.written) else ""

    def span(self, line: int, col: int | None = None, end_line: int | None = None,
             word: str | None = None) -> SourceSpan:
        """A span at `line`; col defaults to the word's column or the first non-blank one."""
        text = self.written_line(line)
        if col is None:
            col = find_column(text, word) if word else first_column(text)
        return SourceSpan(file=self.path, line=line, col=col,
                          end_line=end_line if end_line and end_line != line else None,
                          source_line=text)

    def line_start(self, number: int) -> int:
        """Character offset of the start of line `number` (1-based)."""
        return self.offsets[min(number - 1, len(self.offsets) - 1)]

    def line_end(self, number: int) -> int:
        """Character offset just after line `number`, its newline included."""
        return self.offsets[min(number, len(self.offsets) - 1)]


def lf_lines(text: str) -> list[str]:
    """The lines of `text` split after each LF (ends kept); no empty last line."""
    lines = text.split("\n")
    tail = lines.pop()
    return [line + "\n" for line in lines] + ([tail] if tail else [])


def first_column(text: str) -> int:
    stripped = text.lstrip()
    return len(text) - len(stripped) + 1 if stripped else 1


def find_column(text: str, word: str) -> int:
    """1-based column of `word` (a whole identifier, case-insensitive) in `text`."""
    m = re.search(rf"(?<![\w$]){re.escape(word)}(?!\w)", text, re.I)
    return m.start() + 1 if m else first_column(text)


# ---------------------------------------------------------------------------------------------
# tree helpers

def children(node: Any) -> tuple:
    """The child nodes of an fparser2 node (both `children` and `items` styles)."""
    kids = getattr(node, "children", None)
    if kids is None:
        kids = getattr(node, "items", ())
    return tuple(kids or ())


def is_comment(node: Any) -> bool:
    """Comments, and C preprocessor lines (fparser keeps them as nodes wherever they fall;
    `frontends.fortran` rejects them inside regions)."""
    name = type(node).__name__
    return name == "Comment" or name.startswith("Cpp_")


def walk(node: Any) -> Iterator[Any]:
    """Every node below `node` (pre-order), `node` included; strings and None skipped.

    Iterative: a sum of thousands of terms is a chain of that depth, which nested generators
    would walk in quadratic time (and past the recursion limit)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n is None or isinstance(n, str):
            continue
        yield n
        pending = []
        for c in children(n):
            pending.extend(c if isinstance(c, (tuple, list)) else (c,))
        stack.extend(reversed(pending))


#: `node_lines` answers by node identity (the node held): the frontend asks about a loop,
#: then about each statement in it, and so on down; each subtree is read once.  Trees are
#: never changed after parsing; `parse_source` forgets the previous file's answers.
_LINES: dict[int, tuple[Any, tuple[int, int] | None]] = {}


def node_lines(node: Any) -> tuple[int, int] | None:
    """First and last source line of a node, ignoring comments (None for a comment)."""
    if node is None or isinstance(node, str):
        return None
    hit = _LINES.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    lo, hi = None, None
    span = None if is_comment(node) else getattr(getattr(node, "item", None), "span", None)
    if span:
        lo, hi = span[0], span[1]
        if not hasattr(node, "content"):
            # a statement: its parts were matched from its text and have no lines of their own
            _LINES[id(node)] = (node, (lo, hi))
            return lo, hi
    for c in children(node):
        for cc in (c if isinstance(c, (tuple, list)) else (c,)):
            inner = node_lines(cc)
            if inner is not None:
                lo = inner[0] if lo is None else min(lo, inner[0])
                hi = inner[1] if hi is None else max(hi, inner[1])
    found = None if lo is None else (lo, hi)
    _LINES[id(node)] = (node, found)
    return found


def class_name(node: Any) -> str:
    return type(node).__name__
