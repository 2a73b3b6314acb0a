"""The transform library: pure ``Kernel -> Kernel`` functions named as in
docs/transforms.md, their registry and the match language.

``transforms.split_iname(knl, "i", 128)`` calls a transform directly; pragmas reach the same
functions through `apply_call`.  Third-party transforms register through the
``translator.transforms`` entry-point group (see `transforms.registry`).
"""

from __future__ import annotations

from transforms.assertions import independent, noalias
from transforms.inames import (find_unused_axis_tag, prioritize_loops, remove_unused_inames,
                               rename_iname, rename_inames, tag_inames, untag_inames)
from transforms.match import parse_match, parse_stack_match
from transforms.options_and_types import (add_and_infer_dtypes, add_dtypes,
                                          infer_unknown_types, set_options)
from transforms.parameters import assume, fix_parameters
from transforms.registry import apply_call, get_transform, list_transforms, transform
from transforms.split import chunk_iname, join_inames, split_iname

# -- library transforms (issue: complete transform library); one import block per area --
# [library-imports]
from transforms.arguments import rename_argument, set_argument_order
from transforms.arrays import (add_padding, change_arg_to_image, find_padding_multiple,
                               set_array_axis_names, split_array_axis, tag_array_axes,
                               tag_reads)
from transforms.batched import to_batched
from transforms.statement_inames import (add_inames_for_unused_hw_axes, add_inames_to_insn,
                                         duplicate_inames, get_iname_duplication_options,
                                         has_schedulable_iname_nesting,
                                         make_reduction_inames_unique, split_reduction_inward,
                                         split_reduction_outward)
from transforms.iname_maps import affine_map_inames, map_domain
from transforms.registering import (register_function, register_preamble_generators,
                                    register_reduction, register_symbol_manglers)
from transforms.rules import (assignment_to_subst, expand_subst, extract_subst,
                              find_one_rule_matching, find_rules_matching)
from transforms.statements import (add_barrier, add_dependency, add_nosync,
                                   remove_instructions, replace_instruction_ids,
                                   set_instruction_priority, tag_instructions)
from transforms.temporaries import (alias_temporaries, privatize_temporaries_with_inames,
                                    set_temporary_address_space)
# [data-imports]
from transforms.buffer import buffer_array
from transforms.fusion import fuse_kernels
from transforms.cleanup import (concatenate_arrays, find_instructions, fold_constants,
                                map_instructions, remove_inames_from_insn,
                                remove_unused_arguments, simplify_indices)
from transforms.precompute import precompute
from transforms.arithmetic import collect_common_factors_on_increment
from transforms.prefetch import add_prefetch

__all__ = [
    "add_and_infer_dtypes", "add_dtypes", "apply_call", "assume", "chunk_iname",
    "find_unused_axis_tag", "fix_parameters", "get_transform", "independent",
    "infer_unknown_types", "noalias",
    "join_inames", "list_transforms", "parse_match", "parse_stack_match", "prioritize_loops",
    "remove_unused_inames", "rename_iname", "rename_inames", "set_options", "split_iname",
    "tag_inames", "transform", "untag_inames",
]
# [library-all]
__all__ += ["register_function", "register_preamble_generators", "register_reduction",
            "register_symbol_manglers"]
__all__ += [
    "add_barrier", "add_dependency", "add_inames_for_unused_hw_axes", "add_inames_to_insn",
    "add_nosync", "add_padding", "affine_map_inames", "alias_temporaries",
    "assignment_to_subst", "change_arg_to_image", "duplicate_inames", "expand_subst",
    "extract_subst", "find_one_rule_matching", "find_padding_multiple", "find_rules_matching",
    "get_iname_duplication_options", "has_schedulable_iname_nesting",
    "make_reduction_inames_unique", "map_domain", "privatize_temporaries_with_inames",
    "remove_instructions", "rename_argument", "replace_instruction_ids",
    "set_argument_order", "set_array_axis_names", "set_instruction_priority",
    "set_temporary_address_space", "split_array_axis", "split_reduction_inward",
    "split_reduction_outward", "tag_array_axes", "tag_instructions", "tag_reads", "to_batched",
]
# [data-all]
__all__ += ["add_prefetch", "buffer_array", "precompute"]
__all__ += ["concatenate_arrays", "find_instructions", "fold_constants", "map_instructions",
            "remove_inames_from_insn", "remove_unused_arguments", "simplify_indices",
            "fuse_kernels"]
