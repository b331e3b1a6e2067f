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


@pytest.fixture
def a3(tmp_path):
    """An initialised runtime on an Atlas A3, device 0 set."""
    cfg = tmp_path / "a3.json"
    cfg.write_text('{"simulator": {"soc_name": "Ascend910_9391"}}')
    assert acl.init(str(cfg)) == acl.ACL_SUCCESS
    assert acl.rt.set_device(0) == acl.ACL_SUCCESS
    yield 0
    assert acl.rt.reset_device(0) == acl.ACL_SUCCESS
    assert acl.finalize() == acl.ACL_SUCCESS


def capture_sk(stream, launches):
    assert acl.mdl.ri_capture_begin(stream, acl.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    assert acl.gocann.super_kernel_begin(stream, "sk") == 0
    for func, blocks, slots in launches:
        assert launch(func, blocks, stream, *slots) == 0, acl.get_recent_err_msg()
    assert acl.gocann.super_kernel_end(stream) == 0
    model, ret = acl.mdl.ri_capture_end(stream)
    assert ret == 0, acl.get_recent_err_msg()
    return model


def timed_run(model, stream):
    start = time.monotonic()
    assert acl.mdl.ri_execute_async(model, stream) == 0
    ret = acl.rt.synchronize_stream(stream)
    return time.monotonic() - start, ret


def test_superkernel_overlap_and_contract_a3(a3, kernels):
    bin_, ret = acl.rt.binary_load_from_file(kernels, 0)
    assert ret == 0, acl.get_recent_err_msg()
    tail, _ = acl.rt.binary_get_function(bin_, "sk_tail_c")
    some, _ = acl.rt.binary_get_function(bin_, "sk_some_c")
    stream, _ = acl.rt.create_stream()
    out, _ = acl.rt.malloc(64, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    for set_, overlap in ((1, True), (0, False)):
        model = capture_sk(stream, [(tail, 1, (out, set_)), (tail, 1, (out, set_))])
        took, ret = timed_run(model, stream)
        assert ret == 0, acl.get_recent_err_msg()
        if overlap:
            assert took < 0.25, "two 150 ms tails after SetNextTaskStart took %.3f s" % took
        else:
            assert took >= 0.3, "two 150 ms sub-kernels without SetNextTaskStart took %.3f s" % took
        assert acl.mdl.ri_destroy(model) == 0
    for twice, want in ((0, "cores [0] called SetNextTaskStart and cores [1 2] did not"),
                        (1, "called WaitPreTaskEnd more than once")):
        model = capture_sk(stream, [(tail, 1, (out, 1)), (some, 3, (out, twice))])
        took, ret = timed_run(model, stream)
        assert ret == acl.ACL_ERROR_RT_AICORE_EXCEPTION
        msg = acl.get_recent_err_msg()
        assert 'SuperKernel "sk" sub-kernel 1 ("sk_some_c", 3 blocks)' in msg and want in msg, msg
        assert took < 10
        assert acl.mdl.ri_destroy(model) == 0
    # Outside a SuperKernel the calls do nothing.
    assert launch(some, 3, stream, out, 1) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    acl.rt.free(out)
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.binary_unload(bin_) == 0


def test_superkernel_no_overlap_a2(device, kernels):
    bin_, ret = acl.rt.binary_load_from_file(kernels, 0)
    assert ret == 0
    tail, _ = acl.rt.binary_get_function(bin_, "sk_tail_c")
    stream, _ = acl.rt.create_stream()
    out, _ = acl.rt.malloc(64, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    model = capture_sk(stream, [(tail, 1, (out, 1)), (tail, 1, (out, 1))])
    took, ret = timed_run(model, stream)
    assert ret == 0
    assert took >= 0.3, "on the default chip (an Atlas A2) the sub-kernels overlapped: %.3f s" % took
    assert acl.mdl.ri_destroy(model) == 0
    acl.rt.free(out)
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.binary_unload(bin_) == 0
