"""What a frontend hands the pipeline besides a region's kernel: the transform calls of its
pragmas (`TransformCall`) and, for OpenMP and OpenACC input, the claims of its directives
(`LoopClaim`) with the facts the proof needs (`RegionFacts`).

Frontends fill these in; `translator.directive_proof` (pipeline layer) proves the claims.  They
live with the IR because the IR is the only thing frontends and the pipeline share
(`frontends.base` and `frontends.directives.claims` re-export them).
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from translator.diagnostics import SourceSpan
from translator.records import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class TransformCall:
    """One transform pragma: ``name(*args, **kwargs)`` with Python-literal arguments."""

    name: str
    args: tuple[Any, ...] = ()
    kwargs: tuple[tuple[str, Any], ...] = ()
    span: SourceSpan | None = field(default=None, compare=False)
    #: Names in the arguments are case-insensitive (Fortran): the pipeline spells them as the
    #: kernel does before the call (`transforms.registry.fold_names`).
    case_insensitive: bool = False
    #: (name as resolved, name as the source spells it), for messages about the call.
    spellings: tuple[tuple[str, str], ...] = field(default=(), compare=False)


#: The warning id of a directive whose claim does not hold; an error unless
#: ``-Wno-error=directive-race``.
RACE = "directive-race"

#: The warning id of a directive whose loop holds something no region can (a call, I/O):
#: the loop is left as written, the file is translated.
UNTRANSLATED = "directive-untranslated"

#: The warning id of a data clause on a compute construct (``copyin(x[0:n/2])``) whose
#: section the loop leaves: the clause has no effect here, the result is the sequential one.
DATA_SECTION = "directive-data-section"

#: The warning id of a correct directive the translator cannot carry out in parallel (a
#: reduction operator it has no parallel form for): the loop keeps its sequential meaning.
SEQUENTIAL = "directive-sequential"


@dataclass(frozen=True, slots=True, kw_only=True)
class ClauseSection:
    """An array section of a data clause on a compute construct (``copyin(x[0:n/2])``,
    ``map(to: a(1:n/2))``), for the check that it covers what the loop uses: per dimension,
    the first index and the index past the last as source text in the array's own indexing
    (C: from 0; Fortran: from its lower bound), "" where the clause does not bound it."""

    clause: str                     # as written: "copyin(x[0:n/2])"
    array: str
    bounds: tuple[tuple[str, str], ...]
    span: SourceSpan | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class LoopClaim:
    """A directive that declares loops parallel (see the module docstring)."""

    model: str                      # "openmp" or "openacc"
    name: str                       # the directive as normalised: "parallel do", "loop" ...
    span: SourceSpan
    parallel: int = 1               # outer loops declared parallel; 0: automatic mapping
    private: tuple[str, ...] = ()
    firstprivate: tuple[str, ...] = ()
    lastprivate: tuple[str, ...] = ()
    shared: tuple[str, ...] = ()
    reductions: tuple[tuple[str, str], ...] = ()   # (operator as written, variable)
    default: str | None = None
    ignored: tuple[str, ...] = ()
    hints: tuple[TransformCall, ...] = ()
    end_words: tuple[str, ...] = ()  # the end directive that may close it ("end parallel do")
    #: lines of the directive (first, last), filled by the scanner
    lines: tuple[int, int] = (0, 0)
    #: OpenACC: the compute construct of the loop ("parallel", "kernels", "serial": the
    #: combined ``parallel loop``'s own, or the one holding a ``loop`` directive, set by
    #: `frontends.directives.openacc.resolve_constructs`; "" when none is known): the data
    #: sharing of its scalars depends on it
    construct: str = ""
    #: sections of the data clauses (``copy``, ``map`` ...) of a compute construct: they move
    #: nothing here (the region moves what the loop uses); one smaller than what the loop
    #: uses is a warning (`translator.directive_proof.check_sections`)
    sections: tuple[ClauseSection, ...] = ()
    #: OpenMP ``linear(list)`` variables (not the loop's index): each iteration's value is the
    #: value before the loop plus the iteration's number times the step, which the
    #: translator does not compute: the loop keeps its sequential meaning (h70)
    linear: tuple[str, ...] = ()
    #: the ``atomic`` (``atomic update``) directives inside the loop that guard an update of
    #: an array element (``h[k[i]] += 1``), as (the directive's last line, its span): the
    #: statement after each is marked atomic (`frontends.marks.atomic_marks`), and
    #: conflicting updates of an array whose every access in the loop is such an update
    #: with one operator are no race (`translator.analysis.atomics`) (h80)
    atomics: tuple[tuple[int, SourceSpan], ...] = ()
    #: OpenMP: variables private to each thread of the enclosing ``parallel`` construct that
    #: the code every thread runs before the loop gives a value (its ``firstprivate`` ones,
    #: ``private`` ones it assigns); the loop's iterations share the thread's copy: one the
    #: loop only reads is ``firstprivate`` to it, one it writes ``private``
    #: (`translator.directive_proof`) (h92)
    thread_private: tuple[str, ...] = ()

    @property
    def reduction_names(self) -> tuple[str, ...]:
        return tuple(n for _, n in self.reductions)

    def listed(self) -> set[str]:
        """Every variable a data-sharing clause names."""
        return {*self.private, *self.firstprivate, *self.lastprivate, *self.shared,
                *self.reduction_names}

    def privates(self) -> frozenset[str]:
        """Variables with one copy per iteration from the start of each (``private``,
        ``firstprivate``; a ``lastprivate`` copy is made by `translator.directive_proof`)."""
        return frozenset({*self.private, *self.firstprivate})

    def private_names(self, written: set[str] | frozenset[str]) -> frozenset[str]:
        """`privates` and, under ``default(private)`` or ``default(firstprivate)``, every
        variable of `written` (the scalars the loop writes) that no other clause names."""
        if self.default not in ("private", "firstprivate"):
            return self.privates()
        others = {*self.shared, *self.lastprivate, *self.reduction_names}
        return self.privates() | frozenset(n for n in written if n not in others)

    def describe(self) -> str:
        """How messages name it: ``'!$omp parallel do'`` is spelled by the frontend."""
        return self.name


@dataclass(frozen=True)
class LoopInfo:
    """A loop of the region: its variable, iname, source line and enclosing loop (an index
    into the same list)."""

    var: str
    iname: str
    line: int
    parent: int | None
    #: C: the index is declared outside the construct (OpenMP makes it private only on a
    #: loop the directive is associated with)
    declared_outside: bool = False


@dataclass(frozen=True)
class RegionFacts:
    """What a frontend knows of a region built for claims: the claims, as (claim, line of its
    loop, spelling for messages such as ``'!$omp parallel do'``); the scalars written back to
    the caller (`written_back`), the scalars it made private on its own (`auto_private`:
    shared under the directive's rules unless a clause says otherwise), the names that are
    private by the model's rules whatever the clauses (`implicit`: loop indices; C: variables
    declared in the loop), and the loops."""

    claims: tuple[tuple[LoopClaim, int, str], ...]
    written_back: frozenset[str]
    auto_private: frozenset[str]
    implicit: frozenset[str]
    loops: tuple[LoopInfo, ...]
    #: declared shapes of arrays whose kernel shape differs (Fortran explicit-shape dummies:
    #: the kernel's last extent covers what the region indexes past it)
    declared_shapes: dict[str, tuple] = field(default_factory=dict)
    #: arrays with no declared extent (C pointers, ``a[][m]``): the kernel's extent is the
    #: footprint from element 0 on
    unsized: frozenset[str] = frozenset()
    #: scalars the program may read after the region before writing them: a ``private`` one
    #: of a claim has an undefined value there under the model
    read_after: frozenset[str] = frozenset()
    #: Fortran: the lower bound of each axis of the arrays (expressions in value arguments;
    #: an array not listed starts at 0, as in C): how a clause's section maps to the kernel
    lower_bounds: dict[str, tuple] = field(default_factory=dict)
