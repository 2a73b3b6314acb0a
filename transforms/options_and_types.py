"""Options and types: set_options, add_dtypes, infer_unknown_types, add_and_infer_dtypes."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np

from translator.diagnostics import TransformError
from translator.ir import types
from translator.ir.kernel import Kernel, Options
from translator.ir.parse_statements import split_top_level
from translator.ir.util import FrozenDict

from transforms.common import suggestion
from transforms.registry import transform

# every field of Options but the free-form `extra`, with its type (from the defaults)
_OPTION_TYPES: dict[str, type] = {f.name: type(getattr(Options(), f.name))
                                  for f in dataclasses.fields(Options) if f.name != "extra"}
_LANGUAGES = ("kernel", "fortran", "c")


# ---------------------------------------------------------------------------------------------
# options


@transform()
def set_options(kernel: Kernel, *args: Any, **kwargs: Any) -> Kernel:
    """Set code-generation options.

    As keywords, or as one string (``"trust_mappings, preamble='#define X 1'"``; a bare name
    means True), a dict, or an `Options`.  Options for plugins go in ``extra={...}`` (merged
    into the existing extras).  Example::

        before: options.emit_line_directives = True
        set_options(knl, emit_line_directives=False)
        after:  options.emit_line_directives = False
    """
    if args and kwargs:
        raise TransformError("set_options: pass either one positional argument or keywords, "
                             "not both")
    if len(args) > 1:
        raise TransformError("set_options: at most one positional argument (a string, dict "
                             "or Options)")
    if args and isinstance(args[0], Options):
        new = args[0]
        return kernel if new == kernel.options else replace(kernel, options=new)
    changes = _option_changes(args[0]) if args else dict(kwargs)
    new = _apply_options(kernel.options, changes)
    return kernel if new == kernel.options else replace(kernel, options=new)


def _option_changes(arg: Any) -> dict[str, Any]:
    if isinstance(arg, Mapping):
        return dict(arg)
    if not isinstance(arg, str):
        raise TransformError(f"set_options: expected a string, dict or Options, got {arg!r}")
    out: dict[str, Any] = {}
    for item in _split_top_level(arg):
        name, eq, value = item.partition("=")
        name = name.strip()
        if not name.isidentifier():
            raise TransformError(f"set_options: malformed option {item.strip()!r} in {arg!r}")
        out[name] = _option_value(value.strip()) if eq else True
    return out


def _split_top_level(text: str) -> list[str]:
    """Split at commas outside quotes and brackets (dict literals included)."""
    return [part for part in split_top_level(text, ",", "()[]{}") if part.strip()]


def _option_value(text: str) -> Any:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text   # a bare word: a string option such as source_language=c


def _apply_options(options: Options, changes: dict[str, Any]) -> Options:
    fields = {f.name for f in dataclasses.fields(Options)}
    updates: dict[str, Any] = {}
    for name in sorted(changes):
        value = changes[name]
        if name == "extra":
            if not isinstance(value, Mapping):
                raise TransformError(f"set_options: extra must be a dict, got {value!r}")
            updates["extra"] = FrozenDict(options.extra).update(value)
            continue
        if name == "fixed_parameters":
            raise TransformError("set_options: fixed_parameters records what fix_parameters "
                                 "fixed; call fix_parameters(n=...) instead")
        if name not in fields:
            raise TransformError(f"set_options: unknown option {name!r}"
                                 + suggestion(name, fields)
                                 + "; options for plugins go in extra={...}")
        updates[name] = _checked_option(name, value)
    return replace(options, **updates)


def _checked_option(name: str, value: Any) -> Any:
    kind = _OPTION_TYPES[name]
    if kind is bool:
        if isinstance(value, (bool, np.bool_)) or value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
    elif isinstance(value, str):
        if name == "source_language" and value not in _LANGUAGES:
            raise TransformError(f"set_options: source_language must be one of "
                                 f"{', '.join(_LANGUAGES)}, got {value!r}")
        return value
    raise TransformError(f"set_options: option {name!r} takes a {kind.__name__}, got "
                         f"{value!r}")


# ---------------------------------------------------------------------------------------------
# types


def _to_dtype(name: str, value: Any) -> np.dtype:
    if value is None:   # np.dtype(None) would silently mean float64
        raise TransformError(f"add_dtypes: no dtype given for {name!r}")
    try:
        dtype = np.dtype(value)
    except TypeError:
        raise TransformError(f"add_dtypes: {value!r} (for {name!r}) is not a dtype") from None
    if dtype.kind not in "biufc":
        raise TransformError(f"add_dtypes: dtype {dtype} (for {name!r}) is not a numeric "
                             "type")
    return dtype


def _dtype_items(dtype_dict: Any) -> dict[str, np.dtype]:
    """Accept {"a, b": "float32"} or "a, b: float32; n: int32"; keys may list names."""
    if isinstance(dtype_dict, str):
        pairs = []
        for item in (s.strip() for s in dtype_dict.split(";")):
            if item:
                names, colon, dt = item.rpartition(":")
                if not colon:
                    raise TransformError(f"add_dtypes: {item!r} has no ':' (expected "
                                         "'name: dtype')")
                pairs.append((names, dt.strip()))
    elif isinstance(dtype_dict, Mapping):
        pairs = list(dtype_dict.items())
    else:
        raise TransformError(f"add_dtypes: expected a dict of name -> dtype, got "
                             f"{dtype_dict!r}")
    out: dict[str, np.dtype] = {}
    for key, value in pairs:
        if not isinstance(key, str):
            raise TransformError(f"add_dtypes: variable names must be strings, got {key!r}")
        for name in (k.strip() for k in key.split(",")):
            if name:
                out[name] = _to_dtype(name, value)
    return out


@transform()
def add_dtypes(kernel: Kernel, dtype_dict: Any) -> Kernel:
    """Give arguments and temporaries without a dtype the given dtypes.

    `dtype_dict` maps names to dtypes; a key may list several names (``"a, b"``).  A
    different existing dtype or an unknown name is an error.  Example::

        before: a: ArrayArg(dtype=None)
        add_dtypes(knl, {"a": "float32"})
        after:  a: ArrayArg(dtype=float32)
    """
    wanted = _dtype_items(dtype_dict)
    args = tuple(_with_dtype(a, wanted.pop(a.name, None)) for a in kernel.args)
    temps = FrozenDict((n, _with_dtype(t, wanted.pop(n, None)))
                       for n, t in kernel.temporaries.items())
    if wanted:
        known = list(kernel.arg_names) + list(kernel.temporaries)
        bad = sorted(wanted)[0]
        raise TransformError(f"add_dtypes: unknown variable(s) {', '.join(sorted(wanted))} "
                             f"(not an argument or temporary)" + suggestion(bad, known))
    if all(a is b for a, b in zip(args, kernel.args)) and all(
            temps[n] is kernel.temporaries[n] for n in temps):
        return kernel
    return replace(kernel, args=args, temporaries=temps)


def _with_dtype(var: Any, dtype: np.dtype | None) -> Any:
    # (`np.dtype("float64") == None` is True: numpy reads None as float64)
    if dtype is None or (var.dtype is not None and var.dtype == dtype):
        return var
    if var.dtype is not None:
        raise TransformError(f"add_dtypes: {var.name!r} already has dtype {var.dtype}; cannot "
                             f"change it to {dtype}", var.span)
    return replace(var, dtype=dtype)


@transform()
def infer_unknown_types(kernel: Kernel, expect_completion: bool = False) -> Kernel:
    """Infer the dtypes of arguments and temporaries that have none.

    Uses `translator.ir.types`; with `expect_completion`, a type that cannot be inferred is
    an error.  Example::

        before: <> t = 2*a[i]      a: float32, t: None
        infer_unknown_types(knl)
        after:  t: float32
    """
    return types.infer_unknown_types(kernel, expect_completion=expect_completion)


@transform()
def add_and_infer_dtypes(kernel: Kernel, dtype_dict: Any, expect_completion: bool = False,
                         kernel_name: str | None = None) -> Kernel:
    """`add_dtypes`, then `infer_unknown_types`.

    `kernel_name`, if given, must name this kernel (there is one kernel per call here).
    Example::

        before: a: None, out: None          out[i] = 2*a[i]
        add_and_infer_dtypes(knl, {"a": "float64"})
        after:  a: float64, out: float64
    """
    if kernel_name is not None and kernel_name != kernel.name:
        raise TransformError(f"add_and_infer_dtypes: kernel_name {kernel_name!r} does not "
                             f"name this kernel ({kernel.name!r})")
    return infer_unknown_types(add_dtypes(kernel, dtype_dict),
                               expect_completion=expect_completion)
