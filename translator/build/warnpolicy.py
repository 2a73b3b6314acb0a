"""Which translator warnings are shown, silenced or promoted to errors (gcc's ``-W`` flags).

``-Wno-<id>`` silences a warning, ``-W<id>`` re-enables it, ``-Werror`` turns every shown
warning into an error, ``-Werror=<id>`` one of them, ``-Wno-error=<id>`` exempts one from
``-Werror``, and ``-w`` silences all.  Later flags win, as with gcc.  Ids are not checked:
plugins may add their own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from translator.diagnostics import TranslatorError, TranslatorWarning
from translator.records import dataclass

IGNORE, WARN, ERROR = "ignore", "warning", "error"

#: Warnings that are errors unless ``-Wno-error=<id>`` (a directive's claim that does not hold:
#: translating it anyway would change the program's meaning as written).
ERRORS_BY_DEFAULT = frozenset({"directive-race"})


@dataclass(frozen=True, slots=True)
class WarningPolicy:
    """What to do with each warning id."""

    disabled: frozenset[str] = frozenset()
    errors: frozenset[str] = frozenset()
    not_errors: frozenset[str] = frozenset()
    all_errors: bool = False
    silent: bool = False

    def action(self, warning_id: str) -> str:
        """`IGNORE`, `WARN` or `ERROR` for a warning with this id."""
        if self.silent or warning_id in self.disabled:
            return IGNORE
        if warning_id in self.errors:
            return ERROR
        if warning_id in ERRORS_BY_DEFAULT and warning_id not in self.not_errors:
            return ERROR
        if self.all_errors and warning_id not in self.not_errors:
            return ERROR
        return WARN

    def with_flag(self, flag: str) -> WarningPolicy:
        """The policy after one ``-W...``/``-w`` flag; `ValueError` if it is not one."""
        if flag == "-w":
            return replace(self, silent=True)
        if flag == "-Werror":
            return replace(self, all_errors=True)
        if flag == "-Wno-error":
            return replace(self, all_errors=False)
        if flag.startswith("-Werror="):
            name = flag[len("-Werror="):]
            return replace(self, errors=self.errors | {name}, disabled=self.disabled - {name},
                           not_errors=self.not_errors - {name})
        if flag.startswith("-Wno-error="):
            name = flag[len("-Wno-error="):]
            return replace(self, errors=self.errors - {name}, not_errors=self.not_errors | {name})
        if flag.startswith("-Wno-") and len(flag) > 5:
            return replace(self, disabled=self.disabled | {flag[5:]})
        if flag.startswith("-W") and len(flag) > 2 and not flag.startswith("-W,"):
            return replace(self, disabled=self.disabled - {flag[2:]})
        raise ValueError(flag)


def is_warning_flag(arg: str) -> bool:
    return arg == "-w" or (arg.startswith("-W") and len(arg) > 2)


def split_warning_flags(argv: Sequence[str]) -> tuple[WarningPolicy, list[str]]:
    """Take the ``-W``/``-w`` flags out of `argv` (up to a ``--``); returns the policy and the
    remaining arguments."""
    policy, rest = WarningPolicy(), []
    args = list(argv)
    for k, arg in enumerate(args):
        if arg == "--":
            rest += args[k:]
            break
        if is_warning_flag(arg):
            policy = policy.with_flag(arg)
        else:
            rest.append(arg)
    return policy, rest


def apply_policy(caught: Iterable[object], policy: WarningPolicy) -> tuple[str, bool]:
    """Render the recorded warnings under `policy`; returns the text and whether any became an
    error.  Identical warnings (same id, text and place) are shown once."""
    out, failed, seen = [], False, set()
    for record in caught:
        w = getattr(record, "message", record)
        if not isinstance(w, TranslatorWarning):
            continue
        key = (w.warning_id, w.message, str(w.span))
        if key in seen:
            continue
        seen.add(key)
        action = policy.action(w.warning_id)
        if action == WARN:
            out.append(w.render())
        elif action == ERROR:
            failed = True
            out.append(TranslatorError(f"{w.message} [-Werror={w.warning_id}]", w.span).render())
    return "".join(out), failed
