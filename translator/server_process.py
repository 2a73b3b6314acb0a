"""The translation server's process (`translator.server` is the client and says what it
does): it holds the lock of its socket, warms up, listens, forks a child per request that
becomes the client (directory, umask, environment, limits, stdio) and runs its command, and
exits when idle or when its translator changed.  Started by `translator.server.start_server`
as ``python -c ... SOCKET VERSION MODULE-PATH...``.
"""

from __future__ import annotations

import json
import os
import socket
import struct
import sys

from translator.server import (DEFAULT_IDLE, HEADER, IDLE, POLITE_SIGNALS,
                              limit_numeric_threads, take_lock, world)

#: What the server translates once before serving (imports the passes, both frontends and
#: fparser's first-parse set-up, which every child then shares).
_WARM_UP = {
    "warm.f90": "subroutine s(n, x)\n  integer, intent(in) :: n\n  real(8), intent(inout) :: "
                "x(n)\n  integer :: i\n  !$translate kernel\n  do i = 1, n\n     x(i) = 2*x(i)"
                "\n  end do\n  !$translate end kernel\nend subroutine\n",
    "warmc.c": "void s(int n, double *restrict x)\n{\n#pragma translate kernel\n  for (int i = 0;"
              " i < n; i++)\n    x[i] = 2 * x[i];\n#pragma translate end kernel\n}\n",
}
#: Seconds between checks that the translator's files are unchanged and the socket is ours.
_CHECK_EVERY = 30.0
#: Seconds a terminated child has before it is killed.
_GRACE = 5.0


def serve() -> None:
    """The server process's main (``sys.argv``: socket path, version, module path)."""
    Server(sys.argv[1], sys.argv[2]).run()


class _Child:
    """A running request: its client connection (None once the client went away) and when
    it is killed if it has not ended by then."""

    def __init__(self, conn: socket.socket) -> None:
        self.conn: socket.socket | None = conn
        self.kill_at: float | None = None


class Server:
    """The server of socket `path` for translator `version` (module docstring)."""

    def __init__(self, path: str, version: str) -> None:
        import selectors
        self.path, self.version = path, version
        self.children: dict[int, _Child] = {}
        self.selector = selectors.DefaultSelector()
        self.listener: socket.socket | None = None
        self.lock_fd = -1
        self.wakeup: tuple[int, int] = (-1, -1)
        self.idle = _idle_seconds()
        self.last = self.next_check = 0.0
        self.inode = -1

    def run(self) -> None:
        """Serve until idle or stale; returns at once when another server holds the lock."""
        self.lock_fd = take_lock(self.path + ".lock")
        if self.lock_fd < 0:
            return
        limit_numeric_threads()   # before numpy is imported: no threads when forking
        _warm_up()
        self._listen()
        try:
            self._loop()
        finally:
            self._stop_listening()

    def _listen(self) -> None:
        import gc
        import selectors
        import signal
        if os.path.lexists(self.path):
            os.unlink(self.path)   # a crashed server's: the lock says none is alive
        tmp = f"{self.path}.{os.getpid()}.tmp"
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(tmp)
        os.chmod(tmp, 0o600)
        self.listener.listen(64)
        os.rename(tmp, self.path)
        self.inode = os.stat(self.path).st_ino
        self.wakeup = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        signal.set_wakeup_fd(self.wakeup[1])
        self.selector.register(self.listener, selectors.EVENT_READ, "accept")
        self.selector.register(self.wakeup[0], selectors.EVENT_READ, "reap")
        gc.collect()
        gc.freeze()   # the children do not copy pages to count references of these objects
        self.last = self.next_check = _now()

    def _loop(self) -> None:
        while self.children or self.listener is not None:
            for key, _ in self.selector.select(self._timeout()):
                if key.data == "accept":
                    self._accept()
                elif key.data == "reap":
                    _drain(self.wakeup[0])
                else:
                    self._from_client(key.data)
            self._reap()
            self._kill_overdue()
            if self.listener is not None and self._should_stop():
                self._stop_listening()

    def _timeout(self) -> float:
        now = _now()
        deadlines = [self.next_check] if self.listener is not None else []
        if not self.children:
            deadlines.append(self.last + self.idle)
        deadlines += [c.kill_at for c in self.children.values() if c.kill_at is not None]
        return max(0.0, min(deadlines) - now) + 0.01

    def _should_stop(self) -> bool:
        now = _now()
        if not self.children and now - self.last >= self.idle:
            return True
        if now >= self.next_check:
            self.next_check = now + _CHECK_EVERY
            return not self._current()
        return False

    def _current(self) -> bool:
        """The socket is still ours and the translator's files still hash to our version."""
        from translator.build import cache
        try:
            if os.stat(self.path).st_ino != self.inode:
                return False
        except OSError:
            return False
        cache._VERSION.clear()   # hash the files again
        return cache.translator_version(cache.cache_dir()) == self.version

    def _stop_listening(self) -> None:
        if self.listener is None:
            return
        try:
            if os.stat(self.path).st_ino == self.inode:
                os.unlink(self.path)
        except OSError:
            pass
        self.selector.unregister(self.listener)
        self.listener.close()
        self.listener = None

    # -- requests -----------------------------------------------------------------------------

    def _accept(self) -> None:
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return
        self.last = _now()
        request, fds = _read_request(conn)
        pid = self._fork(conn) if request is not None else None
        if pid == 0:
            conn.close()
            self._child(request, fds)
        for fd in fds:
            os.close(fd)
        if pid is None:
            conn.close()
        else:
            self._started(pid, conn)

    def _fork(self, conn: socket.socket) -> int | None:
        """Say "S" (a child will run this request), then fork: the pid (0 in the child), or
        None when the client is gone or the fork failed (then the client, told so, runs the
        command itself).  "S" goes first so that a client that has not read it knows that
        no child runs for it: whatever goes wrong before, running in-process cannot do the
        command twice (its output twice, or a second translation after an interrupted one)."""
        try:
            conn.sendall(b"S")
        except OSError:
            return None
        try:
            return os.fork()
        except OSError:
            _send_answer(conn, {"local": True, "status": 0, "cpu": 0.0, "signal": 0,
                                "server": os.getpid()})
            return None

    def _started(self, pid: int, conn: socket.socket) -> None:
        import selectors
        self.children[pid] = _Child(conn)
        conn.setblocking(False)
        self.selector.register(conn, selectors.EVENT_READ, pid)

    def _from_client(self, pid: int) -> None:
        """The client sent signal numbers to pass on, or closed its end (it was killed, or
        broke the protocol): then the child is interrupted, and killed if it lingers."""
        child = self.children.get(pid)
        if child is None or child.conn is None:
            return
        try:
            data = child.conn.recv(256)
        except OSError:
            data = b""
        signals = [int(w) for w in data.split() if w.isdigit() and int(w) in POLITE_SIGNALS]
        if data and len(signals) == len(data.split()):
            for sig in signals:
                _signal_group(pid, sig)
            return
        self._client_gone(pid)

    def _client_gone(self, pid: int) -> None:
        """The client closed its end before its child ended."""
        import signal
        child = self.children[pid]
        self._close(child)
        _signal_group(pid, signal.SIGINT)
        child.kill_at = _now() + _GRACE

    def _close(self, child: _Child) -> None:
        conn, child.conn = child.conn, None
        try:
            self.selector.unregister(conn)
        except (KeyError, ValueError):
            pass
        conn.close()

    def _reap(self) -> None:
        while self.children:
            try:
                pid, status, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            child = self.children.pop(pid, None)
            if child is None:
                continue
            self.last = _now()
            if child.conn is not None:
                self._answer(child, status, usage.ru_utime + usage.ru_stime)

    def _answer(self, child: _Child, status: int, cpu: float) -> None:
        code = os.waitstatus_to_exitcode(status)
        answer = {"status": code if code >= 0 else 128 - code, "cpu": cpu,
                  "signal": -code if code < 0 else 0, "server": os.getpid()}
        child.conn.setblocking(True)
        _send_answer(child.conn, answer)
        self._close(child)

    def _kill_overdue(self) -> None:
        import signal
        now = _now()
        for pid, child in self.children.items():
            if child.kill_at is not None and now >= child.kill_at:
                _signal_group(pid, signal.SIGKILL)
                child.kill_at = None

    # -- the child ----------------------------------------------------------------------------

    def _child(self, request: dict, fds: list[int]) -> None:
        """Run `request` in this forked child with the client's fds; never returns."""
        code = 2
        try:
            self._leave_server()
            _adopt(request, fds)
            code = _run_program(request["program"], request["argv"])
        except BaseException:   # noqa: BLE001 - the child must reach os._exit
            code = _report_child_bug()
        finally:
            code = _finish(code)
            os._exit(code)

    def _leave_server(self) -> None:
        """Drop what belongs to the server: its fds, its signal handling."""
        import signal
        os.setpgid(0, 0)   # own group: ending it ends the compilers it runs too
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for conn in [c.conn for c in self.children.values() if c.conn is not None]:
            conn.close()
        self.selector.close()
        self.listener.close()
        for fd in (self.lock_fd, *self.wakeup):
            os.close(fd)


def _send_answer(conn: socket.socket, answer: dict) -> None:
    try:
        conn.sendall(json.dumps(answer).encode("ascii") + b"\n")
    except OSError:
        pass   # the client is gone


def _now() -> float:
    import time
    return time.monotonic()


def _idle_seconds() -> float:
    try:
        return max(0.0, float(os.environ.get(IDLE, DEFAULT_IDLE)))
    except ValueError:
        return DEFAULT_IDLE


def _warm_up() -> None:
    """Translate the built-in inputs once, as the command line would, output discarded."""
    import contextlib
    import io
    import tempfile

    import translator.build.wrappers  # noqa: F401  (served too)
    from translator.cli import main
    with tempfile.TemporaryDirectory(prefix="translate-warm-") as tmp:
        names = []
        for name, text in _WARM_UP.items():
            names.append(os.path.join(tmp, name))
            with open(names[-1], "w", encoding="utf-8") as f:
                f.write(text)
        with contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()) as err:
            status = main([*names, "-o", os.path.join(tmp, "out"), "--report=-"])
    if status != 0:   # a bug: serve anyway (requests run the same code), but say so
        sys.stderr.write(err.getvalue())


def _drain(fd: int) -> None:
    try:
        while os.read(fd, 512):
            pass
    except BlockingIOError:
        pass


def _signal_group(pid: int, sig: int) -> None:
    try:
        os.killpg(pid, sig)
    except OSError:   # already gone (or not yet its own group: signal it alone)
        try:
            os.kill(pid, sig)
        except OSError:
            pass


def _same_world(pid: int) -> bool:
    """Whether process `pid` sees the files and processes this server sees: the same mount,
    user and process-id namespaces and the same root (a client in a container, under
    ``unshare`` or ``chroot`` is translated in-process)."""
    ours = world()
    return ours != "" and world(str(pid)) == ours


def _read_request(conn: socket.socket) -> tuple[dict | None, list[int]]:
    """The request on `conn` and the client's three fds, or None (and any fds received)
    when the peer is another user or the request is malformed."""
    creds = struct.Struct("3i")
    pid, uid, _ = creds.unpack(conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                               creds.size))
    if uid != os.getuid() or not _same_world(pid):
        return None, []
    conn.settimeout(10.0)
    fds: list[int] = []
    try:
        data, fds, _, _ = socket.recv_fds(conn, 1 << 16, 3)
        if len(fds) != 3 or len(data) < HEADER.size:
            return None, fds
        size = HEADER.unpack_from(data)[0]
        while len(data) < HEADER.size + size:
            chunk = conn.recv(1 << 16)
            if not chunk:
                return None, fds
            data += chunk
        return json.loads(data[HEADER.size:]), fds
    except (OSError, ValueError):
        return None, fds


def _adopt(request: dict, fds: list[int]) -> None:
    """Become the client: its directory, umask, environment, argv and stdio."""
    import resource
    os.chdir(request["cwd"])
    os.umask(request["umask"])
    for name, limit in request["limits"].items():
        try:
            resource.setrlimit(getattr(resource, name), tuple(limit))
        except (AttributeError, ValueError, OSError):
            pass   # above the server's hard limit: the server's stays
    atomic = sys.modules.get("translator.atomic_files")
    if atomic is not None:
        atomic._umask.cache_clear()   # remembered by the warm-up's translation
    os.environ.clear()
    os.environ.update(request["environ"])
    sys.argv = [request["program"], *request["argv"]]
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    sys.stdin, sys.stdout, sys.stderr = (
        _reopen(fd, mode, settings)
        for fd, mode, settings in zip((0, 1, 2), "rww", request["stdio"]))


def _reopen(fd: int, mode: str, settings: dict | None):
    if settings is None:
        return None
    stream = open(fd, mode, encoding=settings["encoding"], errors=settings["errors"],
                  closefd=False)
    stream.reconfigure(line_buffering=settings["line_buffering"],
                       write_through=settings["write_through"])
    return stream


def _run_program(program: str, argv: list[str]) -> int:
    """Run the entry point of `program` in this process, as its command would."""
    try:
        if program == "translate":
            from translator.cli import main
            return main(argv)
        from translator.build.wrappers import run_in_process
        return run_in_process(argv, "gfortran" if program == "translate-fc" else "gcc")
    except SystemExit as done:   # argparse's usage errors
        if done.code is None or isinstance(done.code, int):
            return done.code or 0
        sys.stderr.write(f"{done.code}\n")
        return 1


def _report_child_bug() -> int:
    import traceback
    try:
        sys.stderr.write("translate: internal error in the translation server's child (this "
                         "is a bug in the translator):\n")
        traceback.print_exc()
    except BaseException:   # noqa: BLE001 - stderr itself may be gone
        pass
    return 2


def _finish(code: int) -> int:
    """Flush the streams and run the exit handlers, as the interpreter does at exit."""
    import atexit
    try:
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except BrokenPipeError:
        return code or 120
    except BaseException:   # noqa: BLE001
        return code or 120
    return code
