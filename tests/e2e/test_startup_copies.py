"""Start-up copies (issue 29 item 3): ``enter data`` right after allocating derived-type
components keeps them on the device for the initialisation and the later regions; without it,
``TRANSLATE_PROFILE`` names every array a region copied whole because no data region held it,
with the directive that keeps it there.  Results equal the original either way."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.e2e.harness import build_original, build_translated, run, sample_options

PROGRAM = """module state_mod
  implicit none
  type chunk_type
    real(8), allocatable :: density(:,:), energy(:,:)
  end type
contains
  subroutine init_fields(nx, ny, density, energy)
    integer, intent(in) :: nx, ny
    real(8), intent(inout) :: density(nx, ny), energy(nx, ny)
    integer :: j, k
    !$translate kernel init_k
    do k = 1, ny
      do j = 1, nx
        density(j, k) = 1.0d0 + 0.001d0*mod(j + 3*k, 17)
        energy(j, k) = 2.0d0*density(j, k)
      end do
    end do
    !$translate end kernel
  end subroutine
  subroutine scale_fields(nx, ny, density, energy)
    integer, intent(in) :: nx, ny
    real(8), intent(inout) :: density(nx, ny), energy(nx, ny)
    integer :: j, k
    !$translate kernel scale_k
    do k = 1, ny
      do j = 1, nx
        energy(j, k) = energy(j, k)*density(j, k)
      end do
    end do
    !$translate end kernel
  end subroutine
end module

program startup
  use state_mod
  implicit none
  integer, parameter :: nx = 200, ny = 100
  type(chunk_type) :: chunk
  integer :: step
  allocate(chunk%density(nx, ny), chunk%energy(nx, ny))
  !$translate enter data create(chunk%density, chunk%energy)
  call init_fields(nx, ny, chunk%density, chunk%energy)
  do step = 1, 3
    call scale_fields(nx, ny, chunk%density, chunk%energy)
  end do
  !$translate exit data copyout(chunk%density, chunk%energy)
  print '(2es25.16)', sum(chunk%density), sum(chunk%energy)
end program
"""

ENTER = "  !$translate enter data create(chunk%density, chunk%energy)\n"
EXIT = "  !$translate exit data copyout(chunk%density, chunk%energy)\n"


def _profiled(text: str, work: Path) -> tuple[str, str]:
    """The original's output, and the translated program's output and profile."""
    src = work / "startup.f90"
    src.write_text(text)
    opts = sample_options(src)
    expected = run([str(build_original(src, work, opts))], work)
    exe = build_translated(src, work, opts)
    env = {**os.environ, "TRANSLATE_DEVICE": "cpu", "TRANSLATE_PROFILE": "1"}
    proc = subprocess.run([str(exe)], cwd=work, capture_output=True, text=True, env=env,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == expected
    return proc.stdout, proc.stderr


def _hints(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("hint: ")]


def test_profile_names_arrays_copied_on_every_call(tmp_path: Path) -> None:
    _, stderr = _profiled(PROGRAM.replace(ENTER, "").replace(EXIT, ""), tmp_path)
    src = tmp_path / "startup.f90"
    hints = _hints(stderr)
    assert (f"hint: region scale_k ({src}:24) copies energy (0.2 MB) in and out on 3 of its 3 "
            "calls: no data region holds it; an `enter data` after its allocation (or a data "
            "region around the calls) would keep it on the device") in hints
    assert any(h.startswith(f"hint: region scale_k ({src}:24) copies density (0.2 MB) in on "
                            "3 of its 3 calls") for h in hints)
    assert any(h.startswith(f"hint: region init_k ({src}:11) copies density") for h in hints)
    # the hints come before the table, whose last row stays the total
    assert stderr.index("hint: ") < stderr.index("translate profile")
    assert stderr.splitlines()[-1].startswith("total ")


def test_enter_data_on_components_copies_nothing_per_call(tmp_path: Path) -> None:
    assert ENTER in PROGRAM and EXIT in PROGRAM
    _, stderr = _profiled(PROGRAM, tmp_path)
    assert _hints(stderr) == []
    rows = {line.split()[0]: line.split() for line in stderr.splitlines()
            if line.split() and line.split()[0] in ("init_k", "scale_k")}
    assert rows["init_k"][-2:] == ["0", "0"] and rows["scale_k"][-2:] == ["0", "0"]
