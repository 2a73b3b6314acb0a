"""The transform library: pure ``Kernel -> Kernel`` functions named as in
shared/reference/transforms.txt, their registry and the match language.

``transforms.split_iname(knl, "i", 128)`` calls a transform directly; pragmas reach the same
functions through `apply_call`.  Third-party transforms register through the
``translator.transforms`` entry-point group (see `transforms.registry`).
"""

from __future__ import annotations

from transforms.assertions import independent, noalias
from transforms.inames import (find_unused_axis_tag, prioritize_loops, remove_unused_inames,
                               rename_iname, rename_inames, tag_inames, untag_inames)
from transforms.match import parse_match, parse_stack_match
from transforms.misc import (add_and_infer_dtypes, add_dtypes, infer_unknown_types,
                             set_options)
from transforms.parameters import assume, fix_parameters
from transforms.registry import apply_call, get_transform, list_transforms, transform
from transforms.split import chunk_iname, join_inames, split_iname

# -- library transforms (issue: complete transform library); one import block per area --
# [library-imports]
# [data-imports]

__all__ = [
    "add_and_infer_dtypes", "add_dtypes", "apply_call", "assume", "chunk_iname",
    "find_unused_axis_tag", "fix_parameters", "get_transform", "independent",
    "infer_unknown_types", "noalias",
    "join_inames", "list_transforms", "parse_match", "parse_stack_match", "prioritize_loops",
    "remove_unused_inames", "rename_iname", "rename_inames", "set_options", "split_iname",
    "tag_inames", "transform", "untag_inames",
]
# [library-all]
# [data-all]
