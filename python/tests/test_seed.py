"""The sequences of CANN's pyACL guide: default context and stream,
explicit contexts on two devices, streams per thread, events between
streams, processes."""

import multiprocessing
import os
import subprocess
import sys
import threading

import pytest

import acl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import mp_main  # noqa: E402


def test_default_context_and_stream(device):
    size = 64
    dev, ret = acl.rt.malloc(size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0
    assert acl.rt.memset(dev, size, 0x5A, size) == 0
    out = bytearray(size)
    assert acl.rt.memcpy_async(out, size, dev, size, acl.ACL_MEMCPY_DEVICE_TO_HOST, 0) == 0
    assert acl.rt.synchronize_stream(0) == 0
    assert bytes(out) == b"\x5a" * size
    assert acl.rt.free(dev) == 0


def test_contexts_on_two_devices():
    assert acl.init() == 0
    count, ret = acl.rt.get_device_count()
    assert ret == 0
    if count < 2:
        acl.finalize()
        pytest.skip("one device")
    ctxs = []
    for d in (0, 1):
        assert acl.rt.set_device(d) == 0
        ctx, ret = acl.rt.create_context(d)
        assert ret == 0
        ctxs.append(ctx)
    for d, ctx in enumerate(ctxs):
        assert acl.rt.set_context(ctx) == 0
        assert acl.rt.get_device() == (d, 0)
        assert acl.rt.get_context() == (ctx, 0)
    for d, ctx in enumerate(ctxs):
        assert acl.rt.destroy_context(ctx) == 0
        assert acl.rt.reset_device(d) == 0
    assert acl.finalize() == 0


def test_streams_per_thread(device):
    ctx, ret = acl.rt.get_context()
    assert ret == 0
    errors = []

    def work(i):
        try:
            assert acl.rt.set_context(ctx) == 0
            stream, ret = acl.rt.create_stream()
            assert ret == 0
            n = 4096
            dev, ret = acl.rt.malloc(n, acl.ACL_MEM_MALLOC_HUGE_FIRST)
            assert ret == 0
            assert acl.rt.memset_async(dev, n, i, n, stream) == 0
            out = bytearray(n)
            assert acl.rt.memcpy_async(out, n, dev, n, acl.ACL_MEMCPY_DEVICE_TO_HOST, stream) == 0
            assert acl.rt.synchronize_stream(stream) == 0
            assert bytes(out) == bytes([i]) * n
            assert acl.rt.free(dev) == 0
            assert acl.rt.destroy_stream(stream) == 0
        except BaseException as e:  # reported by the main thread
            errors.append(e)
    threads = [threading.Thread(target=work, args=(i,)) for i in range(1, 5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_event_between_streams(device):
    a, ret = acl.rt.create_stream()
    assert ret == 0
    b, ret = acl.rt.create_stream()
    assert ret == 0
    ev, ret = acl.rt.create_event()
    assert ret == 0
    n = 256
    dev, ret = acl.rt.malloc(n, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0
    assert acl.rt.memset_async(dev, n, 7, n, a) == 0
    assert acl.rt.record_event(ev, a) == 0
    assert acl.rt.stream_wait_event(b, ev) == 0
    out = bytearray(n)
    assert acl.rt.memcpy_async(out, n, dev, n, acl.ACL_MEMCPY_DEVICE_TO_HOST, b) == 0
    assert acl.rt.synchronize_stream(b) == 0
    assert bytes(out) == b"\x07" * n
    assert acl.rt.synchronize_event(ev) == 0
    status, ret = acl.rt.query_event_status(ev)
    assert ret == 0 and status == acl.ACL_EVENT_RECORDED_STATUS_COMPLETE
    for r in (acl.rt.free(dev), acl.rt.destroy_event(ev), acl.rt.destroy_stream(a), acl.rt.destroy_stream(b)):
        assert r == 0


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_multiprocessing(method):
    # In a fresh interpreter that imports acl and starts no runtime before
    # the workers: a forked child may use the runtime only if forked before
    # the parent's first runtime call, as in C.
    script = os.path.join(HERE, "mp_main.py")
    out = subprocess.run([sys.executable, script, method], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "ok" in out.stdout


def test_fork_after_start(device):
    # A child forked after the runtime started gets the documented code
    # from every call instead of hanging.
    ctx = multiprocessing.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=mp_main.worker, args=(3, q))
    p.start()
    value, result = q.get(timeout=60)
    p.join(60)
    assert "%d" % acl.ACL_ERROR_RT_FEATURE_NOT_SUPPORT in result
