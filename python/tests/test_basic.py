import os

import pytest

import acl


def test_import_from_install_tree():
    # The installed module, found through PYTHONPATH from set_env.sh.
    home = os.environ["ASCEND_HOME_PATH"]
    assert os.path.realpath(acl.__file__).startswith(os.path.realpath(home))
    assert acl.ACL_SUCCESS == 0
    assert acl.ACL_ERROR_INVALID_PARAM == 100000
    assert acl.ACL_MEMCPY_HOST_TO_DEVICE == 1


def test_init_finalize():
    assert acl.init() == 0
    assert acl.finalize() == 0


def test_namespaces():
    import acl.rt
    import acl.mdl
    assert acl.rt.set_device is acl.rt.set_device
    assert callable(acl.rt.malloc_host)
    assert callable(acl.rt.get_device_count)
    assert callable(acl.rt.synchronize_stream)
    assert callable(acl.rt.create_context)
    assert callable(acl.mdl.ri_execute_async)
    assert acl.rt.get_context is acl.rt.get_current_context


def test_flow(device):
    ctx, ret = acl.rt.create_context(device)
    assert ret == 0 and ctx != 0
    assert acl.rt.set_context(ctx) == 0
    cur, ret = acl.rt.get_context()
    assert (cur, ret) == (ctx, 0)
    stream, ret = acl.rt.create_stream()
    assert ret == 0 and stream != 0
    size = 256
    dev, ret = acl.rt.malloc(size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0 and dev != 0
    src = bytes(range(256))
    assert acl.rt.memcpy(dev, size, acl.util.bytes_to_ptr(src), size, acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    back = bytearray(size)
    assert acl.rt.memcpy(back, size, dev, size, acl.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert bytes(back) == src
    host, ret = acl.rt.malloc_host(size)
    assert ret == 0
    assert acl.rt.memcpy_async(host, size, dev, size, acl.ACL_MEMCPY_DEVICE_TO_HOST, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.util.ptr_to_bytes(host, size) == src
    assert acl.rt.free_host(host) == 0
    assert acl.rt.free(dev) == 0
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.destroy_context(ctx) == 0


def test_default_stream(device):
    # 0 and None are the default stream.
    assert acl.rt.synchronize_stream(0) == 0
    assert acl.rt.synchronize_stream(None) == 0


def test_numpy_roundtrip(device):
    np = pytest.importorskip("numpy")
    a = np.arange(1024, dtype=np.float32)
    n = a.nbytes
    dev, ret = acl.rt.malloc(n, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0
    assert acl.rt.memcpy(dev, n, acl.util.numpy_to_ptr(a), n, acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    host, ret = acl.rt.malloc_host(n)
    assert ret == 0
    assert acl.rt.memcpy(host, n, dev, n, acl.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    b = acl.util.ptr_to_numpy(host, (32, 32), np.float32)
    assert (b.ravel() == a).all()
    del b
    assert acl.rt.free_host(host) == 0
    assert acl.rt.free(dev) == 0


def test_out_params(device):
    count, ret = acl.rt.get_device_count()
    assert ret == 0 and count >= 1
    dev, ret = acl.rt.get_device()
    assert (dev, ret) == (0, 0)
    major, minor, patch, ret = acl.rt.get_version()
    assert ret == 0 and major >= 1
    free, total, ret = acl.rt.get_mem_info(acl.ACL_HBM_MEM)
    assert ret == 0 and 0 < free <= total
    mode, ret = acl.rt.get_run_mode()
    assert ret == 0 and mode in (acl.ACL_DEVICE, acl.ACL_HOST)


def test_error_path():
    # Before aclInit: the CANN code, and the message names it.
    _, ret = acl.rt.get_device_count()
    assert ret == acl.ACL_ERROR_UNINITIALIZE
    assert "ACL_ERROR_UNINITIALIZE" in acl.get_recent_err_msg()


def test_invalid_param(device):
    ptr, ret = acl.rt.malloc(0, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == acl.ACL_ERROR_RT_PARAM_INVALID
    assert ptr == 0
    assert "ACL_ERROR_RT_PARAM_INVALID" in acl.get_recent_err_msg()
    dev, ret = acl.rt.malloc(64, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0
    small = bytearray(16)
    ret = acl.rt.memcpy(small, len(small), dev, 64, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    assert ret == acl.ACL_ERROR_RT_PARAM_INVALID
    assert "destMax" in acl.get_recent_err_msg()
    assert acl.rt.free(dev) == 0


def test_type_errors():
    # Raised before any C call.
    with pytest.raises(TypeError):
        acl.rt.set_device("0")
    with pytest.raises(TypeError):
        acl.rt.set_device(1 << 40)
    with pytest.raises(TypeError):
        acl.rt.malloc(16)
    with pytest.raises(TypeError):
        acl.rt.synchronize_stream(-1)
    with pytest.raises(TypeError):
        acl.rt.synchronize_stream(1.5)
    with pytest.raises(TypeError):
        acl.util.ptr_to_bytes("x", 1)


def test_structs():
    d = acl.dim3(4)
    assert (d.x, d.y, d.z) == (4, 1, 1)


def test_without_numpy():
    # The module imports and works with numpy unavailable.
    import subprocess
    import sys
    script = ("import sys; sys.modules['numpy'] = None\n"
              "import acl\n"
              "assert acl.init() == 0\n"
              "b = bytearray(b'abc')\n"
              "assert acl.util.ptr_to_bytes(acl.util.bytes_to_ptr(b), 3) == b'abc'\n"
              "try:\n"
              "    acl.util.numpy_to_ptr(None)\n"
              "except ImportError:\n"
              "    pass\n"
              "else:\n"
              "    raise SystemExit('numpy_to_ptr without numpy')\n"
              "assert acl.finalize() == 0\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr


def test_struct_layouts(tmp_path):
    # Every struct of the headers has the C size and field offsets.
    import re
    import shutil
    import subprocess
    if shutil.which("gcc") is None:
        pytest.skip("gcc not found")
    from acl import _api
    inc = os.path.join(os.environ["ASCEND_HOME_PATH"], "include")
    text = "".join(open(os.path.join(inc, "acl", f)).read() for f in os.listdir(os.path.join(inc, "acl"))
                   if f.endswith(".h"))
    checks = []
    for name, _, fields in _api.STRUCTS:
        if not re.search(r"\}\s*%s\s*;" % name, text):
            continue  # an unnamed inner struct or union
        cls = getattr(acl, name)
        checks.append((name, None, ctypes_size(cls)))
        for fname, _, count in fields:
            if count >= 0:
                checks.append((name, fname, getattr(cls, fname).offset))
    src = ["#include <stdio.h>", "#include <stddef.h>", "#include <acl/acl.h>", "#include <acl/acl_rt_memory_soma.h>",
           "#include <acl/acl_prof.h>", "int main(void) {", "  int bad = 0;"]
    for name, field, want in checks:
        expr = "sizeof(%s)" % name if field is None else "offsetof(%s, %s)" % (name, field)
        src.append('  if (%s != %d) { printf("%s: C %%zu, Python %d\\n", (size_t)%s); bad = 1; }'
                   % (expr, want, expr, want, expr))
    src += ["  return bad;", "}"]
    c = tmp_path / "layout.c"
    c.write_text("\n".join(src) + "\n")
    exe = tmp_path / "layout"
    subprocess.run(["gcc", "-std=gnu11", "-I" + inc, "-o", str(exe), str(c)], check=True)
    out = subprocess.run([str(exe)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout
    assert len(checks) > 100


def ctypes_size(cls):
    import ctypes
    return ctypes.sizeof(cls)


def test_bogus_handles(device):
    # Dead or invented handles give CANN codes, never a crash.
    for f in (acl.rt.destroy_stream, acl.rt.synchronize_stream, acl.rt.destroy_event,
              acl.rt.destroy_context, acl.rt.query_event_status):
        for h in (1, 123456789, (1 << 64) - 1):
            r = f(h)
            ret = r[-1] if isinstance(r, tuple) else r
            assert ret == acl.ACL_ERROR_RT_INVALID_HANDLE, (f.__name__, h, r)
    for h in (1, 123456789):
        assert acl.rt.free(h) in (acl.ACL_ERROR_INVALID_PARAM, acl.ACL_ERROR_RT_PARAM_INVALID)
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.destroy_stream(stream) == acl.ACL_ERROR_RT_INVALID_HANDLE
