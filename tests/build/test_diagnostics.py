"""Warning ids: -Wno-<id>, -W<id>, -Werror, -Werror=<id>, -Wno-error=<id>, -w."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.build.helpers import SUM_C, translate, write
from translator.build.warnpolicy import ERROR, IGNORE, WARN, WarningPolicy, split_warning_flags
from translator.cli import main

WARNING = "sum.c:4:19: warning: region sum_k runs as a single work item"


def run(capsys, tmp_path: Path, *flags: str) -> tuple[int, str, list[str]]:
    src = write(tmp_path, "sum.c", SUM_C)
    out = tmp_path / "out"
    code = main([str(src), "-o", str(out), *flags])
    _, err = capsys.readouterr()
    written = sorted(p.name for p in out.iterdir()) if out.exists() else []
    return code, err, written


def test_warning_has_its_id_and_location(tmp_path: Path, capsys) -> None:
    code, err, written = run(capsys, tmp_path)
    assert code == 0 and WARNING in err and err.count("[-Wsequential-region]") == 1
    assert "#pragma translate kernel sum_k\n" in err and "^" in err
    assert written == ["sum.c", "sum.cl", "sum.host.c"]


@pytest.mark.parametrize("flags", [["-Wno-sequential-region"], ["-w"],
                                   ["-Werror", "-Wno-sequential-region"]])
def test_silenced(tmp_path: Path, capsys, flags: list[str]) -> None:
    code, err, written = run(capsys, tmp_path, *flags)
    assert code == 0 and err == "" and len(written) == 3


@pytest.mark.parametrize("flags", [["-Werror"], ["-Werror=sequential-region"],
                                   ["-Wno-sequential-region", "-Wsequential-region",
                                    "-Werror"]])
def test_promoted_to_error_writes_nothing(tmp_path: Path, capsys, flags: list[str]) -> None:
    code, err, written = run(capsys, tmp_path, *flags)
    assert code == 1 and written == []
    assert "sum.c:4:19: error: region sum_k runs as a single work item" in err
    assert "[-Werror=sequential-region]" in err and "warning:" not in err


def test_no_error_exemption(tmp_path: Path, capsys) -> None:
    code, err, written = run(capsys, tmp_path, "-Werror", "-Wno-error=sequential-region")
    assert code == 0 and WARNING in err and len(written) == 3


def test_werror_through_the_real_command(tmp_path: Path) -> None:
    src = write(tmp_path, "sum.c", SUM_C)
    r = translate(str(src), "-o", "out", "-Werror", cwd=tmp_path)
    assert r.returncode == 1 and "error:" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_policy_rules() -> None:
    policy, rest = split_warning_flags(["a.c", "-Werror", "-Wno-x", "-o", "o", "--", "-Wy"])
    assert rest == ["a.c", "-o", "o", "--", "-Wy"]
    assert policy.action("x") == IGNORE and policy.action("z") == ERROR
    assert WarningPolicy().action("z") == WARN
    assert WarningPolicy().with_flag("-Werror=a").with_flag("-Wno-error=a").action("a") == WARN
    with pytest.raises(ValueError):
        WarningPolicy().with_flag("-Q")
