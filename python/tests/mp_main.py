"""Workers using the runtime in processes started by multiprocessing
(run as a script: python3 mp_main.py fork|spawn)."""

import multiprocessing
import sys

import acl


def worker(value, q):
    try:
        ret = acl.init()
        assert ret == 0, "acl.init: %d" % ret
        assert acl.rt.set_device(0) == 0
        n = 128
        dev, ret = acl.rt.malloc(n, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        assert ret == 0
        assert acl.rt.memset(dev, n, value, n) == 0
        out = bytearray(n)
        assert acl.rt.memcpy(out, n, dev, n, acl.ACL_MEMCPY_DEVICE_TO_HOST) == 0
        assert acl.rt.free(dev) == 0
        assert acl.rt.reset_device(0) == 0
        assert acl.finalize() == 0
        q.put((value, bytes(out) == bytes([value]) * n))
    except BaseException as e:
        q.put((value, repr(e)))


def main(method):
    ctx = multiprocessing.get_context(method)
    q = ctx.Queue()
    procs = [ctx.Process(target=worker, args=(v, q)) for v in (3, 4)]
    for p in procs:
        p.start()
    got = dict(q.get(timeout=60) for _ in procs)
    for p in procs:
        p.join(60)
        assert p.exitcode == 0, p.exitcode
    assert got == {3: True, 4: True}, got
    # The parent uses the runtime too, after its children.
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    assert acl.rt.reset_device(0) == 0 and acl.finalize() == 0
    print("ok")


if __name__ == "__main__":
    main(sys.argv[1])
