"""The translation server: a per-user process that has the translator imported and forks one
child per request, so that a cold ``translate`` pays neither numpy, islpy and pymbolic nor the
frontends' set-up (docs/build.md, "Translation server").

Client (`handoff`, standard library only, called before anything heavy is imported): connect
to ``<dir>/<name>.sock``, where ``<dir>`` is ``$XDG_RUNTIME_DIR/translate`` else
``/tmp/translate-$UID`` (mode 0700, owned by the user, not a link) and ``<name>`` hashes the
translator version (`translator.build.cache.translator_version`), the interpreter and its
module path, so that an edited or upgraded translator never talks to an old server.  Send the
program, argv, working directory, umask, environment and the stdio settings, with the fds 0,
1 and 2 (SCM_RIGHTS); wait for the exit status.  Without an answering server the client
translates in-process as before and starts a detached server for later calls.

Server (`serve`): holds ``<name>.lock`` for its lifetime (one server per name), warms up
(imports, one tiny Fortran and C translation), binds the socket under a temporary name and
renames it into place.  Per request it checks the peer's uid, forks a child that takes over
the client's working directory, umask, environment and fds and runs the same entry point
the command line runs; the status (and the child's CPU time) goes back to the client.  A
client that goes away before the end (Ctrl-C, kill) gets its child terminated (SIGTERM to the
child's process group: outputs are written atomically, so none is half-written).  The server
exits after ``$TRANSLATE_SERVER_IDLE`` seconds (default 300) without a request, or when its
translator changed.
"""

from __future__ import annotations

import json
import os
import socket
import struct
import sys
from collections.abc import Iterator
from contextlib import contextmanager

#: ``TRANSLATE_SERVER=0`` (also ``off``, ``no``, ``false``): never connect, never start one.
SWITCH = "TRANSLATE_SERVER"
#: Seconds without a request after which the server exits.
IDLE = "TRANSLATE_SERVER_IDLE"
#: ``TRANSLATE_SERVER_DEBUG=1``: the client says on stderr which server ran the request and
#: the child's CPU time (the client's own is what `time` shows).
DEBUG = "TRANSLATE_SERVER_DEBUG"
DEFAULT_IDLE = 300.0
#: Arguments that the server does not take: cheap anyway, or not a translation.
_LOCAL_OPTIONS = frozenset({"-h", "--help", "--version", "--runtime-dir", "--cmake-dir",
                            "--make-dir", "--no-server", "-"})
_LOCAL_COMMANDS = frozenset({"check", "devices", "help", "tune"})
#: Environment settings that keep numeric libraries from starting threads in the server
#: (a process that forks must hold no threads).
_THREAD_LIMITS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
                  "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")
_HEADER = struct.Struct("!I")
#: Resource limits of the client that its child takes over (``ulimit -f`` ...).
_LIMITS = ("RLIMIT_AS", "RLIMIT_CORE", "RLIMIT_CPU", "RLIMIT_DATA", "RLIMIT_FSIZE",
           "RLIMIT_NOFILE", "RLIMIT_STACK")
#: Signals a client passes on to its child (SIGINT, SIGTERM, SIGHUP).
_POLITE = (2, 15, 1)
_MAX_SOCKET_PATH = 107   # sun_path holds 108 bytes with the final NUL


# ---------------------------------------------------------------------------------------------
# client

def handoff(program: str, argv: list[str]) -> int | None:
    """Run ``program argv`` in the server and return its exit status, or None when the
    caller must run it in-process (no server answered: one is started for later calls; the
    server is off or cannot be used for this command)."""
    if not _wanted(program, argv):
        return None
    directory = server_dir()
    if directory is None:
        return None
    path = socket_path(directory)
    if path is None:
        return None
    sock = _connect(path)
    if sock is None:
        start_server(directory, path)
        return None
    with sock:
        return _request(sock, program, argv)


def enabled() -> bool:
    """Whether ``$TRANSLATE_SERVER`` lets a client use (and start) a server."""
    return os.environ.get(SWITCH, "1").strip().lower() not in ("0", "off", "no", "false")


def _wanted(program: str, argv: list[str]) -> bool:
    if not enabled() or not hasattr(socket, "AF_UNIX") or not hasattr(socket, "send_fds"):
        return False
    options = argv[:argv.index("--")] if "--" in argv else argv
    if program != "translate":   # a wrapper: its translator options count too
        options = options + os.environ.get("TRANSLATE_FLAGS", "").split()
    if program == "translate" and (not argv or argv[0] in _LOCAL_COMMANDS):
        return False
    return not any(a in _LOCAL_OPTIONS for a in options)


def server_dir() -> str | None:
    """The per-user directory of server sockets, created 0700; None (with a note on stderr)
    when it exists but is not private to this user or is a link."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    directory = os.path.join(runtime, "translate") if runtime \
        else f"/tmp/translate-{os.getuid()}"
    try:
        os.mkdir(directory, 0o700)
        os.chmod(directory, 0o700)   # whatever the umask
    except FileExistsError:
        pass
    except OSError as err:
        return _note(f"cannot create {directory}: {err.strerror}")
    problem = _private_dir_problem(directory)
    return _note(f"{directory} {problem}") if problem else directory


def _private_dir_problem(directory: str) -> str:
    import stat
    try:
        st = os.lstat(directory)
    except OSError as err:
        return f"cannot be read: {err.strerror}"
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        return "is not a directory (a link or a file)"
    if st.st_uid != os.getuid():
        return f"is owned by uid {st.st_uid}, not by you"
    if st.st_mode & 0o077:
        return f"is open to others (mode {stat.S_IMODE(st.st_mode):o}, want 700)"
    return ""


def _note(text: str) -> None:
    sys.stderr.write(f"translate: note: not using the translation server: {text}\n")


def socket_path(directory: str) -> str | None:
    """The socket of this translator, interpreter and module path in `directory` (None, with
    a note, if the name is too long for a Unix socket)."""
    from translator.build.cache import _sha, cache_dir, translator_version
    name = _sha(translator_version(cache_dir()), sys.executable, _world(),
                *_module_path())[:24]
    path = os.path.join(directory, name + ".sock")
    if len(os.fsencode(path)) > _MAX_SOCKET_PATH:
        return _note(f"the socket path {path} is too long for a Unix socket")
    return path


def _connect(path: str) -> socket.socket | None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(path)
    except OSError:
        sock.close()
        return None
    return sock


def _request(sock: socket.socket, program: str, argv: list[str]) -> int | None:
    """Send the request; the child's exit status, or None if the server turned it down
    before starting a child."""
    payload = json.dumps(_request_body(program, argv)).encode("ascii")
    data = _HEADER.pack(len(payload)) + payload
    with _forwarding(sock):
        try:
            sent = socket.send_fds(sock, [data], [0, 1, 2])
            sock.sendall(data[sent:])
            if sock.recv(1) != b"S":
                return None   # refused before a child ran: translate here instead
        except OSError:
            return None
        answer = _answer(sock)
    return _exit_like(answer)


def _request_body(program: str, argv: list[str]) -> dict:
    import resource
    umask = os.umask(0o022)
    os.umask(umask)
    limits = {name: resource.getrlimit(getattr(resource, name))
              for name in _LIMITS if hasattr(resource, name)}
    return {"program": program, "argv": argv, "cwd": os.getcwd(), "umask": umask,
            "environ": dict(os.environ), "limits": limits,
            "stdio": [_stream_settings(s) for s in (sys.stdin, sys.stdout, sys.stderr)]}


def _stream_settings(stream) -> dict | None:
    """What the child needs to open a text stream like this process's one."""
    if stream is None:
        return None
    return {"encoding": stream.encoding, "errors": stream.errors,
            "line_buffering": stream.line_buffering,
            "write_through": getattr(stream, "write_through", False)}


@contextmanager
def _forwarding(sock: socket.socket) -> Iterator[None]:
    """While the request runs, a polite signal to this process (Ctrl-C, kill) goes to the
    child, whose outcome this process then takes: renames under way finish first, as they
    would in-process.  Ignored signals (nohup) stay ignored."""
    import signal

    def forward(signum: int, _frame) -> None:
        try:
            sock.sendall(b"%d\n" % signum)
        except OSError:
            pass
    old = {}
    for sig in _POLITE:
        if signal.getsignal(sig) is not signal.SIG_IGN:
            old[sig] = signal.signal(sig, forward)
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def _answer(sock: socket.socket) -> dict:
    data = b""
    while not data.endswith(b"\n"):
        chunk = sock.recv(4096)
        if not chunk:
            sys.stderr.write("translate: internal error: the translation server ended "
                             "without an answer (this is a bug in the translator)\n")
            return {"status": 2}
        data += chunk
    answer = json.loads(data)
    if os.environ.get(DEBUG):
        sys.stderr.write(f"translate: served by server pid {answer['server']}: child CPU "
                         f"{answer['cpu']:.3f} s (user + system)\n")
    return answer


def _exit_like(answer: dict) -> int:
    """The child's exit status; a child ended by a signal ends this process by the same
    signal (a shell then sees what an in-process run gives)."""
    sig = answer.get("signal")
    if sig:
        import signal
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
    return int(answer["status"])


def start_server(directory: str, path: str) -> None:
    """Start a detached server for `path` unless one holds its lock (is starting or running):
    double fork, a new session, stdio on /dev/null, no other fd inherited."""
    if _lock_held(path + ".lock"):
        return
    code = "import sys; sys.path[:] = sys.argv[3:]; import translator.server as s; s.serve()"
    argv = [sys.executable, "-c", code, path, _version(), *_module_path()]
    pid = os.fork()
    if pid:
        os.waitpid(pid, 0)
        return
    try:
        os.setsid()
        if os.fork():
            os._exit(0)
        os.chdir(directory)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.closerange(3, _max_fd())
        os.execv(sys.executable, argv)
    finally:
        os._exit(127)


def _module_path() -> list[str]:
    """The module path a server for this process imports from: ``sys.path`` without its
    first entry (the script's directory, or the working directory of ``python -m``), so
    that every working directory shares one server."""
    return sys.path[1:]


def _version() -> str:
    from translator.build.cache import cache_dir, translator_version
    return translator_version(cache_dir())


def _max_fd() -> int:
    try:
        return os.sysconf("SC_OPEN_MAX")
    except (ValueError, OSError):
        return 1024


def _lock_held(lock_path: str) -> bool:
    """Whether another process holds `lock_path` (a server lives or is starting)."""
    import fcntl
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return True   # cannot even open it: start nothing
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


# ---------------------------------------------------------------------------------------------
# server

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
        self.lock_fd = _take_lock(self.path + ".lock")
        if self.lock_fd < 0:
            return
        for name in _THREAD_LIMITS:   # before numpy is imported: no threads when forking
            os.environ.setdefault(name, "1")
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
        if request is None:
            for fd in fds:
                os.close(fd)
            conn.close()
            return
        pid = os.fork()
        if pid == 0:
            conn.close()
            self._child(request, fds)
        for fd in fds:
            os.close(fd)
        self._started(pid, conn)

    def _started(self, pid: int, conn: socket.socket) -> None:
        import selectors
        self.children[pid] = _Child(conn)
        try:
            conn.sendall(b"S")
        except OSError:
            self._client_gone(pid)
            return
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
        signals = [int(w) for w in data.split() if w.isdigit() and int(w) in _POLITE]
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
        conn = child.conn
        try:
            conn.setblocking(True)
            conn.sendall(json.dumps(answer).encode("ascii") + b"\n")
        except OSError:
            pass
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


def _now() -> float:
    import time
    return time.monotonic()


def _idle_seconds() -> float:
    try:
        return max(0.0, float(os.environ.get(IDLE, DEFAULT_IDLE)))
    except ValueError:
        return DEFAULT_IDLE


def _take_lock(lock_path: str) -> int:
    """An fd holding `lock_path`'s lock, or -1 if another process holds it."""
    import fcntl
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return -1
    return fd


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


def _world(pid: str = "self") -> str:
    """The namespaces and root that process `pid` sees ("" where /proc cannot tell)."""
    try:
        parts = [os.readlink(f"/proc/{pid}/ns/{ns}") for ns in ("mnt", "user", "pid")]
        root = os.stat(f"/proc/{pid}/root")
    except OSError:
        return ""
    return " ".join([*parts, f"{root.st_dev}:{root.st_ino}"])


def _same_world(pid: int) -> bool:
    """Whether process `pid` sees the files and processes this server sees: the same mount,
    user and process-id namespaces and the same root (a client in a container, under
    ``unshare`` or ``chroot`` is translated in-process)."""
    ours = _world()
    return ours != "" and _world(str(pid)) == ours


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
        if len(fds) != 3 or len(data) < _HEADER.size:
            return None, fds
        size = _HEADER.unpack_from(data)[0]
        while len(data) < _HEADER.size + size:
            chunk = conn.recv(1 << 16)
            if not chunk:
                return None, fds
            data += chunk
        return json.loads(data[_HEADER.size:]), fds
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
