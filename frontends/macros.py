"""The macros a translation depended on, checked again when the rewritten source compiles.

A region's loop bounds and an array's extents are often macros (``#define N 64``, or ``-DN=...``
on the command line).  The kernels and the host glue are made with the values the preprocessor
gave at translation; a compilation with other ``-D`` flags or an edited header would run those
kernels on arrays of another shape, silently.  So the rewritten source ends with one
``#if``/``#error`` per macro the translation used: an integer macro must have the value it had,
and a name tested by the file's own conditionals (``#ifdef USE_FLOAT``) must be defined or not as
it was.  A mismatch is a compile error that names the macro and says to translate again.

Which names: identifiers in the regions' and data directives' text and in the file's
declarations (C: between brackets anywhere, array extents and sections; Fortran: declaration
lines, with ``::``, ``parameter`` or ``dimension``) whose expansion is an integer constant
expression, and the names the file's ``#if``/``#ifdef``/``#ifndef``/``#elif`` lines test.  C and
preprocessed Fortran (gfortran's traditional-mode cpp reads the same ``#if``/``#error`` lines).  Names reserved to the
implementation (``_OPENMP``, ``__STDC_VERSION__``: leading underscore and a capital or a second
underscore) are left out: a compiler flag such as ``-fopenmp`` may change them on purpose.

The values come from the same preprocessor run that feeds the parser (`PROBE_MARK` lines
appended after the file, cut off before parsing).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Sequence

from translator.patterns import LazyPattern
from translator.records import dataclass

#: The line after which the probes follow, in the text given to the preprocessor.
PROBE_MARK = "__translate_macro_probes__"
_PROBE = "__translate_probe_{}__"
_END = "__translate_probe_end__"
_PROBE_LINE = LazyPattern(r"^__translate_probe_(\d+)__ ([01])(?: (.*?))? ?__translate_probe_end__$")

_IDENT = re.compile(r"\b[A-Za-z_]\w*\b")
_COMMENT_OR_STRING = {
    "c": LazyPattern(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S),
    "fortran": LazyPattern(r"\"[^\"\n]*\"|'[^'\n]*'|![^\n]*"),
}
#: Fortran declaration lines: their names are the arrays' extents and the kinds.
_DECLARATION = LazyPattern(r"^[^!\n]*(?:::|\bparameter\b|\bdimension\b)[^\n]*$", re.M | re.I)
_CONDITIONAL = LazyPattern(r"^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif)\b(.*)$", re.M)
_BRACKETS = re.compile(r"\[([^\[\]]*)\]")
_RESERVED = re.compile(r"^_[A-Z_]")
_INTEGER = LazyPattern(r"\b(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)(?:[uU](?:ll|LL|[lL])?|"
                      r"(?:ll|LL|[lL])[uU]?)?\b")
_C_WORDS = frozenset(
    "auto break case char const continue default do double else enum extern float for goto if "
    "inline int long register restrict return short signed sizeof static struct switch typedef "
    "union unsigned void volatile while defined".split())


@dataclass(frozen=True)
class MacroValue:
    """What the preprocessor said of a name: its expansion, and whether it is a macro."""

    name: str
    expansion: str
    #: Whether the name was a macro (an object-like or a function-like one).
    is_macro: bool

    @property
    def integer(self) -> int | None:
        return integer_value(self.expansion) if self.is_macro else None


def code_text(text: str, language: str = "c") -> str:
    """`text` with comments, string and character literals blanked (same length; preprocessor
    lines are kept: their `#` is no Fortran comment)."""
    return _COMMENT_OR_STRING[language].sub(lambda m: " " * len(m.group(0)), text)


def candidate_names(text: str, language: str = "c") -> list[str]:
    """Every identifier of the file's code that could be a macro the translation used."""
    names = {m.group(0) for m in _IDENT.finditer(code_text(text, language))}
    return sorted(n for n in names if n not in _C_WORDS and not _RESERVED.match(n)
                  and not n.startswith(PROBE_MARK[:11]))


def with_probes(text: str, names: Sequence[str]) -> str:
    """The text for the preprocessor: the file, then one probe line per name."""
    # the end mark after the name: a function-like macro's name is followed by no "(" on its
    # line (traditional cpp would look for one on the lines after it, over the #else)
    lines = [f"#if defined({name})\n{_PROBE.format(i)} 1 {name} {_END}\n#else\n"
             f"{_PROBE.format(i)} 0 {name} {_END}\n#endif\n" for i, name in enumerate(names)]
    sep = "" if text.endswith("\n") or not text else "\n"
    return f"{text}{sep}{PROBE_MARK}\n{''.join(lines)}"


def split_probes(output: str, names: Sequence[str]) -> tuple[str, dict[str, MacroValue]]:
    """The preprocessed file without the probes, and each probed name's expansion."""
    at = output.rfind(f"\n{PROBE_MARK}\n")
    if at < 0:
        return output, {}
    values: dict[str, MacroValue] = {}
    for line in output[at:].splitlines():   # an expansion over several lines is not read
        m = _PROBE_LINE.match(line.strip())
        if m and int(m.group(1)) < len(names):
            name = names[int(m.group(1))]
            values[name] = MacroValue(name, " ".join(m.group(3).split()), m.group(2) == "1")
    return output[:at + 1], values


def integer_value(expansion: str) -> int | None:
    """The value of an integer constant expression as C computes it, or None (casts, floats,
    names, comparisons, anything else)."""
    def literal(m: re.Match) -> str:
        digits = m.group(1)
        if digits[:2] in ("0x", "0X"):
            return str(int(digits, 16))
        return str(int(digits, 8) if len(digits) > 1 and digits[0] == "0" else int(digits))
    expr = _INTEGER.sub(literal, expansion)
    if not expr.strip() or re.search(r"[^0-9\s()+\-*/%<>&|^~]", expr):
        return None
    try:
        tree = ast.parse(expr, mode="eval")
    except (SyntaxError, ValueError):
        return None
    return _evaluate(tree.body)


def _evaluate(node: ast.AST) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp):
        v = _evaluate(node.operand)
        if v is None:
            return None
        return {ast.USub: -v, ast.UAdd: v, ast.Invert: ~v}.get(type(node.op))
    if isinstance(node, ast.BinOp):
        a, b = _evaluate(node.left), _evaluate(node.right)
        if a is None or b is None:
            return None
        return _binary(type(node.op), a, b)
    return None


def _binary(op: type, a: int, b: int) -> int | None:
    if op in (ast.Div, ast.FloorDiv, ast.Mod) and b == 0:
        return None
    if op in (ast.LShift, ast.RShift) and not 0 <= b < 64:
        return None
    if op in (ast.Div, ast.FloorDiv):   # C truncates toward zero
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b >= 0) else -q
    if op is ast.Mod:
        r = abs(a) % abs(b)
        return r if a >= 0 else -r
    table = {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b, ast.BitAnd: a & b,
             ast.BitOr: a | b, ast.BitXor: a ^ b}
    if op is ast.LShift:
        return a << b
    if op is ast.RShift:
        return a >> b
    return table.get(op)


def used_names(text: str, spans: Iterable[tuple[int, int]], language: str = "c"
               ) -> tuple[set[str], set[str]]:
    """(names whose value matters: in the `spans` of `text` or in declarations; names the
    file's conditionals test)."""
    code = code_text(text, language)
    used = {m.group(0) for start, end in spans for m in _IDENT.finditer(code[start:end])}
    declared = _BRACKETS if language == "c" else _DECLARATION
    for m in declared.finditer(code):
        used.update(i.group(0) for i in _IDENT.finditer(m.group(m.lastindex or 0)))
    tested = {i.group(0) for m in _CONDITIONAL.finditer(code)
              for i in _IDENT.finditer(m.group(1))}
    return used, tested - {"defined"}


def guard(path_name: str, text: str, spans: Iterable[tuple[int, int]],
          values: dict[str, MacroValue], language: str = "c") -> str:
    """The lines that end the rewritten source (empty when the translation used no macro)."""
    used, tested = used_names(text, spans, language)
    checks = []
    for name in sorted(used | tested):
        value = values.get(name)   # reserved names were never probed
        if value is None:
            continue
        again = "translate it again with the -D and -I flags of this compilation"
        if value.integer is not None:
            checks.append(f"#if !defined({name}) || ({name}) != {value.integer}\n"
                          f"#error \"translate: {name} is not what it was when {path_name} was "
                          f"translated ({value.integer}): {again}\"\n#endif\n")
        elif name in tested and value.is_macro:
            checks.append(f"#ifndef {name}\n#error \"translate: {name} was defined when "
                          f"{path_name} was translated: {again}\"\n#endif\n")
        elif name in tested:
            checks.append(f"#ifdef {name}\n#error \"translate: {name} was not defined when "
                          f"{path_name} was translated: {again}\"\n#endif\n")
    if not checks:
        return ""
    head = ("translate: the macros this translation used, with their values then (the kernels",
            "were made for them; a mismatch stops the compilation).")
    head = (f"/* {head[0]}\n   {head[1]} */\n" if language == "c"
            else f"! {head[0]}\n! {head[1]}\n")
    return head + "".join(checks)


def guard_edit(text: str, lines: str) -> list[tuple[int, int, str]]:
    """The rewrite's edit that puts the guard `lines` after the last byte of `text` (every
    macro of the file is defined there); none for no lines."""
    if not lines:
        return []
    end = len(text)
    return [(end, end, ("" if not text or text.endswith("\n") else "\n") + lines)]
