"""fparser2's search for comments, INCLUDE lines and preprocessor lines, with a look first
(issue 24).

Before each statement of a block fparser2 asks whether the next line is a comment, an
INCLUDE line or a C preprocessor directive: three tries, each taking the line from the
reader, matching, and giving it back (`add_comments_includes_directives`).  Most lines are
ordinary statements, for which all three fail; a look at the line (its kind, and whether it
starts with ``include``) now tells that at once.  Every other line goes through fparser2's
own search, as does every line of a reader that reads OpenMP-style directives.
"""

from __future__ import annotations

from typing import Any

from frontends.fortran.stmt_filter import given_back, peek

_INSTALLED = False
#: fparser2's own search (kept for the tests that compare with it)
fparser_search: Any = None


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
    _INSTALLED = True
