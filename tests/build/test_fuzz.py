"""Fuzzing the translation path of the CLI with mutated samples (hypothesis).

Every mutant must end in exit 0, or exit 1 with a diagnostic: never an internal error, a
traceback, a hang, or output left by a failed translation; and a mutant that translates keeps
every line outside its regions byte for byte (CRLF, byte order mark and Latin-1 mutants too).  The driver runs in process
(`translate_source_text`, the function behind each CLI job), so a few hundred inputs take
seconds; bench/fuzz_cli.py runs the same oracle on 10,000 and more.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.build.fuzzing import ALL_KINDS, SEEDS, mutate, mutate_bytes, run_input

EXAMPLES = int(os.environ.get("TRANSLATE_FUZZ_EXAMPLES", "300"))

operations = st.lists(st.tuples(st.sampled_from(ALL_KINDS), st.integers(0, 1 << 16),
                                st.integers(0, 1 << 16)), min_size=1, max_size=3)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.sampled_from(SEEDS), ops=operations)
def test_mutants_end_in_a_diagnostic_or_success(seed, ops) -> None:
    data = mutate_bytes(seed.name, seed.read_text(), ops)
    outcome = run_input(seed.name, data, timeout=60)
    assert not outcome.problem, f"{outcome.problem} for {seed.name} {ops}:\n{outcome.stderr}"


def test_the_oracle_catches_an_internal_error(monkeypatch) -> None:
    """A bug (a non-translator exception) must be reported as exit 2, not hidden."""
    import translator.driver as driver

    def broken(*args, **kwargs):
        raise ZeroDivisionError("simulated bug")
    monkeypatch.setattr(driver, "translate_text", broken)
    outcome = run_input(SEEDS[0].name, SEEDS[0].read_text())
    assert outcome.status == 2 and outcome.problem == "internal error"
    assert "simulated bug" in outcome.stderr


def test_mutations_change_the_text() -> None:
    text = "a = b + 1\nc = d\n"
    assert mutate(text, [("del_line", 0, 0)]) == "c = d\n"
    assert mutate(text, [("swap_lines", 0, 1)]) == "c = d\na = b + 1\n"
    assert mutate(text, [("del_token", 1, 0)]) == "a  b + 1\nc = d\n"
    assert mutate(text, [("swap_tokens", 0, 0)]) == "= a b + 1\nc = d\n"


def test_region_mutations_stay_in_the_region() -> None:
    from tests.build.fuzzing import region_spans
    text = "x = 1\n!$translate kernel k\ny = 2\n!$translate end kernel\nz = 3\n"
    (s, e), = region_spans(text)
    assert text[s:e] == "!$translate kernel k\ny = 2\n!$translate end kernel\n"
    out = mutate(text, [("region_del_line", 1, 0)])
    assert out == "x = 1\n!$translate kernel k\n!$translate end kernel\nz = 3\n"
    assert mutate(text, [("region_interesting_token", 4, 0)]).startswith("x = 1\n!$translate")


def test_byte_mutations() -> None:
    from tests.build.fuzzing import outside_regions_changed
    text = "x = 1\n!$translate kernel k\ny = 2\n!$translate end kernel\n"
    data = mutate_bytes("a.f90", text, [("crlf", 0, 0), ("bom", 0, 0),
                                        ("latin1_comment", 1, 0), ("huge_literal", 0, 0)])
    assert data.startswith(b"\xef\xbb\xbfx = 9223372036854775808\r\n! caf\xe9")
    assert data.count(b"\r\n") == data.count(b"\n") == 5
    assert mutate_bytes("a.c", "int x;\n", [("latin1_comment", 0, 0)]).startswith(b"/* caf\xe9")
    assert outside_regions_changed(data, data.replace(b"y = 2", b"call k()")) == ""
    assert "x = 9" in outside_regions_changed(data, data.replace(b"x = 9", b"x = 8"))
    assert outside_regions_changed(b"a\r\n", b"a\n") != ""
