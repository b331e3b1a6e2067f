"""SuperKernels (gocann/superkernel.h) from Python: acl.gocann's calls."""
import ctypes
import os
import shutil
import subprocess
import time

import pytest

import acl

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, os.pardir, os.pardir, "examples", "c", "kernels", "kernels.c")


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    """libkernels.so with sk_fill and sk_shift."""
    if shutil.which("gcc") is None:
        pytest.skip("gcc not found: the kernels are built with gcc")
    so = str(tmp_path_factory.mktemp("kernels") / "libkernels.so")
    inc = os.path.join(os.environ["ASCEND_HOME_PATH"], "include")
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-I" + inc, "-o", so, KERNELS], check=True)
    return so


def launch(func, blocks, stream, *slots):
    args = (ctypes.c_uint64 * len(slots))(*slots)
    return acl.rt.launch_kernel_with_host_args(func, blocks, stream, None, args, ctypes.sizeof(args), None, 0)


def read_words(dev, n):
    buf = (ctypes.c_int64 * n)()
    assert acl.rt.memcpy(ctypes.addressof(buf), 8 * n, dev, 8 * n, acl.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    return list(buf)


def test_superkernel_ordering_and_refusals(device, kernels):
    deadline = time.monotonic() + 60
    bin_, ret = acl.rt.binary_load_from_file(kernels, 0)
    assert ret == 0, acl.get_recent_err_msg()
    fill, ret = acl.rt.binary_get_function(bin_, "sk_fill")
    assert ret == 0
    shift, ret = acl.rt.binary_get_function(bin_, "sk_shift")
    assert ret == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    a, ret = acl.rt.malloc(512, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0
    b, ret = acl.rt.malloc(512, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0

    assert acl.gocann.super_kernel_begin(stream, "idle") == acl.ACL_ERROR_RT_STREAM_NOT_CAPTURED
    assert "not capturing" in acl.get_recent_err_msg()

    for nf, ns in ((2, 1), (8, 7), (5, 3)):
        assert acl.rt.memset(b, 512, 0, 512) == 0
        assert acl.mdl.ri_capture_begin(stream, acl.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
        assert acl.gocann.super_kernel_begin(stream, "fill_shift") == 0
        assert launch(fill, nf, stream, a, 100) == 0
        assert launch(shift, ns, stream, a, b) == 0
        assert acl.rt.memset_async(b, 64, 0, 64, stream) == acl.ACL_ERROR_RT_PARAM_INVALID
        assert "kernel launches only" in acl.get_recent_err_msg()
        assert acl.gocann.super_kernel_begin(stream, "inner") == acl.ACL_ERROR_RT_PARAM_INVALID
        assert acl.gocann.super_kernel_end(stream) == 0
        assert acl.gocann.super_kernel_end(stream) == acl.ACL_ERROR_RT_PARAM_INVALID
        model, ret = acl.mdl.ri_capture_end(stream)
        assert ret == 0, acl.get_recent_err_msg()
        for _ in range(10):
            assert acl.mdl.ri_execute_async(model, stream) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        got = read_words(b, ns)
        assert got == [100 + j + 1 for j in range(ns)], (nf, ns, got)
        assert acl.mdl.ri_destroy(model) == 0

    # A capture ending inside a range fails.
    assert acl.mdl.ri_capture_begin(stream, acl.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    assert acl.gocann.super_kernel_begin(stream, "open") == 0
    _, ret = acl.mdl.ri_capture_end(stream)
    assert ret == acl.ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED
    assert '"open"' in acl.get_recent_err_msg()
    assert time.monotonic() < deadline

    acl.rt.free(a)
    acl.rt.free(b)
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.binary_unload(bin_) == 0
