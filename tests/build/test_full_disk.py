"""All or none on real file-system failures (issue 15): a full file system (a real ENOSPC)
and a rename that fails after other outputs were renamed (a real EBUSY).

Both need a file system the test can fill or a mount it can make.  Without root, Linux lets a
process make them in its own user and mount namespace (``unshare --user --map-root-user
--mount``): a small tmpfs that fills up, and a bind mount over an output, which the kernel
refuses to rename over.  Where the kernel does not allow such namespaces the tests skip; the
size-limit test in test_safe_build.py (EFBIG) runs everywhere.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.build.helpers import SAXPY, env, must, translate

PAGE = 4096   # tmpfs counts whole pages: each small output takes one


def _namespace_works() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "true"],
                           capture_output=True)
    return probe.returncode == 0


needs_namespace = pytest.mark.skipif(not _namespace_works(),
                                     reason="no user and mount namespaces (unshare) here")


def in_namespace(script: str, cwd: Path) -> subprocess.CompletedProcess:
    """Run the shell `script` as root of a new user and mount namespace (no real root)."""
    return subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "sh", "-ec",
                           script], cwd=cwd, capture_output=True, text=True, env=env(),
                          timeout=600)


TRANSLATE = f"{shlex.quote(sys.executable)} -m translator.cli"


@needs_namespace
def test_full_file_system_leaves_no_output(tmp_path: Path) -> None:
    """A tmpfs with room for two of the three outputs: writing the third fails with ENOSPC,
    no output and no temporary file is left; with room for none, the outputs of an earlier
    run stay as they were."""
    (tmp_path / "saxpy.f90").write_text(SAXPY)
    changed = tmp_path / "changed" / "saxpy.f90"
    changed.parent.mkdir()
    changed.write_text(SAXPY.replace("a*x(i)", "a*x(i)*2"))
    script = f"""
mkdir disk
mount -t tmpfs -o size={16 * PAGE} tmpfs disk
head -c {14 * PAGE} /dev/zero > disk/filler         # two pages left
if {TRANSLATE} saxpy.f90 -o disk/out 2> err1; then exit 3; fi
cp -a disk/out after_full
rm disk/filler
{TRANSLATE} saxpy.f90 -o disk/out
cp -a disk/out before
head -c {13 * PAGE} /dev/zero > disk/filler         # no page left
cp changed/saxpy.f90 saxpy.f90
if {TRANSLATE} saxpy.f90 -o disk/out 2> err2; then exit 4; fi
cp -a disk/out after_second
"""
    r = in_namespace(script, tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    err1 = (tmp_path / "err1").read_text()
    assert err1.startswith("translate: error: cannot write disk/out/saxpy.host.c: No space "
                           "left on device (no output of saxpy.f90 was written)"), err1
    assert list((tmp_path / "after_full").iterdir()) == []
    err2 = (tmp_path / "err2").read_text()
    assert "No space left on device (no output of saxpy.f90 was written)" in err2, err2
    before = {p.name: p.read_bytes() for p in (tmp_path / "before").iterdir()}
    assert sorted(before) == ["saxpy.cl", "saxpy.f90", "saxpy.host.c"]
    assert {p.name: p.read_bytes() for p in (tmp_path / "after_second").iterdir()} == before


@needs_namespace
def test_failed_rename_puts_earlier_outputs_back(tmp_path: Path) -> None:
    """The last output cannot be renamed (a bind mount sits on it: EBUSY) after the first two
    were: those two get their old contents back, nothing else is left."""
    (tmp_path / "saxpy.f90").write_text(SAXPY)
    must(translate("saxpy.f90", "-o", "out", cwd=tmp_path))
    before = {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()}
    # a new region name changes all three outputs
    (tmp_path / "saxpy.f90").write_text(SAXPY.replace("saxpy_k", "renamed_k"))
    (tmp_path / "blocker").write_text("blocker\n")
    script = f"""
mount --bind blocker out/saxpy.host.c
if {TRANSLATE} saxpy.f90 -o out 2> err; then exit 3; fi
"""
    r = in_namespace(script, tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    err = (tmp_path / "err").read_text()
    assert err.startswith("translate: error: cannot write out/saxpy.host.c: Device or "
                          "resource busy (no output of saxpy.f90 was written)"), err
    assert {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()} == before
    # without the mount the same command translates (nothing was in the way but the mount)
    must(translate("saxpy.f90", "-o", "out", cwd=tmp_path))
    assert "renamed_k" in (tmp_path / "out" / "saxpy.host.c").read_text()


def test_output_over_a_directory_writes_nothing(tmp_path: Path) -> None:
    """-MF naming a directory: found before anything is renamed (it used to leave the three
    outputs behind while saying none was written)."""
    (tmp_path / "saxpy.f90").write_text(SAXPY)
    (tmp_path / "deps").mkdir()
    r = translate("saxpy.f90", "-o", "out", "-MD", "-MF", "deps", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr == ("translate: error: cannot write deps: Is a directory (no output of "
                        "saxpy.f90 was written)\n")
    assert list((tmp_path / "out").iterdir()) == []
    assert sorted(os.listdir(tmp_path)) == ["deps", "out", "saxpy.f90"]
