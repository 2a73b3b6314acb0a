"""The translation server: a per-user process that has the translator imported and forks one
child per request, so that a cold ``translate`` pays neither numpy, islpy and pymbolic nor the
frontends' set-up (docs/build.md, "Translation server").

Client (`handoff`, standard library only, called before anything heavy is imported): connect
to ``<dir>/<name>.sock``, where ``<dir>`` is ``$XDG_RUNTIME_DIR/translate`` else
``/tmp/translate-$UID`` (mode 0700, owned by the user, not a link) and ``<name>`` hashes the
translator version (`translator.build.cache.translator_version`), the interpreter, its
module path and the namespaces it sees, so that an edited or upgraded translator never talks
to an old server.  Send the program, argv, working directory, umask, environment, resource
limits and stdio settings, with the fds 0, 1 and 2 (SCM_RIGHTS); pass polite signals on;
exit as the child did.  The server says "S" before it forks the child: a client that has
not read it (no server, or one that turned the request down) translates in-process as before
and starts a detached server for later calls (`start_server`); one that has read it never
does, so a command never runs twice.

Server (`translator.server_process`): one per socket name (a lock held for its lifetime);
it warms up, listens, checks each peer's uid and namespaces, forks a child per request that
becomes the client and runs the same entry point the command line runs, sends back the exit
status, interrupts a child whose client went away, and exits when idle
(``$TRANSLATE_SERVER_IDLE`` seconds, default 300) or when its translator changed.
"""

from __future__ import annotations

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
THREAD_LIMITS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
                  "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")
HEADER = struct.Struct("!I")
#: Resource limits of the client that its child takes over (``ulimit -f`` ...).
_LIMITS = ("RLIMIT_AS", "RLIMIT_CORE", "RLIMIT_CPU", "RLIMIT_DATA", "RLIMIT_FSIZE",
           "RLIMIT_NOFILE", "RLIMIT_STACK")
#: Signals a client passes on to its child (SIGINT, SIGTERM, SIGHUP).
POLITE_SIGNALS = (2, 15, 1)
_MAX_SOCKET_PATH = 107   # sun_path holds 108 bytes with the final NUL


def limit_numeric_threads() -> None:
    """Keep numpy's BLAS from starting a thread pool in this process: set `THREAD_LIMITS` to 1
    where the environment leaves them unset (a user's own value wins).  Call it before anything
    imports numpy.  The translator never uses BLAS, and OpenBLAS's pool, started at import,
    spins: a quarter of a small cold ``translate``'s CPU (bench/RESULTS.md, h89).
    The settings reach the processes it starts (the preprocessor, the compilers the wrappers
    run), which start no numeric libraries."""
    for name in THREAD_LIMITS:
        os.environ.setdefault(name, "1")


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
    name = _sha(translator_version(cache_dir()), sys.executable, world(),
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
    import json  # here: with the server off (TRANSLATE_SERVER=0) json is not loaded
    payload = json.dumps(_request_body(program, argv)).encode("ascii")
    data = HEADER.pack(len(payload)) + payload
    with _forwarding(sock):
        try:
            sent = socket.send_fds(sock, [data], [0, 1, 2])
            if sent < len(data):
                sock.sendall(data[sent:])
        except OSError:
            return None   # the request did not reach the server whole: nothing runs it
        try:
            started = sock.recv(1) == b"S"
        except OSError:
            started = False
        if not started:
            return None   # turned down before a child was started: translate here instead
        # From here on a child runs (or ran) the command: it must not run here as well.
        answer = _answer(sock)
    if answer.get("local"):
        return None   # the server could not start a child after all
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
    for sig in POLITE_SIGNALS:
        if signal.getsignal(sig) is not signal.SIG_IGN:
            old[sig] = signal.signal(sig, forward)
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def _answer(sock: socket.socket) -> dict:
    import json
    data = b""
    while not data.endswith(b"\n"):
        try:
            chunk = sock.recv(4096)
        except OSError:
            chunk = b""
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
    code = ("import sys; sys.path[:] = sys.argv[3:]; "
            "from translator.server_process import serve; serve()")
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
    try:
        fd = take_lock(lock_path)
    except OSError:
        return True   # cannot even open it: start nothing
    if fd < 0:
        return True
    os.close(fd)
    return False


def take_lock(lock_path: str) -> int:
    """An fd holding `lock_path`'s lock (created 0600), or -1 if another process holds it."""
    import fcntl
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return -1
    return fd


def world(pid: str = "self") -> str:
    """The namespaces and root that process `pid` sees ("" where /proc cannot tell)."""
    try:
        parts = [os.readlink(f"/proc/{pid}/ns/{ns}") for ns in ("mnt", "user", "pid")]
        root = os.stat(f"/proc/{pid}/root")
    except OSError:
        return ""
    return " ".join([*parts, f"{root.st_dev}:{root.st_ino}"])
