"""``-Wstale-host-access`` knows MPI (issue 25): buffers passed to MPI send routines and
collectives are host reads, receive buffers host writes, in Fortran (``use mpi``, calls
continued over several lines) and C.  A halo exchange between ``update host`` and ``update
device`` of the halo sections is silent (before, every MPI call that passed a resident array
was "a procedure the translator cannot see"); a missing update is reported at the MPI call,
naming the routine and the buffer's role."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.build.helpers import REPO, write
from tests.e2e import mpi
from translator.cli import main

FORTRAN = """\
program halo
  use mpi
  implicit none
  integer, parameter :: n = 8
  real(8) :: u(0:n+1, n), total
  integer :: ierr, i, j, t
  call MPI_Init(ierr)
  u = 1
  !$translate data copy(u)
  do t = 1, 2
     !$translate kernel smooth
     do j = 1, n
        do i = 1, n
           u(i, j) = 0.5d0*u(i, j)
        end do
     end do
     !$translate end kernel
     call MPI_Sendrecv(u(1, 1:n), n, MPI_DOUBLE_PRECISION, 0, 0, &
                       u(n+1, 1:n), n, MPI_DOUBLE_PRECISION, 0, 0, &
                       MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
     !$translate kernel relax
     do j = 1, n
        do i = 1, n
           u(i, j) = u(i, j) + u(i+1, j)
        end do
     end do
     !$translate end kernel
  end do
  !$translate end data
  call MPI_Allreduce(MPI_IN_PLACE, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, &
                     MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
end program
"""

C = """\
typedef int MPI_Comm;
typedef int MPI_Datatype;
#define MPI_COMM_WORLD 0
#define MPI_DOUBLE 1
int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             void *status);
int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm);

void run(int n, double *restrict u, double *restrict v, int peer)
{
#pragma translate data copy(u[0:n+2], v[0:n])
  for (int t = 0; t < 2; t++) {
#pragma translate kernel smooth
    for (int i = 1; i <= n; i++)
      u[i] = 0.5 * u[i];
#pragma translate end kernel
    MPI_Send(&u[1], 1, MPI_DOUBLE, peer, 0,
             MPI_COMM_WORLD);
    MPI_Recv(&u[n + 1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, 0);
    MPI_Bcast(v, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
#pragma translate kernel relax
    for (int i = 1; i <= n; i++)
      v[i - 1] = u[i] + u[i + 1] + v[i - 1];
#pragma translate end kernel
  }
#pragma translate end data
}
"""


def warnings_of(capsys, tmp_path: Path, name: str, text: str) -> list[str]:
    src = write(tmp_path, name, text)
    code = main([str(src), "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err.replace(str(src), name)
    assert code == 0, err
    return [row for row in err.splitlines() if "warning:" in row]


def test_fortran_mpi_buffers_are_host_accesses(capsys, tmp_path: Path) -> None:
    assert warnings_of(capsys, tmp_path, "halo.f90", FORTRAN) == [
        "halo.f90:18:24: warning: 'MPI_Sendrecv' reads 'u' on the host (its send buffer), "
        "which region 'smooth' last wrote on the device (data region at line 9): add "
        "'!$translate update host(u)' before the call [-Wstale-host-access]",
        "halo.f90:18:24: warning: host code writes 'u', which is on the device (data region at "
        "line 9), and region 'relax' uses it there without '!$translate update device(u)' "
        "between them [-Wstale-host-access]"]


def test_c_mpi_buffers_are_host_accesses(capsys, tmp_path: Path) -> None:
    assert warnings_of(capsys, tmp_path, "halo.c", C) == [
        "halo.c:18:15: warning: 'MPI_Send' reads 'u' on the host (its send buffer), which "
        "region 'smooth' last wrote on the device (data region at line 12): add '#pragma "
        "translate update host(u)' before the call [-Wstale-host-access]",
        "halo.c:20:15: warning: host code writes 'u', which is on the device (data region at "
        "line 12), and region 'relax' uses it there without '#pragma translate update "
        "device(u)' between them [-Wstale-host-access]",
        "halo.c:21:15: warning: host code writes 'v', which is on the device (data region at "
        "line 12), and region 'relax' uses it there without '#pragma translate update "
        "device(v)' between them [-Wstale-host-access]"]


@pytest.mark.parametrize("name, text, edits", [
    ("halo.f90", FORTRAN, [
        ("     call MPI_Sendrecv", "     !$translate update host(u(1:1, 1:n))\n"
                                   "     call MPI_Sendrecv"),
        ("     !$translate kernel relax", "     !$translate update device(u(n+1:n+1, 1:n))\n"
                                          "     !$translate kernel relax")]),
    ("halo.c", C, [
        ("    MPI_Send(", "#pragma translate update host(u[1:1])\n    MPI_Send("),
        ("#pragma translate kernel relax", "#pragma translate update device(u[n+1:1], v[0:n])\n"
                                           "#pragma translate kernel relax")]),
])
def test_halo_updates_around_mpi_calls_are_silent(capsys, tmp_path: Path, name: str,
                                                  text: str, edits: list) -> None:
    for old, new in edits:
        assert text.count(old) == 1
        text = text.replace(old, new)
    assert warnings_of(capsys, tmp_path, name, text) == []


@pytest.mark.skipif(bool(mpi.MISSING), reason=mpi.MISSING)
@pytest.mark.parametrize("sample", ["heat_mpi.c", "heat_mpi.f90"])
def test_mpi_samples_translate_without_warnings(capsys, tmp_path: Path, sample: str) -> None:
    code = main([str(REPO / "samples" / "mpi" / sample), "-o", str(tmp_path / "out"),
                 "-Werror", *mpi.include_flags()])
    err = capsys.readouterr().err
    assert code == 0 and "warning" not in err, err


def test_fortran_mpi_f08_keywords(capsys, tmp_path: Path) -> None:
    """``use mpi_f08`` with keyword arguments: the buffers are found by their keywords."""
    text = FORTRAN.replace("use mpi\n", "use mpi_f08\n").replace(
        "call MPI_Sendrecv(u(1, 1:n), n, MPI_DOUBLE_PRECISION, 0, 0, &\n"
        "                       u(n+1, 1:n), n, MPI_DOUBLE_PRECISION, 0, 0, &\n"
        "                       MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)",
        "call MPI_Sendrecv(recvbuf=u(n+1, 1:n), recvcount=n, &\n"
        "                       recvtype=MPI_DOUBLE_PRECISION, source=0, recvtag=0, &\n"
        "                       sendbuf=u(1, 1:n), sendcount=n, &\n"
        "                       sendtype=MPI_DOUBLE_PRECISION, dest=0, sendtag=0, &\n"
        "                       comm=MPI_COMM_WORLD, status=MPI_STATUS_IGNORE)")
    assert "sendbuf=" in text
    rows = warnings_of(capsys, tmp_path, "halo.f90", text)
    assert [r.split(": warning: ")[1].split(",")[0] for r in rows] == [
        "'MPI_Sendrecv' reads 'u' on the host (its send buffer)",
        "host code writes 'u'"], rows
