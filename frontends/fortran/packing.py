"""Array components of every element of an array of derived type (``sp(k)%v(i)``,
``c%tiles(k)%rho(i, j)``): packed into one array on the host around the call.

Fortran has no designator for them (``sp%v`` is not allowed when both ``sp`` and ``v`` are
arrays), so the call cannot pass them as h81's ``p%x`` is passed.  Instead the region's call
is wrapped in a BLOCK that declares an allocatable array with the component's axes first and
the outer array's axes last (``tr_pack_sp_v(:, k)`` is ``sp(k)%v``), copies every element's
component into it, passes it, and copies it back where the region writes it.  No layout of
the type is assumed; the cost is that copy on the host, per call.  A data region holding one
element's component would keep a device copy the region never sees: each element is checked
against the runtime's present table (`tr_check_unheld` stops the program, naming the
directive), and a data clause of the same file naming one is an error.  An allocatable component
takes its bounds from the outer array's first element; an element whose component is
allocated with other bounds stops the program with a message (an unallocated one is skipped:
the original program could not read it either).  An outer array that is ALLOCATABLE and not
allocated (a POINTER not associated) stops the program at the call, naming the region.
"""

from __future__ import annotations

from collections.abc import Sequence

from frontends.fortran.types import FType
from translator.records import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class Packing:
    """One packed component: ``<outer>(k...)%<inner>`` for every k, as ``<name>(:..., k...)``."""

    #: The array the BLOCK declares and the call passes.
    name: str
    #: The array of derived type, as a designator without subscripts (``sp``, ``c%tiles``).
    outer: str
    outer_rank: int
    #: The component path after it (``v``, ``field%rho``) and the component's rank.
    inner: str
    inner_rank: int
    ftype: FType
    #: Whether the component is ALLOCATABLE (bounds checked per element).
    allocatable: bool
    #: How the outer array's status is asked where it is ALLOCATABLE or a POINTER
    #: (``allocated``, ``associated``): unallocated, it stops the program at the call.
    outer_status: str = ""
    #: Whether the region writes it (copied back after the call).
    written: bool = False
    #: Where the region is, for the message of the bounds check.
    where: str = ""
    #: The derived type of the outer array's elements, and `inner`: what a data clause
    #: naming one element's component (``sp(1)%v``) is checked against.
    type_key: tuple[str, str] = ("", "")


#: The runtime's check that a packed component is not held by a data region (its device copy
#: would be stale: `tr_check_unheld` stops the program, naming the directive).
_CHECK_INTERFACE = (
    "interface",
    "subroutine tr_check_unheld(host, bytes, what, region) bind(C, name='tr_check_unheld')",
    "type(*), dimension(*), intent(in) :: host",
    "integer(kind=8), value :: bytes",
    "character(len=1), dimension(*), intent(in) :: what, region",
    "end subroutine tr_check_unheld",
    "end interface",
)


def _decl_type(ftype: FType) -> str:
    return f"{ftype.base}(kind={ftype.kind})"


def _index(names: Sequence[str]) -> str:
    return ", ".join(names)


def _statements(pk: Packing, number: int) -> tuple[list[str], list[str], list[str]]:
    """The declarations, the statements before the call and those after it."""
    ks = [f"tr_pk{number}_{d + 1}" for d in range(pk.outer_rank)]
    colons = [":"] * pk.inner_rank
    first = f"{pk.outer}({_index(f'lbound({pk.outer}, {d + 1})' for d in range(pk.outer_rank))})"
    first_inner = f"{first}%{pk.inner}"
    element = f"{pk.outer}({_index(ks)})%{pk.inner}"
    packed = f"{pk.name}({_index(colons + ks)})"
    extents = [f"lbound({first_inner}, {d + 1}):ubound({first_inner}, {d + 1})"
               for d in range(pk.inner_rank)]
    extents += [f"lbound({pk.outer}, {d + 1}):ubound({pk.outer}, {d + 1})"
                for d in range(pk.outer_rank)]
    decls = [f"{_decl_type(pk.ftype)}, allocatable :: {pk.name}"
             f"({_index([':'] * (pk.inner_rank + pk.outer_rank))})",
             f"integer :: {_index(ks)}"]
    before: list[str] = []
    if pk.outer_status:
        before += [f"if (.not. {pk.outer_status}({pk.outer})) then",
                   _stop(f"{pk.outer} is not {pk.outer_status}", pk.where), "end if"]
    if pk.allocatable:
        before += [f"if (.not. allocated({first_inner})) then",
                   _stop(f"{first_inner} is not allocated", pk.where), "end if"]
    before.append(f"allocate({pk.name}({_index(extents)}))")
    region = pk.where.split()[-1]
    copy_in = [f"call tr_check_unheld({element}, int(size({element}), 8) * "
               f"(storage_size({element}) / 8), '{pk.outer}(...)%{pk.inner}' // char(0), "
               f"'{region}' // char(0))",
               f"{packed} = {element}"]
    copy_out = [f"{element} = {packed}"]
    if pk.allocatable:
        differs = (f"any(lbound({element}) /= lbound({first_inner})) .or. "
                   f"any(ubound({element}) /= ubound({first_inner}))")
        copy_in = [f"if (allocated({element})) then",
                   f"if ({differs}) then",
                   _stop(f"the elements of {pk.outer} have {pk.inner} of different bounds",
                         pk.where), "end if",
                   *copy_in, "end if"]
        copy_out = [f"if (allocated({element})) then", *copy_out, "end if"]
    before += _loops(pk, ks, copy_in)
    after = _loops(pk, ks, copy_out) if pk.written else []
    return decls, before, after


def _loops(pk: Packing, ks: list[str], body: list[str]) -> list[str]:
    heads = [f"do {k} = lbound({pk.outer}, {d + 1}), ubound({pk.outer}, {d + 1})"
             for d, k in reversed(list(enumerate(ks)))]
    return [*heads, *body, *(["end do"] * len(ks))]


#: A statement `packed_call` lays out itself: ``error stop`` with a message.
STOP = "error stop "


def _stop(what: str, where: str) -> str:
    return f"{STOP}translate: {what}, which {where} packs into one array"


def _stop_lines(stmt: str, indent: str, form: str) -> str:
    """``error stop "..." // "..."``, one piece of the literal a line in free form (its
    line splitting may break at any blank); fixed form continues literals at column 7."""
    text = stmt[len(STOP):].replace('"', "'")
    pieces = [f'"{text[k:k + 40]}"' for k in range(0, len(text), 40)]
    if form == "fixed":
        return _fixed_lines(indent + STOP + " // ".join(pieces))
    glue = f" // &\n{indent}    "
    return f"{indent}{STOP}{glue.join(pieces)}\n"


def _fixed_lines(line: str) -> str:
    out = []
    while len(line) > 72:
        out.append(line[:72])
        line = "     &" + line[72:]
    return "\n".join([*out, line]) + "\n"


def packed_call(packings: Sequence[Packing], call: str, indent: str, step: str, form: str,
                wrap_statement) -> str:
    """`call` (the region's call text, at `indent` + `step`) inside a BLOCK that packs each
    of `packings` before it and unpacks the written ones after it.  `wrap_statement(text,
    indent)` lays one statement out on lines."""
    decls, before, after = list(_CHECK_INTERFACE), [], []
    for number, pk in enumerate(packings):
        d, b, a = _statements(pk, number)
        decls += d
        before += b
        after += a
    inner = indent + step
    out = [f"{indent}block\n"]
    out += [wrap_statement(s, inner) for s in decls]
    out += _nested(before, inner, step, form, wrap_statement)
    out.append(call)
    out += _nested(after, inner, step, form, wrap_statement)
    out.append(f"{indent}end block\n")
    return "".join(out)


def _nested(statements: list[str], indent: str, step: str, form: str, wrap_statement
            ) -> list[str]:
    out, depth = [], 0
    for s in statements:
        if s.startswith("end "):
            depth -= 1
        at = indent + step * depth
        out.append(_stop_lines(s, at, form) if s.startswith(STOP) else wrap_statement(s, at))
        if s.startswith("do ") or s.endswith(" then"):
            depth += 1
    return out


__all__ = ["Packing", "packed_call"]
