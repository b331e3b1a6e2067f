"""What the binding hands to C: each argument as the C function sees it.

The bindings are made by the module's own generator over a small library
that records its arguments, under the names (and so the descriptions) of
two runtime functions: one with addresses and unsigned integers, one with
an out-parameter and a signed int.
"""

import ctypes
import shutil
import subprocess

import pytest

from acl import _binding

RECORDER = r"""
#include <stddef.h>
#include <stdint.h>
uintptr_t seen[8];
int calls;
int aclrtLaunchKernelWithHostArgs(void *f, uint32_t n, void *s, void *cfg, void *args, size_t size,
                                  void *ph, size_t phn) {
    seen[0] = (uintptr_t)f; seen[1] = n; seen[2] = (uintptr_t)s; seen[3] = (uintptr_t)cfg;
    seen[4] = (uintptr_t)args; seen[5] = size; seen[6] = (uintptr_t)ph; seen[7] = phn;
    return ++calls;
}
int aclrtMalloc(void **p, size_t size, int policy) {
    seen[0] = size; seen[1] = (uintptr_t)(intptr_t)policy;
    *p = (void *)(uintptr_t)0x1234;
    return ++calls;
}
"""

U64 = (1 << 64) - 1


@pytest.fixture(scope="module")
def recorder(tmp_path_factory):
    if shutil.which("gcc") is None:
        pytest.skip("gcc not found")
    d = tmp_path_factory.mktemp("recorder")
    (d / "rec.c").write_text(RECORDER)
    so = d / "librec.so"
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", str(so), str(d / "rec.c")], check=True)
    lib = ctypes.CDLL(str(so))
    seen = (ctypes.c_uint64 * 8).in_dll(lib, "seen")
    calls = ctypes.c_int.in_dll(lib, "calls")
    launch = _binding.make(lib, "aclrtLaunchKernelWithHostArgs", "launch")
    malloc = _binding.make(lib, "aclrtMalloc", "malloc")
    return launch, malloc, seen, calls


def test_ints_and_addresses_reach_c_unchanged(recorder):
    launch, _, seen, _ = recorder
    launch(U64, 0xFFFFFFFF, 1, None, 0, U64, 7, 0)
    assert list(seen) == [U64, 0xFFFFFFFF, 1, 0, 0, U64, 7, 0]


def test_converted_arguments(recorder):
    launch, _, seen, _ = recorder

    class Args(ctypes.Structure):
        _fields_ = [("x", ctypes.c_uint64)]

    args = Args(5)
    buf = bytearray(8)
    arr = (ctypes.c_int * 2)()
    ptr = ctypes.pointer(args)
    launch(ctypes.c_void_p(99), True, None, arr, args, 8, buf, 0)
    assert seen[0] == 99  # a c_void_p: its value
    assert seen[1] == 1  # a bool counts as an int
    assert seen[3] == ctypes.addressof(arr)
    assert seen[4] == ctypes.addressof(args)
    assert seen[6] == ctypes.addressof(ctypes.c_char.from_buffer(buf))
    launch(ptr, 1, 0, 0, ptr, 8, 0, 0)
    assert seen[0] == seen[4] == ctypes.addressof(args)  # a pointer: where it points


@pytest.mark.parametrize("position,value", [
    (0, -1), (0, 1 << 64), (0, True), (0, 1.0), (0, "x"),
    (1, -1), (1, 1 << 32), (1, 1.0), (1, None),
    (5, -1), (5, 1 << 64),
])
def test_refused_before_the_call(recorder, position, value):
    # ctypes would truncate these silently; the binding raises first.
    launch, _, _, calls = recorder
    before = calls.value
    argv = [0, 1, 0, None, 0, 0, None, 0]
    argv[position] = value
    with pytest.raises(TypeError) as err:
        launch(*argv)
    assert calls.value == before
    assert "launch: " in str(err.value)


def test_signed_bounds_and_out_param(recorder):
    _, malloc, seen, calls = recorder
    for policy in (-(1 << 31), (1 << 31) - 1):
        ptr, ret = malloc(U64, policy)
        assert ptr == 0x1234 and ret == calls.value
        assert seen[0] == U64 and ctypes.c_int64(seen[1]).value == policy
    for policy in (-(1 << 31) - 1, 1 << 31):
        with pytest.raises(TypeError, match="policy"):
            malloc(16, policy)
