"""Kernel-launch enqueue cost from Python.

    source dir/set_env.sh && python3 python/bench/launch.py [count]

Times, per call, in one run: a ctypes call of a no-op C function with the
launch's eight arguments; aclrtLaunchKernelWithHostArgs called through
ctypes directly; and acl.rt.launch_kernel_with_host_args, the binding.
The binding's own cost is the difference of the last two.
"""

import ctypes
import os
import subprocess
import sys
import tempfile
import time

import acl

HERE = os.path.dirname(os.path.abspath(__file__))
VADD = os.path.join(HERE, os.pardir, os.pardir, "examples", "c", "kernels", "vadd.c")
NOOP = "int noop(void *a, unsigned b, void *c, void *d, void *e, unsigned long f, void *g, unsigned long h)" \
       " { (void)a; (void)b; (void)c; (void)d; (void)e; (void)f; (void)g; (void)h; return 0; }\n"


class Args(ctypes.Structure):
    _fields_ = [("x", ctypes.c_uint64), ("y", ctypes.c_uint64), ("z", ctypes.c_uint64), ("n", ctypes.c_uint64)]


def per_call(fn, count):
    t = time.perf_counter()
    for _ in range(count):
        fn()
    return (time.perf_counter() - t) / count


def main(count):
    tmp = tempfile.mkdtemp()
    inc = os.path.join(os.environ["ASCEND_HOME_PATH"], "include")
    kso, nso, nsrc = (os.path.join(tmp, f) for f in ("libvadd.so", "libnoop.so", "noop.c"))
    with open(nsrc, "w") as f:
        f.write(NOOP)
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-I" + inc, "-o", kso, VADD], check=True)
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", nso, nsrc], check=True)
    noop = ctypes.CDLL(nso).noop
    noop.restype = ctypes.c_int
    noop.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p, ctypes.c_void_p,
                     ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t]

    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    binh, ret = acl.rt.binary_load_from_file(kso, 0)
    assert ret == 0
    func, ret = acl.rt.binary_get_function(binh, "vadd")
    assert ret == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    args = Args(0, 0, 0, 0)  # n = 0: the kernel does nothing
    size = ctypes.sizeof(args)
    raw = acl._lib.aclrtLaunchKernelWithHostArgs  # argtypes set by the binding
    addr = ctypes.addressof(args)
    launch = acl.rt.launch_kernel_with_host_args

    def sync():
        assert acl.rt.synchronize_stream(stream) == 0

    t_noop = per_call(lambda: noop(func, 1, stream, None, addr, size, None, 0), count)
    sync()
    t_raw = per_call(lambda: raw(func, 1, stream, None, addr, size, None, 0), count)
    sync()
    t_acl = per_call(lambda: launch(func, 1, stream, None, args, size, None, 0), count)
    sync()
    print("ctypes no-op call          %8.2f us" % (t_noop * 1e6))
    print("ctypes launch (raw)        %8.2f us  (%.1fx the no-op)" % (t_raw * 1e6, t_raw / t_noop))
    print("acl.rt launch (binding)    %8.2f us  (%.1fx the no-op)" % (t_acl * 1e6, t_acl / t_noop))
    print("binding's own cost         %8.2f us  (%.0f%% of the binding's call)"
          % ((t_acl - t_raw) * 1e6, 100 * (t_acl - t_raw) / t_acl))
    acl.rt.destroy_stream(stream)
    acl.rt.binary_unload(binh)
    acl.rt.reset_device(0)
    acl.finalize()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20000)
