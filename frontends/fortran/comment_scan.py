"""fparser2's search for comments, INCLUDE lines and preprocessor lines, with a look first
(issue 24).

Before each statement of a block fparser2 asks whether the next line is a comment, an
INCLUDE line or a C preprocessor directive: three tries, each taking the line from the
reader, matching, and giving it back (`add_comments_includes_directives`).  Most lines are
ordinary statements, for which all three fail; a look at the line (its kind, and whether it
starts with ``include``) now tells that at once.  Every other line goes through fparser2's
own search, as does every line of a reader that reads OpenMP-style directives.  The
block's own tries of `Comment` and `match_cpp_directive` at a line already known to be a
statement answer at once too.
"""

from __future__ import annotations

from typing import Any

from frontends.fortran.stmt_filter import given_back, peek

_INSTALLED = False
#: fparser2's own search, `Comment.__new__` and `match_cpp_directive` (kept for the tests
#: that compare with them)
fparser_search: Any = None
fparser_comment_new: Any = None
fparser_cpp_match: Any = None


def install_comment_scan() -> None:
    """Put the look in front of fparser2's search (once)."""
    global _INSTALLED, fparser_search
    if _INSTALLED:
        return
    # here: fparser loads with the parser (`frontends.fortran.source._parser`)
    from fparser.common.readfortran import Line
    from fparser.two import Fortran2003
    from fparser.two.utils import DynamicImport
    search = fparser_search = Fortran2003.add_comments_includes_directives

    def add_comments_includes_directives(content: list, reader: Any) -> None:
        if not reader.process_directives:
            known = peek(reader)
            if known is not None:
                item = known[0]   # the next line, known without taking it
            else:
                item = reader.get_item()
                if item is None:
                    return
                reader.put_item(item)
                given_back(reader, item)
            if type(item) is Line and item.line.strip()[:7].upper() != "INCLUDE":
                return   # a statement: none of the three tries can match it
        search(content, reader)
    Fortran2003.add_comments_includes_directives = add_comments_includes_directives
    DynamicImport.add_comments_includes_directives = add_comments_includes_directives
    _install_statement_look()
    _INSTALLED = True


def _is_statement(reader: Any) -> bool:
    """Whether the reader's next line is known (`peek`) to be a statement line other than an
    INCLUDE line (which fparser2's reader opens when it takes it)."""
    known = peek(reader)
    return known is not None and not known[1].startswith("INCLUDE")


def _install_statement_look() -> None:
    """Every block asks at each line whether it is a comment (`Comment`) or a ``#`` line
    (`match_cpp_directive`): each takes the line and gives it back.  At a line known to be a
    statement both answer no at once, as their takes would."""
    # here: fparser loads with the parser (`frontends.fortran.source._parser`)
    from fparser.two import C99Preprocessor, Fortran2003
    from fparser.two.utils import FortranReaderBase
    global fparser_comment_new, fparser_cpp_match
    comment_new = fparser_comment_new = Fortran2003.Comment.__new__
    cpp_match = fparser_cpp_match = C99Preprocessor.match_cpp_directive

    def comment(cls, string, parent_cls=None):
        if isinstance(string, FortranReaderBase) and _is_statement(string):
            return None
        return comment_new(cls, string, parent_cls)

    def cpp_directive(reader):
        if isinstance(reader, FortranReaderBase) and _is_statement(reader):
            return None
        return cpp_match(reader)
    Fortran2003.Comment.__new__ = comment
    C99Preprocessor.match_cpp_directive = cpp_directive
