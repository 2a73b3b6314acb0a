"""Statement classes that cannot match a line, told by its first word (issue 24).

At each line of a block fparser2 tries the block's statement classes one after another; for
each it takes the line from the reader, matches, and gives the line back.  A subroutine's
specification part tries some 40 classes per line (``INCLUDE``, ``FORMAT``, ``ENTRY``,
``PARAMETER`` ...), nearly all of which fail at once on their keyword: in a file of 400 small
subroutines that was 170,000 tries, half of fparser2's time.

Each class named in `KEYWORDS` can match only a statement whose text, with its blanks
removed and in upper case, starts with one of its keywords: that is the first test of its
own ``match`` (fparser 0.2.5: ``string[:n].upper() != "DATA"``, `WORDClsBase`, `CALLBase`,
`EndStmtBase`, ...), and removing blanks only lets more texts pass.  Such a try is answered
"no match" without touching the reader, with what fparser2's own failed try leaves behind:
the class in the recursion guard and in the line's cache of failed classes.

Only a line fparser2 has already taken and given back exactly as it was is looked at (a
`Line`, not one of an INCLUDE file, not split at ``;``): the first try at each line goes
through fparser2.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

#: Class name -> the keywords (blanks removed, upper case) one of which starts every
#: statement the class matches.
KEYWORDS: dict[str, tuple[str, ...]] = {
    "Access_Stmt": ("PUBLIC", "PRIVATE"), "Allocatable_Stmt": ("ALLOCATABLE",),
    "Allocate_Stmt": ("ALLOCATE",), "Arithmetic_If_Stmt": ("IF",),
    "Associate_Stmt": ("ASSOCIATE",), "Asynchronous_Stmt": ("ASYNCHRONOUS",),
    "Backspace_Stmt": ("BACKSPACE",), "Binding_Private_Stmt": ("PRIVATE",),
    "Block_Data_Stmt": ("BLOCK",), "Block_Stmt": ("BLOCK",), "Call_Stmt": ("CALL",),
    "Case_Stmt": ("CASE",), "Close_Stmt": ("CLOSE",), "Common_Stmt": ("COMMON",),
    "Computed_Goto_Stmt": ("GO",), "Contains_Stmt": ("CONTAINS",),
    "Continue_Stmt": ("CONTINUE",), "Cray_Pointer_Stmt": ("POINTER",),
    "Critical_Stmt": ("CRITICAL",), "Cycle_Stmt": ("CYCLE",), "Data_Stmt": ("DATA",),
    "Deallocate_Stmt": ("DEALLOCATE",), "Derived_Type_Stmt": ("TYPE",),
    "Dimension_Stmt": ("DIMENSION",), "Else_If_Stmt": ("ELSE",), "Else_Stmt": ("ELSE",),
    "End_Associate_Stmt": ("END",), "End_Block_Data_Stmt": ("END",),
    "End_Block_Stmt": ("END",), "End_Critical_Stmt": ("END",), "End_Do_Stmt": ("END",),
    "End_Enum_Stmt": ("END",), "End_Forall_Stmt": ("END",), "End_Function_Stmt": ("END",),
    "End_If_Stmt": ("END",), "End_Interface_Stmt": ("END",), "End_Module_Stmt": ("END",),
    "End_Program_Stmt": ("END",), "End_Select_Stmt": ("END",),
    "End_Select_Type_Stmt": ("END",), "End_Submodule_Stmt": ("END",),
    "End_Subroutine_Stmt": ("END",), "End_Type_Stmt": ("END",), "End_Where_Stmt": ("END",),
    "Endfile_Stmt": ("ENDFILE",), "Entry_Stmt": ("ENTRY",), "Enum_Def_Stmt": ("ENUM",),
    "Enumerator_Def_Stmt": ("ENUMERATOR",), "Equivalence_Stmt": ("EQUIVALENCE",),
    "Error_Stop_Stmt": ("ERRORSTOP",), "Exit_Stmt": ("EXIT",),
    "External_Stmt": ("EXTERNAL",), "Final_Binding": ("FINAL",), "Flush_Stmt": ("FLUSH",),
    "Forall_Construct_Stmt": ("FORALL",), "Forall_Stmt": ("FORALL",),
    "Format_Stmt": ("FORMAT",), "Generic_Binding": ("GENERIC",), "Goto_Stmt": ("GO",),
    "If_Stmt": ("IF",), "If_Then_Stmt": ("IF",), "Implicit_Stmt": ("IMPLICIT",),
    "Import_Stmt": ("IMPORT",), "Include_Stmt": ("INCLUDE",), "Inquire_Stmt": ("INQUIRE",),
    "Intent_Stmt": ("INTENT",), "Interface_Stmt": ("INTERFACE", "ABSTRACT"),
    "Intrinsic_Stmt": ("INTRINSIC",), "Label_Do_Stmt": ("DO",), "Module_Stmt": ("MODULE",),
    "Namelist_Stmt": ("NAMELIST",), "Nonlabel_Do_Stmt": ("DO",), "Nullify_Stmt": ("NULLIFY",),
    "Open_Stmt": ("OPEN",), "Optional_Stmt": ("OPTIONAL",), "Parameter_Stmt": ("PARAMETER",),
    "Pointer_Stmt": ("POINTER",), "Print_Stmt": ("PRINT",),
    "Proc_Component_Def_Stmt": ("PROCEDURE",), "Procedure_Declaration_Stmt": ("PROCEDURE",),
    "Program_Stmt": ("PROGRAM",), "Protected_Stmt": ("PROTECTED",), "Read_Stmt": ("READ",),
    "Return_Stmt": ("RETURN",), "Rewind_Stmt": ("REWIND",), "Save_Stmt": ("SAVE",),
    "Select_Case_Stmt": ("SELECT",), "Select_Type_Stmt": ("SELECT",),
    "Specific_Binding": ("PROCEDURE",), "Stop_Stmt": ("STOP",), "Target_Stmt": ("TARGET",),
    "Type_Param_Def_Stmt": ("INTEGER",), "Use_Stmt": ("USE",), "Value_Stmt": ("VALUE",),
    "Volatile_Stmt": ("VOLATILE",), "Wait_Stmt": ("WAIT",),
    "Where_Construct_Stmt": ("WHERE",), "Where_Stmt": ("WHERE",), "Write_Stmt": ("WRITE",),
}


class Filter:
    """The filter's state: what `install` found, and the lines of the file being parsed."""

    #: class -> its keywords, for the classes of `KEYWORDS` without subclasses of their own
    classes: ClassVar[dict[type, tuple[str, ...]]] = {}
    #: fparser2's source line class (`fparser.common.readfortran.Line`)
    line: type = object
    #: id of a line fparser2 gave back unchanged -> (the line, its text without blanks,
    #: upper case); None: no file is being parsed
    seen: dict[int, tuple[Any, str]] | None = None


def install(classes: set[type], subclasses: dict[str, list], line: type) -> None:
    """Filter the classes among `classes` named in `KEYWORDS` that fparser2 tries without
    trying subclasses (`subclasses`: fparser2's ``Base.subclasses``); `line`: its `Line`
    (called once, by `frontends.fortran.chains`)."""
    Filter.classes = {cls: KEYWORDS[cls.__name__] for cls in classes
                       if cls.__name__ in KEYWORDS and not subclasses.get(cls.__name__)
                       and getattr(cls, "match", None) is not None}
    Filter.line = line


@contextmanager
def statement_filter() -> Iterator[None]:
    """Filter tries while the body parses one file (and forget its lines after)."""
    Filter.seen = {}
    try:
        yield
    finally:
        Filter.seen = None


#: What `try_at_reader` answers for a try it rules out.
RULED_OUT = object()


def try_at_reader(new: Callable[..., Any], cls: type, reader: Any,
                  parent_cls: list | None) -> Any:
    """`RULED_OUT` when `cls` (a class of `Filter.classes`, asked while a file is parsed)
    cannot match the reader's next line, the try done as fparser2 would leave it; else
    `new(cls, reader, parent_cls)`."""
    known = peek(reader)
    if known is not None:
        if not known[1].startswith(Filter.classes[cls]):
            if parent_cls is not None and cls not in parent_cls:
                parent_cls.append(cls)
            known[0].parse_cache.setdefault(cls, None)
            return RULED_OUT
        return new(cls, reader, parent_cls)
    fifo = reader.fifo_item
    item = fifo[0] if fifo and reader.reader is None else None
    result = new(cls, reader, parent_cls)
    if result is None and item is not None:
        given_back(reader, item)
    return result


def peek(reader: Any) -> tuple[Any, str] | None:
    """The line the reader's ``get_item`` returns next, and its text without blanks in upper
    case, where that line is known without taking it (see `given_back`); else None."""
    fifo = reader.fifo_item
    if not fifo or reader.reader is not None or Filter.seen is None:
        return None
    known = Filter.seen.get(id(fifo[0]))
    return known if known is not None and known[0] is fifo[0] else None


def given_back(reader: Any, item: Any) -> None:
    """Note that `item`, which the reader's ``get_item`` returned, was given back: if it is
    a `Line` now first in the reader's own queue (no INCLUDE file being read), the next
    ``get_item`` returns it as it is (it was not split at ``;`` nor replaced by an included
    file's line, and it is not blank: a blank piece of a line split at ``;`` is returned
    once, then skipped)."""
    fifo = reader.fifo_item
    if Filter.seen is not None and type(item) is Filter.line and item.line \
            and reader.reader is None and fifo and fifo[0] is item and id(item) not in Filter.seen:
        Filter.seen[id(item)] = (item, "".join(item.line.split()).upper())
