"""Shared fixtures: the CPU OpenCL device (PoCL) as a pyopencl context and queue."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("TRANSLATE_DEVICE", "cpu")
os.environ.setdefault("PYOPENCL_NO_CACHE", "1")


@pytest.fixture(scope="session")
def ctx():
    import pyopencl as cl
    for platform in cl.get_platforms():
        devices = platform.get_devices(device_type=cl.device_type.CPU)
        if devices:
            return cl.Context(devices[:1])
    pytest.fail("no CPU OpenCL device found (is pocl-opencl-icd installed? run `make setup`)")


@pytest.fixture(scope="session")
def queue(ctx):
    import pyopencl as cl
    return cl.CommandQueue(ctx)
