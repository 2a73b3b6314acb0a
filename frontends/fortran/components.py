"""Derived-type components that regions and data directives use (``st%u(i, j)``,
``st%dt``, ``chunk%tiles(1)%field%density0``).

A component the region uses is data of its own: an array or scalar argument of the kernel,
whose actual argument in the rewritten call is the designator itself (an allocatable or
explicit-shape component is contiguous, so its address is the array's) and whose bounds the
call passes like those of any allocatable array.  Subscripts before the last component
(``tiles(1)``) are evaluated on the host, so they must not depend on the region's loops.
"""

from __future__ import annotations

import re
from typing import Any

from frontends.fortran.source import children, class_name, walk
from frontends.fortran.types import Scope, Symbol
from translator.diagnostics import FrontendError, SourceSpan

#: One part of a designator: the name and its subscripts (None: not subscripted).
Part = tuple[str, Any]


def data_ref_parts(node: Any) -> list[Part]:
    """The parts of an fparser ``Data_Ref`` (``a%b(1)%c`` -> a, b(1), c)."""
    out: list[Part] = []
    for item in node.items:
        if class_name(item) == "Data_Ref":
            out += data_ref_parts(item)
        elif class_name(item) == "Part_Ref":
            out.append((str(item.items[0]).lower(), children(item.items[1])))
        else:
            out.append((str(item).lower(), None))
    return out


def data_ref_base(designator: str) -> str:
    """The variable a designator starts from (``c(1)%t%x`` -> ``c``)."""
    return re.split(r"[%(\s]", designator, maxsplit=1)[0].lower()


def text_parts(text: str) -> list[Part] | None:
    """The parts of a designator written in a directive (``g%a``, ``c%t(1)%f``: subscripts as
    text); None if `text` is not one."""
    out: list[Part] = []
    for piece in _split_percent(text):
        m = re.fullmatch(r"\s*([a-z]\w*)\s*(\(.*\))?\s*", piece, re.I | re.S)
        if m is None:
            return None
        out.append((m.group(1).lower(), m.group(2)))
    return out if len(out) > 1 else None


def _split_percent(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(text):
        depth += 1 if ch == "(" else (-1 if ch == ")" else 0)
        if ch == "%" and depth == 0:
            parts.append(text[start:k])
            start = k + 1
    return parts + [text[start:]]


def component_of(scope: Scope, base: Symbol, parts: list[Part], span: SourceSpan | None
                 ) -> Symbol:
    """The declaration of the last component of a designator whose first part (`parts[0]`)
    is the variable `base`."""
    current, shown = base, parts[0][0]
    for k, (name, _) in enumerate(parts[1:]):
        if current.type_name is None:
            raise FrontendError(f"'{shown}' is not of a derived type: it has no component "
                                f"'{name}'", span)
        components = _components(scope, current)
        if components is None:
            raise FrontendError(f"the definition of type '{current.type_name}' (of '{shown}') "
                                "is not in reach: define it in this file or in a module whose "
                                "source the translator finds", span)
        if name not in components:
            raise FrontendError(f"type '{current.type_name}' has no component '{name}'", span)
        if current.is_array and parts[k][1] is None:
            raise FrontendError(f"'{shown}' is an array of derived type: subscript it to name "
                                f"one element's '{name}'", span)
        current = components[name]
        shown += f"%{name}"
    if current.error is not None:
        raise current.error
    return current


def _components(scope: Scope, sym: Symbol) -> dict[str, Symbol] | None:
    """The components of the derived type of `sym` as seen here, or else where `sym` was
    declared: a module variable brings its type along (``use m, only: c => chunk`` makes
    ``c%rho`` valid without the type's name)."""
    found = scope.lookup_type(sym.type_name)
    home = scope.modules.get(sym.scope) if found is None else None
    return found if home is None else home.lookup_type(sym.type_name)


def host_subscript_names(parts: list[Part]) -> set[str]:
    """Names read by the subscripts of every part but the last (fparser nodes)."""
    out: set[str] = set()
    for _, subs in parts[:-1]:
        for sub in subs or ():
            out |= {str(n).lower() for n in walk(sub) if class_name(n) == "Name"}
    return out


def designator_text(parts: list[Part]) -> str:
    """``p0(subs)%p1(subs)%p2`` in lower case, the last part without subscripts."""
    out = []
    for k, (name, subs) in enumerate(parts):
        if subs is None or k == len(parts) - 1:
            out.append(name)
        elif isinstance(subs, str):
            out.append(name + re.sub(r"\s+", "", subs.lower()))
        else:
            out.append(name + "(" + ", ".join(str(s).lower() for s in subs) + ")")
    return "%".join(out)


__all__ = ["component_of", "data_ref_base", "data_ref_parts", "designator_text", "host_subscript_names",
           "text_parts"]
