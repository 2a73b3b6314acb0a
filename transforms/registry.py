"""The transform registry: names -> functions, plugins, and calls from pragmas.

A transform is registered with ``@transform()`` (its function name) or ``@transform("name")``.
Third-party packages add transforms through the ``translator.transforms`` entry-point group:
an entry point may name a module (whose import registers transforms with the decorator) or a
callable (registered under the entry point's name).  Built-ins and plugins are loaded on the
first use of the registry; a plugin that fails to load is reported as a warning
(``-Wplugin``) and skipped.
"""

from __future__ import annotations

import importlib
import inspect
import types
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from translator.diagnostics import Note, SourceSpan, TransformError, TranslatorError, warn
from translator.ir.kernel import Kernel

from transforms.common import suggestion

ENTRY_POINT_GROUP = "translator.transforms"

F = TypeVar("F", bound=Callable[..., Kernel])

_REGISTRY: dict[str, Callable[..., Kernel]] = {}
_loaded = {"builtins": False, "plugins": False}


def transform(name: str | Callable[..., Kernel] | None = None) -> Any:
    """Decorator registering a transform under `name` (default: the function's name).

    Usable as ``@transform()``, ``@transform("name")`` or bare ``@transform``.
    """
    if callable(name):
        return _register(name.__name__, name)

    def register(fn: F) -> F:
        return _register(name or fn.__name__, fn)
    return register


def _register(name: str, fn: F) -> F:
    existing = _REGISTRY.get(name)
    if existing is not None and existing is not fn:
        raise ValueError(f"transform {name!r} is already registered "
                         f"(by {existing.__module__}.{existing.__qualname__})")
    _REGISTRY[name] = fn
    return fn


def _ensure_loaded() -> None:
    if not _loaded["builtins"]:
        _loaded["builtins"] = True
        importlib.import_module("transforms")
    if not _loaded["plugins"]:
        _loaded["plugins"] = True
        load_plugins()


def load_plugins() -> None:
    """Load every ``translator.transforms`` entry point (in name order)."""
    from importlib.metadata import entry_points
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: (e.name, e.value)):
        try:
            obj = ep.load()
            if callable(obj) and not isinstance(obj, types.ModuleType):
                if all(fn is not obj for fn in _REGISTRY.values()):
                    _register(ep.name, obj)
        except Exception as e:  # a broken plugin must not break the translator
            warn("plugin", f"transform plugin {ep.name!r} ({ep.value}) was not loaded: "
                           f"{type(e).__name__}: {e}")


def get_transform(name: str) -> Callable[..., Kernel]:
    """The transform registered as `name`; unknown names raise `TransformError`."""
    _ensure_loaded()
    fn = _REGISTRY.get(name) if isinstance(name, str) else None
    if fn is None:
        raise TransformError(f"unknown transform {name!r}" + suggestion(str(name), _REGISTRY))
    return fn


def list_transforms() -> list[tuple[str, str, str]]:
    """(name, signature without the kernel, first docstring line) of every transform."""
    _ensure_loaded()
    out = []
    for name in sorted(_REGISTRY):
        fn = _REGISTRY[name]
        doc = inspect.getdoc(fn) or ""
        out.append((name, signature_text(fn), doc.splitlines()[0] if doc else ""))
    return out


def signature_text(fn: Callable[..., Any]) -> str:
    """``(a, b, *, c=None)``: the signature without its leading kernel parameter."""
    sig = inspect.signature(fn)
    params = [prm.replace(annotation=inspect.Parameter.empty)
              for prm in list(sig.parameters.values())[1:]]
    return str(sig.replace(parameters=params, return_annotation=inspect.Signature.empty))


def apply_call(kernel: Kernel, name: str, args: Iterable[Any] = (),
               kwargs: Mapping[str, Any] | Iterable[tuple[str, Any]] | None = None,
               span: SourceSpan | None = None) -> Kernel:
    """Call transform `name` on `kernel` as a pragma does (the kernel is implicit).

    Wrong arity or keywords become a `TransformError` at `span`; a `TranslatorError` raised
    inside without a span gets `span`.
    """
    try:
        fn = get_transform(name)
    except TranslatorError as e:
        raise e.with_span(span) from None
    args = tuple(args)
    kwargs = dict(kwargs or {})
    sig = inspect.signature(fn)
    try:
        bound = sig.bind(kernel, *args, **kwargs)
    except TypeError as e:
        raise _binding_error(name, fn, str(e), kwargs, span) from None
    _check_arguments(name, kernel, sig, bound.arguments, span)
    try:
        result = fn(kernel, *args, **kwargs)
    except TranslatorError as e:
        e.with_span(span)
        raise
    if not isinstance(result, Kernel):
        raise TransformError(f"transform {name!r} returned {type(result).__name__}, "
                             "not a Kernel", span)
    return result


#: Parameters holding a statement match: one that matches nothing is a mistake in a pragma.
_MATCH_PARAMETERS = ("within", "insn_match")


def _check_arguments(name: str, kernel: Kernel, sig: inspect.Signature,
                     arguments: Mapping[str, Any], span: SourceSpan | None) -> None:
    """What a pragma gets wrong that the transform itself would accept: a flag that is not
    True or False (``force="sure"``), a statement match that selects nothing."""
    for param, value in arguments.items():
        default = sig.parameters[param].default
        if isinstance(default, bool) and not isinstance(value, bool):
            raise TransformError(f"{name}: {param} must be True or False, not {value!r}", span)
        if param in _MATCH_PARAMETERS and value is not None:
            _check_matches_something(name, kernel, param, value, span)


def _check_matches_something(name: str, kernel: Kernel, param: str, value: Any,
                             span: SourceSpan | None) -> None:
    from transforms.match import parse_stack_match
    try:
        match = parse_stack_match(value)
    except TranslatorError as e:
        raise TransformError(f"{name}: {param}: {e.message}", span) from None
    if match.is_all() or any(match(kernel, s) for s in kernel.statements):
        return
    ids = [s.id for s in kernel.statements]
    shown = ", ".join(ids[:8]) + (", ..." if len(ids) > 8 else "")
    raise TransformError(f"{name}: {param}={value!r} matches no statement of region "
                         f"{kernel.name} (its statements: {shown or 'none'}; "
                         "translate --emit ir shows their ids and tags)", span)


def _binding_error(name: str, fn: Callable[..., Any], message: str, kwargs: Mapping[str, Any],
                   span: SourceSpan | None) -> TransformError:
    params = [p for p in list(inspect.signature(fn).parameters)[1:]]
    hint = ""
    if "unexpected keyword argument" in message:
        bad = [k for k in kwargs if k not in params]
        if bad:
            hint = suggestion(bad[0], params)
    # "split_iname takes (split_iname, ...)": its first parameter is named like it (loopy's
    # name), which "split_iname(split_iname, ...)" made look like a recursive call
    note = Note(f"{name} takes {signature_text(fn)}", span)
    return TransformError(f"{name}: {message}{hint}", span, notes=(note,))
