import threading

import acl


def test_host_func(device):
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    seen = []
    for i in range(3):
        assert acl.rt.launch_host_func(stream, lambda a, i=i: seen.append((i, a, threading.get_ident())), 40 + i) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert [(i, a) for i, a, _ in seen] == [(0, 40), (1, 41), (2, 42)]
    assert all(t != threading.get_ident() for _, _, t in seen)
    assert acl.rt.destroy_stream(stream) == 0


def test_host_func_raising(device, capfd):
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    acl.rt.callback_errors()

    def boom(_):
        raise ValueError("boom")
    ran = []
    assert acl.rt.launch_host_func(stream, boom, None) == 0
    assert acl.rt.launch_host_func(stream, ran.append, 7) == 0
    # The task that raised failed, with the exception in the message; the
    # interpreter lives on, the next task ran, the exception is kept.
    assert acl.rt.synchronize_stream(stream) == acl.ACL_ERROR_RT_INTERNAL_ERROR
    assert "ValueError: boom" in acl.get_recent_err_msg()
    assert ran == [7]
    errs = acl.rt.callback_errors()
    assert len(errs) == 1 and errs[0][0] is boom and isinstance(errs[0][1], ValueError)
    assert "boom" in capfd.readouterr().err
    assert acl.rt.destroy_stream(stream) == 0


def test_launch_callback_report_thread(device):
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    done = threading.Event()
    got = []

    def reporter():
        while not done.is_set():
            acl.rt.process_report(50)

    ctx, ret = acl.rt.get_context()
    assert ret == 0

    def run():
        assert acl.rt.set_context(ctx) == 0
        reporter()
    t = threading.Thread(target=run)
    t.start()
    assert acl.rt.subscribe_report(t.ident, stream) == 0, acl.get_recent_err_msg()
    assert acl.rt.launch_callback(lambda d: got.append((d, threading.get_ident())), 5,
                                  acl.ACL_CALLBACK_BLOCK, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    done.set()
    t.join()
    assert got == [(5, t.ident)]
    assert acl.rt.unsubscribe_report(t.ident, stream) == 0
    assert acl.rt.destroy_stream(stream) == 0


def test_launch_callback_errors(device):
    # No subscribed thread: the CANN code, and nothing kept.
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    ret = acl.rt.launch_callback(lambda d: None, 0, acl.ACL_CALLBACK_BLOCK, stream)
    assert ret != 0
    assert acl.get_recent_err_msg()
    assert acl.rt.destroy_stream(stream) == 0
