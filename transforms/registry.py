"""The transform registry: names -> functions, plugins, and calls from pragmas.

A transform is registered with ``@transform()`` (its function name) or ``@transform("name")``.
Third-party packages add transforms through the ``translator.transforms`` entry-point group:
an entry point may name a module (whose import registers transforms with the decorator) or a
callable (registered under the entry point's name).  A built-in's module loads when its name
is first asked for; every built-in, then the plugins, load when another name is asked for
or the transforms are listed; a plugin that fails to load is reported as a warning
(``-Wplugin``) and skipped.
"""

from __future__ import annotations

import importlib
import inspect
import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from translator.diagnostics import Note, SourceSpan, TransformError, TranslatorError, warn
from translator.ir import isl_glue
from translator.ir.kernel import Kernel
from translator.patterns import LazyPattern

from transforms.common import suggestion
from transforms.match import parse_stack_match

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
    builtin = importlib.import_module("transforms").builtin_module(name)
    if builtin is not None and builtin != fn.__module__:
        importlib.import_module(builtin)   # so that taking a built-in's name fails as before
    existing = _REGISTRY.get(name)
    if existing is not None and existing is not fn:
        raise ValueError(f"transform {name!r} is already registered "
                         f"(by {existing.__module__}.{existing.__qualname__})")
    _REGISTRY[name] = fn
    return fn


def _ensure_loaded() -> None:
    if not _loaded["builtins"]:
        _loaded["builtins"] = True
        importlib.import_module("transforms").load_builtins()
    if not _loaded["plugins"]:
        _loaded["plugins"] = True
        load_plugins()


def load_plugins() -> None:
    """Load every ``translator.transforms`` entry point (in name order)."""
    from importlib.metadata import entry_points  # here: plugins are looked up only on demand
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
    fn = _builtin(name) if isinstance(name, str) else None
    if fn is None:
        _ensure_loaded()
        fn = _REGISTRY.get(name) if isinstance(name, str) else None
    if fn is None:
        raise TransformError(f"unknown transform {name!r}" + suggestion(str(name), _REGISTRY))
    return fn


def _builtin(name: str) -> Callable[..., Kernel] | None:
    """The built-in transform `name` with only its own module imported (start-up: a pragma
    that splits an iname loads `transforms.split`, not the library), or None.  Plugins load
    after every built-in (`_ensure_loaded`), so one cannot take a built-in's name first."""
    module = importlib.import_module("transforms").builtin_module(name)
    if module is not None:
        importlib.import_module(module)
    return _REGISTRY.get(name)


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


# ---------------------------------------------------------------------------------------------
# case-insensitive names in pragma calls (Fortran)

#: Parameters that hold text in another language or fixed spellings, never kernel names
#: (None: the whole argument; "keys": only the keys of a dict are names).
_NOT_NAMES = {"definition": None, "combine": None, "neutral": None, "order": None,
              "preamble_generators": None, "manglers": "keys"}

_WORD = LazyPattern(r"(?<!\w)[A-Za-z_]\w*")


class _NameFolder:
    """Spells each word that names something in the kernel as the kernel does."""

    def __init__(self, names: set[str]) -> None:
        self.canonical: dict[str, str] = {}
        for n in sorted(names):
            self.canonical.setdefault(n.lower(), n)
        self.spellings: dict[str, str] = {}

    def name(self, word: str) -> str:
        name = self.canonical.get(word.lower(), word)
        if name != word:
            self.spellings.setdefault(name, word)
        return name

    def value(self, v: Any, mode: str | None = "all") -> Any:
        if mode is None:
            return v
        if isinstance(v, str):
            if mode == "keys":
                return v
            folded = _WORD.sub(lambda m: self.name(m.group(0)), v)
            if folded != v:
                self.spellings.setdefault(folded, v)
            return folded
        if isinstance(v, (tuple, list)):
            return type(v)(self.value(x, mode) for x in v)
        if isinstance(v, dict):
            return {self.value(k): self.value(x, mode if mode != "keys" else None)
                    for k, x in v.items()}
        return v


def pragma_names(kernel: Any) -> set[str]:
    """Everything a pragma may name: inames, arguments, temporaries, substitution rules,
    parameters, statement ids and tags."""
    names = set(kernel.all_inames) | set(kernel.arg_names) | set(kernel.temporaries)
    names |= set(kernel.substitutions)
    for d in kernel.domains:
        names |= set(isl_glue.params_of(d))
    for s in kernel.statements:
        names.add(s.id)
        names |= {str(t) for t in s.tags}
    return names


def fold_names(call: Any, kernel: Kernel) -> Any:
    """`call` with the names in its arguments spelled as `kernel` spells them.

    For languages whose names are case-insensitive (Fortran): every identifier in a string
    argument (iname lists, ``"i:g.0"`` tag maps, ``within=`` match expressions, conditions,
    dict keys and values) and every keyword naming a variable (``fix_parameters(N=8)``) that
    names an iname, variable, rule, statement id or tag of the kernel in another case gets
    the kernel's spelling; other words keep theirs, so a message about an unknown name shows
    it as written.  Parameters holding code or fixed spellings (`_NOT_NAMES`) are left alone.
    `spellings` records each change for messages.
    """
    folder = _NameFolder(pragma_names(kernel))
    params = _parameter_names(call.name, len(call.args))
    args = tuple(folder.value(a, _NOT_NAMES.get(params[k], "all")) if k < len(params)
                 else folder.value(a) for k, a in enumerate(call.args))
    kwargs = tuple((_keyword(folder, key, params), folder.value(v, _NOT_NAMES.get(key.lower(),
                                                                                  "all")))
                   for key, v in call.kwargs)
    spellings = tuple(sorted(folder.spellings.items()))
    if args == call.args and kwargs == call.kwargs:
        return call
    return replace(call, args=args, kwargs=kwargs, spellings=spellings)


def _keyword(folder: _NameFolder, key: str, params: tuple[str, ...]) -> str:
    """A keyword names a parameter of the transform (any case) or, for transforms taking
    ``**names``, a variable of the kernel."""
    return key.lower() if key.lower() in params else folder.name(key)


def _parameter_names(transform: str, count: int) -> tuple[str, ...]:
    """The names of the transform's parameters after the kernel (positional ones first;
    a ``*args`` parameter repeated to cover `count` arguments); () if it is unknown."""
    try:
        fn = get_transform(transform)
    except TranslatorError:
        return ()
    out: list[str] = []
    for prm in list(inspect.signature(fn).parameters.values())[1:]:
        if prm.kind is inspect.Parameter.VAR_POSITIONAL:
            out += [prm.name] * max(count - len(out), 0)
        elif prm.kind is not inspect.Parameter.VAR_KEYWORD:
            out.append(prm.name)
    return tuple(out)
