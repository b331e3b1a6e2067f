import ctypes
import os
import shutil
import subprocess

import pytest

import acl

HERE = os.path.dirname(os.path.abspath(__file__))
VADD = os.path.join(HERE, os.pardir, os.pardir, "examples", "c", "kernels", "vadd.c")


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    """libvadd.so, built like a CANN user builds a host kernel."""
    if shutil.which("gcc") is None:
        pytest.skip("gcc not found: the kernel is built with gcc")
    so = str(tmp_path_factory.mktemp("kernels") / "libvadd.so")
    inc = os.path.join(os.environ["ASCEND_HOME_PATH"], "include")
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-I" + inc, "-o", so, VADD], check=True)
    return so


class VaddArgs(ctypes.Structure):
    _fields_ = [("x", ctypes.c_uint64), ("y", ctypes.c_uint64), ("z", ctypes.c_uint64), ("n", ctypes.c_uint64)]


def test_vadd_numpy(device, kernels):
    np = pytest.importorskip("numpy")
    bin_, ret = acl.rt.binary_load_from_file(kernels, 0)
    assert ret == 0, acl.get_recent_err_msg()
    func, ret = acl.rt.binary_get_function(bin_, "vadd")
    assert ret == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    n = 4096
    x = np.arange(n, dtype=np.float32)
    y = np.full(n, 0.5, dtype=np.float32)
    z = np.zeros(n, dtype=np.float32)
    devs = []
    for a in (x, y, z):
        d, ret = acl.rt.malloc(a.nbytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        assert ret == 0
        devs.append(d)
    for a, d in zip((x, y), devs):
        assert acl.rt.memcpy(d, a.nbytes, acl.util.numpy_to_ptr(a), a.nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    args = VaddArgs(devs[0], devs[1], devs[2], n)
    ret = acl.rt.launch_kernel_with_host_args(func, 8, stream, None, args, ctypes.sizeof(args), None, 0)
    assert ret == 0, acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(z), z.nbytes, devs[2], z.nbytes, acl.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert (z == x + y).all()
    # With a launch configuration: the header's structs as ctypes classes.
    attrs = (acl.aclrtLaunchKernelAttr * 2)()
    attrs[0].id = acl.ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE
    attrs[0].value.schemMode = 1
    attrs[1].id = acl.ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT
    attrs[1].value.timeout = 30
    cfg = acl.aclrtLaunchKernelCfg(ctypes.addressof(attrs), 2)
    y2 = np.full(n, 2.0, dtype=np.float32)
    assert acl.rt.memcpy(devs[1], y2.nbytes, acl.util.numpy_to_ptr(y2), y2.nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    ret = acl.rt.launch_kernel_with_host_args(func, 8, stream, cfg, args, ctypes.sizeof(args), None, 0)
    assert ret == 0, acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(z), z.nbytes, devs[2], z.nbytes, acl.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert (z == x + y2).all()
    for d in devs:
        assert acl.rt.free(d) == 0
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.binary_unload(bin_) == 0


def test_trap_is_a_task_fault(device, kernels):
    # Trap resolves from the global scope (the library is loaded
    # RTLD_GLOBAL); the fault comes back as a code, not a crash.
    bin_, ret = acl.rt.binary_load_from_file(kernels, 0)
    assert ret == 0
    func, ret = acl.rt.binary_get_function(bin_, "trap_block")
    assert ret == 0
    out, ret = acl.rt.malloc(8 * 4, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0
    args = (ctypes.c_uint64 * 2)(out, 1)
    assert acl.rt.launch_kernel_with_host_args(func, 4, 0, None, args, ctypes.sizeof(args), None, 0) == 0
    ret = acl.rt.synchronize_stream(0)
    assert ret != 0
    assert acl.get_recent_err_msg()
    acl.rt.free(out)
    acl.rt.binary_unload(bin_)


def test_exception_callback(device, kernels):
    # A Python exception callback sees the trapped kernel's task; one that
    # raises is reported, not fatal.
    bin_, ret = acl.rt.binary_load_from_file(kernels, 0)
    assert ret == 0
    func, ret = acl.rt.binary_get_function(bin_, "trap_block")
    assert ret == 0
    seen = []

    def on_exception(info):
        seen.append((acl.rt.get_device_id_from_exception_info(info),
                     acl.rt.get_error_code_from_exception_info(info)))
        raise RuntimeError("from the exception callback")
    acl.rt.callback_errors()
    assert acl.rt.set_exception_info_callback(on_exception) == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    out, ret = acl.rt.malloc(8 * 4, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0
    args = (ctypes.c_uint64 * 2)(out, 0)
    assert acl.rt.launch_kernel_with_host_args(func, 4, stream, None, args, ctypes.sizeof(args), None, 0) == 0
    assert acl.rt.synchronize_stream(stream) != 0
    assert seen and seen[0][0] == device and seen[0][1] != 0
    errs = acl.rt.callback_errors()
    assert errs and isinstance(errs[0][1], RuntimeError)
    assert acl.rt.set_exception_info_callback(None) == 0
    acl.rt.destroy_stream(stream)
    acl.rt.free(out)
    acl.rt.binary_unload(bin_)
