"""OpenMP and OpenACC directives as input (``--directives openmp,openacc``): claims, proven.

Design note (the contract between the directive parsers and the frontends; extend, never
rename):

- The representation lives in `frontends.directives.claims` (re-exported here; a parser
  imports it from there: importing this package from a parser would be an import circle).
- A parser (`frontends.directives.openmp`, `frontends.directives.openacc`) reads the text after
  a sentinel (``!$omp``, ``#pragma omp``, ``!$acc``, ``#pragma acc``), continuation lines
  joined, and returns one of:

  * `LoopClaim`: a directive that declares loops parallel (``parallel do``, ``parallel for``,
    ``parallel loop``, ``loop independent`` ...).  It becomes a kernel region around the loop
    nest that follows it (with the end directive ``!$omp end parallel do`` when
    ``end_words`` matches the next directive after the nest).  ``parallel`` outer loops of
    the nest (``collapse(n)``: n; 1 otherwise) are declared parallel; ``parallel=0`` means the
    model leaves the choice to us (OpenACC ``auto``, ``kernels``): automatic mapping.
    Data sharing: ``private``, ``firstprivate``, ``lastprivate``, ``shared``, ``reductions``
    (operator, name) and ``default`` (None, "shared", "none", "private", "firstprivate",
    "present").  ``ignored`` lists clauses accepted with no effect (the report says so);
    ``hints`` are transform calls the model asks for (mapping hints), applied after the
    claim is proven.
  * `DataClaim`: a data directive, already spelled as the text of a ``translate`` data
    directive (``data copyin(a) copyout(b)``, ``end data``, ``enter data ...``,
    ``exit data ...``, ``update host(...)``).  The frontend feeds it to the existing
    data-region machinery (`frontends.pragmas`), so clauses, sections and reference counts
    behave as there.
  * `Untouched`: a directive that is not offloaded (``task``, ``critical``, ``barrier`` ...),
    with the reason; it stays in the output as written and the report lists it.
  * `EndDirective`: ``end <words>`` closing an earlier directive (``end parallel do``).
  * `ParallelOpen`: a ``parallel`` construct without a loop (OpenMP ``parallel`` holding
    ``do``/``for`` directives); its worksharing loops inside are `LoopClaim`s.

- C has no end directives: a loop claim covers the ``for`` statement after it, a data
  claim spelled ``data ...`` the statement after it (its ``end data`` is placed after that
  statement), a `ParallelOpen` the compound statement after it.  In Fortran `ParallelOpen`
  ends at the directive ``end_words`` names, a data construct at its ``end ... data``
  `EndDirective` (words ending in "data").
- A directive inside a loop claim's loop: a nested `LoopClaim` changes nothing; an
  ``atomic`` (``atomic update``) `Untouched` guarding a scalar update is a reduction
  (`with_inner_directives`), one guarding an update of an array element marks that statement
  atomic (``LoopClaim.atomics``, `frontends.marks.atomic_marks`; h80); any other `Untouched`
  leaves the loop as written.
- The frontends (`frontends.directives.fortran`; C in `frontends.c.regions`) make each loop
  nest a region (named ``<procedure>_<k>``) and record its claims with what the proof needs
  (`translator.ir.claims.RegionFacts`, ``Region.claims``); the driver proves them on the
  region's kernel (`translator.directive_proof`, pipeline layer: frontends never run the
  analyses).  The proof uses the directive's rules, not the
  sequential program: a shared scalar written in the loop, a private scalar read before it is
  written, a carried dependence on a declared-parallel loop are ``directive-race`` warnings at
  the directive (errors unless ``-Wno-error=directive-race``); a correct claim that cannot run
  in parallel here (a reduction operator or an array reduction the IR lacks, a
  ``lastprivate`` whose last-iteration store cannot be placed) is a ``directive-sequential``
  warning; either way the region keeps its sequential meaning (the automatic mapping
  decides).  A proven claim with ``lastprivate`` gives the region a kernel where the variable
  is private and the last iteration stores it; with reductions it adds
  ``set_options(reassociate=True)``, then its ``hints``.  A loop no region can hold (a call, I/O) is left as
  written with a ``directive-untranslated`` warning (`left_as_written`).
"""

from __future__ import annotations

from frontends.directives.claims import (  # noqa: F401 (the package's interface)
    MODELS,
    NOT_OFFLOADED,
    RACE,
    SEQUENTIAL,
    UNTRANSLATED,
    Claim,
    DataClaim,
    EndDirective,
    LoopClaim,
    ParallelOpen,
    Untouched,
    atomic_update,
    directive_models,
    inherit,
    left_as_written,
    parallel_left,
    parse_models,
    requested_models,
    spelled,
    untouched_notes,
    warn_not_offloaded,
    with_inner_directives,
)


def claim_parsers(models: tuple[str, ...]) -> dict:
    """model -> its parser ``(text, span, language) -> Claim``."""
    parsers = {}
    if "openmp" in models:
        from frontends.directives.openmp import parse_openmp
        parsers["openmp"] = parse_openmp
    if "openacc" in models:
        from frontends.directives.openacc import parse_openacc  # h16's part
        parsers["openacc"] = parse_openacc
    return parsers
