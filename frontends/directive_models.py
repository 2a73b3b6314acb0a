"""The directive models ``--directives`` accepts, read without importing a frontend (the
command line checks the option before anything heavy is imported: a result-cache hit imports
no IR)."""

from __future__ import annotations

#: The models ``--directives`` accepts (``translate`` is the translator's own pragmas).
MODELS = ("openmp", "openacc", "translate")

#: The sentinel word of each foreign model (``!$omp``, ``#pragma acc``).
SENTINELS = {"openmp": "omp", "openacc": "acc"}


def parse_models(text: str) -> tuple[str, ...]:
    """``openmp,openacc`` -> ("openmp", "openacc"); ValueError naming a bad one."""
    models = tuple(m.strip().lower() for m in text.split(",") if m.strip())
    bad = [m for m in models if m not in MODELS]
    if bad or not models:
        raise ValueError(f"unknown directive model {bad[0] if bad else text!r} (expected a "
                         f"comma-separated list of {', '.join(MODELS)})")
    return models


def requested_models(options: dict) -> tuple[str, ...]:
    """The models of ``options["directives"]`` (default: ``translate`` only)."""
    return tuple(options.get("directives") or ("translate",))


def directive_models(options: dict) -> tuple[str, ...]:
    """The foreign models ``--directives`` asks for (``translate`` excluded), in order."""
    return tuple(m for m in requested_models(options) if m != "translate")
