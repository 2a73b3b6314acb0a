"""The IR printer: `print_kernel(k)` writes a kernel as text, `read_kernel` reads it back, and
``read_kernel(print_kernel(k)) == k`` for every kernel (spans excluded).

The format is the kernel language with one section per part of the kernel::

    kernel saxpy
    domains:
      [n] -> { [i] : 0 <= i < n }
        { [j] : 0 <= j <= i }                    (children indented under their parent)
    args:
      y: array, dtype=float32, shape=(n,), dim_tags=(N0,), is_input=True, is_output=True
      n: value, dtype=int32
    temporaries:
      t: dtype=float32, shape=(16,), dim_tags=(N0,), address_space=local
    iname_tags:
      i: g.0
    loop_priority:
      i, j
    assumptions:
      [n] -> {  : n >= 1 }
    rules:
      f(x) := 2*x
    options:
      source_language = 'fortran'
    instructions:
      y[i] = a*x[i] + y[i]  {id=insn, inames=i, dep=*}

Every statement carries ``id=``, ``inames=`` and ``dep=*...`` so that no heuristic runs when
the text is read back.  Sets are printed sorted; typed constants keep their numpy type
(``float32(0.5)``) and Python floats print with `repr`, so constants round-trip bit-exactly.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import fields
from typing import Any

import numpy as np
import pymbolic.primitives as p

from translator.diagnostics import KernelLanguageError
from translator.ir import data
from translator.ir.data import AddressSpace, ArrayArg, dim_tag_str
from translator.ir.expr import Expression, IRStringifier
from translator.ir.isl_glue import (domain_parents, domain_str, kl_parse_assumptions, params_of,
                                    parse_domain)
from translator.ir.kernel import Kernel, Options, SubstitutionRule
from translator.ir.parse_expr import parse_dtype, parse_expression
from translator.ir.parse_statements import (ID_PATTERN, build_statement, parse_statement_line,
                                            split_top_level)
from translator.ir.statements import (Assignment, BarrierInstruction, CallInstruction,
                                      NoOpInstruction, Statement)
from translator.ir.tags import parse_tag
from translator.ir.util import FrozenDict

_STR = IRStringifier()


def expr_text(expr: Expression) -> str:
    """An expression in the kernel language (parses back to the identical tree)."""
    return _STR(expr)


def print_kernel(kernel: Kernel) -> str:
    """The kernel as text in the format of this module's docstring."""
    out = [f"kernel {kernel.name}", "domains:"]
    out += [f"  {line}" for line in _domain_lines(kernel.domains)]
    _section(out, "args", [_arg_line(a) for a in kernel.args])
    _section(out, "temporaries", [_temporary_line(t) for t in kernel.temporaries.values()])
    _section(out, "iname_tags", [f"{iname}: {', '.join(sorted(str(t) for t in tags))}"
                                 for iname, tags in sorted(kernel.iname_tags.items())])
    _section(out, "loop_priority", sorted(", ".join(prio) for prio in kernel.loop_priority))
    if kernel.assumptions is not None:
        _section(out, "assumptions", [str(kernel.assumptions)])
    _section(out, "rules", [_rule_line(r) for r in kernel.substitutions.values()])
    _section(out, "options", _option_lines(kernel.options))
    out.append("instructions:")
    out += [f"  {statement_text(s)}" for s in kernel.statements]
    return "\n".join(out) + "\n"


def _section(out: list[str], title: str, lines: Iterable[str]) -> None:
    lines = list(lines)
    if lines:
        out.append(f"{title}:")
        out += [f"  {line}" for line in lines]


# ---------------------------------------------------------------------------------------------
# printing the parts


def _domain_lines(domains) -> list[str]:
    parents = domain_parents(domains)
    depth: list[int] = []
    lines = []
    for d, parent in zip(domains, parents):
        depth.append(0 if parent is None else depth[parent] + 1)
        lines.append("  " * depth[-1] + _domain_text(d))
    return lines


def _domain_text(d) -> str:
    """Without the parameter prefix when reading it back derives the same parameters."""
    short = domain_str(d)
    try:
        same = params_of(parse_domain(short)) == params_of(d)
    except KernelLanguageError:
        same = False
    return short if same else str(d)


def _dtype_text(dtype) -> str:
    return np.dtype(dtype).name


def _tuple_text(items: tuple) -> str:
    inner = ", ".join("None" if i is None else expr_text(i) for i in items)
    return f"({inner},)" if len(items) == 1 else f"({inner})"


def _layout_fields(obj) -> list[str]:
    parts = []
    if obj.dtype is not None:
        parts.append(f"dtype={_dtype_text(obj.dtype)}")
    if obj.shape is not None:
        parts.append(f"shape={_tuple_text(obj.shape)}")
    if obj.dim_tags is not None:
        tags = ", ".join(dim_tag_str(t) for t in obj.dim_tags)
        parts.append(f"dim_tags=({tags}{',' if len(obj.dim_tags) == 1 else ''})")
    return parts


def _arg_line(arg) -> str:
    if isinstance(arg, data.ValueArg):
        dtype = [] if arg.dtype is None else [f"dtype={_dtype_text(arg.dtype)}"]
        return ", ".join([f"{arg.name}: value", *dtype])
    if not isinstance(arg, ArrayArg):
        raise KernelLanguageError(f"cannot print argument {arg!r}")
    parts = [f"{arg.name}: array"] + _layout_fields(arg)
    if arg.address_space is not AddressSpace.GLOBAL:
        parts.append(f"address_space={arg.address_space.value}")
    if arg.offset != 0 or type(arg.offset) is not int:
        parts.append(f"offset={expr_text(arg.offset)}")
    for name in ("is_input", "is_output"):
        if getattr(arg, name) is not None:
            parts.append(f"{name}={getattr(arg, name)}")
    if arg.may_alias:
        parts.append(f"may_alias=({', '.join(sorted(arg.may_alias))},)")
    return ", ".join(parts)


def _temporary_line(tv) -> str:
    parts = _layout_fields(tv)
    if tv.address_space is not None:
        parts.append(f"address_space={tv.address_space.value}")
    if tv.base_storage is not None:
        parts.append(f"base_storage={tv.base_storage}")
    if tv.read_only:
        parts.append("read_only=True")
    if tv.initializer is not None:
        parts.append(f"initializer={_STR(tuple(tv.initializer))}")
    return f"{tv.name}: " + ", ".join(parts)


def _rule_line(rule) -> str:
    return f"{rule.name}({', '.join(rule.arguments)}) := {expr_text(rule.expression)}"


def _option_lines(options: Options) -> list[str]:
    default = Options()
    lines = []
    for f in fields(Options):
        if f.name == "extra":
            continue
        value = getattr(options, f.name)
        if value != getattr(default, f.name):
            lines.append(f"{f.name} = {_literal(value, f.name)}")
    for key, value in sorted(options.extra.items()):
        lines.append(f"extra.{key} = {_literal(value, key)}")
    return lines


def _literal(value: Any, what: str) -> str:
    text = repr(value)
    try:
        if ast.literal_eval(text) == value:
            return text
    except (ValueError, SyntaxError):
        pass
    raise KernelLanguageError(f"option {what!r}: value {value!r} has no literal text form")


# ---------------------------------------------------------------------------------------------
# statements


def statement_text(s: Statement) -> str:
    """One statement line with every attribute explicit."""
    if isinstance(s, Assignment):
        body = f"{expr_text(s.assignee)} = {expr_text(s.expression)}"
    elif isinstance(s, CallInstruction):
        lhs = ", ".join(expr_text(a) for a in s.assignees)
        body = f"{lhs}{',' if len(s.assignees) == 1 else ''} = {expr_text(s.expression)}"
    elif isinstance(s, BarrierInstruction):
        body = "... gbarrier" if s.synchronization_kind == "global" else "... lbarrier"
    elif isinstance(s, NoOpInstruction):
        body = "... nop"
    else:
        raise KernelLanguageError(f"cannot print statement {s.id!r} of type "
                                  f"{type(s).__name__}")
    return f"{body}  {{{', '.join(_attributes(s))}}}"


def _check_names(s: Statement) -> None:
    names = [s.id, *s.tags, *s.groups, *s.conflicts_with_groups,
             *(i for i, _ in s.no_sync_with), *s.depends_on]
    bad = [n for n in names if not ID_PATTERN.fullmatch(n)]
    if bad:
        raise KernelLanguageError(f"statement {s.id!r}: {bad[0]!r} cannot be written as an "
                                  "id, tag or group name in the kernel language")


def _attributes(s: Statement) -> list[str]:
    _check_names(s)
    attrs = [f"id={s.id}", f"inames={':'.join(sorted(s.within_inames))}",
             f"dep=*{':'.join(sorted(s.depends_on))}"]
    if s.priority:
        attrs.append(f"priority={s.priority}")
    for key, values in (("tags", s.tags), ("groups", s.groups),
                        ("conflicts_grp", s.conflicts_with_groups)):
        if values:
            attrs.append(f"{key}={':'.join(sorted(values))}")
    if s.no_sync_with:
        items = sorted(i if scope == "any" else f"{i}@{scope}" for i, scope in s.no_sync_with)
        attrs.append(f"nosync={':'.join(items)}")
    if s.predicates:
        attrs.append(f"if={':'.join(sorted(expr_text(c) for c in s.predicates))}")
    atomicity = getattr(s, "atomicity", frozenset())
    if atomicity:
        if atomicity == frozenset(s.assignee_names()):
            attrs.append("atomic")
        else:
            attrs.append(f"atomic={':'.join(sorted(atomicity))}")
    if isinstance(s, BarrierInstruction) and s.mem_kind != "local":
        attrs.append(f"mem_kind={s.mem_kind}")
    return attrs



# ---------------------------------------------------------------------------------------------
# reading the format back

_SECTIONS = ("domains", "args", "temporaries", "iname_tags", "loop_priority", "assumptions",
             "rules", "options", "instructions")


def read_kernel(text: str) -> Kernel:
    """Parse the output of `print_kernel` (see the module docstring for the format)."""
    name, sections = _sections(text)
    try:
        return _build(name, sections)
    except KernelLanguageError as e:
        raise KernelLanguageError(f"kernel {name!r}: {e.message}", e.span) from None


def _sections(text: str) -> tuple[str, dict[str, list[str]]]:
    lines = [ln for ln in text.split("\n") if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines or not lines[0].startswith("kernel ") or len(lines[0].split()) != 2:
        raise KernelLanguageError("a printed kernel starts with 'kernel NAME'")
    sections: dict[str, list[str]] = {}
    current = None
    for ln in lines[1:]:
        if not ln[0].isspace():
            current = ln.strip().rstrip(":")
            if current not in _SECTIONS or not ln.strip().endswith(":") or current in sections:
                raise KernelLanguageError(f"unknown or repeated section {ln.strip()!r} "
                                          f"(sections: {', '.join(_SECTIONS)})")
            sections[current] = []
        elif current is None:
            raise KernelLanguageError(f"line {ln.strip()!r} outside of any section")
        else:
            sections[current].append(ln.strip())
    return lines[0].split()[1], sections


def _build(name: str, sections: dict[str, list[str]]) -> Kernel:
    temps = [_read_temporary(ln) for ln in sections.get("temporaries", [])]
    assumptions = sections.get("assumptions", [])
    if len(assumptions) > 1:
        raise KernelLanguageError("the assumptions section holds a single set")
    return Kernel(
        name=name, domains=tuple(parse_domain(t) for t in sections.get("domains", [])),
        statements=tuple(_read_statement(ln) for ln in sections.get("instructions", [])),
        args=tuple(_read_arg(ln) for ln in sections.get("args", [])),
        temporaries=FrozenDict((t.name, t) for t in temps),
        iname_tags=FrozenDict(_read_iname_tags(ln) for ln in sections.get("iname_tags", [])),
        loop_priority=frozenset(tuple(n.strip() for n in ln.split(","))
                                for ln in sections.get("loop_priority", [])),
        assumptions=kl_parse_assumptions(assumptions[0]) if assumptions else None,
        substitutions=FrozenDict((r.name, r) for r in map(_read_rule,
                                                          sections.get("rules", []))),
        options=_read_options(sections.get("options", [])))


def _fields(line: str, *, with_kind: bool) -> tuple[str, str | None, dict[str, str]]:
    name, sep, rest = line.partition(":")
    if not sep or not name.strip().isidentifier():
        raise KernelLanguageError(f"malformed line {line!r}: expected 'NAME: ...'")
    items = [s.strip() for s in split_top_level(rest) if s.strip()]
    kind = items.pop(0) if with_kind and items else None
    values = {}
    for item in items:
        key, eq, value = (s.strip() for s in item.partition("="))
        if not eq or key in values:
            raise KernelLanguageError(f"malformed or repeated field {item!r} in {line!r}")
        values[key] = value
    return name.strip(), kind, values


def _expr(text: str) -> Expression:
    return parse_expression(text, bare_reductions=False)


def _read_tuple(text: str) -> tuple:
    value = _expr(text)
    if not isinstance(value, tuple):
        raise KernelLanguageError(f"expected a tuple, got {text!r}")
    return tuple(None if v == p.Variable("None") else v for v in value)


def _read_bool(text: str) -> bool:
    if text not in ("True", "False"):
        raise KernelLanguageError(f"expected True or False, got {text!r}")
    return text == "True"


def _read_dim_tags(text: str) -> tuple[data.DimTag, ...]:
    inner = text.strip()
    if not (inner.startswith("(") and inner.endswith(")")):
        raise KernelLanguageError(f"malformed dim_tags {text!r}")
    return tuple(_read_dim_tag(t.strip()) for t in split_top_level(inner[1:-1]) if t.strip())


def _read_dim_tag(text: str) -> data.DimTag:
    optional = text.endswith("?")
    body = text.rstrip("?")
    if body.startswith("N") and body[1:].isdigit():
        return data.NestingTag(level=int(body[1:]), optional=optional)
    if body.startswith("stride:"):
        return data.FixedStrideTag(stride=_expr(body[len("stride:"):]), optional=optional)
    if body in ("sep", "vec"):
        cls = data.SeparateTag if body == "sep" else data.VectorTag
        return cls(optional=optional)
    raise KernelLanguageError(f"unknown dim tag {text!r}")


def _layout_values(values: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "dtype" in values:
        out["dtype"] = parse_dtype(values.pop("dtype"))
    if "shape" in values:
        out["shape"] = _read_tuple(values.pop("shape"))
    if "dim_tags" in values:
        out["dim_tags"] = _read_dim_tags(values.pop("dim_tags"))
    if "address_space" in values:
        out["address_space"] = AddressSpace.parse(values.pop("address_space"))
    return out


def _no_more(values: dict[str, str], what: str) -> None:
    if values:
        raise KernelLanguageError(f"{what}: unknown field(s) {', '.join(sorted(values))}")


def _read_arg(line: str):
    name, kind, values = _fields(line, with_kind=True)
    fields_ = _layout_values(values)
    if kind == "value":
        _no_more(values, f"value argument {name!r}")
        if set(fields_) - {"dtype"}:
            raise KernelLanguageError(f"value argument {name!r} takes only a dtype")
        return data.ValueArg(name=name, **fields_)
    if kind != "array":
        raise KernelLanguageError(f"argument {name!r}: kind must be 'array' or 'value'")
    if "offset" in values:
        fields_["offset"] = _expr(values.pop("offset"))
    for key in ("is_input", "is_output"):
        if key in values:
            fields_[key] = _read_bool(values.pop(key))
    if "may_alias" in values:
        fields_["may_alias"] = frozenset(v.name for v in _read_tuple(values.pop("may_alias")))
    _no_more(values, f"argument {name!r}")
    return ArrayArg(name=name, **fields_)


def _read_temporary(line: str):
    name, _, values = _fields(line, with_kind=False)
    fields_ = _layout_values(values)
    if "base_storage" in values:
        fields_["base_storage"] = values.pop("base_storage")
    if "read_only" in values:
        fields_["read_only"] = _read_bool(values.pop("read_only"))
    if "initializer" in values:
        fields_["initializer"] = _read_tuple(values.pop("initializer"))
    _no_more(values, f"temporary {name!r}")
    return data.TemporaryVariable(name=name, **fields_)


def _read_iname_tags(line: str):
    iname, sep, rest = line.partition(":")
    if not sep:
        raise KernelLanguageError(f"malformed iname tag line {line!r}: expected 'INAME: TAG'")
    return iname.strip(), frozenset(parse_tag(t) for t in rest.split(",") if t.strip())


def _read_rule(line: str):
    rule = parse_statement_line(line, None, bare_reductions=False)
    if not isinstance(rule, SubstitutionRule):
        raise KernelLanguageError(f"not a substitution rule: {line!r}")
    return rule


def _read_options(lines: list[str]) -> Options:
    known = {f.name for f in fields(Options)} - {"extra"}
    values: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for ln in lines:
        key, eq, text = (s.strip() for s in ln.partition("="))
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            raise KernelLanguageError(f"option {key!r}: {text!r} is not a literal") from None
        if key.startswith("extra."):
            extra[key[len("extra."):]] = value
        elif key in known and eq:
            values[key] = value
        else:
            raise KernelLanguageError(f"unknown option {key!r}")
    return Options(**values, extra=FrozenDict(extra))


def _read_statement(line: str) -> Statement:
    st = parse_statement_line(line, None, bare_reductions=False)
    if not hasattr(st, "dep_exclusive") or st.id is None or st.inames is None \
            or st.inames_additive or not st.dep_exclusive:
        raise KernelLanguageError(f"statement {line!r}: a printed statement needs explicit "
                                  "id=, inames= and dep=*...")
    return build_statement(st, st.inames, frozenset(st.dep), frozenset(st.nosync))
