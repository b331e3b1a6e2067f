"""acl.util: pyACL's threads and its numpy conversions."""

import threading

import pytest

import acl


def test_start_thread_report_flow(device):
    # pyACL's callback flow: a thread from start_thread processes reports
    # for a stream and the default stream, then stop_thread waits for it.
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    ctx, ret = acl.rt.get_context()
    assert ret == 0
    running = [True]
    got = []

    def process(args_list):
        context, timeout = args_list
        assert acl.rt.set_context(context) == 0
        while running[0]:
            acl.rt.process_report(timeout)

    tid, ret = acl.util.start_thread(process, [ctx, 20])
    assert ret == 0 and isinstance(tid, int) and tid != threading.get_ident()
    assert acl.rt.subscribe_report(tid, stream) == 0, acl.get_recent_err_msg()
    assert acl.rt.subscribe_report(tid, 0) == 0, acl.get_recent_err_msg()
    for s, data in ((stream, ["a", "b"]), (0, ["c"])):
        assert acl.rt.launch_callback(lambda d: got.append((d, threading.get_ident())), data,
                                      acl.ACL_CALLBACK_BLOCK, s) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.synchronize_stream(0) == 0
    assert got == [(["a", "b"], tid), (["c"], tid)]
    running[0] = False
    assert acl.rt.unsubscribe_report(tid, stream) == 0
    assert acl.rt.unsubscribe_report(tid, 0) == 0
    assert acl.util.stop_thread(tid) == 0
    assert not any(t.ident == tid for t in threading.enumerate())
    assert acl.util.stop_thread(tid) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.rt.destroy_stream(stream) == 0


def test_start_thread_errors():
    with pytest.raises(TypeError, match="func"):
        acl.util.start_thread(None, [])
    with pytest.raises(TypeError, match="thread_id"):
        acl.util.stop_thread("1")
    assert acl.util.stop_thread(threading.get_ident()) == acl.ACL_ERROR_INVALID_PARAM
    acl.rt.callback_errors()

    def boom(args_list):
        raise ValueError("thread %s" % args_list[0])
    tid, ret = acl.util.start_thread(boom, ["x"])
    assert ret == 0
    assert acl.util.stop_thread(tid) == 0
    errs = acl.rt.callback_errors()
    assert [(f, type(e), str(e)) for f, e in errs] == [(boom, ValueError, "thread x")]

    own = []
    tried = threading.Event()

    def self_stop(args_list):
        own.append(acl.util.stop_thread(threading.get_ident()))
        tried.set()
    tid, ret = acl.util.start_thread(self_stop, [])
    assert tried.wait(10)
    assert acl.util.stop_thread(tid) == 0
    assert own == [acl.ACL_ERROR_FAILURE]


def test_numpy_contiguous_and_type_numbers():
    np = pytest.importorskip("numpy")
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    ptr, same = acl.util.numpy_contiguous_to_ptr(a)
    assert same is a and ptr == a.ctypes.data
    col = a[:, 1]  # not contiguous: a contiguous copy
    ptr, copy = acl.util.numpy_contiguous_to_ptr(col)
    assert copy.flags["C_CONTIGUOUS"] and ptr == copy.ctypes.data
    assert acl.util.ptr_to_bytes(ptr, copy.nbytes) == np.array([1, 5, 9], dtype=np.int32).tobytes()
    with pytest.raises(TypeError):
        acl.util.numpy_to_ptr(col)
    # pyACL's type argument: NumPy C type numbers (NPY_INT32 5, NPY_FLOAT32 11).
    view = acl.util.ptr_to_numpy(a.ctypes.data, (3, 4), 5)
    assert view.dtype == np.int32 and (view == a).all()
    f = np.array([1.5, -2.0], dtype=np.float32)
    assert acl.util.ptr_to_numpy(f.ctypes.data, (2,), 11).tolist() == [1.5, -2.0]
    with pytest.raises(TypeError, match="type number"):
        acl.util.ptr_to_numpy(f.ctypes.data, (2,), 9999)
