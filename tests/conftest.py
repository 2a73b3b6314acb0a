"""Shared fixtures: the CPU OpenCL device (PoCL) as a pyopencl context and queue; every
OpenCL program a test emits must build (`tests.kernel_builds`)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from tests.kernel_builds import KernelBuilds, install_recorder, written_programs

os.environ.setdefault("TRANSLATE_DEVICE", "cpu")
os.environ.setdefault("PYOPENCL_NO_CACHE", "1")
# the wrappers' result cache: one per test session, not the user's ~/.cache/translate
os.environ.setdefault("TRANSLATE_CACHE_DIR", tempfile.mkdtemp(prefix="translate-cache-"))
# the runtime's kernel binary cache likewise (translated programs the tests run)
os.environ.setdefault("TRANSLATE_KERNEL_CACHE", tempfile.mkdtemp(prefix="translate-kernels-"))


def _cpu_context():
    import pyopencl as cl
    for platform in cl.get_platforms():
        devices = platform.get_devices(device_type=cl.device_type.CPU)
        if devices:
            return cl.Context(devices[:1])
    pytest.fail("no CPU OpenCL device found (is pocl-opencl-icd installed? run `make setup`)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "unbuilt_kernels: the OpenCL programs this test emits are not built "
        "(a test of how a rejected program is reported)")
    cache = config.cache.mkdir("kernel-builds") if config.cache is not None else None
    config._kernel_builds = KernelBuilds(_cpu_context, cache)
    install_recorder(config._kernel_builds)


#: Test files holding a test named (by a prefix of its node id) in this file run first, in the
#: order of their longest test: `make test`'s workers then share the long tests and end
#: together on short ones.  A file moves as a whole, so that its module fixtures are set up
#: once per worker as before.
SLOW_FIRST = Path(__file__).with_name("slow_first.txt")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    prefixes = [line.split("#")[0].strip() for line in SLOW_FIRST.read_text().splitlines()]
    prefixes = [p for p in prefixes if p]
    first: dict[str, int] = {}
    for item in items:
        rank = next((k for k, p in enumerate(prefixes) if item.nodeid.startswith(p)),
                    len(prefixes))
        module = item.nodeid.split("::")[0]
        first[module] = min(first.get(module, rank), rank)
    items.sort(key=lambda item: first[item.nodeid.split("::")[0]])   # stable


@pytest.fixture(scope="session")
def ctx(pytestconfig: pytest.Config):
    return pytestconfig._kernel_builds.context()


@pytest.fixture(scope="session")
def queue(ctx):
    import pyopencl as cl
    return cl.CommandQueue(ctx)


@pytest.fixture(scope="session")
def programs_build(pytestconfig: pytest.Config):
    """``programs_build(folder)`` fails unless every program written under `folder` builds:
    the check `_emitted_programs_build` makes of a test's ``tmp_path``, for a fixture wider
    than one test (a program translated once for several tests)."""
    builds: KernelBuilds = pytestconfig._kernel_builds

    def check(folder: Path) -> None:
        failures = [f for origin, program in written_programs(folder)
                    if (f := builds.failure(origin, program))]
        if failures:
            pytest.fail(f"{len(failures)} emitted OpenCL program(s) do not build:\n"
                        + "\n\n".join(failures), pytrace=False)
    return check


@pytest.fixture(autouse=True)
def _emitted_programs_build(request: pytest.FixtureRequest):
    """After the test: build every program it emitted (module docstring of
    `tests.kernel_builds`); a program that does not build fails the test."""
    builds: KernelBuilds = request.config._kernel_builds
    # asked for now, so that it outlives this fixture
    tmp_path = request.getfixturevalue("tmp_path") if "tmp_path" in request.fixturenames else None
    builds.take_recorded()
    yield
    programs = builds.take_recorded()
    if tmp_path is not None:
        programs += list(written_programs(tmp_path))
    if request.node.get_closest_marker("unbuilt_kernels"):
        return
    failures = [f for origin, program in programs if (f := builds.failure(origin, program))]
    if failures:
        pytest.fail(f"{len(failures)} emitted OpenCL program(s) do not build:\n"
                    + "\n\n".join(failures), pytrace=False)


@pytest.fixture(autouse=True)
def _shapes_forgotten():
    """Each test starts without the answers remembered by kernel shape in earlier tests
    (`translator.ir.shape_memo`: bound assumptions, automatic mapping, code generation), as
    a fresh process does: tests that count the work of a pass see it done."""
    from translator import automap
    from translator.analysis import bounds
    from translator.codegen import opencl
    for memo in (bounds._SHAPES, bounds._FIRSTS, automap._SHAPES, opencl._SHAPES):
        memo.clear()
