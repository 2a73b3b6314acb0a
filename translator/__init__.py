"""translator: pragma-marked Fortran and C loop nests to OpenCL.

The public API is imported lazily so that ``translate --version`` starts fast.
"""

from __future__ import annotations

import importlib

#: typing is not imported at run time (3 ms of a 50 ms result-cache hit)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__version__ = "0.1.0"

_LAZY = {
    "make_kernel": "translator.ir.parse",
    "parse_kernel": "translator.ir.parse",
    "print_kernel": "translator.ir.printer",
    "generate_code": "translator.codegen.opencl",
    "compile": "translator.execution",
    "translate_file": "translator.build.job",
    "parse_fortran": "translator.fortran_api",
    "TranslatorError": "translator.diagnostics",
    "Kernel": "translator.ir.kernel",
    "ArrayArg": "translator.ir.data",
    "GlobalArg": "translator.ir.parse",
    "ValueArg": "translator.ir.parse",
    "TemporaryVariable": "translator.ir.parse",
    # finishing up (docs/transforms.md) and process-wide registrations
    "generate_loop_schedules": "translator.finish",
    "get_one_linearized_kernel": "translator.finish",
    "save_and_reload_temporaries": "translator.finish",
    "generate_code_v2": "translator.finish",
    "generate_header": "translator.finish",
    "register_reduction_operation": "translator.ir.reduction_ops",
    "register_preamble_generator": "translator.ir.registrations",
    # operation and memory-access counts (loopy's statistics)
    "get_op_map": "translator.analysis.statistics",
    "get_mem_access_map": "translator.analysis.statistics",
}

__all__ = sorted(_LAZY) + ["__version__"]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'translator' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
