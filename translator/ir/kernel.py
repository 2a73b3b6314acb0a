"""The `Kernel`: domains, statements, data, iname tags, assumptions, rules, options.

Immutable.  Transforms return new kernels via `dataclasses.replace` (or `Kernel.copy`), and
return the very same object when nothing changed.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

import islpy as isl
import numpy as np

from translator.diagnostics import DomainError, KernelLanguageError, SourceSpan
from translator.ir.data import ArrayArg, KernelArgument, TemporaryVariable, ValueArg
from translator.ir.expr import Expression
from translator.ir.statements import Statement
from translator.ir.tags import InameTag
from translator.ir.util import FrozenDict
from translator.records import dataclass, replace


@dataclass(frozen=True, slots=True, kw_only=True)
class SubstitutionRule:
    """``name(arguments) := expression``."""

    name: str
    arguments: tuple[str, ...]
    expression: Expression
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    """Code-generation options (`transforms.set_options`)."""

    #: Accepted for loopy compatibility and ignored: every access is proven inside its extent
    #: by legality (translator/analysis/bounds.py) whatever this says.
    enforce_array_accesses_within_bounds: bool = False
    #: Language the statements came from: "kernel" (floor semantics), "fortran" or "c".
    source_language: str = "kernel"
    #: Extra text emitted at the top of the device code.
    preamble: str = ""
    #: Emit `#line` directives pointing at statement spans.
    emit_line_directives: bool = True
    #: Do not check legality (set by `independent` assertions of a whole region).
    trust_mappings: bool = False
    #: Let the OpenCL compiler contract a*b+c into fused multiply-adds.  Off by default, so
    #: results are bit-identical to the original program where the order of operations is
    #: unchanged; turn on with set_options(fp_contract=True) for speed.
    fp_contract: bool = False
    #: Let automatic mapping run floating-point sums and products as parallel reductions
    #: (they are then rounded in another order, as with -ffast-math); off by default.
    #: ``set_options(reassociate=True)`` in a region, or ``translate --reassociate``.
    reassociate: bool = False
    #: What `transforms.fix_parameters` fixed among the value arguments: (name, value, dtype
    #: name) each, in fixing order.  The host glue still takes them and stops the program when
    #: a caller passes another value (the kernel was generated for these).  Not settable by
    #: `set_options`.
    fixed_parameters: tuple[tuple[str, Any, str], ...] = ()
    #: Any further option set by the user or a plugin.
    extra: FrozenDict[str, Any] = field(default_factory=FrozenDict)


#: Argument tuples indexed by name, by the identity of the tuple (held, so the identity is not
#: reused while remembered): a kernel's copies share their args, and typing, access collection
#: and code generation look an argument up per variable they meet (a scan per lookup was
#: quadratic in a region of hundreds of arrays).
_ARG_INDEX: dict[int, tuple[tuple[KernelArgument, ...], dict[str, KernelArgument]]] = {}


def _args_by_name(args: tuple[KernelArgument, ...]) -> dict[str, KernelArgument]:
    held = _ARG_INDEX.get(id(args))
    if held is None or held[0] is not args:
        if len(_ARG_INDEX) >= 1024:
            _ARG_INDEX.clear()
        held = _ARG_INDEX[id(args)] = (args, {a.name: a for a in args})
    return held[1]


@dataclass(frozen=True, slots=True, kw_only=True)
class Kernel:
    """A kernel of the statement/domain IR.

    - `domains`: basic sets forming a forest (a domain is the child of the nearest earlier
      domain that defines one of its parameters); parameters of roots are value arguments.
    - `args`: in signature order.  `temporaries`: in declaration order.
    - `iname_tags`: iname -> tags (at most one implementation tag per iname).
    - `loop_priority`: tuples of inames, outermost first (advisory nesting constraints).
    - `assumptions`: a parameter-only basic set.
    """

    name: str
    domains: tuple[isl.BasicSet, ...]
    statements: tuple[Statement, ...]
    args: tuple[KernelArgument, ...] = ()
    temporaries: FrozenDict[str, TemporaryVariable] = field(default_factory=FrozenDict)
    iname_tags: FrozenDict[str, frozenset[InameTag]] = field(default_factory=FrozenDict)
    loop_priority: frozenset[tuple[str, ...]] = frozenset()
    assumptions: isl.BasicSet | None = None
    substitutions: FrozenDict[str, SubstitutionRule] = field(default_factory=FrozenDict)
    options: Options = field(default_factory=Options)
    span: SourceSpan | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        ids = [s.id for s in self.statements]
        if len(set(ids)) != len(ids):
            dup = sorted({i for i in ids if ids.count(i) > 1})
            raise KernelLanguageError(f"duplicate statement id(s): {', '.join(dup)}", self.span)
        names = [a.name for a in self.args]
        if len(set(names)) != len(names):
            raise KernelLanguageError("duplicate argument names", self.span)

    # -- lookups --------------------------------------------------------------------------

    def copy(self, **changes: Any) -> Kernel:
        return replace(self, **changes)

    @property
    def all_inames(self) -> frozenset[str]:
        return frozenset(n for d in self.domains for n in d.get_var_names(isl.dim_type.set))

    def statement(self, stmt_id: str) -> Statement:
        for s in self.statements:
            if s.id == stmt_id:
                return s
        raise KernelLanguageError(f"no statement with id {stmt_id!r}", self.span)

    @property
    def id_to_statement(self) -> dict[str, Statement]:
        return {s.id: s for s in self.statements}

    def arg(self, name: str) -> KernelArgument | None:
        return _args_by_name(self.args).get(name)

    @property
    def arg_names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.args)

    @property
    def array_args(self) -> tuple[ArrayArg, ...]:
        return tuple(a for a in self.args if isinstance(a, ArrayArg))

    @property
    def value_args(self) -> tuple[ValueArg, ...]:
        return tuple(a for a in self.args if isinstance(a, ValueArg))

    def variable(self, name: str) -> KernelArgument | TemporaryVariable | None:
        return self.temporaries.get(name) or self.arg(name)

    def variable_dtype(self, name: str) -> np.dtype | None:
        v = self.variable(name)
        return None if v is None else v.dtype

    def tags_of(self, iname: str) -> frozenset[InameTag]:
        return self.iname_tags.get(iname, frozenset())

    def tag_of(self, iname: str, kind: type = InameTag) -> InameTag | None:
        """The iname's tag of class `kind`, if any."""
        found = [t for t in self.tags_of(iname) if isinstance(t, kind)]
        return found[0] if found else None

    def domain_index_of(self, iname: str) -> int:
        for k, d in enumerate(self.domains):
            if iname in d.get_var_names(isl.dim_type.set):
                return k
        raise DomainError(f"unknown iname {iname!r}", self.span)

    def dependency_closure(self) -> dict[str, frozenset[str]]:
        """Every statement's direct and indirect dependencies (a statement on a dependency
        cycle is in its own set)."""
        direct = {s.id: s.depends_on for s in self.statements}
        closure: dict[str, frozenset[str]] = {}

        def visit(sid: str, active: frozenset[str]) -> frozenset[str]:
            if sid in closure:
                return closure[sid]
            out: set[str] = set()
            for d in direct.get(sid, ()):
                out.add(d)
                if d not in active:
                    out |= visit(d, active | {d})
            closure[sid] = frozenset(out)
            return closure[sid]

        for sid in direct:
            visit(sid, frozenset({sid}))
        return closure

    def writers(self, name: str) -> tuple[str, ...]:
        return tuple(s.id for s in self.statements if name in s.assignee_names())
