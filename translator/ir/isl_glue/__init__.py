"""All islpy glue: domains, expression <-> affine conversion, bounds, proofs, the forest,
and what the frontends, transforms, analysis and code generation need of isl.

Nothing else in the project talks to isl directly; isl errors never reach users.  It is
one package with a module per area (they grew past one module's size); the public names of
each are re-exported here.  Callers import ``translator.ir.isl_glue``; a few names that are
not re-exported (the memo decorator of `core`, the flow analysis of `flow`) are imported
from their module.
"""

from __future__ import annotations

from translator.ir.isl_glue.core import (  # noqa: F401
    aff_from_expr, check_forest, combined_domain, constant_extent, constant_extent_bound, dim_type,
    domain_parents, domain_str, expr_from_aff, expr_from_pwaff, forest_path, iname_bounds,
    inames_of, is_affine, is_nonnegative, params_of, params_to_set_dims, parse_domain, project_onto,
    set_condition, simplified_affine, union_all,
)
from translator.ir.isl_glue.codegen import (  # noqa: F401
    bounding_inames, bounds_independent, context_set, gist_conditions, hardware_range,
    hardware_span,
    loop_bound_constraints, nonnegative_in, restrict_context, runs_on_whole_box, statement_domain,
    writes_cover_box,
)
from translator.ir.isl_glue.kernel_language import (  # noqa: F401
    kl_free_names, kl_index_range, kl_parse_assumptions, kl_range_bounds, kl_unbounded_inames,
)
from translator.ir.isl_glue.dims import (  # noqa: F401
    add_dim, as_param_set, as_relation, box_extent, constrain_equal, duplicate_dim, fix_dim,
    iname_domains_equal, intersect_params, map_domain_inames, parse_param_set, project_out_names,
    relation_dims, relation_from_equations, rename_dim, same_domain, split_dim, static_length,
    static_lower_bound,
)
from translator.ir.isl_glue.loops import (  # noqa: F401
    c_index_end, c_loop_domain, c_nonnegative_condition, c_union_end, last_point,
    make_loop_domain, max_over_domain, max_over_union, never_runs, nominal_points,
    runs_at_every_point, with_value_ranges,
)
from translator.ir.isl_glue.footprints import (  # noqa: F401
    clip_to_shape, constant_iname_extent, convex_footprint, count_points, data_footprint,
    fetch_domain, fetch_predicates, footprint_bounding_box, footprint_within, product_domain,
    simplify_index, slice_domain, storage_axis, use_domain,
)
from translator.ir.isl_glue.dependences import (  # noqa: F401
    access_footprint, find_conflict, forces_equal, iname_offset,
    instance_set, kl_as_basic_set, leaves_for_all_params, param_set_subset, params_keeping_inside,
)
from translator.ir.isl_glue.separation import accesses_conflict_free  # noqa: F401
from translator.ir.isl_glue.versioning import (  # noqa: F401
    affine_condition, box_inside, difference, disjoint, entries, guard_free_set, holds_in,
    intersect_simple, keep_params, relaxed_domain, set_conditions, tile_conditions, trip_set,
    work_conditions,
)
