"""``translate devices``: the OpenCL platforms and devices, and which one the runtime picks.

The listing is done by a small C program compiled against the runtime's own source
(``#include "translate_rt.c"``), so it uses exactly the runtime's enumeration order and its
``TRANSLATE_DEVICE`` rules (``gpu``, ``cpu``, ``accelerator``, ``P:D``, a name substring).
The program is built once per runtime version into the user's cache directory.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from translator.build.flags import UserErrorParser
from translator.build.paths import runtime_dir

_PROGRAM = r"""
#define TR_NO_EARLY_START 1   /* a lister opens no context (translate_rt.c, "Early start") */
#include "translate_rt.c"

static const char *type_name(cl_device_type t)
{
    if (t & CL_DEVICE_TYPE_GPU) return "gpu";
    if (t & CL_DEVICE_TYPE_CPU) return "cpu";
    if (t & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
    return "other";
}

int main(int argc, char **argv)
{
    tr_device_entry *list = NULL;
    size_t n = list_devices(NULL, &list), i;
    const char *choice = argc > 1 ? argv[1] : getenv("TRANSLATE_DEVICE");
    long k = match_device(list, n, choice);
    for (i = 0; i < n; ++i) {
        char ext[8192] = "";
        cl_device_fp_config fp = 0;
        clGetDeviceInfo(list[i].device, CL_DEVICE_EXTENSIONS, sizeof ext - 1, ext, NULL);
        clGetDeviceInfo(list[i].device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL);
        printf("%c\t%u:%u\t%s\t%s\t%s\t%s\n", (long)i == k ? '*' : ' ', list[i].platform_index,
               list[i].device_index, type_name(list[i].type),
               strstr(ext, "cl_khr_fp64") != NULL || fp != 0 ? "fp64" : "-",
               list[i].platform_name, list[i].device_name);
    }
    return k >= 0 ? 0 : 3;
}
"""


def cache_dir() -> Path:
    """Where compiled helper programs are kept (``$XDG_CACHE_HOME/translator``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "translator"


def lister_program() -> Path:
    """The compiled device lister, built on first use (keyed by the runtime's source)."""
    rt = Path(runtime_dir())
    key = hashlib.sha256(_PROGRAM.encode() + (rt / "translate_rt.c").read_bytes()
                         + (rt / "translate_rt.h").read_bytes()).hexdigest()[:16]
    exe = cache_dir() / f"devices-{key}"
    if exe.is_file():
        return exe
    exe.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=exe.parent) as tmp:
        src = Path(tmp) / "devices.c"
        src.write_text(_PROGRAM)
        out = Path(tmp) / "devices"
        cmd = [os.environ.get("CC", "gcc"), "-O1", f"-I{rt}", str(src), "-o", str(out),
               "-lOpenCL"]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError("building the device lister failed:\n" + proc.stderr)
        os.replace(out, exe)
    return exe


def list_devices(choice: str | None = None) -> tuple[list[dict[str, str]], bool]:
    """Every device (dicts with selected, index, type, fp64, platform, device) and whether
    the choice (default: ``TRANSLATE_DEVICE``) matched one."""
    cmd = [str(lister_program())] + ([choice] if choice is not None else [])
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if proc.returncode not in (0, 3):
        raise RuntimeError(f"listing OpenCL devices failed:\n{proc.stderr}")
    rows = []
    for line in proc.stdout.splitlines():
        mark, index, kind, fp64, platform, device = line.split("\t", 5)
        rows.append({"selected": mark == "*", "index": index, "type": kind, "fp64": fp64,
                     "platform": platform, "device": device})
    return rows, proc.returncode == 0


def format_devices(rows: list[dict[str, str]], matched: bool, choice: str | None) -> str:
    """The table ``translate devices`` prints."""
    shown = "" if not choice else repr(choice)
    out = []
    if not rows:
        out.append("no OpenCL devices found (is an OpenCL ICD installed? try clinfo -l)")
    else:
        out.append(f"{'':2}{'P:D':<6}{'type':<12}{'fp64':<6}platform / device")
        for r in rows:
            out.append(f"{'*' if r['selected'] else ' '} {r['index']:<6}{r['type']:<12}"
                       f"{r['fp64']:<6}{r['platform']} / {r['device']}")
    if matched:
        sel = next(r for r in rows if r["selected"])
        rule = f"TRANSLATE_DEVICE={shown}" if choice else \
            "TRANSLATE_DEVICE is unset (first GPU, else first device), which"
        out.append(f"{rule} selects {sel['index']} ({sel['device']})")
    elif rows:
        out.append(f"TRANSLATE_DEVICE={shown} matches no device: use gpu, cpu, accelerator, "
                   "P:D, TYPE:K, a platform or device name substring, or a comma-separated "
                   "list of these (one per local rank)")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    ap = UserErrorParser(prog="translate devices",
                                 description="List OpenCL devices; '*' marks the one the "
                                             "runtime uses under TRANSLATE_DEVICE.")
    ap.add_argument("choice", nargs="?", help="a TRANSLATE_DEVICE value to try instead of "
                                              "the environment's")
    args = ap.parse_args(argv)
    choice = args.choice if args.choice is not None else os.environ.get("TRANSLATE_DEVICE")
    try:
        rows, matched = list_devices(args.choice)
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
        sys.stderr.write(f"translate devices: error: {e}\n")
        return 1
    sys.stdout.write(format_devices(rows, matched, choice))
    return 0 if matched else 1
