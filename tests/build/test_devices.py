"""``translate devices``: the runtime's own enumeration and TRANSLATE_DEVICE rules."""

from __future__ import annotations

from pathlib import Path

import pyopencl as cl

from tests.build.helpers import translate
from translator.build.devices import list_devices


def opencl_devices() -> list[tuple[str, str, str]]:
    """(P:D, platform, device) in the order pyopencl (the ICD loader) lists them."""
    out = []
    for p, platform in enumerate(cl.get_platforms()):
        for d, device in enumerate(platform.get_devices()):
            out.append((f"{p}:{d}", platform.name, device.name))
    return out


def test_lists_what_opencl_lists() -> None:
    rows, _ = list_devices("cpu")
    assert [(r["index"], r["platform"], r["device"]) for r in rows] == opencl_devices()


def test_selection_rules() -> None:
    first_cpu = next(i for i, pl, dev in opencl_devices()
                     if any(d.name == dev and d.type & cl.device_type.CPU
                            for d in cl.get_platforms()[int(i.split(":")[0])].get_devices()))
    for choice in ("cpu", "CPU", first_cpu):
        rows, matched = list_devices(choice)
        assert matched and [r["index"] for r in rows if r["selected"]] == [first_cpu]
    name = next(r["device"] for r in list_devices("cpu")[0] if r["index"] == first_cpu)
    rows, matched = list_devices(name[:5].lower())   # case-insensitive substring
    assert matched
    rows, matched = list_devices("99:99")
    assert not matched and not any(r["selected"] for r in rows)


def test_command_output_and_status(tmp_path: Path) -> None:
    r = translate("devices", cwd=tmp_path, TRANSLATE_DEVICE="cpu")
    assert r.returncode == 0
    assert "P:D" in r.stdout and "TRANSLATE_DEVICE='cpu' selects " in r.stdout
    assert any(line.startswith("* ") for line in r.stdout.splitlines())
    r = translate("devices", "no-such-device-xyz", cwd=tmp_path)
    assert r.returncode == 1 and "matches no device" in r.stdout


def test_agrees_with_the_runtime(tmp_path: Path) -> None:
    """The device a translated program reports (TRANSLATE_VERBOSE) is the one marked."""
    from tests.build.helpers import SAXPY, must, run, write
    from translator.cli import runtime_dir
    src = write(tmp_path, "saxpy.f90", SAXPY + "program p\n  real(8) :: x(4), y(4)\n"
                "  x = 1; y = 2\n  call saxpy(4, 2d0, x, y)\n  print *, y\nend program\n")
    must(translate(str(src), "-o", "out", cwd=tmp_path))
    rt = runtime_dir()
    must(run(["gcc", "-c", f"-I{rt}", "out/saxpy.host.c", f"{rt}/translate_rt.c"], tmp_path))
    must(run(["gfortran", "out/saxpy.f90", "saxpy.host.o", "translate_rt.o", "-lOpenCL",
              "-o", "prog"], tmp_path))
    r = run(["./prog"], tmp_path, TRANSLATE_DEVICE="cpu", TRANSLATE_VERBOSE="1")
    rows, _ = list_devices("cpu")
    chosen = next(r_ for r_ in rows if r_["selected"])
    assert f"using device {chosen['index']} \"{chosen['device']}\"" in r.stderr
