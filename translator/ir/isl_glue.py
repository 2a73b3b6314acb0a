"""All islpy glue: domains, expression <-> affine conversion, bounds, proofs, the forest.

Nothing else in the project talks to isl directly; isl errors never reach users.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import islpy as isl
import numpy as np
import pymbolic.primitives as p

from translator.diagnostics import DomainError
from translator.ir.expr import Expression, dependencies

dim_type = isl.dim_type


# ---------------------------------------------------------------------------------------------
# parsing

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
    import re
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


# ---------------------------------------------------------------------------------------------
# expressions <-> affine

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
        if isinstance(e, (int,)) or (hasattr(e, "dtype") and e.dtype.kind in "iu"):
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
            return self(e.numerator).scale_down_val(isl.Val.int_from_si(self.space.get_ctx(), den)).floor()
        if isinstance(e, p.Remainder):
            den = self._const(e.denominator, e)
            return self(e.numerator).mod_val(isl.Val.int_from_si(self.space.get_ctx(), den))
        if isinstance(e, p.Min) or (isinstance(e, p.Call) and getattr(e.function, "name", "") == "min"):
            ch = e.children if isinstance(e, p.Min) else e.parameters
            out = self(ch[0])
            for c in ch[1:]:
                out = out.min(self(c))
            return out
        if isinstance(e, p.Max) or (isinstance(e, p.Call) and getattr(e.function, "name", "") == "max"):
            ch = e.children if isinstance(e, p.Max) else e.parameters
            out = self(ch[0])
            for c in ch[1:]:
                out = out.max(self(c))
            return out
        raise DomainError(f"non-affine expression {e}")

    def _const(self, e: Expression, whole: Expression) -> int:
        if isinstance(e, int | np.integer) and not isinstance(e, bool) and e > 0:
            return int(e)
        raise DomainError(f"division by a non-constant or non-positive value in {whole}")


def is_affine(expr: Expression, names: Iterable[str]) -> bool:
    """Whether `expr` is quasi-affine in `names` (all free variables must be among them)."""
    names = tuple(sorted(set(names) | dependencies(expr)))
    space = isl.Space.create_from_names(isl.DEFAULT_CONTEXT, set=list(names), params=[])
    try:
        aff_from_expr(space, expr)
    except DomainError:
        return False
    return True


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
    terms = []
    for bs in s.get_basic_sets():
        conds = [_constraint_condition(c) for c in bs.get_constraints()]
        terms.append(True if not conds else conds[0] if len(conds) == 1
                     else p.LogicalAnd(tuple(conds)))
    return terms[0] if len(terms) == 1 else p.LogicalOr(tuple(terms))


# ---------------------------------------------------------------------------------------------
# bounds and proofs

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


def is_nonnegative(expr: Expression, domain: isl.BasicSet | isl.Set,
                   assumptions: isl.BasicSet | None = None) -> bool:
    """Prove `expr >= 0` on every point of `domain` (under `assumptions`)."""
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


def align_two(a: isl.Set, b: isl.Set) -> tuple[isl.Set, isl.Set]:
    """Give two sets the same parameter space."""
    return a.align_params(b.get_space()), b.align_params(a.get_space())


# ---------------------------------------------------------------------------------------------
# the domain forest

def domain_parents(domains: Sequence[isl.BasicSet]) -> tuple[int | None, ...]:
    """Parent index of each domain: the nearest earlier domain defining one of its params."""
    parents: list[int | None] = []
    for k, d in enumerate(domains):
        params = set(params_of(d))
        parent = None
        for j in range(k - 1, -1, -1):
            if params & set(inames_of(domains[j])):
                parent = j
                break
        parents.append(parent)
    return tuple(parents)


def check_forest(domains: Sequence[isl.BasicSet]) -> None:
    """Each iname defined once; each domain's iname-params come from its ancestors."""
    seen: dict[str, int] = {}
    for k, d in enumerate(domains):
        for n in inames_of(d):
            if n in seen:
                raise DomainError(f"iname {n!r} is defined by more than one domain "
                                  f"(domains {seen[n]} and {k})")
            seen[n] = k
    parents = domain_parents(domains)
    for k, d in enumerate(domains):
        ancestors = set()
        j = parents[k]
        while j is not None:
            ancestors |= set(inames_of(domains[j]))
            j = parents[j]
        for prm in params_of(d):
            if prm in seen and prm not in ancestors:
                raise DomainError(
                    f"domain {k} uses iname {prm!r} of domain {seen[prm]}, which is not its "
                    "ancestor in the domain forest (ill-formed forest)")


def combined_domain(domains: Sequence[isl.BasicSet], inames: Iterable[str]) -> isl.BasicSet:
    """The iteration domain of `inames`: the domains defining them and their ancestors,
    intersected (iname-params promoted to set dims), projected onto nothing else.

    Raises DomainError for an unknown iname or a branching sub-forest.
    """
    inames = set(inames)
    owner: dict[str, int] = {}
    for k, d in enumerate(domains):
        for n in inames_of(d):
            owner[n] = k
    missing = sorted(inames - set(owner))
    if missing:
        raise DomainError(f"unknown iname(s): {', '.join(missing)}")
    parents = domain_parents(domains)
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
    result = None
    for j in sorted(needed):
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


# ---------------------------------------------------------------------------------------------
# Fortran frontend: loop domains from DO bounds, footprints of assumed-size arrays

def make_loop_domain(iname: str, lower: Expression, upper: Expression, step: int = 1,
                     ) -> isl.BasicSet:
    """The domain of one counted loop, parameters = the free names of the bounds.

    step 1: ``lower <= iname <= upper``.  Other constant steps: `iname` is a 0-based trip
    counter, ``0 <= iname`` and ``lower + step*iname <= upper`` (``>=`` for negative steps).
    Integer quotients by positive constants (`Quotient`: truncating, as in Fortran and C) are
    accepted where they give the same domain as floor division for every sign of their
    numerators; otherwise DomainError("truncating division ...").  Raises DomainError for a
    non-affine bound or a non-convex domain (``i <= max(a, b)``).
    """
    if step == 0:
        raise DomainError("DO loop with a zero step")
    quotients = _truncating_quotients(lower) + [
        q for q in _truncating_quotients(upper) if q not in _truncating_quotients(lower)]
    floors = {q: p.FloorDiv(q.numerator, int(q.denominator)) for q in quotients}
    s = _loop_set(iname, _replace_quotients(lower, floors), _replace_quotients(upper, floors),
                  step)
    if quotients and not s.is_equal(_truncating_loop_set(iname, lower, upper, step, quotients)):
        raise DomainError(f"truncating division in the bounds of loop {iname!r}: the numerator "
                          "may be negative, where it rounds differently from isl's floor")
    bsets = s.coalesce().get_basic_sets()
    if len(bsets) != 1:
        if not bsets:
            return isl.BasicSet.empty(s.get_space())
        raise DomainError(f"the bounds of loop {iname!r} do not form a convex domain "
                          "(an upper bound max(...) or a lower bound min(...))")
    return bsets[0].remove_redundancies()


def _loop_set(iname: str, lower: Expression, upper: Expression, step: int) -> isl.Set:
    params = sorted((dependencies(lower) | dependencies(upper)) - {iname})
    space = isl.Space.create_from_names(isl.DEFAULT_CONTEXT, set=[iname], params=params)
    lo = aff_from_expr(space, lower)
    hi = aff_from_expr(space, upper)
    it = aff_from_expr(space, p.Variable(iname))
    if step == 1:
        return lo.le_set(it).intersect(it.le_set(hi))
    zero = aff_from_expr(space, 0)
    pos = lo.add(aff_from_expr(space, p.Product((step, p.Variable(iname)))))
    return zero.le_set(it).intersect(pos.le_set(hi) if step > 0 else pos.ge_set(hi))


def _truncating_quotients(e: Expression) -> list[p.Quotient]:
    """Integer quotients by positive constants in `e` (outermost first, no duplicates)."""
    import numpy as np

    from translator.ir.expr import IRWalkMapper
    found: list[p.Quotient] = []

    class _Walk(IRWalkMapper):
        def visit(self, expr, *args, **kwargs):
            den = getattr(expr, "denominator", None)
            if (isinstance(expr, p.Quotient) and not isinstance(den, bool)
                    and isinstance(den, (int, np.integer)) and int(den) > 0
                    and expr not in found):
                found.append(expr)
            return True

    _Walk()(e)
    return found


def _replace_quotients(e: Expression, mapping: dict) -> Expression:
    from translator.ir.expr import IRIdentityMapper

    class _Mapper(IRIdentityMapper):
        def map_quotient(self, expr, *args, **kwargs):
            if expr in mapping:
                return mapping[expr]
            return super().map_quotient(expr, *args, **kwargs)

    return _Mapper()(e)


def _truncating_loop_set(iname: str, lower: Expression, upper: Expression, step: int,
                         quotients: list[p.Quotient]) -> isl.Set:
    """The exact domain: one piece per sign of each quotient's numerator (trunc = floor for a
    non-negative numerator, -floor(-n/d) for a negative one)."""
    import itertools
    exact = None
    for signs in itertools.product((True, False), repeat=len(quotients)):
        mapping = {}
        for q, nonneg in zip(quotients, signs):
            d = int(q.denominator)
            mapping[q] = (p.FloorDiv(q.numerator, d) if nonneg else
                          p.Product((-1, p.FloorDiv(p.Product((-1, q.numerator)), d))))
        piece = _loop_set(iname, _replace_quotients(lower, mapping),
                          _replace_quotients(upper, mapping), step)
        space = piece.get_space()
        for q, nonneg in zip(quotients, signs):
            num = aff_from_expr(space, _replace_quotients(q.numerator, mapping))
            zero = aff_from_expr(space, 0)
            piece = piece.intersect(num.ge_set(zero) if nonneg else num.lt_set(zero))
        exact = piece if exact is None else exact.union(piece)
    return exact


def max_over_domain(domain: isl.BasicSet | isl.Set, expr: Expression) -> Expression:
    """The maximum of the affine `expr` over `domain`, as an expression in its parameters.

    Free names of `expr` that are not dims of `domain` become parameters.  Raises DomainError
    when `expr` is not affine or unbounded.
    """
    s = isl.Set.from_basic_set(domain) if isinstance(domain, isl.BasicSet) else domain
    s = _align_params(s, dependencies(expr))
    aff = aff_from_expr(s.get_space(), expr)
    image = isl.Map.from_pw_aff(aff).intersect_domain(s).range()
    try:
        hi = image.dim_max(0)
    except isl.Error:
        raise DomainError(f"cannot bound {expr} over the loop domain") from None
    if hi.is_empty() if hasattr(hi, "is_empty") else False:
        raise DomainError(f"cannot bound {expr} over the loop domain")
    try:
        return expr_from_pwaff(hi, combine="exact")
    except DomainError:
        raise DomainError(f"cannot bound {expr} over the loop domain (empty domain)") from None




# ---------------------------------------------------------------------------------------------
# transforms: splitting, joining, duplicating, fixing and renaming dims (transforms helper)

def _dim_position(s: isl.BasicSet, name: str) -> tuple[isl.dim_type, int] | None:
    """Where `name` lives in `s`: a set dim (an iname) or a parameter; None if absent."""
    return s.get_var_dict().get(name)


def _single_basic_set(s: isl.Set, what: str) -> isl.BasicSet:
    """A Set known to be convex -> BasicSet; a disjunction is a DomainError naming `what`."""
    pieces = s.coalesce().get_basic_sets()
    if not pieces:
        return isl.BasicSet.empty(s.get_space())
    if len(pieces) > 1:
        raise DomainError(f"{what} would make a domain non-convex")
    return pieces[0]


def split_dim(bset: isl.BasicSet, name: str, outer: str, inner: str, length: int, *,
              fixed_is_inner: bool = True, keep_original: bool = False) -> isl.BasicSet:
    """Replace dim `name` of `bset` (set dim or parameter) by `outer`, `inner` (same kind,
    inserted at its position) with ``name == inner + length*outer, 0 <= inner < length``
    (``fixed_is_inner``) or ``name == outer + length*inner, 0 <= outer < length``.

    With `keep_original`, `name` stays with its own constraints and the new dims are tied to a
    copy of it (they are independent of `name`), as needed when some statements still use it.
    """
    where = _dim_position(bset, name)
    if where is None:
        return bset
    dt, k = where
    s = (bset.insert_dims(dt, k + 1, 2).set_dim_name(dt, k + 1, outer)
         .set_dim_name(dt, k + 2, inner))
    space = s.get_space()
    fixed, free = (inner, outer) if fixed_is_inner else (outer, inner)
    linked = (s.add_constraint(isl.Constraint.eq_from_names(
                  space, {name: 1, fixed: -1, free: -length}))
              .add_constraint(isl.Constraint.ineq_from_names(space, {fixed: 1}))
              .add_constraint(isl.Constraint.ineq_from_names(space, {fixed: -1, 1: length - 1}))
              .project_out(dt, k, 1))
    if not keep_original:
        return linked
    linked = linked.insert_dims(dt, k, 1).set_dim_name(dt, k, name)
    return s.intersect(linked)


def duplicate_dim(bset: isl.BasicSet, name: str, new: str) -> isl.BasicSet:
    """Add `new` right after dim `name`, with the same constraints as `name` but independent
    of it (a copy of the loop)."""
    where = _dim_position(bset, name)
    if where is None:
        return bset
    dt, k = where
    with_new = bset.insert_dims(dt, k + 1, 1).set_dim_name(dt, k + 1, new)
    copy = bset.set_dim_name(dt, k, new).insert_dims(dt, k, 1).set_dim_name(dt, k, name)
    return with_new.intersect(copy)


def rename_dim(bset: isl.BasicSet, name: str, new: str) -> isl.BasicSet:
    """Rename dim `name` (set dim or parameter) to `new`; unchanged if absent."""
    where = _dim_position(bset, name)
    return bset if where is None else bset.set_dim_name(where[0], where[1], new)


def project_out_names(bset: isl.BasicSet, names: Iterable[str]) -> isl.BasicSet:
    """Project out the named dims (set dims or parameters) that `bset` has; their constraints
    on the remaining dims persist (existentially)."""
    for name in names:
        where = _dim_position(bset, name)
        if where is not None:
            bset = bset.project_out(where[0], where[1], 1)
    return bset


def fix_dim(bset: isl.BasicSet, name: str, value: int) -> isl.BasicSet:
    """Set dim/parameter `name` to the integer `value` and project it out."""
    where = _dim_position(bset, name)
    if where is None:
        return bset
    c = isl.Constraint.eq_from_names(bset.get_space(), {name: 1, 1: -int(value)})
    return bset.add_constraint(c).project_out(where[0], where[1], 1)


def add_dim(bset: isl.BasicSet, name: str, *, param: bool = False,
            pos: int | None = None) -> isl.BasicSet:
    """Add an unconstrained set dim (or parameter) `name` at `pos` (default: last)."""
    dt = dim_type.param if param else dim_type.set
    k = bset.dim(dt) if pos is None else pos
    return bset.insert_dims(dt, k, 1).set_dim_name(dt, k, name)


def constrain_equal(bset: isl.BasicSet, name: str, expr: Expression) -> isl.BasicSet:
    """Intersect with ``name == expr``; `expr` is quasi-affine in the dims of `bset`."""
    s = isl.Set.from_basic_set(bset)
    space = s.get_space()
    lhs = aff_from_expr(space, p.Variable(name))
    rhs = aff_from_expr(space, expr)
    return _single_basic_set(s.intersect(lhs.eq_set(rhs)), f"'{name} = {expr}'")


def static_lower_bound(bset: isl.BasicSet, name: str) -> Expression | None:
    """The lower bound of set dim `name` over all other inames, as one affine expression in
    the parameters; None if it is not a single affine piece (or unbounded).  An empty
    domain has lower bound 0 (and `static_length` 1): any mapping of no points will do."""
    if bset.is_empty():
        return 0
    try:
        lo = project_onto(bset, [name]).dim_min(0)
    except isl.Error:   # unbounded below
        return None
    pieces = lo.coalesce().get_pieces()
    if len(pieces) != 1:
        return None
    return expr_from_aff(pieces[0][1])


def static_length(bset: isl.BasicSet, name: str, lower: Expression) -> int | None:
    """The largest ``name - lower + 1`` over `bset` if it is a constant; else None."""
    if bset.is_empty():
        return 1
    s = isl.Set.from_basic_set(bset)
    diff = aff_from_expr(s.get_space(), p.Sum((p.Variable(name), p.Product((-1, lower)))))
    pieces = diff.get_pieces()
    if len(pieces) != 1:
        return None
    try:
        val = s.max_val(pieces[0][1])
    except isl.Error:
        return None
    return int(val.to_python()) + 1 if val.is_int() else None


def box_extent(bset: isl.BasicSet, name: str) -> tuple[Expression, int | None] | None:
    """If set dim `name` ranges over ``0 <= name < E`` whatever the other inames are, return
    (E as an expression in the parameters, E as an int if constant); else None."""
    if bset.is_empty():
        return 0, 0
    s = isl.Set.from_basic_set(bset)
    try:
        lo, hi = iname_bounds(s, name)
    except isl.Error:   # unbounded
        return None
    lo_pieces = lo.coalesce().get_pieces()
    if len(lo_pieces) != 1 or expr_from_aff(lo_pieces[0][1]) != 0:
        return None
    size = hi.add_constant_val(isl.Val.one(s.get_ctx())).coalesce()
    extent = expr_from_pwaff(size, combine="min")   # an upper bound is the least of several
    k = s.find_dim_by_name(dim_type.set, name)
    space = s.get_space()
    var = aff_from_expr(space, p.Variable(name))
    box = (s.eliminate(dim_type.set, k, 1)
           .intersect(var.ge_set(aff_from_expr(space, 0)))
           .intersect(var.lt_set(aff_from_expr(space, extent))))
    if not box.is_equal(s):
        return None
    return extent, (extent if isinstance(extent, int) else None)


def parse_param_set(text: str, params: Iterable[str]) -> isl.BasicSet:
    """Parse a parameter-only condition (``n mod 4 = 0 and n >= 1``) over `params`."""
    import re
    keywords = {"and", "or", "not", "mod", "exists", "floor", "ceil", "min", "max", "true",
                "false", "infty"}
    bound = {b.strip() for group in re.findall(r"exists\s*\(?\s*([\w\s,]+?)\s*:", text)
             for b in group.split(",")}
    params = sorted(set(params))
    unknown = sorted(set(re.findall(r"[A-Za-z_]\w*", text)) - keywords - bound - set(params))
    if unknown:
        raise DomainError(f"unknown name(s) {', '.join(unknown)} in {text!r} (known "
                          f"parameters: {', '.join(params) or 'none'})")
    try:
        s = isl.Set(f"[{', '.join(params)}] -> {{ : {text} }}")
    except isl.Error as e:
        raise DomainError(f"malformed condition {text!r}: {_isl_reason(e)}") from None
    return _single_basic_set(s, f"condition {text!r}")


def intersect_params(old: isl.BasicSet | None, new: isl.BasicSet) -> isl.BasicSet:
    """The parameter set of `old` and `new` together (parameter spaces aligned by name)."""
    new = new.params()
    if old is None:
        return new
    old = old.params().align_params(new.get_space())
    return old.intersect(new.align_params(old.get_space()))


def iname_domains_equal(domains: Sequence[isl.BasicSet], a: str, b: str) -> bool:
    """Whether inames `a` and `b` iterate over the same values (for the same values of
    parameters and of the inames of their ancestor domains)."""
    def alone(name: str) -> isl.Set:
        home = next(set(inames_of(d)) for d in domains if name in inames_of(d))
        s = isl.Set.from_basic_set(combined_domain(domains, [name]))
        for other in inames_of(s):
            if other in home and other != name:   # siblings: only their existence matters
                s = s.project_out(dim_type.set, s.find_dim_by_name(dim_type.set, other), 1)
            elif other != name:                   # ancestors: fixed by enclosing loops
                k = s.find_dim_by_name(dim_type.set, other)
                s = s.move_dims(dim_type.param, s.dim(dim_type.param), dim_type.set, k, 1)
        k = s.find_dim_by_name(dim_type.set, name)
        return s.set_dim_name(dim_type.set, k, "_tr_x")
    sa, sb = alone(a), alone(b)
    sa = sa.align_params(sb.get_space())
    return sa.is_equal(sb.align_params(sa.get_space()))


def _isl_reason(e: Exception) -> str:
    """isl's complaint without the call and the isl source location."""
    import re
    msg = _isl_msg(e)
    msg = re.sub(r"^call to \w+ failed:\s*", "", msg)
    return re.sub(r"\s*in /\S+$", "", msg) or "isl rejected it"


def as_param_set(obj: object) -> isl.BasicSet | None:
    """An islpy set given by a user (assumptions) as a parameter-only BasicSet; None if `obj`
    is not an islpy set."""
    if isinstance(obj, isl.BasicSet):
        return obj.params()
    if isinstance(obj, isl.Set):
        return _single_basic_set(obj.params(), "the assumptions")
    return None


# ---------------------------------------------------------------------------------------------
# codegen: statement domains, loop bounds, guards, proofs in a context (codegen helper)
#
# A *context* is a parameter-only isl set: every iname that an enclosing loop or the hardware
# grid fixes is a parameter there, so contexts from different statements combine by name.

def statement_domain(domains: Sequence[isl.BasicSet], inames: Iterable[str]) -> isl.BasicSet:
    """The iteration domain of a statement within `inames`: the forest part for them,
    projected onto exactly those inames."""
    inames = set(inames)
    s = project_onto(combined_domain(domains, inames), inames)
    bsets = s.coalesce().get_basic_sets()
    if len(bsets) == 1:
        return bsets[0]
    return s.convex_hull() if bsets else isl.BasicSet.empty(s.get_space())




def _aligned(a: isl.Set, b: isl.Set) -> tuple[isl.Set, isl.Set]:
    a = a.align_params(b.get_space())
    return a, b.align_params(a.get_space())


def context_set(conditions: Iterable[Expression],
                assumptions: isl.BasicSet | None = None) -> isl.Set:
    """A parameter-only set from affine conditions (``Comparison``/``LogicalAnd`` nodes over
    inames and parameters) and the kernel's assumptions.  Non-affine conditions are dropped
    (the context only serves to prove facts, so dropping one is always safe)."""
    conditions = tuple(conditions)
    names = sorted({n for c in conditions for n in dependencies(c)})
    space = isl.Space.create_from_names(isl.DEFAULT_CONTEXT, set=[], params=names)
    ctx = isl.Set.universe(space)
    for cond in conditions:
        piece = _condition_set(space, cond)
        if piece is not None:
            ctx = ctx.intersect(piece)
    if assumptions is not None:
        ass = _all_to_params(assumptions).params()
        ass = ass.align_params(ctx.get_space())
        ctx = ctx.align_params(ass.get_space()).intersect_params(ass)
    return ctx


def _condition_set(space: isl.Space, cond: Expression) -> isl.Set | None:
    if isinstance(cond, p.LogicalAnd):
        out = isl.Set.universe(space)
        for c in cond.children:
            piece = _condition_set(space, c)
            if piece is not None:
                out = out.intersect(piece)
        return out
    if not isinstance(cond, p.Comparison):
        return None
    try:
        left = aff_from_expr(space, cond.left)
        right = aff_from_expr(space, cond.right)
    except DomainError:
        return None
    make = {">=": left.ge_set, "<=": left.le_set, ">": left.gt_set, "<": left.lt_set,
            "==": left.eq_set, "!=": left.ne_set}.get(cond.operator)
    return None if make is None else make(right)


def loop_bound_constraints(domain: isl.BasicSet, iname: str, outer: Sequence[str],
                           context: isl.Set | None = None
                           ) -> tuple[list[tuple[int, Expression]], list[tuple[int, Expression]]]:
    """The loop bounds of `iname` inside the loops over `outer`.

    Returns (lowers, uppers): ``(a, e)`` in lowers means ``a*iname >= e``, in uppers
    ``a*iname <= e``, with `e` affine in parameters and `outer`.  Constraints implied by
    `context` (what enclosing loops already guarantee) are dropped; constraints that involve
    integer divisions (strides) are left to guards.
    """
    s = project_onto(domain, set(outer) | {iname})
    for n in inames_of(s):
        if n != iname:
            k = s.find_dim_by_name(dim_type.set, n)
            s = s.move_dims(dim_type.param, s.dim(dim_type.param), dim_type.set, k, 1)
    bsets = s.coalesce().get_basic_sets()
    bs = bsets[0] if len(bsets) == 1 else s.convex_hull()
    if context is not None:
        ctx = context.params()
        aligned = isl.Set.from_basic_set(bs).align_params(ctx.get_space())
        ctx = ctx.align_params(aligned.get_space())
        gisted = aligned.gist_params(ctx).coalesce().get_basic_sets()
        bs = gisted[0] if len(gisted) == 1 else bs
    bs = bs.remove_redundancies()
    lowers: list[tuple[int, Expression]] = []
    uppers: list[tuple[int, Expression]] = []
    for c in bs.get_constraints():
        a = int(c.get_coefficient_val(dim_type.set, 0).to_python())
        if a == 0 or _involves_divs(c):
            continue
        rest = _param_terms(c)
        if c.is_equality() or a > 0:
            lowers.append((abs(a), _neg(rest) if a > 0 else rest))
        if c.is_equality() or a < 0:
            uppers.append((abs(a), rest if a < 0 else _neg(rest)))
    return lowers, uppers


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


def gist_conditions(domain: isl.BasicSet | isl.Set, context: isl.Set) -> list[Expression] | None:
    """The conditions of `domain` not implied by `context`, as pymbolic comparisons
    (``expr >= 0`` / ``expr == 0``).  None: no point of `domain` lies in `context`."""
    s, ctx = _aligned(_all_to_params(domain), context)
    if s.intersect(ctx).is_empty():
        return None
    g = s.gist(ctx).coalesce()
    bsets = g.get_basic_sets()
    if len(bsets) != 1:
        g = g.convex_hull()
        bsets = [g] if isinstance(g, isl.BasicSet) else g.get_basic_sets()
    out: list[Expression] = []
    for c in bsets[0].get_constraints():
        out.append(_constraint_condition(c))
    return out


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


def nonnegative_in(expr: Expression, context: isl.Set) -> bool:
    """Prove `expr >= 0` at every point of a parameter-only `context`."""
    return is_nonnegative(expr, context)


def hardware_range(domain: isl.BasicSet, iname: str) -> tuple[Expression, Expression, int | None]:
    """(lowest value, number of values, constant bound on that number) of `iname` over the whole
    domain; the first two as expressions in parameters (safe bounds where piecewise)."""
    s = isl.Set.from_basic_set(domain) if isinstance(domain, isl.BasicSet) else domain
    lo, hi = iname_bounds(s, iname, ())
    size = hi.sub(lo).add_constant_val(isl.Val.one(s.get_ctx())).coalesce()
    try:
        v = size.max_val()
        extent = int(v.to_python()) if v.is_int() else None
    except isl.Error:
        extent = None
    return expr_from_pwaff(lo, combine="min"), expr_from_pwaff(size, combine="max"), extent


def restrict_context(context: isl.Set, domain: isl.BasicSet | isl.Set) -> isl.Set:
    """`context` intersected with `domain` (its inames as parameters)."""
    ctx, dom = _aligned(context, _all_to_params(domain))
    return ctx.intersect(dom)


def writes_cover_box(accesses: Sequence[tuple[isl.BasicSet, Sequence[Expression]]],
                     shape: Sequence[Expression], assumptions: isl.BasicSet | None = None) -> bool:
    """Whether the union of write footprints (statement domain, subscript) covers every element
    of an array of `shape` (for every parameter value allowed by `assumptions`)."""
    if not accesses or any(e is None for e in shape):
        return False
    names = [f"_tr_e{k}" for k in range(len(shape))]
    image = None
    try:
        for domain, indices in accesses:
            if len(indices) != len(shape):
                return False
            img = _footprint(domain, indices, names)
            image = img if image is None else image.union(img.align_params(image.get_space()))
        box = _box(shape, names, image.get_space())
    except (DomainError, isl.Error):
        return False
    box, image = box.align_params(image.get_space()), image.align_params(box.get_space())
    if assumptions is not None:
        ass = _all_to_params(assumptions).params()
        box = box.intersect_params(ass.align_params(box.get_space()))
    return box.is_subset(image.align_params(box.get_space()))


def _footprint(domain: isl.BasicSet, indices: Sequence[Expression], names: list[str]) -> isl.Set:
    return _footprint_of(isl.Set.from_basic_set(domain), indices, names)


def _box(shape: Sequence[Expression], names: list[str], like: isl.Space) -> isl.Set:
    params = sorted({d for e in shape for d in dependencies(e)})
    space = isl.Space.create_from_names(isl.DEFAULT_CONTEXT, set=names, params=params)
    box = isl.Set.universe(space)
    for nm, extent in zip(names, shape):
        v = aff_from_expr(space, p.Variable(nm))
        box = box.intersect(v.ge_set(aff_from_expr(space, 0)))
        box = box.intersect(v.lt_set(aff_from_expr(space, extent)))
    return box




# ---------------------------------------------------------------------------------------------
# kernel language: assumptions, domain checks, access footprints (language helper:
# translator/ir/parse*.py)

_KL_KEYWORDS = frozenset({"and", "or", "not", "mod", "exists", "floor", "ceil", "min", "max",
                          "true", "false", "infty"})


def kl_free_names(text: str) -> list[str]:
    """Identifiers of an ISL condition text that are neither keywords nor `exists`-bound."""
    import re
    bound = {b.strip() for group in re.findall(r"exists\s*\(?\s*([\w\s,]+?)\s*:", text)
             for b in group.split(",")}
    bound |= set(re.findall(r"([A-Za-z_]\w*)\s*=\s*floor\s*\(", text))  # isl's printed divs
    found = dict.fromkeys(re.findall(r"[A-Za-z_]\w*", text))
    return [n for n in found if n not in _KL_KEYWORDS and n not in bound]


def kl_parse_assumptions(text: str) -> isl.BasicSet:
    """A parameter-only BasicSet from ``n >= 1 and m > 0``, ``{ : n >= 1 }`` or
    ``[n] -> { : n >= 1 }``.  Raises DomainError for malformed or non-convex text."""
    full = text.strip()
    if "{" not in full:
        full = f"{{ : {full} }}"
    if "->" not in full.split("{", 1)[0]:
        full = f"[{', '.join(sorted(kl_free_names(full)))}] -> {full}"
    try:
        s = isl.Set(full)
    except isl.Error as e:
        hint = "write equality as '='" if "==" in text else (
            "expected affine conditions on parameters joined by 'and', e.g. 'n >= 1'")
        raise DomainError(f"malformed assumptions {text.strip()!r}: {_isl_reason(e)} "
                          f"({hint})") from None
    if s.dim(dim_type.set):
        raise DomainError(f"assumptions {text.strip()!r} may only constrain parameters "
                          "(write them as '{ : n >= 1 }' or 'n >= 1')")
    bsets = s.coalesce().get_basic_sets()
    if len(bsets) > 1:
        raise DomainError(f"assumptions {text.strip()!r} are not convex (a disjunction)")
    return bsets[0] if bsets else isl.BasicSet.empty(s.get_space())


def kl_unbounded_inames(domain: isl.BasicSet) -> tuple[str, ...]:
    """Inames of `domain` lacking a lower or an upper bound (loop domains must be finite)."""
    s = isl.Set.from_basic_set(domain)
    if s.is_empty() or s.is_bounded():
        return ()
    out = []
    for k, name in enumerate(inames_of(s)):
        if not (s.dim_has_any_lower_bound(dim_type.set, k)
                and s.dim_has_any_upper_bound(dim_type.set, k)):
            out.append(name)
    return tuple(out) or inames_of(s)


def kl_index_range(domain: isl.BasicSet, index: Expression) -> isl.Set | None:
    """The values of `index` over `domain`: a 1-D set in the parameters (free names of
    `index` that are not dims become parameters); None if `index` is not affine."""
    s = _align_params(isl.Set.from_basic_set(domain), dependencies(index))
    try:
        aff = aff_from_expr(s.get_space(), index)
    except DomainError:
        return None
    return isl.Map.from_pw_aff(aff).intersect_domain(s).range()


def kl_range_bounds(ranges: Sequence[isl.Set]) -> tuple[Expression, Expression] | None:
    """``(min, max + 1)`` over the union of 1-D `ranges`, as expressions in the parameters;
    None when empty or unbounded."""
    union = None
    for r in ranges:
        if union is None:
            union = r
        else:
            union = union.align_params(r.get_space())
            union = union.union(r.align_params(union.get_space()))
    if union is None or union.is_empty():
        return None
    try:
        lo, hi = union.dim_min(0), union.dim_max(0)
    except isl.Error:
        return None
    hi = hi.add_constant_val(isl.Val.one(hi.get_ctx()))
    try:
        return expr_from_pwaff(lo.coalesce(), combine="min"), expr_from_pwaff(hi.coalesce())
    except DomainError:
        return None


# ---------------------------------------------------------------------------------------------
# C frontend: loop domains from for-loop conditions, access footprints (frontends/c)

_C_RELATIONS = ("<", "<=", ">", ">=", "==")


def c_loop_domain(iname: str,
                  constraints: Sequence[tuple[Expression, str, Expression]]) -> isl.BasicSet:
    """The domain of one loop: `iname` constrained by ``(lhs, op, rhs)`` triples, op one of
    ``< <= > >= ==``.  Every other free name becomes a parameter (outer inames included).

    Raises DomainError for a non-affine constraint or a non-convex domain.
    """
    names = set()
    for lhs, _, rhs in constraints:
        names |= dependencies(lhs) | dependencies(rhs)
    space = isl.Space.create_from_names(isl.DEFAULT_CONTEXT, set=[iname],
                                        params=sorted(names - {iname}))
    s = isl.Set.universe(space)
    for lhs, op, rhs in constraints:
        if op not in _C_RELATIONS:
            raise DomainError(f"unknown relation {op!r} in a loop bound")
        a, b = aff_from_expr(space, lhs), aff_from_expr(space, rhs)
        make = {"<": a.lt_set, "<=": a.le_set, ">": a.gt_set, ">=": a.ge_set,
                "==": a.eq_set}[op]
        s = s.intersect(make(b))
    bsets = s.coalesce().get_basic_sets()
    if not bsets:
        return isl.BasicSet.empty(space)
    if len(bsets) > 1:
        raise DomainError(f"the bounds of loop {iname!r} do not form a convex domain (an "
                          "upper bound max(...) or a lower bound min(...))")
    return bsets[0].remove_redundancies()


def c_index_end(domain: isl.BasicSet | isl.Set, index: Expression,
                conditions: Sequence[Expression] = ()) -> Expression:
    """One past the largest value of the affine `index` over the points of `domain` where the
    affine `conditions` hold (others are ignored), as an expression in the parameters.

    For a convex domain the maximum is a concave function of the parameters, so pieces are
    combined with min (exact, and never larger than the true footprint).  Raises DomainError
    for a non-affine index or an unbounded maximum.
    """
    s = isl.Set.from_basic_set(domain) if isinstance(domain, isl.BasicSet) else domain
    names = set(dependencies(index))
    for c in conditions:
        names |= dependencies(c)
    s = _align_params(s, names)
    for c in conditions:
        piece = _condition_set(s.get_space(), c)
        if piece is not None:
            s = s.intersect(piece)
    aff = aff_from_expr(s.get_space(), index)
    image = isl.Map.from_pw_aff(aff).intersect_domain(s).range()
    if image.is_empty():
        return 0
    try:
        hi = image.dim_max(0)
    except isl.Error:
        raise DomainError(f"the largest value of {index} is unbounded") from None
    return expr_from_pwaff(hi.add_constant_val(isl.Val.one(hi.get_ctx())), combine="exact")


# ---------------------------------------------------------------------------------------------
# dependence analysis (translator.analysis): conflicts between two statement instances

def instance_set(domains: Sequence[isl.BasicSet], inames: Iterable[str],
                 conditions: Iterable[Expression] = (), rename: dict[str, str] | None = None,
                 assumptions: isl.BasicSet | None = None) -> isl.Set:
    """The instances of a statement over `inames` as a parameter-only set (every iname becomes
    a parameter, renamed by `rename`), restricted by the affine `conditions` (others are
    ignored: an over-approximation, which is safe for conflict search)."""
    dom = isl.Set.from_basic_set(combined_domain(domains, inames))
    dom = project_onto(dom, inames)
    for c in conditions:
        piece = _condition_set(_align_params(dom, dependencies(c)).get_space(), c)
        if piece is not None:
            dom = _align_params(dom, dependencies(c)).intersect(piece)
    if assumptions is not None:
        dom = dom.intersect_params(_param_set_aligned(assumptions, dom))
    dom = _all_to_params(dom)
    for old, new in (rename or {}).items():
        k = dom.find_dim_by_name(dim_type.param, old)
        if k >= 0:
            dom = dom.set_dim_name(dim_type.param, k, new)
    return dom


def find_conflict(first: isl.Set, second: isl.Set,
                  equalities: Sequence[tuple[Expression, Expression]],
                  differ: Sequence[tuple[str, str]],
                  less: Sequence[tuple[Expression, Expression]] = ()) -> dict[str, int] | None:
    """A point where both instance sets hold, every ``lhs == rhs`` and every ``lhs < rhs`` of
    `less` holds, and at least one pair of names in `differ` has different values; None if
    there is none (proved).

    Names are parameters (see `instance_set`).  Returns the point's values by name.
    """
    names: set[str] = set()
    for lhs, rhs in (*equalities, *less):
        names |= dependencies(lhs) | dependencies(rhs)
    for a, b in differ:
        names |= {a, b}
    both = first.align_params(second.get_space())
    both = _align_params(both, names)
    second = second.align_params(both.get_space())
    both = both.intersect(second.align_params(both.get_space()))
    space = both.get_space()
    for lhs, rhs in equalities:
        both = both.intersect(aff_from_expr(space, lhs).eq_set(aff_from_expr(space, rhs)))
    for lhs, rhs in less:
        both = both.intersect(aff_from_expr(space, lhs).lt_set(aff_from_expr(space, rhs)))
    if differ:
        apart = None
        for a, b in differ:
            pa, pb = aff_from_expr(space, p.Variable(a)), aff_from_expr(space, p.Variable(b))
            piece = pa.lt_set(pb).union(pa.gt_set(pb))
            apart = piece if apart is None else apart.union(piece)
        both = both.intersect(apart)
    if both.is_empty():
        return None
    point = both.sample_point()
    return {both.get_dim_name(dim_type.param, k):
            int(point.get_coordinate_val(dim_type.param, k).to_python())
            for k in range(both.dim(dim_type.param))}


def kl_as_basic_set(obj: object, what: str = "domain") -> isl.BasicSet | None:
    """`obj` as a BasicSet if it is an isl set (DomainError if not convex); None otherwise."""
    if isinstance(obj, isl.BasicSet):
        return obj
    if not isinstance(obj, isl.Set):
        return None
    bsets = obj.coalesce().get_basic_sets()
    if len(bsets) > 1:
        raise DomainError(f"{what} {str(obj)!r} is not convex (a disjunction); it must be a "
                          "conjunction of affine constraints")
    return bsets[0] if bsets else isl.BasicSet.empty(obj.get_space())


# ---------------------------------------------------------------------------------------------
# transform library: inames mapped through a relation (map_domain, affine_map_inames)

def as_relation(obj: object) -> isl.Map | None:
    """An islpy Map or BasicMap, or its text (``{[i] -> [j]: j = i + 1}``, parameters found
    automatically), as a Map; None if `obj` is neither.  Malformed text is a DomainError."""
    if isinstance(obj, isl.BasicMap):
        obj = isl.Map.from_basic_map(obj)
    if isinstance(obj, isl.Map):
        # tuple names ("A[i] -> B[j]") would keep the map from applying to a domain
        return obj.reset_tuple_id(dim_type.in_).reset_tuple_id(dim_type.out)
    if not isinstance(obj, str):
        return None
    return as_relation(_parse_relation(obj))


def _parse_relation(obj: str) -> isl.Map:
    import re
    text = obj.strip()
    if "->" not in text.split("{", 1)[0]:
        m = re.match(r"\s*\{\s*\w*\s*\[([^\]]*)\]\s*->\s*\w*\s*\[([^\]]*)\]", text)
        if m is None:
            raise DomainError(f"malformed map {text!r}: expected '{{[old inames] -> "
                              "[new inames]: conditions}'")
        dims = {n.strip() for g in m.groups() for n in g.split(",") if n.strip()}
        found = sorted(n for n in kl_free_names(text[m.end():]) if n not in dims)
        text = f"[{', '.join(found)}] -> {text}" if found else text
    try:
        return isl.Map(text)
    except isl.Error as e:
        raise DomainError(f"malformed map {obj.strip()!r}: {_isl_reason(e)}") from None


def relation_dims(rel: isl.Map) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(input dim names, output dim names, parameter names) of a relation; a dimension
    without a name, or a name used twice, is a DomainError."""
    ins = tuple(rel.get_var_names(dim_type.in_))
    outs = tuple(rel.get_var_names(dim_type.out))
    names = [*ins, *outs]
    if not all(names) or len(set(names)) != len(names):
        raise DomainError(f"every input and output dimension of the map {str(rel)!r} needs "
                          "its own name (write '{[i] -> [j]: j = i + 1}', not "
                          "'{[i] -> [i + 1]}')")
    return ins, outs, tuple(rel.get_var_names(dim_type.param))


def relation_from_equations(old: Sequence[str], new: Sequence[str],
                            equations: Sequence[tuple[Expression, Expression]]) -> isl.Map:
    """The relation ``{[old] -> [new]: lhs = rhs, ...}``; other free names are parameters.
    Raises DomainError for a non-affine equation."""
    names: set[str] = set()
    for lhs, rhs in equations:
        names |= dependencies(lhs) | dependencies(rhs)
    params = sorted(names - set(old) - set(new))
    try:
        space = isl.Space.create_from_names(isl.DEFAULT_CONTEXT, set=[*old, *new],
                                            params=params)
        s = isl.Set.universe(space)
        for lhs, rhs in equations:
            s = s.intersect(aff_from_expr(space, lhs).eq_set(aff_from_expr(space, rhs)))
        return isl.Map.from_range(s).move_dims(dim_type.in_, 0, dim_type.out, 0, len(old))
    except isl.Error as e:
        raise DomainError(f"cannot build the relation: {_isl_reason(e)}") from None


def map_domain_inames(bset: isl.BasicSet, rel: isl.Map
                      ) -> tuple[isl.BasicSet, dict[str, Expression]]:
    """Apply `rel` (old inames -> new inames, a bijection on `bset`) to the domain `bset`.

    Returns the new domain (the new inames where the first old one was, the other inames
    unchanged) and each old iname as an affine expression of the new inames (and of the
    other inames and parameters).  Raises DomainError when `rel` is not defined on every point,
    is not one-to-one there, or its inverse is not a single affine expression.
    """
    try:
        return _map_domain_inames(bset, rel)
    except isl.Error as e:
        raise DomainError(f"cannot apply the map: {_isl_reason(e)}") from None


def _map_domain_inames(bset: isl.BasicSet, rel: isl.Map
                       ) -> tuple[isl.BasicSet, dict[str, Expression]]:
    ins, outs, _ = relation_dims(rel)
    dims = inames_of(bset)
    old_points = params_to_set_dims(_all_to_params(isl.Set.from_basic_set(bset)), ins)
    rel, old_points = rel.align_params(old_points.get_space()), old_points.align_params(
        rel.get_space())
    restricted = rel.intersect_domain(old_points)
    if not restricted.domain().is_equal(old_points):
        raise DomainError("the map is not defined on every point of the domain")
    if not (restricted.is_single_valued() and restricted.is_injective()):
        raise DomainError("the map is not one-to-one on the domain (each old point must map "
                          "to exactly one new point, and no two to the same)")
    new_points = restricted.range()
    first = min(dims.index(n) for n in ins)
    order = [n for n in dims[:first] if n not in ins] + list(outs) + [
        n for n in dims[first:] if n not in ins]
    domain = _single_basic_set(params_to_set_dims(_all_to_params(new_points), order),
                               "the map")
    inverse = restricted.reverse().as_pw_multi_aff()
    return domain, {name: _inverse_piece(inverse.get_pw_aff(k), new_points, name)
                    for k, name in enumerate(ins)}


def _inverse_piece(pw: isl.PwAff, points: isl.Set, name: str) -> Expression:
    pw = pw.gist(points).coalesce()
    exprs: list[Expression] = []
    for _, aff in pw.get_pieces():
        e = expr_from_aff(aff)
        if e not in exprs:
            exprs.append(e)
    if len(exprs) != 1:
        raise DomainError(f"iname {name!r} is not one affine expression of the new inames "
                          f"(its inverse has {len(exprs)} pieces)")
    return _positive_terms_first(exprs[0])


def _positive_terms_first(e: Expression) -> Expression:
    """``-1*j + p`` -> ``p + -1*j`` (printed ``p - j``); the value is unchanged."""
    if not isinstance(e, p.Sum):
        return e

    def negative(t: Expression) -> bool:
        return (isinstance(t, int) and t < 0) or (
            isinstance(t, p.Product) and isinstance(t.children[0], int) and t.children[0] < 0)

    terms = sorted(e.children, key=negative)
    return p.Sum(tuple(terms)) if terms != list(e.children) else e


# ---------------------------------------------------------------------------------------------
# parallel reductions (translator/codegen/parallel_reductions.py): barriers need loops whose
# trip counts are the same in every work item of a group

def bounds_independent(domain: isl.BasicSet | isl.Set, inames: Iterable[str],
                       others: Iterable[str]) -> bool:
    """Whether the values `inames` take in `domain` do not depend on the values of `others`:
    the projection onto both groups is the product of the projections onto each."""
    a, b = set(inames), set(others) - set(inames)
    if not a or not b:
        return True
    joint = project_onto(domain, a | b)
    first = _all_to_params(project_onto(joint, a)).params()
    second = _all_to_params(project_onto(joint, b)).params()
    first, second = _aligned(first, second)
    product, whole = _aligned(first.intersect(second), _all_to_params(joint).params())
    return bool(product.is_subset(whole))


# ---------------------------------------------------------------------------------------------
# data transforms: footprints, storage boxes and fetch predicates (precompute, add_prefetch,
# buffer_array in transforms/precompute.py, prefetch.py, buffer.py)

def use_domain(domains: Sequence[isl.BasicSet], inames: Iterable[str],
               conditions: Iterable[Expression] = ()) -> isl.Set:
    """The instances of a use inside `inames`, restricted by its affine `conditions` (the
    others are dropped: the footprint then over-approximates, which a fetch may do)."""
    dom = isl.Set.from_basic_set(statement_domain(domains, inames))
    for cond in conditions:
        dom = _align_params(dom, dependencies(cond))
        piece = _condition_set(dom.get_space(), cond)
        if piece is not None:
            dom = dom.intersect(piece)
    return dom


def slice_domain(shape: Sequence[Expression], names: Sequence[str]) -> isl.Set:
    """``0 <= names[k] < shape[k]`` for every k: the points of a whole-axis slice ``a[:]``."""
    return _box(shape, list(names), isl.Space.set_alloc(isl.DEFAULT_CONTEXT, 0, 0))


def product_domain(a: isl.Set, b: isl.Set) -> isl.Set:
    """Two sets over disjoint dims (and shared parameters) as one set over both."""
    return _intersect_promoting(a, b)


def data_footprint(uses: Sequence[tuple[isl.Set, Sequence[Expression]]], outer: Iterable[str],
                   names: Sequence[str], assumptions: isl.BasicSet | None = None) -> isl.Set:
    """The elements ``(names[0], ...)`` that the uses touch, as a set whose parameters are the
    kernel's parameters and the `outer` inames.

    Each use is (its instances, its argument expressions); the dims of the instance set that
    are not `outer` are swept (projected out).  Raises DomainError for a non-affine argument.
    """
    outer = set(outer)
    result: isl.Set | None = None
    for dom, args in uses:
        s = dom
        for n in inames_of(s):
            if n in outer:
                k = s.find_dim_by_name(dim_type.set, n)
                s = s.move_dims(dim_type.param, s.dim(dim_type.param), dim_type.set, k, 1)
        piece = _footprint_of(s, args, names)
        if result is None:
            result = piece
        else:
            result, piece = _aligned(result, piece)
            result = result.union(piece)
    if result is None:
        raise DomainError("no uses: the footprint is empty")
    if assumptions is not None:
        result = result.intersect_params(_param_set_aligned(assumptions, result))
    return result.coalesce()


def _footprint_of(s: isl.Set, indices: Sequence[Expression], names: Sequence[str]) -> isl.Set:
    """The elements `indices` take over `s`, as a set over new dims `names`."""
    n0 = s.dim(dim_type.set)
    s = s.add_dims(dim_type.set, len(names))
    for k, nm in enumerate(names):
        s = s.set_dim_name(dim_type.set, n0 + k, nm)
    s = _align_params(s, {d for e in indices for d in dependencies(e)})
    for nm, idx in zip(names, indices):
        diff = aff_from_expr(s.get_space(), p.Sum((p.Variable(nm), p.Product((-1, idx)))))
        s = s.intersect(diff.zero_set())
    return project_onto(s, names)


def footprint_within(small: isl.Set, big: isl.Set) -> bool:
    """Whether footprint `small` lies inside `big` for every parameter value."""
    a, b = _aligned(small, big)
    return a.is_subset(b)


def convex_footprint(footprint: isl.Set) -> isl.BasicSet | None:
    """The footprint as one convex set, or None when it is not convex (its convex hull holds
    points that no use touches)."""
    pieces = footprint.coalesce().get_basic_sets()
    if len(pieces) <= 1:
        return pieces[0] if pieces else isl.BasicSet.empty(footprint.get_space())
    hull = footprint.convex_hull()
    return hull if isl.Set.from_basic_set(hull).is_equal(footprint) else None


def footprint_bounding_box(footprint: isl.Set) -> isl.BasicSet:
    """The smallest box (per dim: lowest to highest value, as functions of the parameters)
    around the footprint; its convex hull where a bound has several pieces that do not
    combine into one convex set."""
    box = isl.Set.universe(footprint.get_space())
    for k in range(footprint.dim(dim_type.set)):
        others = [j for j in range(footprint.dim(dim_type.set)) if j != k]
        line = footprint
        for j in reversed(others):
            line = line.eliminate(dim_type.set, j, 1)
        box = box.intersect(line)
    box = box.coalesce()
    pieces = box.get_basic_sets()
    return pieces[0] if len(pieces) == 1 else box.convex_hull()


def clip_to_shape(footprint: isl.BasicSet, shape: Sequence[Expression]) -> isl.BasicSet:
    """The footprint without the elements outside ``0 <= x_k < shape[k]``: an access there
    would be out of bounds in the original program, so a fetch must not touch them."""
    s = isl.Set.from_basic_set(footprint)
    names = list(inames_of(s))
    box = _box(shape, names, s.get_space())
    s, box = _aligned(s, box)
    return _single_basic_set(s.intersect(box), "clipping the footprint to the array")


def storage_axis(footprint: isl.BasicSet, k: int) -> tuple[Expression, int] | None:
    """(base, extent) of storage axis `k`: `base` an affine expression in the parameters with
    ``0 <= x_k - base < extent`` on the whole footprint, `extent` the smallest such constant
    over the candidate bases (the pieces of the lowest value); None if none is constant."""
    s = isl.Set.from_basic_set(footprint)
    if s.is_empty():
        return 0, 1
    try:
        low = s.dim_min(k)
    except isl.Error:
        return None
    best: tuple[Expression, int] | None = None
    for _, aff in low.coalesce().get_pieces():
        base = expr_from_aff(aff)
        extent = _shifted_extent(s, k, base)
        if extent is not None and (best is None or extent < best[1]):
            best = (base, extent)
    return best


def _shifted_extent(s: isl.Set, k: int, base: Expression) -> int | None:
    space = s.get_space()
    name = s.get_dim_name(dim_type.set, k)
    try:
        diff = aff_from_expr(space, p.Sum((p.Variable(name), p.Product((-1, base)))))
        (_, aff), = diff.get_pieces()
        lo, hi = s.min_val(aff), s.max_val(aff)
    except (isl.Error, DomainError, ValueError):
        return None
    if not (lo.is_int() and hi.is_int()) or lo.to_python() < 0:
        return None
    return int(hi.to_python()) + 1


def fetch_domain(footprint: isl.BasicSet, axes: Sequence[tuple[int, str, Expression]]
                 ) -> isl.BasicSet:
    """The footprint in storage coordinates: for each (dim k, iname, base) of `axes`,
    ``iname = x_k - base``; the footprint dims not in `axes` (extent one) are dropped.
    Parameters stay parameters (kernel parameters and outer inames)."""
    s = isl.Set.from_basic_set(footprint)
    names = list(inames_of(s))
    for _, iname, _ in axes:
        n = s.dim(dim_type.set)
        s = s.add_dims(dim_type.set, 1).set_dim_name(dim_type.set, n, iname)
    for k, iname, base in axes:
        s = _align_params(s, dependencies(base))
        shift = p.Sum((p.Variable(iname), p.Product((-1, p.Variable(names[k]))), base))
        s = s.intersect(aff_from_expr(s.get_space(), shift).zero_set())
    s = project_onto(s, [iname for _, iname, _ in axes])
    return _single_basic_set(s, "the fetch domain")


def fetch_predicates(domain: isl.BasicSet, extents: dict[str, int], outer: isl.BasicSet | None,
                     assumptions: isl.BasicSet | None = None) -> list[Expression] | None:
    """Conditions that cut the box ``0 <= iname < extent`` down to `domain` where the `outer`
    inames' domain (if any) and the assumptions hold; None when no point remains."""
    box = [p.Comparison(p.Variable(n), ">=", 0) for n in sorted(extents)]
    box += [p.Comparison(p.Variable(n), "<", e) for n, e in sorted(extents.items())]
    ctx = context_set(box, assumptions)
    if outer is not None:
        ctx = restrict_context(ctx, outer)
    return gist_conditions(domain, ctx)


def simplify_index(expr: Expression) -> Expression:
    """An affine index in canonical form (``i + 16*io - 16*io`` -> ``i``); other expressions
    unchanged."""
    names = list(dict.fromkeys(sorted(dependencies(expr))))
    space = isl.Space.create_from_names(isl.DEFAULT_CONTEXT, set=[], params=names)
    try:
        pieces = aff_from_expr(space, expr).get_pieces()
    except (DomainError, isl.Error):
        return expr
    if len(pieces) != 1:
        return expr
    return expr_from_aff(pieces[0][1])


def constant_iname_extent(domains: Sequence[isl.BasicSet], iname: str) -> int | None:
    """A constant bound on the number of values of `iname` (for any values of the other
    inames and parameters), or None."""
    try:
        return hardware_range(statement_domain(domains, [iname]), iname)[2]
    except (isl.Error, DomainError):
        return None


# ---------------------------------------------------------------------------------------------
# privatisation (translator.analysis.privatize): which elements instances touch, per iteration

def access_footprint(domains: Sequence[isl.BasicSet], inames: Iterable[str],
                     conditions: Iterable[Expression], index: Sequence[Expression],
                     keep: Iterable[str], assumptions: isl.BasicSet | None = None) -> isl.Set:
    """{(keep inames, element) : some instance touches element} as a parameter-only set.

    Element coordinates are the parameters ``_tr_e0``, ``_tr_e1``, ...; inames not in `keep`
    are projected out (existentially quantified)."""
    s = instance_set(domains, inames, conditions, assumptions=assumptions)
    elems = [f"_tr_e{k}" for k in range(len(index))]
    s = _align_params(s, elems)
    for name, expr in zip(elems, index):
        s = _align_params(s, dependencies(expr))
        space = s.get_space()
        s = s.intersect(aff_from_expr(space, p.Variable(name)).eq_set(aff_from_expr(space, expr)))
    wanted = set(keep) | set(elems)
    inames = set(inames)
    for n in reversed(s.get_var_names(dim_type.param)):
        if n in inames and n not in wanted:
            s = s.project_out(dim_type.param, s.find_dim_by_name(dim_type.param, n), 1)
    return s


def param_set_subset(a: isl.Set, b: isl.Set | None) -> bool:
    """Whether every point of `a` is in `b` (parameter-only sets; None is empty)."""
    if b is None:
        return a.is_empty()
    a2 = a.align_params(b.get_space())
    return a2.is_subset(b.align_params(a2.get_space()))
