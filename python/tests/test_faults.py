"""Kernels whose code faults fail their own task; the interpreter goes on.

A fault outside kernel code still ends the process as it would without the
runtime: with faulthandler enabled, faulthandler reports it.
"""
import ctypes
import mmap
import os
import platform
import shutil
import subprocess
import sys
import textwrap

import pytest

import acl

HERE = os.path.dirname(os.path.abspath(__file__))
FAULTS = os.path.join(HERE, os.pardir, os.pardir, "examples", "c", "kernels", "faults.cpp")

READ_OVERFLOW = 507042
WRITE_OVERFLOW = 507043
AICORE_EXCEPTION = 507015


@pytest.fixture(scope="module")
def faults(tmp_path_factory):
    """libfaults.so, an Ascend C kernel file built with g++."""
    if shutil.which("g++") is None:
        pytest.skip("g++ not found: the kernels are C++")
    so = str(tmp_path_factory.mktemp("kernels") / "libfaults.so")
    inc = os.path.join(os.environ["ASCEND_HOME_PATH"], "include")
    subprocess.run(["g++", "-O2", "-shared", "-fPIC", "-I" + inc, "-I" + os.path.join(inc, "gocann", "ascendc"),
                    "-o", so, FAULTS], check=True)
    return so


class Kernels:
    def __init__(self, so):
        self.bin, ret = acl.rt.binary_load_from_file(so, 0)
        assert ret == 0, acl.get_recent_err_msg()
        self.stream, ret = acl.rt.create_stream()
        assert ret == 0

    def func(self, name):
        f, ret = acl.rt.binary_get_function(self.bin, name)
        assert ret == 0, acl.get_recent_err_msg()
        return f

    def run(self, name, blocks, *slots):
        args = (ctypes.c_uint64 * max(1, len(slots)))(*slots)
        ret = acl.rt.launch_kernel_with_host_args(self.func(name), blocks, self.stream, None, args,
                                                  ctypes.sizeof(args), None, 0)
        assert ret == 0, acl.get_recent_err_msg()
        return acl.rt.synchronize_stream(self.stream)

    def works(self):
        """fill runs correctly on a new stream."""
        out, ret = acl.rt.malloc(8 * 8, acl.ACL_MEM_MALLOC_NORMAL_ONLY)
        assert ret == 0
        stream, ret = acl.rt.create_stream()
        assert ret == 0
        args = (ctypes.c_uint64 * 2)(out, 0xbeef)
        assert acl.rt.launch_kernel_with_host_args(self.func("fill"), 8, stream, None, args, ctypes.sizeof(args),
                                                   None, 0) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        host = (ctypes.c_uint64 * 8)()
        assert acl.rt.memcpy(ctypes.addressof(host), 64, out, 64, acl.ACL_MEMCPY_DEVICE_TO_HOST) == 0
        assert list(host) == [0xbeef] * 8
        assert acl.rt.destroy_stream(stream) == 0
        assert acl.rt.free(out) == 0

    def close(self):
        assert acl.rt.destroy_stream(self.stream) == 0
        assert acl.rt.binary_unload(self.bin) == 0


def test_kernel_faults(device, faults):
    k = Kernels(faults)
    seen = []
    assert acl.rt.set_exception_info_callback(lambda info: seen.append(
        acl.rt.get_error_code_from_exception_info(info))) == 0
    out, ret = acl.rt.malloc(64, acl.ACL_MEM_MALLOC_NORMAL_ONLY)
    assert ret == 0

    assert k.run("read_at", 1, out, 8) == READ_OVERFLOW
    msg = acl.get_recent_err_msg()
    assert 'kernel "read_at" block 0 of 1: read of address 0x8 faulted' in msg and "the NULL page" in msg
    assert seen == [READ_OVERFLOW]
    k.works()

    start = _read_only_pages(4)
    assert k.run("write_at", 4, start, 1, mmap.PAGESIZE, 0) == WRITE_OVERFLOW
    assert "write of address" in acl.get_recent_err_msg()
    k.works()

    if platform.machine() == "x86_64":  # arm64's division by zero gives 0
        assert k.run("divide", 1, out, 7, 0) == AICORE_EXCEPTION
        assert "SIGFPE, integer division by zero" in acl.get_recent_err_msg()
    assert k.run("illegal", 2, out) == AICORE_EXCEPTION
    assert "SIGILL, illegal instruction" in acl.get_recent_err_msg()
    assert k.run("throws", 1, 3) == AICORE_EXCEPTION
    assert "std::runtime_error: bad tiling 3" in acl.get_recent_err_msg()
    k.works()

    assert [k.run("read_at", 2, out, 16) for _ in range(20)] == [READ_OVERFLOW] * 20
    k.works()
    assert acl.rt.set_exception_info_callback(None) == 0
    assert acl.rt.free(out) == 0
    k.close()


def _read_only_pages(n):
    """The address of n read-only pages, kept for the process: an unmapped
    page would be taken by the next mapping, and a stray write land there."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    p = libc.mmap(None, n * mmap.PAGESIZE, mmap.PROT_READ, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)
    assert p not in (None, ctypes.c_void_p(-1).value), os.strerror(ctypes.get_errno())
    return p


CHILD = textwrap.dedent("""
    import ctypes, faulthandler, sys
    faulthandler.enable()
    import acl
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    b, ret = acl.rt.binary_load_from_file(sys.argv[1], 0)
    f, ret = acl.rt.binary_get_function(b, "read_at")
    args = (ctypes.c_uint64 * 2)(0, 8)
    assert acl.rt.launch_kernel_with_host_args(f, 1, 0, None, args, ctypes.sizeof(args), None, 0) == 0
    print("kernel fault contained:", acl.rt.synchronize_stream(0), flush=True)
    ctypes.string_at(8)  # the program's own bug
    print("still running", flush=True)
""")


def test_host_fault_reaches_faulthandler(faults):
    # A fresh interpreter: the fault ends it, with faulthandler's report.
    p = subprocess.run([sys.executable, "-c", CHILD, faults], capture_output=True, text=True, timeout=120)
    assert "kernel fault contained: %d" % READ_OVERFLOW in p.stdout, p.stdout + p.stderr
    assert "still running" not in p.stdout
    assert "Fatal Python error: Segmentation fault" in p.stderr, p.stderr
    assert p.returncode == -11, (p.returncode, p.stderr)
