"""A served command runs once, however late its client is.

On a loaded machine the client can lose the processor right after sending its request, for
as long as the whole command takes in the server's child: the child prints its output and
exits, the server answers and hangs up, and only then does the client go on.  The client
used to send the (empty) rest of its request at that point, get EPIPE, take it for "no
server" and run the command in-process as well: errors and ``--emit`` output printed twice,
and a command interrupted by a polite signal run again to the end (exit 0).  These tests
drive a real server with a client socket that waits for the hang-up before its first call
after the request.
"""

from __future__ import annotations

import select
import socket
from pathlib import Path

from tests.build.helpers import write
from tests.cli.test_server import BAD_PRAGMA, runtime, sockets, warm  # noqa: F401 (fixture)
from translator import server


class LateSocket(socket.socket):
    """A client socket whose first ``sendall`` or ``recv`` after the request waits until
    the server has hung up (the child done, its answer queued)."""

    late = True

    def _wait_for_hang_up(self) -> None:
        if not self.late:
            return
        self.late = False
        poll = select.poll()
        poll.register(self.fileno(), select.POLLRDHUP)
        assert poll.poll(120_000), "the server did not finish the request"

    def sendall(self, data, *args):
        self._wait_for_hang_up()
        return super().sendall(data, *args)

    def recv(self, size, *args):
        self._wait_for_hang_up()
        return super().recv(size, *args)


def late_request(path: Path, argv: list[str]) -> int | None:
    sock = LateSocket(socket.AF_UNIX, socket.SOCK_STREAM)
    with sock:
        sock.connect(str(path))
        return server._request(sock, "translate", argv)


def test_a_late_client_takes_the_childs_status(tmp_path: Path, runtime: Path,  # noqa: F811
                                               capfd) -> None:
    warm(tmp_path, runtime)
    write(tmp_path, "bad.f90", BAD_PRAGMA)
    capfd.readouterr()
    status = late_request(sockets(runtime)[0],
                          [str(tmp_path / "bad.f90"), "-o", str(tmp_path / "out")])
    err = capfd.readouterr().err
    assert status == 1, "the client would run the command again in-process"
    assert err.count("error: ") == 1 and "bad.f90:8:" in err, err


def test_a_late_client_of_a_successful_command(tmp_path: Path, runtime: Path,  # noqa: F811
                                               capfd) -> None:
    warm(tmp_path, runtime)
    write(tmp_path, "plain.f90", "program p\n  print *, 1\nend program\n")
    capfd.readouterr()
    status = late_request(sockets(runtime)[0],
                          [str(tmp_path / "plain.f90"), "--emit", "source"])
    assert status == 0
    assert capfd.readouterr().out == "program p\n  print *, 1\nend program\n"
