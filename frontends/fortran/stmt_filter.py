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

A class without a match of its own (``Declaration_Construct``, ``Executable_Construct``:
fparser2 tries its subclasses one after another) is tried the same way at a known line
(`try_alternatives`), except that a subclass that cannot match is not called: what its try
would leave (the recursion guard, the line's cache, the node budget) is left at once.  A
subclass cannot match when it is a filtered class whose keyword the line lacks, a comment
(the line is a statement), such a class of alternatives whose every subclass cannot match,
or a construct (`BLOCK_CONSTRUCTS`: ``DO``, ``IF``, ``SELECT CASE`` ...) whose opening
statement cannot match.  A ``Declaration_Construct`` try at ``real :: x`` called 30 classes,
now 2.  A run of subclasses left untried is left in one step (`_leave_run`), its effect
remembered per recursion guard.

Fourth round (h53): fparser2 took each line from its reader 9.5 times and matched its text 3.5
times in a file of many small subroutines.  Now a known line is handed out at once
(`install_known_takes`); a filtered class at a line not known yet takes the line and gives it
back itself, to know it; a try at a comment line, or of a class whose failure the line's cache
holds, answers no at once (`answer_at_reader`); and the blocks a unit's match tries directly at
a line (`DIRECT_BLOCKS`: the implicit, specification and execution parts, the main program)
are left like constructs where none of their first statements may match (`try_block`).  Each
leaves the tree, the recursion guard, the line's cache and the nodes counted as fparser2's
own try does (tests/unit/test_fortran_stmt_filter.py).
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
    "Backspace_Stmt": ("BACKSPACE",), "Bind_Stmt": ("BIND",),
    "Binding_Private_Stmt": ("PRIVATE",),
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


#: fparser2 constructs tried among the alternatives of a statement (a declaration, an
#: executable construct): each match starts by asking `BlockBase.match` for its opening
#: statement (which class that is, `install_alternatives` learns from the match itself).
BLOCK_CONSTRUCTS = (
    "Action_Term_Do_Construct", "Associate_Construct", "Block_Construct",
    "Block_Label_Do_Construct", "Block_Nonlabel_Do_Construct", "Case_Construct",
    "Critical_Construct", "Derived_Type_Def", "Enum_Def", "Forall_Construct", "If_Construct",
    "Interface_Block", "Select_Type_Construct", "Where_Construct",
)
#: fparser2 blocks a unit's match tries directly at a line (not among alternatives): the
#: parts of a unit (``Implicit_Part``: no opening statement, its statements tried in turn)
#: and the main program.  At a known line none of whose statements may match, such a try is
#: left as a construct's (`try_block`).
DIRECT_BLOCKS = ("Implicit_Part", "Specification_Part", "Execution_Part", "Main_Program")
#: The longest keyword: a line's verdicts depend on its first this many characters only.
_PREFIX = max(len(k) for words in KEYWORDS.values() for k in words)
_VERDICTS_SIZE = 4096


class Filter:
    """The filter's state: what `install` found, and the lines of the file being parsed."""

    #: class -> its keywords, for the classes of `KEYWORDS` without subclasses of their own
    classes: ClassVar[dict[type, tuple[str, ...]]] = {}
    #: fparser2's source line class (`fparser.common.readfortran.Line`)
    line: type = object
    #: classes without a match of their own, answered by trying their subclasses in turn
    alternatives: ClassVar[frozenset[type]] = frozenset()
    #: construct (`BLOCK_CONSTRUCTS`, `DIRECT_BLOCKS`) -> the class of its opening statement
    starts: ClassVar[dict[type, type]] = {}
    #: block of `DIRECT_BLOCKS` without an opening statement -> the classes its match tries
    #: at a line (its statements, then a comment and an INCLUDE line)
    parts: ClassVar[dict[type, tuple[type, ...]]] = {}
    #: the blocks `try_block` answers for (those of `starts` and `parts`)
    blocks: ClassVar[frozenset[type]] = frozenset()
    #: fparser2's `Comment`, `Base` (its ``subclasses`` table), `NoMatchError` and reader
    comment: type = object
    base: Any = None
    no_match: type = Exception
    reader: type = object
    #: (class, first characters of a line without blanks) -> whether the class may match
    verdicts: ClassVar[dict[tuple[type, str], bool]] = {}
    #: (class of alternatives, first characters) -> the verdict of each of its subclasses
    plans: ClassVar[dict[tuple[type, str], tuple[bool, ...]]] = {}
    #: (class of alternatives, first characters of a known line, a subclass's index, the
    #: recursion guard's classes) -> what `_leave_run` leaves from there
    runs: ClassVar[dict[tuple, tuple[int, list, frozenset, int]]] = {}
    #: fparser2's comment line (`fparser.common.readfortran.Comment`), and the classes whose
    #: try at a reader is `Base.__new__`'s: take a line, match its text, give it back
    comment_line: type = object
    line_tries: ClassVar[frozenset[type]] = frozenset()
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
    if known is None and at_comment(reader):
        return left_at_comment(cls, parent_cls)
    if known is None and Filter.seen is not None and reader.reader is None:
        # the line not known yet: take it and give it back (as the try would) to know it
        item = reader.get_item()
        if item is None:
            if parent_cls is not None and cls not in parent_cls:
                parent_cls.append(cls)
            return None   # what the try answers at the end of the input
        reader.put_item(item)
        if type(item) is Filter.comment_line:
            return left_at_comment(cls, parent_cls)
        given_back(reader, item)
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


#: What `answer_at_reader` returns for a try it cannot answer.
TRY = object()


def answer_at_reader(cls: type, reader: Any, parent_cls: list | None) -> Any:
    """None where a try of `cls` (one of `Filter.line_tries`) at the reader is known to fail
    without taking the line, the try done as fparser2 leaves it: at a comment line, or at a
    known line (`peek`) whose cache holds the class's failed match; else `TRY`."""
    fifo = reader.fifo_item
    if not fifo or reader.reader is not None:
        return TRY
    first = fifo[0]
    if type(first) is Filter.comment_line:
        if reader._ignore_comments:
            return TRY
    else:
        known = Filter.seen.get(id(first))
        if known is None or known[0] is not first or first.parse_cache.get(cls, TRY) is not None:
            return TRY
    return left_at_comment(cls, parent_cls)


def at_comment(reader: Any) -> bool:
    """Whether the reader's ``get_item`` returns a comment line next (from its queue)."""
    fifo = reader.fifo_item
    return (bool(fifo) and type(fifo[0]) is Filter.comment_line and reader.reader is None
            and not reader._ignore_comments)


def left_at_comment(cls: type, parent_cls: list | None) -> None:
    """What a failed try of `cls` (one of `Filter.line_tries`) leaves where its match is not
    run (a comment line, a failure cached at the line): the class joins the recursion
    guard."""
    if parent_cls is not None and cls not in parent_cls:
        parent_cls.append(cls)


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


def install_known_takes(reader: type) -> None:
    """Let fparser2's reader (class `reader`) hand out a line it was given back and `peek`
    knows (a statement, not an INCLUDE line) at once: its own ``get_item`` would take it
    from the same queue after checks that a known line passes (not blank, not a comment,
    no ``;`` to split at, not an INCLUDE line to open).  Called once, by
    `frontends.fortran.chains`."""
    fparser_get_item = reader.get_item

    def get_item(self: Any, ignore_comments: bool | None = None) -> Any:
        fifo = self.fifo_item
        seen = Filter.seen
        if fifo and seen is not None and self.reader is None:
            known = seen.get(id(fifo[0]))
            if known is not None and known[0] is fifo[0] and not known[1].startswith("INCLUDE"):
                return fifo.popleft()
        return fparser_get_item(self, ignore_comments)
    reader.get_item = get_item


def install_alternatives(classes: set[type], base: Any, block_base: type, comment: type,
                         no_match: type, reader: type) -> None:
    """Try the classes of alternatives among `classes` through `try_alternatives`: those
    without a match of their own, not constructs, keeping fparser2's `Base.__new__` (`base`);
    learn the opening statement of each of `BLOCK_CONSTRUCTS` (called once, by
    `frontends.fortran.chains`)."""
    Filter.alternatives = frozenset(
        cls for cls in classes
        if getattr(cls, "match", None) is None and not issubclass(cls, block_base)
        and base.subclasses.get(cls.__name__)
        and not any("__new__" in k.__dict__ for k in cls.__mro__[:cls.__mro__.index(base)]))
    Filter.starts = block_starts([c for c in classes if c.__name__ in BLOCK_CONSTRUCTS],
                                 block_base)
    direct = block_parts([c for c in classes if c.__name__ in DIRECT_BLOCKS], block_base)
    Filter.starts.update({cls: start for cls, (start, _) in direct.items() if start})
    # the INCLUDE class `BlockBase.match` tries (fparser loads with the parser, so it is
    # found among `classes` rather than imported here)
    Include_Stmt = next(c for c in classes if c.__name__ == "Include_Stmt"
                        and c.__module__ == "fparser.two.Fortran2003")
    Filter.parts = {cls: (*subs, comment, Include_Stmt) for cls, (start, subs) in direct.items()
                    if start is None and subs is not None}
    Filter.blocks = frozenset(Filter.starts) | frozenset(Filter.parts)
    Filter.comment, Filter.base, Filter.no_match = comment, base, no_match
    Filter.reader = reader
    Filter.line_tries = frozenset(
        cls for cls in classes
        if getattr(cls, "match", None) is not None and not issubclass(cls, block_base)
        and not any("__new__" in k.__dict__ for k in cls.__mro__[:cls.__mro__.index(base)]))
    Filter.verdicts, Filter.plans, Filter.runs = {}, {}, {}


class _Opening(Exception):
    """What `block_starts` and `block_parts` raise from inside a construct's match: what they
    learn of it (its opening class, or that and the classes it tries)."""

    def __init__(self, start: Any) -> None:
        super().__init__(start)
        self.start = start


def block_starts(constructs: list[type], block_base: Any) -> dict[type, type]:
    """Construct -> the opening statement class its match gives `BlockBase.match` first (the
    match is called with `BlockBase.match` standing in, which stops it there)."""
    def opening(startcls: type, *args: Any, **kwargs: Any) -> None:
        raise _Opening(startcls)
    return _probe(constructs, block_base, opening)


def block_parts(blocks: list[type], block_base: Any
                ) -> dict[type, tuple[type | None, tuple[type, ...] | None]]:
    """Block -> (its opening statement class or None, the classes its match tries at each
    line, or None where it also looks for a closing statement or uses an option of
    `BlockBase.match`), learned as `block_starts` learns."""
    def opening(startcls: type, subclasses: list, endcls: type, reader: Any,
                **options: Any) -> None:
        plain = endcls is None and not any(options.values())
        raise _Opening((startcls, tuple(subclasses) if plain else None))
    return _probe(blocks, block_base, opening)


def _probe(blocks: list[type], block_base: Any, opening: Callable[..., None]) -> dict[type, Any]:
    """Block -> what `opening`, standing in for `BlockBase.match`, raised as `_Opening` when
    the block's match was called."""
    saved = block_base.__dict__["match"]
    block_base.match = staticmethod(opening)
    found: dict[type, Any] = {}
    try:
        for cls in blocks:
            try:
                cls.match(None)
            except _Opening as opened:
                found[cls] = opened.start
    finally:
        block_base.match = saved
    return found


def try_block(new: Callable[..., Any], cls: type, reader: Any, parent_cls: list | None,
              spend: Callable[[int], None]) -> Any:
    """fparser2's try of block `cls` (one of `Filter.blocks`) at the reader's next line:
    where the line is known and none of the block's first statements may match it, the try
    is left (`leave_try`: what it leaves, the nodes it counts) and fails as fparser2's does;
    else `new(cls, reader, parent_cls)`."""
    known = None if reader.process_directives else peek(reader)
    if known is None or can_match(cls, known[1][:_PREFIX]):
        return new(cls, reader, parent_cls)
    spend(leave_try(cls, known[0], [cls] if parent_cls is None else parent_cls) - 1)
    return _no_match(cls, reader)


def try_alternatives(new: Callable[..., Any], cls: type, reader: Any,
                     parent_cls: list | None, spend: Callable[[int], None]) -> Any:
    """fparser2's try of `cls` (a class of `Filter.alternatives`) at the reader's next line:
    its subclasses in turn, those that cannot match the line left untried once the line is
    known (`peek`; what their try leaves is done at once, `spend` counts fparser2's nodes);
    `new(cls, reader, parent_cls)` for a reader of directives."""
    if reader.process_directives:
        return new(cls, reader, parent_cls)
    if parent_cls is None:
        parent_cls = [cls]
    elif cls not in parent_cls:
        parent_cls.append(cls)
    known = peek(reader)
    line, prefix = (known[0], known[1][:_PREFIX]) if known is not None else (None, "")
    subs = Filter.base.subclasses.get(cls.__name__, ())
    owed, k, count = 0, 0, len(subs)
    while k < count:
        if line is not None:
            k, nodes = _leave_run(cls, prefix, k, line, parent_cls)
            owed += nodes
            if k == count:
                break
        sub = subs[k]
        k += 1
        if sub in parent_cls:
            continue
        if owed:
            spend(owed)
            owed = 0
        try:
            obj = sub(reader, parent_cls=parent_cls)
        except Filter.no_match:
            obj = None
        if obj is not None:
            return obj
        known = peek(reader)   # known now that a try gave it back, or the line before
        if known is None:
            line = None
        elif known[0] is not line:
            line, prefix = known[0], known[1][:_PREFIX]
    spend(owed)
    return _no_match(cls, reader)


def _plan(cls: type, text: str) -> tuple[bool, ...]:
    """For each subclass of `cls` in fparser2's order, whether it may match a known line
    whose text without blanks, upper case, is `text` (`can_match`)."""
    prefix = text[:_PREFIX]
    key = (cls, prefix)
    found = Filter.plans.get(key)
    if found is None:
        if len(Filter.plans) >= _VERDICTS_SIZE:
            Filter.plans.clear()
        found = Filter.plans[key] = tuple(
            can_match(sub, prefix) for sub in Filter.base.subclasses.get(cls.__name__, ()))
    return found


def can_match(cls: type, prefix: str) -> bool:
    """Whether a try of `cls` may match a known line (see `try_alternatives`) whose text
    without blanks, upper case, starts with `prefix` (its first `_PREFIX` characters)."""
    key = (cls, prefix)
    found = Filter.verdicts.get(key)
    if found is None:
        if len(Filter.verdicts) >= _VERDICTS_SIZE:
            Filter.verdicts.clear()
        Filter.verdicts[key] = True   # a class met again inside itself: may match
        found = Filter.verdicts[key] = _can_match(cls, prefix)
    return found


def _can_match(cls: type, prefix: str) -> bool:
    if cls is Filter.comment:
        return False   # a known line is a statement
    keywords = Filter.classes.get(cls)
    if keywords is not None:
        return prefix.startswith(keywords)
    start = Filter.starts.get(cls)
    if start is not None:
        # a construct's match first takes comments and INCLUDE lines: then it opens later
        return (prefix.startswith("INCLUDE") or can_match(start, prefix)
                or _any_subclass(cls, prefix))
    parts = Filter.parts.get(cls)
    if parts is not None:
        return any(can_match(part, prefix) for part in parts)
    if cls in Filter.alternatives:
        return _any_subclass(cls, prefix)
    return True


def _any_subclass(cls: type, prefix: str) -> bool:
    return any(can_match(sub, prefix) for sub in Filter.base.subclasses.get(cls.__name__, ()))


class _Cache:
    """A stand-in line whose cache `leave_try` fills (`_leave_run`)."""

    __slots__ = ("parse_cache",)

    def __init__(self) -> None:
        self.parse_cache: dict[type, None] = {}


def _leave_run(cls: type, prefix: str, k: int, line: Any, parent_cls: list) -> tuple[int, int]:
    """From the `k`-th subclass of `cls` on, at a known line starting with `prefix`: leave
    the tries of those that cannot match (`leave_try`) up to the next one that may and is
    not in the recursion guard `parent_cls`; return its index (or the count of subclasses)
    and the nodes left tries count.  What a run leaves is remembered per guard (the same at
    each statement of a kind: 30 to 60 classes)."""
    key = (cls, prefix, k, tuple(parent_cls))
    found = Filter.runs.get(key)
    if found is None:
        if len(Filter.runs) >= _VERDICTS_SIZE:
            Filter.runs.clear()
        found = Filter.runs[key] = _run(cls, prefix, k, parent_cls)
    end, added, cached, nodes = found
    if added:
        parent_cls.extend(added)
    if cached:
        known = line.parse_cache
        missing = cached - known.keys()
        if missing:
            known.update(dict.fromkeys(missing))
    return end, nodes


def _run(cls: type, prefix: str, k: int, parent_cls: list
         ) -> tuple[int, list, frozenset, int]:
    """`_leave_run` done on copies: (where it ends, the classes it adds to the guard, those
    it puts in the line's cache, the nodes)."""
    subs = Filter.base.subclasses.get(cls.__name__, ())
    plan = _plan(cls, prefix)
    guard, cache = list(parent_cls), _Cache()
    nodes = 0
    while k < len(subs):
        sub = subs[k]
        if sub not in guard:
            if plan[k]:
                break
            nodes += leave_try(sub, cache, guard)
        k += 1
    return k, guard[len(parent_cls):], frozenset(cache.parse_cache), nodes


def leave_try(cls: type, line: Any, parent_cls: list) -> int:
    """What fparser2's failed try of `cls` (which `can_match` rules out) at `line` leaves:
    `cls` and what it tries in the recursion guard `parent_cls`, the line's cache of failed
    statement classes; returns the nodes it counts.  A comment's try leaves nothing."""
    if cls is Filter.comment:
        return 0
    if cls not in parent_cls:
        parent_cls.append(cls)
    if cls in Filter.classes:
        line.parse_cache.setdefault(cls, None)
        return 2   # the call, and the node `try_at_reader` counts for a try it rules out
    nodes = 1
    start = Filter.starts.get(cls)
    if start is not None:
        nodes += leave_try(start, line, [start])   # `BlockBase.match` asks it afresh
    for part in Filter.parts.get(cls, ()):
        nodes += leave_try(part, line, [part])     # each afresh too
    for sub in Filter.base.subclasses.get(cls.__name__, ()):
        if sub not in parent_cls:
            nodes += leave_try(sub, line, parent_cls)
    return nodes


def _no_match(cls: type, reader: Any) -> None:
    """The end of fparser2's `Base.__new__` when no subclass matched: None where the reader
    holds nothing but blank and comment lines so far, else `NoMatchError`."""
    lines = reader.source_lines
    if not lines or all(text.strip() == "" or reader.is_comment_line(text) for text in lines):
        return
    raise Filter.no_match(f"at line {reader.linecount}\n>>>{lines[reader.linecount - 1]}\n")
