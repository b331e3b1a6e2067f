"""Kernel-launch enqueue cost from Python.

    source dir/set_env.sh && python3 python/bench/launch.py [count]

Times per call, in one run, in interleaved rounds (median of the rounds):
  - a ctypes call of a no-op C function taking the launch's eight arguments:
    the floor any ctypes binding stands on;
  - that no-op bound through acl's own binding generator: the difference is
    the binding's own cost, free of the runtime's noise;
  - aclrtLaunchKernelWithHostArgs through ctypes directly, and through
    acl.rt.launch_kernel_with_host_args, with the arguments as an address
    and as a ctypes struct.
"""

import ctypes
import os
import statistics
import subprocess
import sys
import tempfile
import time

import acl
from acl import _binding

HERE = os.path.dirname(os.path.abspath(__file__))
VADD = os.path.join(HERE, os.pardir, os.pardir, "examples", "c", "kernels", "vadd.c")
LAUNCH = "aclrtLaunchKernelWithHostArgs"
NOOP = "int %s(void *a, unsigned b, void *c, void *d, void *e, unsigned long f, void *g, unsigned long h)" \
       " { (void)a; (void)b; (void)c; (void)d; (void)e; (void)f; (void)g; (void)h; return 0; }\n" % LAUNCH
ROUNDS = 10


class Args(ctypes.Structure):
    _fields_ = [("x", ctypes.c_uint64), ("y", ctypes.c_uint64), ("z", ctypes.c_uint64), ("n", ctypes.c_uint64)]


def build(tmp):
    inc = os.path.join(os.environ["ASCEND_HOME_PATH"], "include")
    kso, nso, nsrc = (os.path.join(tmp, f) for f in ("libvadd.so", "libnoop.so", "noop.c"))
    with open(nsrc, "w") as f:
        f.write(NOOP)
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-I" + inc, "-o", kso, VADD], check=True)
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", nso, nsrc], check=True)
    return kso, nso


def measure(cases, count, after):
    """Median per-call time of each case over ROUNDS interleaved rounds."""
    times = {name: [] for name, _ in cases}
    n = max(1, count // ROUNDS)
    for _ in range(ROUNDS):
        for name, fn in cases:
            t = time.perf_counter()
            for _ in range(n):
                fn()
            times[name].append((time.perf_counter() - t) / n)
            after()
    return {name: statistics.median(ts) for name, ts in times.items()}


def main(count):
    kso, nso = build(tempfile.mkdtemp())
    raw_noop = ctypes.CDLL(nso)[LAUNCH]
    raw_noop.restype = ctypes.c_int
    raw_noop.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p, ctypes.c_void_p,
                         ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t]
    bound_noop = _binding.make(ctypes.CDLL(nso), LAUNCH, "noop")

    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    binh, ret = acl.rt.binary_load_from_file(kso, 0)
    assert ret == 0
    func, ret = acl.rt.binary_get_function(binh, "vadd")
    assert ret == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    args = Args(0, 0, 0, 0)  # n = 0: the kernel does nothing
    size, addr = ctypes.sizeof(args), ctypes.addressof(args)
    raw = acl._lib[LAUNCH]  # argtypes set by the binding
    launch = acl.rt.launch_kernel_with_host_args

    def sync():
        assert acl.rt.synchronize_stream(stream) == 0

    t = measure([
        ("noop", lambda: raw_noop(func, 1, stream, None, addr, size, None, 0)),
        ("noop bound", lambda: bound_noop(func, 1, stream, None, addr, size, None, 0)),
        ("noop bound, struct", lambda: bound_noop(func, 1, stream, None, args, size, None, 0)),
        ("raw", lambda: raw(func, 1, stream, None, addr, size, None, 0)),
        ("acl", lambda: launch(func, 1, stream, None, addr, size, None, 0)),
        ("acl, struct", lambda: launch(func, 1, stream, None, args, size, None, 0)),
    ], count, sync)
    us = {k: v * 1e6 for k, v in t.items()}
    own, own_s = us["noop bound"] - us["noop"], us["noop bound, struct"] - us["noop"]
    print("ctypes no-op call                 %6.2f us" % us["noop"])
    print("launch, ctypes direct             %6.2f us  %4.1fx the no-op" % (us["raw"], us["raw"] / us["noop"]))
    print("launch, acl.rt (address)          %6.2f us  %4.1fx the no-op" % (us["acl"], us["acl"] / us["noop"]))
    print("launch, acl.rt (ctypes struct)    %6.2f us  %4.1fx the no-op" % (us["acl, struct"], us["acl, struct"] / us["noop"]))
    print("binding's own cost (address)      %6.2f us  %3.0f%% of the acl.rt launch"
          % (own, 100 * own / us["acl"]))
    print("binding's own cost (struct)       %6.2f us  %3.0f%% of the acl.rt launch"
          % (own_s, 100 * own_s / us["acl, struct"]))
    acl.rt.destroy_stream(stream)
    acl.rt.binary_unload(binh)
    acl.rt.reset_device(0)
    acl.finalize()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200000)
