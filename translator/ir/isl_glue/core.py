"""isl glue, the core: parsing domains, expression <-> affine conversion, bounds and
proofs, the domain forest, and conditions read back from constraints.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

import islpy as isl
import numpy as np
import pymbolic.primitives as p

from translator.diagnostics import DomainError
from translator.ir.expr import Expression, dependencies, typed_key
from translator.patterns import LazyPattern
from translator.records import dataclass

_T = TypeVar("_T")

dim_type = isl.dim_type


def parse_domain(text: str, params: Iterable[str] = ()) -> isl.BasicSet:
    """Parse ISL syntax (``{[i]: 0<=i<n}``, with or without ``[n] ->``) into a BasicSet.

    Parameters are found automatically; `params` adds more.  Disjunctions (non-convex sets)
    are rejected, as the reference requires.
    """
    text = text.strip()
    if "->" not in text.split("{", 1)[0]:
        text = _with_params(text, params)
    try:
        s = isl.Set(text)
    except isl.Error as e:
        raise DomainError(f"malformed domain {text!r}: {_isl_msg(e)}") from None
    s = s.coalesce()
    bsets = s.get_basic_sets()
    if len(bsets) > 1:
        raise DomainError(f"domain {text!r} is not convex (a disjunction); loop domains must "
                          "be conjunctions of affine constraints")
    if not bsets:
        return isl.BasicSet.empty(s.get_space())
    return bsets[0]


def _with_params(text: str, params: Iterable[str]) -> str:
    """Prefix the parameters isl would otherwise reject as unknown identifiers."""
    body = text
    m = re.match(r"\s*\{\s*\[([^\]]*)\]", body)
    if not m:
        raise DomainError(f"malformed domain {text!r}: expected '{{[inames]: conditions}}'")
    inames = {s.strip() for s in m.group(1).split(",") if s.strip()}
    words = set(re.findall(r"[A-Za-z_]\w*", body[m.end():]))
    keywords = {"and", "or", "not", "mod", "exists", "floor", "ceil", "min", "max", "true",
                "false", "infty"}
    bound = set(re.findall(r"exists\s*\(?\s*([\w\s,]+?)\s*:", body))
    bound = {b.strip() for group in bound for b in group.split(",")}
    found = sorted((words - inames - keywords - bound) | set(params))
    return f"[{', '.join(found)}] -> {body}" if found else body


#: Answers of pure isl computations for recent arguments, keyed by the identity of the isl
#: objects and domain tuples they were given; each entry holds those objects, so an identity
#: cannot be reused while it is cached.  Analysis and codegen ask the same questions once per
#: statement or access: a region of hundreds of statements asks them hundreds of times.
_MEMO: dict[tuple, tuple] = {}
_MEMO_SIZE = 8192


def memoized(key: tuple, held: tuple, compute: Callable[[], _T]) -> _T:
    """`compute()`, or its remembered value for `key` (which must name `held` by identity)."""
    hit = _MEMO.get(key)
    if hit is not None:
        return hit[1]
    value = compute()
    if len(_MEMO) >= _MEMO_SIZE:
        _MEMO.clear()
    _MEMO[key] = (held, value)
    return value


def text_memoized(name: str, sets: Sequence[isl.BasicSet | isl.Set | None], extra: tuple,
                  compute: Callable[[], _T]) -> _T:
    """`compute()`, remembered under the isl text of `sets` (and `extra`): a pure question
    about sets that print alike has one answer, whichever kernel asks it (the many small
    kernels of a file, or one kernel built again through the API, ask the same questions
    of new set objects).  The answer must not hold the objects asked about, nor be mutated
    by the caller.  Sets that print alike may be built differently inside isl, so an answer
    must not depend on that: yes/no answers, conditions and bounds, not sets that a later
    stage samples for a counterexample (analysis draws those from statement domains)."""
    key = (name, *(None if s is None else s.to_str() for s in sets), *extra)
    return memoized(key, (), compute)


def alpha_memoized(name: str, sets: Sequence[isl.BasicSet | isl.Set | None],
                   extra: Sequence[str], compute: Callable[[], _T],
                   rename: Callable[[_T, dict[str, str]], _T]) -> _T:
    """`text_memoized` up to the names of the sets' parameters and set dims: the many small
    kernels of a file ask the same questions of loops that differ in their iname names only
    (``i_1``, ``i_2``, ...).  Every name of `sets` (parameters, then set dims, set by set)
    and the names `extra` holds get positional names (`alpha_names`) in the key; the answer
    is remembered as its first asker computed it, with that asker's positional names, and
    renamed (`rename(answer, names)`) for an asker by other names (and remembered under
    the asker's own texts, which a kernel asking again by the same names finds first, as
    `text_memoized` would).  Only for answers built from the sets by
    position (isl's dims in order) whose names come from the sets: such an answer renamed
    is the answer to the renamed question.  Where the names cannot be made positional
    safely, remembered under the asker's own texts only."""
    texts = tuple(None if s is None else s.to_str() for s in sets)
    exact = (name, *texts, *extra)   # `text_memoized`'s key: asked again by its own names
    hit = _MEMO.get(exact)
    if hit is not None:
        return hit[1]
    order = [n for s in sets if s is not None
             for t in (dim_type.param, dim_type.set) for n in s.get_var_names(t)]
    names = None if None in order else alpha_names([*order, *extra])
    if names is None or any(t is not None and ALPHA in t for t in texts):
        return memoized(exact, (), compute)
    key = ("alpha " + name, *(None if t is None else renamed_text(t, names) for t in texts),
           *(names[n] for n in extra))
    # The answer is kept with the names of the asker that computed it (and those names'
    # positional ones): the asker takes it as computed, and only an asker by other names
    # has it renamed, once, from the first asker's names to its own (the same answer as
    # renaming it to the positional names and from those to its own, as this did before:
    # the same names of the same positions, renamed simultaneously).
    hit = _MEMO.get(key)
    if hit is None:
        answer = compute()
        memoized(key, (), lambda: (answer, names))
        return memoized(exact, (), lambda: answer)
    answer, first = hit[1]
    if first == names:
        return memoized(exact, (), lambda: answer)
    mine = {new: old for old, new in names.items()}
    if not mine.keys() >= set(first.values()):   # (equal keys name the same positions)
        return memoized(exact, (), compute)
    return memoized(exact, (), lambda: rename(answer, {old: mine[new]
                                                       for old, new in first.items()}))


#: The prefix of the names `alpha_key` gives set dims (no user name starts so: see there).
ALPHA = "_tr_a"
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def alpha_key(s: isl.BasicSet | isl.Set) -> str | None:
    """The text of `s` with its set dims named by position (``_tr_a0``, ``_tr_a1``, ...): two
    sets with the same key are the same set up to the names of their set dims.  Results that
    do not name set dims (bounds in parameters, yes/no answers) can be remembered under it
    across kernels, whose loops differ in their iname names only.  None where the text
    already holds such a name (then the key could mistake two sets for one)."""
    text = str(s)
    if ALPHA in text:
        return None
    names = {n: f"{ALPHA}{k}" for k, n in enumerate(s.get_var_names(dim_type.set)) if n}
    if not names:
        return text
    if not names.keys().isdisjoint(s.get_var_names(dim_type.param)):
        return None
    return renamed_text(text, names)


#: Words of isl's set syntax (a name spelled so is not renamed by `alpha_names`).
_ISL_WORDS = frozenset({"and", "or", "not", "mod", "exists", "floor", "ceil", "min", "max",
                        "true", "false", "infty", "NaN", "implies"})


def alpha_names(names: Iterable[str]) -> dict[str, str] | None:
    """Positional names (``_tr_a0``, ...) for `names` in order, for keys that remember an
    answer up to names (see `alpha_key`); None where a name is an isl word, looks like one
    of isl's own variables, or already is a positional name."""
    out: dict[str, str] = {}
    for n in names:
        if n in out:
            continue
        if n in _ISL_WORDS or n.startswith(ALPHA) or re.fullmatch(r"[eoi]\d+", n):
            return None
        out[n] = f"{ALPHA}{len(out)}"
    return out


def renamed_text(text: str, names: dict[str, str]) -> str:
    """`text` with every word that `names` holds replaced by its new name."""
    return _WORD.sub(lambda m: names.get(m.group(0), m.group(0)), text)


def _isl_msg(e: Exception) -> str:
    msg = str(e).strip().splitlines()
    return msg[-1] if msg else "isl rejected it"


def inames_of(domain: isl.BasicSet | isl.Set) -> tuple[str, ...]:
    return tuple(domain.get_var_names(dim_type.set))


def params_of(domain: isl.BasicSet | isl.Set) -> tuple[str, ...]:
    return tuple(domain.get_var_names(dim_type.param))


def domain_str(domain: isl.BasicSet | isl.Set) -> str:
    """Deterministic text of a domain, params omitted (`parse_domain` re-derives them)."""
    text = str(domain)
    if "->" in text.split("{", 1)[0]:
        text = text.split("->", 1)[1].strip()
    return text


def aff_from_expr(space: isl.Space, expr: Expression) -> isl.PwAff:
    """Quasi-affine expression -> PwAff over `space` (a set space); non-affine -> DomainError."""
    return _ToAff(space)(expr)


class _ToAff:
    def __init__(self, space: isl.Space) -> None:
        self.space = space
        self.names = {n: (dim_type.set, k) for k, n in enumerate(space.get_var_names(dim_type.set))}
        self.names.update({n: (dim_type.param, k)
                           for k, n in enumerate(space.get_var_names(dim_type.param))})
        self.ls = isl.LocalSpace.from_space(space)

    def __call__(self, e: Expression) -> isl.PwAff:
        if isinstance(e, bool):
            raise DomainError(f"non-affine expression {e}")
        if type(e) is p.Sum or type(e) is p.Product:
            linear = _linear_form(e)
            if linear is not None and _word_sized(linear):
                return self._linear(*linear)
        if isinstance(e, int | np.integer):   # (a TypeCast has a dtype too: not a constant)
            return isl.PwAff.from_aff(isl.Aff.zero_on_domain(self.ls).set_constant_val(int(e)))
        if isinstance(e, p.Variable):
            if e.name not in self.names:
                raise DomainError(f"unknown name {e.name!r} in affine expression")
            dt, k = self.names[e.name]
            return isl.PwAff.from_aff(isl.Aff.var_on_domain(self.ls, dt, k))
        if isinstance(e, p.Sum):
            out = self(e.children[0])
            for c in e.children[1:]:
                out = out.add(self(c))
            return out
        if isinstance(e, p.Product):
            out = self(e.children[0])
            for c in e.children[1:]:
                rhs = self(c)
                if not (out.is_cst() or rhs.is_cst()):
                    raise DomainError(f"non-affine product in {e}")
                out = out.mul(rhs)
            return out
        if isinstance(e, p.FloorDiv):
            den = self._const(e.denominator, e)
            ctx = self.space.get_ctx()
            return self(e.numerator).scale_down_val(isl.Val.int_from_si(ctx, den)).floor()
        if isinstance(e, p.Remainder):
            den = self._const(e.denominator, e)
            return self(e.numerator).mod_val(isl.Val.int_from_si(self.space.get_ctx(), den))
        if isinstance(e, p.Min) or (isinstance(e, p.Call)
                                    and getattr(e.function, "name", "") == "min"):
            ch = e.children if isinstance(e, p.Min) else e.parameters
            out = self(ch[0])
            for c in ch[1:]:
                out = out.min(self(c))
            return out
        if isinstance(e, p.Max) or (isinstance(e, p.Call)
                                    and getattr(e.function, "name", "") == "max"):
            ch = e.children if isinstance(e, p.Max) else e.parameters
            out = self(ch[0])
            for c in ch[1:]:
                out = out.max(self(c))
            return out
        raise DomainError(f"non-affine expression {e}")

    def _linear(self, coefficients: dict[str, int], constant: int) -> isl.PwAff:
        """The affine form ``sum(c*name) + constant`` as one Aff: the same PwAff (one piece
        on the universe) that adding and multiplying the terms' PwAffs gives, for a fraction
        of the isl calls (each PwAff sum intersects the pieces' domains)."""
        aff = isl.Aff.zero_on_domain(self.ls)
        ctx = self.space.get_ctx()
        for name, c in coefficients.items():
            if name not in self.names:
                raise DomainError(f"unknown name {name!r} in affine expression")
            if c:
                dt, k = self.names[name]   # (an Aff names its domain's set dims `in_`)
                aff = aff.set_coefficient_val(dim_type.in_ if dt == dim_type.set else dt,
                                              k, isl.Val.int_from_si(ctx, c))
        if constant:
            aff = aff.set_constant_val(isl.Val.int_from_si(ctx, constant))
        return isl.PwAff.from_aff(aff)

    def _const(self, e: Expression, whole: Expression) -> int:
        if isinstance(e, int | np.integer) and not isinstance(e, bool) and e > 0:
            return int(e)
        raise DomainError(f"division by a non-constant or non-positive value in {whole}")


def _word_sized(linear: tuple[dict[str, int], int]) -> bool:
    """Whether every number of a linear form fits a machine word (isl's `int_from_si`); the
    general path takes the others (it fails or succeeds on them as it always did)."""
    coefficients, constant = linear
    return -_WORD_LIMIT < constant < _WORD_LIMIT and \
        all(-_WORD_LIMIT < c < _WORD_LIMIT for c in coefficients.values())


_WORD_LIMIT = 2**62


def _linear_form(expr: Expression) -> tuple[dict[str, int], int] | None:
    """``(coefficients by name, constant)`` of `expr` when it is integers and variables
    joined by sums and by products with at most one non-constant factor (`_plainly_affine`);
    None otherwise."""
    cls = type(expr)
    if cls is p.Variable:
        return {expr.name: 1}, 0
    if cls is int or (isinstance(expr, int | np.integer) and not isinstance(expr, bool)):
        return {}, int(expr)
    if cls is p.Sum:
        terms: dict[str, int] = {}
        constant = 0
        for child in expr.children:
            part = _linear_form(child)
            if part is None:
                return None
            for name, c in part[0].items():
                terms[name] = terms.get(name, 0) + c
            constant += part[1]
        return terms, constant
    if cls is p.Product:
        scale, varying = 1, None
        for child in expr.children:
            part = _linear_form(child)
            if part is None:
                return None
            if not part[0]:
                scale *= part[1]
            elif varying is None:
                varying = part
            else:
                return None   # a product of two non-constant factors is not affine
        if varying is None:
            return {}, scale
        return {n: c * scale for n, c in varying[0].items()}, varying[1] * scale
    return None


def is_affine(expr: Expression, names: Iterable[str]) -> bool:
    """Whether `expr` is quasi-affine in `names` (all free variables must be among them).

    The answer depends on the expression's shape only (its free variables join `names`), so
    it is remembered per expression (by `typed_key`: ``i + 1`` is affine, ``i + 1.0`` is
    not): analysis asks about the same subscripts many times.  Sums of integers, variables
    and their products by integers are affine without asking isl (400 subscripts
    ``k*n + i`` are 400 different expressions).
    """
    if _plainly_affine(expr):
        return True
    try:
        key = typed_key(expr)
        return _AFFINE_CACHE[key]
    except KeyError:
        pass
    except TypeError:   # an unhashable constant somewhere inside: do not remember
        return _is_affine(expr)
    if len(_AFFINE_CACHE) > 50_000:
        _AFFINE_CACHE.clear()
    answer = _AFFINE_CACHE[key] = _is_affine(expr)
    return answer


_AFFINE_CACHE: dict[object, bool] = {}


def _plainly_affine(expr: Expression) -> bool:
    """Whether `expr` is integers and variables joined by sums and by products with at most
    one non-constant factor: a part of what `aff_from_expr` converts (a sufficient test)."""
    if isinstance(expr, int | np.integer):
        return not isinstance(expr, bool)
    if type(expr) is p.Variable:
        return True
    if type(expr) is p.Sum:
        return all(_plainly_affine(c) for c in expr.children)
    if type(expr) is p.Product:
        return all(_plainly_affine(c) for c in expr.children) and \
            sum(not _integer_constant(c) for c in expr.children) <= 1
    return False


def _integer_constant(expr: Expression) -> bool:
    """Whether `expr` is integers joined by sums and products."""
    if isinstance(expr, int | np.integer):
        return not isinstance(expr, bool)
    if type(expr) in (p.Sum, p.Product):
        return all(_integer_constant(c) for c in expr.children)
    return False


def _is_affine(expr: Expression) -> bool:
    names = tuple(sorted(dependencies(expr)))
    space = isl.Space.create_from_names(isl.DEFAULT_CONTEXT, set=list(names), params=[])
    try:
        aff_from_expr(space, expr)
    except DomainError:
        return False
    return True


def simplified_affine(expr: Expression, names: Sequence[str]) -> Expression:
    """The quasi-affine `expr` (free variables among `names`) in isl's normal form: like terms
    collected, constants folded.  `expr` itself where isl needs several pieces."""
    space = isl.Space.create_from_names(isl.DEFAULT_CONTEXT, set=list(names))
    pieces = aff_from_expr(space, expr).get_pieces()
    return expr_from_aff(pieces[0][1]) if len(pieces) == 1 else expr


def expr_from_aff(aff: isl.Aff) -> Expression:
    """An Aff (possibly with integer divisions and a denominator) -> pymbolic expression.

    Integer divisions become `FloorDiv`; a denominator d gives ``FloorDiv(numerator, d)``,
    which is exact wherever the Aff is integral (bounds, subscripts)."""
    den_val = aff.get_denominator_val()
    den = den_val.to_python()
    terms: list[Expression] = []
    for dt in (dim_type.param, dim_type.in_):
        for k in range(aff.dim(dt)):
            c = aff.get_coefficient_val(dt, k).mul(den_val).to_python()
            if c:
                terms.append(_times(c, p.Variable(aff.get_dim_name(dt, k))))
    for k in range(aff.dim(dim_type.div)):
        c = aff.get_coefficient_val(dim_type.div, k).mul(den_val).to_python()
        if c:
            terms.append(_times(c, expr_from_aff(aff.get_div(k))))
    const = aff.get_constant_val().mul(den_val).to_python()
    if const:
        terms.append(int(const))
    total: Expression = 0
    if terms:
        total = terms[0] if len(terms) == 1 else p.Sum(tuple(terms))
    return p.FloorDiv(total, int(den)) if den != 1 else total


def _times(c, e: Expression) -> Expression:
    c = int(c)
    return e if c == 1 else p.Product((c, e))


def expr_from_pwaff(pw: isl.PwAff, *, combine: str = "max") -> Expression:
    """A PwAff -> expression.

    `combine` says how several pieces become one expression: "exact" nests conditionals over
    the pieces' parameter domains (``if(cond1, e1, e2)``: always right, what extents and copy
    sizes need); "min" or "max" take the least or greatest piece (a bound: exact for the
    minimum/maximum over a convex set only where the value function is convex/concave).
    Constant pieces fold to one number under min/max.
    """
    pieces: list[tuple[isl.Set, Expression]] = []
    for dom, aff in pw.coalesce().get_pieces():
        e = expr_from_aff(aff)
        if e not in (q for _, q in pieces):
            pieces.append((dom, e))
    if not pieces:
        raise DomainError("empty bound (the domain may be empty)")
    exprs = [e for _, e in pieces]
    if len(exprs) == 1:
        return exprs[0]
    if combine == "exact":
        result = exprs[-1]
        for dom, e in reversed(pieces[:-1]):
            result = p.If(set_condition(dom), e, result)
        return result
    if all(isinstance(e, int) for e in exprs):
        return min(exprs) if combine == "min" else max(exprs)
    return p.Call(p.Variable(combine), tuple(exprs))


def set_condition(s: isl.Set | isl.BasicSet) -> Expression:
    """A parameter-only set as a boolean expression (or of ands of its constraints)."""
    s = isl.Set.from_basic_set(s) if isinstance(s, isl.BasicSet) else s
    # every integer division explicit: a piece of a maximum over a strided domain may carry
    # existentials without an expression, which a constraint cannot print
    s = s.compute_divs()
    terms = []
    for bs in s.get_basic_sets():
        conds = [_constraint_condition(c) for c in bs.get_constraints()]
        terms.append(True if not conds else conds[0] if len(conds) == 1
                     else p.LogicalAnd(tuple(conds)))
    return terms[0] if len(terms) == 1 else p.LogicalOr(tuple(terms))


def iname_bounds(domain: isl.BasicSet | isl.Set, iname: str,
                 outer: Sequence[str] = ()) -> tuple[isl.PwAff, isl.PwAff]:
    """Lower and upper bound (inclusive) of `iname`, as PwAffs in params and `outer` inames."""
    s = isl.Set.from_basic_set(domain) if isinstance(domain, isl.BasicSet) else domain
    names = inames_of(s)
    if iname not in names:
        raise DomainError(f"unknown iname {iname!r}")
    keep = set(outer) | {iname}
    for n in names:
        if n not in keep:
            k = s.find_dim_by_name(dim_type.set, n)
            s = s.project_out(dim_type.set, k, 1)
    # move outer inames to parameters so bounds are expressed in them
    for n in outer:
        k = s.find_dim_by_name(dim_type.set, n)
        if k >= 0:
            s = s.move_dims(dim_type.param, s.dim(dim_type.param), dim_type.set, k, 1)
    k = s.find_dim_by_name(dim_type.set, iname)
    return s.dim_min(k), s.dim_max(k)


def constant_extent(domain: isl.BasicSet | isl.Set, iname: str) -> int | None:
    """The number of values `iname` takes, if that is one constant for the whole domain."""
    s = isl.Set.from_basic_set(domain) if isinstance(domain, isl.BasicSet) else domain
    lo, hi = iname_bounds(s, iname)
    size = hi.sub(lo).add_constant_val(isl.Val.one(s.get_ctx())).coalesce()
    if not size.is_cst():
        return None
    values = {aff.get_constant_val().to_python() for _, aff in size.get_pieces()}
    return int(values.pop()) if len(values) == 1 else None


def constant_extent_bound(domain: isl.BasicSet | isl.Set, iname: str,
                          outer: Sequence[str] | None = None) -> int | None:
    """A constant upper bound on the trip count of `iname` for fixed `outer` inames (default:
    every other iname of the domain), or None if it is unbounded in the parameters."""
    extra = (iname, None if outer is None else tuple(outer))
    return text_memoized("extent_bound", (domain,), extra,
                         lambda: _constant_extent_bound(domain, iname, outer))


def _constant_extent_bound(domain: isl.BasicSet | isl.Set, iname: str,
                           outer: Sequence[str] | None) -> int | None:
    if EXTENT_SHORTCUT and _trips_grow_with_params(domain, iname):
        return None
    s = isl.Set.from_basic_set(domain) if isinstance(domain, isl.BasicSet) else domain
    if outer is None:
        outer = [n for n in inames_of(s) if n != iname]
    lo, hi = iname_bounds(s, iname, outer)
    size = hi.sub(lo).add_constant_val(isl.Val.one(s.get_ctx()))
    ctx_set = project_onto(s, outer)
    ctx_set = ctx_set.move_dims(dim_type.param, ctx_set.dim(dim_type.param), dim_type.set, 0,
                                ctx_set.dim(dim_type.set))
    size = size.intersect_params(ctx_set.params()) if ctx_set.dim(dim_type.set) == 0 else size
    try:
        v = size.max_val()
    except isl.Error:
        return None
    return int(v.to_python()) if v.is_int() else None


#: Whether `_constant_extent_bound` first tries `_trips_grow_with_params` (tests compare).
EXTENT_SHORTCUT = True


def _trips_grow_with_params(domain: isl.BasicSet | isl.Set, iname: str) -> bool:
    """Whether the trip count of `iname` has no constant bound, read from the domain's text
    without isl (`constant_extent_bound` is then None, whatever inames are fixed): every
    parameter only loosens the constraints (none has a negative coefficient, none is in an
    equality), no equality involves `iname`, and either every upper bound of `iname` or
    every lower bound loosens as the parameters grow.  From any point of the domain, all
    parameters increased together keep the point inside and widen the range of `iname`
    there without limit (an empty domain has no bound either).  False where that is not
    read so (isl decides)."""
    if isinstance(domain, isl.BasicSet) and domain.dim(dim_type.div):
        return False
    read = _plain_constraints(domain.to_str())
    if read is None or iname not in read[0] or not read[1]:
        return False
    params = set(read[1])
    lowers: list[int] = []
    uppers: list[int] = []
    for terms, _, equality in read[2]:
        coefficients = dict(terms)
        growth = [c for n, c in terms if n in params]
        if any(c < 0 for c in growth) or (equality and (growth or iname in coefficients)):
            return False
        a = coefficients.get(iname, 0)
        if a and not equality:
            (lowers if a > 0 else uppers).append(sum(growth))
    return bool(lowers and uppers) and (all(uppers) or all(lowers))


def is_nonnegative(expr: Expression, domain: isl.BasicSet | isl.Set,
                   assumptions: isl.BasicSet | None = None) -> bool:
    """Prove `expr >= 0` on every point of `domain` (under `assumptions`)."""
    try:
        key = ("nonnegative", typed_key(expr), id(domain), id(assumptions))
    except TypeError:   # an unhashable expression: compute, do not remember
        return _is_nonnegative(expr, domain, assumptions)
    # by identity first, then by text (a kernel built again, or the next of many alike)
    return memoized(key, (domain, assumptions),
                    lambda: text_memoized("nonnegative", (domain, assumptions), (key[1],),
                                          lambda: _is_nonnegative(expr, domain, assumptions)))


def _is_nonnegative(expr: Expression, domain: isl.BasicSet | isl.Set,
                    assumptions: isl.BasicSet | None) -> bool:
    s = isl.Set.from_basic_set(domain) if isinstance(domain, isl.BasicSet) else domain
    s = _align_params(s, dependencies(expr))
    if assumptions is not None:
        s = s.intersect_params(_param_set_aligned(assumptions, s))
    try:
        aff = aff_from_expr(s.get_space(), expr)
    except DomainError:
        return False
    neg = aff.lt_set(isl.PwAff.zero_on_domain(isl.LocalSpace.from_space(s.get_space())))
    return neg.intersect(s).is_empty()


def _align_params(s: isl.Set, names: Iterable[str]) -> isl.Set:
    have = set(s.get_var_names(dim_type.set)) | set(s.get_var_names(dim_type.param))
    for n in sorted(set(names) - have):
        k = s.dim(dim_type.param)
        s = s.add_dims(dim_type.param, 1).set_dim_name(dim_type.param, k, n)
    return s


def _param_set_aligned(params: isl.BasicSet | isl.Set, like: isl.Set) -> isl.Set:
    """`params` as a parameter-only set in the parameter space of `like`."""
    ps = isl.Set.from_basic_set(params) if isinstance(params, isl.BasicSet) else params
    if ps.dim(dim_type.set):
        ps = ps.params()
    return ps.align_params(like.get_space()).params()


def union_all(sets: Sequence[isl.Set], *, coalesce: bool = True) -> isl.Set:
    """The union of `sets` (at least one; parameters aligned), built as a balanced tree (n log
    n, where a running union copies n squared pieces); coalesced once at the end unless told
    not to (the pieces of many disjoint footprints do not merge, and coalescing is quadratic
    in their number)."""
    level = list(sets)
    while len(level) > 1:
        joined = [a.align_params(b.get_space()).union(b.align_params(a.get_space()))
                  for a, b in zip(level[::2], level[1::2])]
        level = joined + ([level[-1]] if len(level) % 2 else [])
    return level[0].coalesce() if coalesce else level[0]


def domain_parents(domains: Sequence[isl.BasicSet]) -> tuple[int | None, ...]:
    """Parent index of each domain: the nearest earlier domain defining one of its params."""
    return _forest(domains).parents


@dataclass(frozen=True)
class _ForestInfo:
    """What the domain-forest queries need, read from isl once per domain tuple."""

    inames: tuple[tuple[str, ...], ...]
    params: tuple[tuple[str, ...], ...]
    parents: tuple[int | None, ...]
    #: The last domain defining each iname.
    owner: dict[str, int]


#: Recent forests by the identity of their domain tuple.  The entry holds the tuple itself,
#: so its id cannot be reused while cached; a handful of entries covers a region's passes.
_FOREST_CACHE: dict[int, tuple[Sequence[isl.BasicSet], _ForestInfo]] = {}
_FOREST_CACHE_SIZE = 16


def _forest(domains: Sequence[isl.BasicSet]) -> _ForestInfo:
    hit = _FOREST_CACHE.get(id(domains))
    if hit is not None and hit[0] is domains:
        return hit[1]
    info = _read_forest(domains)
    if isinstance(domains, tuple):
        if len(_FOREST_CACHE) >= _FOREST_CACHE_SIZE:
            _FOREST_CACHE.pop(next(iter(_FOREST_CACHE)))
        _FOREST_CACHE[id(domains)] = (domains, info)
    return info


def _read_forest(domains: Sequence[isl.BasicSet]) -> _ForestInfo:
    """One pass in order: a domain's parent is the latest earlier definer of one of its
    params (the nearest earlier domain that defines any of them)."""
    names = tuple(inames_of(d) for d in domains)
    params = tuple(params_of(d) for d in domains)
    latest: dict[str, int] = {}
    parents: list[int | None] = []
    for k in range(len(domains)):
        found = [latest[p] for p in params[k] if p in latest]
        parents.append(max(found) if found else None)
        for n in names[k]:
            latest[n] = k
    return _ForestInfo(names, params, tuple(parents), latest)


def check_forest(domains: Sequence[isl.BasicSet]) -> None:
    """Each iname defined once; each domain's iname-params come from its ancestors."""
    seen: dict[str, int] = {}
    info = _forest(domains)
    for k, names in enumerate(info.inames):
        for n in names:
            if n in seen:
                raise DomainError(f"iname {n!r} is defined by more than one domain "
                                  f"(domains {seen[n]} and {k})")
            seen[n] = k
    parents = info.parents
    for k in range(len(domains)):
        ancestors = set()
        j = parents[k]
        while j is not None:
            ancestors |= set(info.inames[j])
            j = parents[j]
        for prm in info.params[k]:
            if prm in seen and prm not in ancestors:
                raise DomainError(
                    f"domain {k} uses iname {prm!r} of domain {seen[prm]}, which is not its "
                    "ancestor in the domain forest (ill-formed forest)")


def forest_path(domains: Sequence[isl.BasicSet], inames: Iterable[str]) -> list[int]:
    """The positions of the domains defining `inames` and of their ancestors, in order: what
    `combined_domain` intersects (no isl work).

    Raises DomainError for an unknown iname or a branching sub-forest.
    """
    inames = set(inames)
    info = _forest(domains)
    owner, parents = info.owner, info.parents
    missing = sorted(inames - set(owner))
    if missing:
        raise DomainError(f"unknown iname(s): {', '.join(missing)}")
    needed: set[int] = set()
    for n in inames:
        j: int | None = owner[n]
        while j is not None:
            needed.add(j)
            j = parents[j]
    children: dict[int | None, list[int]] = {}
    for j in sorted(needed):
        children.setdefault(parents[j], []).append(j)
    for j, ch in children.items():
        if j is not None and len(ch) > 1:
            raise DomainError(
                f"inames {', '.join(sorted(inames))} need a branching part of the domain forest "
                f"(domain {j} has children {ch}); the forest is ill-formed for them")
    return sorted(needed)


def combined_domain(domains: Sequence[isl.BasicSet], inames: Iterable[str]) -> isl.BasicSet:
    """The iteration domain of `inames`: the domains defining them and their ancestors,
    intersected (iname-params promoted to set dims), projected onto nothing else.

    Raises DomainError for an unknown iname or a branching sub-forest.
    """
    result = None
    for j in forest_path(domains, inames):
        d = isl.Set.from_basic_set(domains[j])
        result = d if result is None else _intersect_promoting(result, d)
    if result is None:
        return isl.BasicSet.universe(isl.Space.set_alloc(isl.DEFAULT_CONTEXT, 0, 0))
    bs = result.coalesce().get_basic_sets()
    return bs[0] if len(bs) == 1 else result.convex_hull()


def _intersect_promoting(outer: isl.Set, inner: isl.Set) -> isl.Set:
    """Intersect by name: inner's params that are outer's inames become set dims."""
    order = list(inames_of(outer)) + [n for n in inames_of(inner) if n not in inames_of(outer)]
    a = _all_to_params(outer).align_params(_all_to_params(inner).get_space())
    b = _all_to_params(inner).align_params(a.get_space())
    return params_to_set_dims(a.intersect_params(b) if a.dim(dim_type.set) == 0
                              else a.intersect(b), order)


def _all_to_params(s: isl.BasicSet | isl.Set) -> isl.Set:
    """Every set dim becomes a parameter (names kept)."""
    s = isl.Set.from_basic_set(s) if isinstance(s, isl.BasicSet) else s
    n = s.dim(dim_type.set)
    return s.move_dims(dim_type.param, s.dim(dim_type.param), dim_type.set, 0, n) if n else s


def params_to_set_dims(s: isl.Set, names: Sequence[str]) -> isl.Set:
    """Move the named parameters to set dims, in the given order."""
    for n in names:
        k = s.find_dim_by_name(dim_type.param, n)
        s = s.move_dims(dim_type.set, s.dim(dim_type.set), dim_type.param, k, 1)
    return s


def project_onto(s: isl.BasicSet | isl.Set, keep: Iterable[str]) -> isl.Set:
    """Project out every set dim not in `keep`."""
    s = isl.Set.from_basic_set(s) if isinstance(s, isl.BasicSet) else s
    keep = set(keep)
    for n in reversed(inames_of(s)):
        if n not in keep:
            s = s.project_out(dim_type.set, s.find_dim_by_name(dim_type.set, n), 1)
    return s


def _isl_reason(e: Exception) -> str:
    """isl's complaint without the call and the isl source location."""
    msg = _isl_msg(e)
    msg = re.sub(r"^call to \w+ failed:\s*", "", msg)
    return re.sub(r"\s*in /\S+$", "", msg) or "isl rejected it"


def _involves_divs(c: isl.Constraint) -> bool:
    ls = c.get_local_space()
    return any(not c.get_coefficient_val(dim_type.div, j).is_zero()
               for j in range(ls.dim(dim_type.div)))


def _param_terms(c: isl.Constraint) -> Expression:
    """The constant plus the parameter terms of a constraint (no set dims, no divs)."""
    terms: list[Expression] = []
    for k in range(c.get_space().dim(dim_type.param)):
        v = int(c.get_coefficient_val(dim_type.param, k).to_python())
        if v:
            terms.append(_times(v, p.Variable(c.get_dim_name(dim_type.param, k))))
    const = int(c.get_constant_val().to_python())
    if const:
        terms.append(const)
    return _sum(terms)


def _sum(terms: list[Expression]) -> Expression:
    if not terms:
        return 0
    return terms[0] if len(terms) == 1 else p.Sum(tuple(terms))


def _neg(e: Expression) -> Expression:
    """-e, distributed over sums and constant factors (keeps printed bounds readable)."""
    if isinstance(e, int):
        return -e
    if isinstance(e, p.Sum):
        return p.Sum(tuple(_neg(t) for t in e.children))
    if isinstance(e, p.Product) and isinstance(e.children[0], int):
        c = -e.children[0]
        rest = e.children[1:]
        if c == 1:
            return rest[0] if len(rest) == 1 else p.Product(rest)
        return p.Product((c, *rest))
    return p.Product((-1, e))


def _constraint_condition(c: isl.Constraint) -> Expression:
    terms: list[Expression] = []
    rest = _param_terms(c)
    if rest != 0:
        terms.append(rest)
    ls = c.get_local_space()
    for j in range(ls.dim(dim_type.div)):
        v = int(c.get_coefficient_val(dim_type.div, j).to_python())
        if v:
            terms.append(_times(v, expr_from_aff(c.get_div(j))))
    return p.Comparison(_sum(terms), "==" if c.is_equality() else ">=", 0)


# -- reading isl's text of plain sets ---------------------------------------------------------

#: A linear constraint read from isl's text: (sorted (name, coefficient) pairs, constant,
#: whether an equality): ``sum + constant >= 0`` (or ``== 0``).
_Linear = tuple[tuple[tuple[str, int], ...], int, bool]


def _minus(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    out = dict(a)
    for n, c in b.items():
        out[n] = out.get(n, 0) - c
    return out


def _linear(coefficients: dict[str, int], constant: int, equality: bool = False) -> _Linear:
    """``sum(c*name) + constant >= 0`` (``== 0``) in `_plain_constraints`' form."""
    return tuple(sorted((n, c) for n, c in coefficients.items() if c)), constant, equality


#: isl's text of a basic set without divisions: ``[params] -> { [inames] : conditions }``.
_SET_TEXT = LazyPattern(r"^(?:\[([\w, ]*)\] -> )?\{ \[([\w, ]*)\](?: : (.*))? \}$")
_COMPARE = LazyPattern(r"(<=|>=|<|>|=)")
#: A side of a comparison, spaces removed: ``16i_outer``, ``-n``, ``15`` joined by signs.
_SIDE = LazyPattern(r"[+-]?(?:\d*[A-Za-z_]\w*|\d+)(?:[+-](?:\d*[A-Za-z_]\w*|\d+))*")
_TERM = LazyPattern(r"([+-]?)(\d*)([A-Za-z_]\w*)?")
_WORDS_APART = re.compile(r"\w\s+\w")


def _plain_constraints(text: str) -> tuple[list[str], list[str], set[_Linear]] | None:
    """(inames, parameters, constraints) of isl's text of a basic set whose conditions are
    chains of comparisons of sums of integer multiples of names (what isl prints for a
    loop nest's domain); None for anything else (disjunctions, divisions, existentials)."""
    found = _SET_TEXT.match(text)
    if found is None:
        return None
    params = [n.strip() for n in (found.group(1) or "").split(",") if n.strip()]
    inames = [n.strip() for n in found.group(2).split(",") if n.strip()]
    known = set(params) | set(inames)
    out: set[_Linear] = set()
    for part in found.group(3).split(" and ") if found.group(3) else ():
        if _WORDS_APART.search(part):
            return None   # ``n or i``: words a space apart are no term
        pieces = _COMPARE.split(part.replace(" ", ""))
        sides = [_affine_text(t) for t in pieces[::2]]
        if len(pieces) < 3 or None in sides or any(not side[0].keys() <= known
                                                   for side in sides):
            return None
        for (a, ops, b) in zip(sides, pieces[1::2], sides[1:]):
            out.add(_comparison(a, ops, b))
    return inames, params, out


def _affine_text(text: str) -> tuple[dict[str, int], int] | None:
    """A sum of terms ``16i_outer``, ``-n``, ``15`` (no spaces) as (coefficients,
    constant), or None; remembered by text (the same sides recur: ``i_inner``, ``0``),
    so the answer must not be mutated."""
    try:
        return _AFFINE_TEXTS[text]
    except KeyError:
        pass
    found = _read_affine_text(text)
    if len(_AFFINE_TEXTS) >= 4096:
        _AFFINE_TEXTS.clear()
    _AFFINE_TEXTS[text] = found
    return found


_AFFINE_TEXTS: dict[str, tuple[dict[str, int], int] | None] = {}


def _read_affine_text(text: str) -> tuple[dict[str, int], int] | None:
    if not _SIDE.fullmatch(text):
        return None
    coefficients: dict[str, int] = {}
    constant = 0
    for sign, digits, name in _TERM.findall(text):
        if not (digits or name):
            continue   # (the empty match at the end)
        value = int(digits or 1) * (-1 if sign == "-" else 1)
        if name:
            coefficients[name] = coefficients.get(name, 0) + value
        else:
            constant += value
    return coefficients, constant


def _comparison(a: tuple[dict[str, int], int], op: str, b: tuple[dict[str, int], int]
                ) -> _Linear:
    """``a op b`` as `_Linear` (``a < b`` is ``b - a - 1 >= 0``)."""
    if op in (">", ">="):
        a, b, op = b, a, "<" if op == ">" else "<="
    diff = _minus(b[0], a[0]), b[1] - a[1]
    if op == "=":
        return _linear(*diff, equality=True)
    return _linear(diff[0], diff[1] - (op == "<"))
