"""The transform library: pure ``Kernel -> Kernel`` functions named as in
docs/transforms.md, their registry and the match language.

``transforms.split_iname(knl, "i", 128)`` calls a transform directly; pragmas reach the same
functions through `apply_call`.  Third-party transforms register through the
``translator.transforms`` entry-point group (see `transforms.registry`).
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

#: Where each name lives; a name loads its module on first use (PEP 562), so that a
#: translation that only splits and tags inames (automatic mapping) does not import the whole
#: library (it loads 5 of its 24 modules; bench/RESULTS.md, h55).
_LAZY = {
    "independent": "transforms.assertions", "noalias": "transforms.assertions",
    "find_unused_axis_tag": "transforms.inames", "prioritize_loops": "transforms.inames",
    "remove_unused_inames": "transforms.inames", "rename_iname": "transforms.inames",
    "rename_inames": "transforms.inames", "tag_inames": "transforms.inames",
    "untag_inames": "transforms.inames",
    "parse_match": "transforms.match", "parse_stack_match": "transforms.match",
    "add_and_infer_dtypes": "transforms.options_and_types",
    "add_dtypes": "transforms.options_and_types",
    "infer_unknown_types": "transforms.options_and_types",
    "set_options": "transforms.options_and_types",
    "assume": "transforms.parameters", "fix_parameters": "transforms.parameters",
    "apply_call": "transforms.registry", "get_transform": "transforms.registry",
    "list_transforms": "transforms.registry", "transform": "transforms.registry",
    "chunk_iname": "transforms.split", "join_inames": "transforms.split",
    "split_iname": "transforms.split",
    # -- library transforms (issue: complete transform library); one block per area --
    # [library-imports]
    "rename_argument": "transforms.arguments", "set_argument_order": "transforms.arguments",
    "add_padding": "transforms.arrays", "change_arg_to_image": "transforms.arrays",
    "find_padding_multiple": "transforms.arrays", "set_array_axis_names": "transforms.arrays",
    "split_array_axis": "transforms.arrays", "tag_array_axes": "transforms.arrays",
    "tag_reads": "transforms.arrays",
    "to_batched": "transforms.batched",
    "add_inames_for_unused_hw_axes": "transforms.statement_inames",
    "add_inames_to_insn": "transforms.statement_inames",
    "duplicate_inames": "transforms.statement_inames",
    "get_iname_duplication_options": "transforms.statement_inames",
    "has_schedulable_iname_nesting": "transforms.statement_inames",
    "make_reduction_inames_unique": "transforms.statement_inames",
    "split_reduction_inward": "transforms.statement_inames",
    "split_reduction_outward": "transforms.statement_inames",
    "affine_map_inames": "transforms.iname_maps", "map_domain": "transforms.iname_maps",
    "register_function": "transforms.registering",
    "register_preamble_generators": "transforms.registering",
    "register_reduction": "transforms.registering",
    "register_symbol_manglers": "transforms.registering",
    "assignment_to_subst": "transforms.rules", "expand_subst": "transforms.rules",
    "extract_subst": "transforms.rules", "find_one_rule_matching": "transforms.rules",
    "find_rules_matching": "transforms.rules",
    "add_barrier": "transforms.statements", "add_dependency": "transforms.statements",
    "add_nosync": "transforms.statements", "remove_instructions": "transforms.statements",
    "replace_instruction_ids": "transforms.statements",
    "set_instruction_priority": "transforms.statements",
    "tag_instructions": "transforms.statements",
    "alias_temporaries": "transforms.temporaries",
    "privatize_temporaries_with_inames": "transforms.temporaries",
    "set_temporary_address_space": "transforms.temporaries",
    # [data-imports]
    "buffer_array": "transforms.buffer",
    "fuse_kernels": "transforms.fusion",
    "concatenate_arrays": "transforms.cleanup", "find_instructions": "transforms.cleanup",
    "fold_constants": "transforms.cleanup", "map_instructions": "transforms.cleanup",
    "remove_inames_from_insn": "transforms.cleanup",
    "remove_unused_arguments": "transforms.cleanup", "simplify_indices": "transforms.cleanup",
    "precompute": "transforms.precompute",
    "collect_common_factors_on_increment": "transforms.arithmetic",
    "add_prefetch": "transforms.prefetch",
}

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


class _Library(types.ModuleType):
    """This package: the import system binds each submodule on it once loaded, and one
    (`transforms.precompute`) is named like the transform it defines, which must win."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and _LAZY.get(name) == value.__name__:
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Library


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'transforms' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


def builtin_module(name: str) -> str | None:
    """The module of the library that defines `name`, or None."""
    return _LAZY.get(name)


def load_builtins() -> None:
    """Import every module of the library (each registers its transforms by decorator), in
    the order the library lists them: what the registry needs before it answers by name."""
    for module in dict.fromkeys(_LAZY.values()):
        importlib.import_module(module)
