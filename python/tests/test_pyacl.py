"""pyACL's documented call shapes where they are not the mechanical
binding's: names, lists for arrays, dicts for structs, strings returned."""

import ctypes
import os
import shutil
import subprocess
import sys
import threading

import pytest

import acl

HERE = os.path.dirname(os.path.abspath(__file__))
VADD = os.path.join(HERE, os.pardir, os.pardir, "examples", "c", "kernels", "vadd.c")


def test_names():
    assert acl.get_soc_name() == acl.rt.get_soc_name() and acl.get_soc_name().startswith("Ascend")
    major, minor, patch, ret = acl.get_version()
    assert ret == 0 and (major, minor, patch) == acl.rt.get_version()[:3] and major >= 1
    assert acl.rt.set_op_execute_timeout_v2 is acl.rt.set_op_execute_time_out_v2
    assert acl.rt.get_op_timeout_interval is acl.rt.get_op_time_out_interval


def test_versions():
    version, ret = acl.get_version_str("runtime")
    assert ret == 0 and version.count(".") >= 1
    info, ret = acl.get_cann_version(acl.ACL_PKG_NAME_RUNTIME)
    assert ret == 0
    assert sorted(info) == ["major_version", "minor_version", "patch_version", "release_version", "reserved", "version"]
    assert info["version"] == version and info["major_version"] == version.split(".")[0]
    with pytest.raises(TypeError, match="pkg_name"):
        acl.get_version_str(b"runtime")
    attrs, num, ret = acl.get_cann_attribute_list()
    assert ret == 0 and len(attrs) == num
    # The list holds exactly the features aclGetCannAttribute reports on.
    named = (acl.ACL_CANN_ATTR_INF_NAN, acl.ACL_CANN_ATTR_BF16, acl.ACL_CANN_ATTR_JIT_COMPILE)
    assert attrs == [a for a in named if acl.get_cann_attribute(a) == (1, 0)]


def test_primary_ctx_state():
    assert acl.init() == 0
    try:
        assert acl.rt.get_primary_ctx_state(0) == (0, 0, 0)
        assert acl.rt.set_device(0) == 0
        assert acl.rt.get_primary_ctx_state(0) == (1, 0, 0)  # active, flags, ret
        active, flags, ret = acl.rt.get_primary_ctx_state(1 << 20)
        assert ret == acl.ACL_ERROR_RT_INVALID_DEVICEID and (active, flags) == (0, 0)
        with pytest.raises(TypeError):
            acl.rt.get_primary_ctx_state("0")
        assert acl.rt.reset_device(0) == 0
    finally:
        assert acl.finalize() == 0


def test_lists_for_arrays(device):
    n1, ret = acl.rt.create_notify(0)
    assert ret == 0
    n2, ret = acl.rt.create_notify(0)
    assert ret == 0
    assert acl.rt.notify_batch_reset([n1, n2]) == 0
    assert acl.rt.notify_batch_reset([]) == acl.ACL_ERROR_INVALID_PARAM
    with pytest.raises(TypeError, match="notifies"):
        acl.rt.notify_batch_reset(n1)
    with pytest.raises(TypeError, match="notifies"):
        acl.rt.notify_batch_reset([n1, "x"])
    # A whitelist before the export is refused by the runtime, after the
    # list was taken: the pid list reached C.
    tgid, ret = acl.rt.device_get_bare_tgid()
    assert ret == 0
    assert acl.rt.notify_set_import_pid(n1, [tgid]) == acl.ACL_ERROR_RT_PARAM_INVALID
    assert "aclrtNotifyGetExportKey" in acl.get_recent_err_msg()
    with pytest.raises(TypeError, match="pid"):
        acl.rt.notify_set_import_pid(n1, [1 << 40])
    arr = (ctypes.c_void_p * 2)(n1, n2)  # the C shape: an address and a count
    assert acl.rt.notify_batch_reset(arr, 2) == 0
    for n in (n1, n2):
        assert acl.rt.destroy_notify(n) == 0


def test_strings_returned(device, tmp_path):
    if shutil.which("gcc") is None:
        pytest.skip("gcc not found")
    so = str(tmp_path / "libvadd.so")
    inc = os.path.join(os.environ["ASCEND_HOME_PATH"], "include")
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-I" + inc, "-o", so, VADD], check=True)
    bin_, ret = acl.rt.binary_load_from_file(so, [])  # [] is no options
    assert ret == 0, acl.get_recent_err_msg()
    func, ret = acl.rt.binary_get_function(bin_, "vadd")
    assert ret == 0
    assert acl.rt.get_function_name(func, 64) == ("vadd", 0)
    buf = ctypes.create_string_buffer(64)  # the C shape still works
    assert acl.rt.get_function_name(func, 64, buf) == 0 and buf.value == b"vadd"
    name, ret = acl.rt.get_function_name(func, 2)
    assert ret != 0 and name == ""
    assert acl.rt.binary_unload(bin_) == 0
    lazy, ret = acl.rt.binary_load_from_file(so, [{"type": acl.ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD, "value": 1}])
    assert ret == 0, acl.get_recent_err_msg()
    assert acl.rt.binary_unload(lazy) == 0
    with pytest.raises(TypeError, match="options"):
        acl.rt.binary_load_from_file(so, [{"kind": 1}])
    with pytest.raises(TypeError, match="options"):
        acl.rt.binary_load_from_file(so, [3])


def test_kernel_with_config_lists(device, tmp_path):
    np = pytest.importorskip("numpy")
    if shutil.which("gcc") is None:
        pytest.skip("gcc not found")
    so = str(tmp_path / "libvadd.so")
    inc = os.path.join(os.environ["ASCEND_HOME_PATH"], "include")
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-I" + inc, "-o", so, VADD], check=True)
    bin_, ret = acl.rt.binary_load_from_file(so, [])
    assert ret == 0
    func, ret = acl.rt.binary_get_function(bin_, "vadd")
    assert ret == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    n = 1024
    x, y = np.arange(n, dtype=np.float32), np.full(n, 3.0, dtype=np.float32)
    devs = []
    for a in (x, y, np.zeros(n, dtype=np.float32)):
        d, ret = acl.rt.malloc(a.nbytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        assert ret == 0
        assert acl.rt.memcpy(d, a.nbytes, acl.util.numpy_to_ptr(a), a.nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0
        devs.append(d)
    args, ret = acl.rt.kernel_args_init(func)
    assert ret == 0, acl.get_recent_err_msg()
    for v in devs + [n]:
        word = ctypes.c_uint64(v)
        _, ret = acl.rt.kernel_args_append(args, word, 8)
        assert ret == 0, acl.get_recent_err_msg()
    assert acl.rt.kernel_args_finalize(args) == 0
    cfgs = ([], [{"id": acl.ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, "value": 1},
                 {"id": acl.ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, "value": 30}])
    for cfg in cfgs:
        z = np.zeros(n, dtype=np.float32)
        assert acl.rt.memcpy(devs[2], z.nbytes, acl.util.numpy_to_ptr(z), z.nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0
        ret = acl.rt.launch_kernel_with_config(func, 4, stream, cfg, args, 0)
        assert ret == 0, acl.get_recent_err_msg()
        assert acl.rt.synchronize_stream(stream) == 0
        assert acl.rt.memcpy(acl.util.numpy_to_ptr(z), z.nbytes, devs[2], z.nbytes, acl.ACL_MEMCPY_DEVICE_TO_HOST) == 0
        assert (z == x + y).all()
    with pytest.raises(TypeError, match="cfg"):
        acl.rt.launch_kernel_with_config(func, 4, stream, [{"id": 1, "value": 1 << 40}], args, 0)
    for d in devs:
        assert acl.rt.free(d) == 0
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.binary_unload(bin_) == 0


def test_dicts_for_structs(device):
    info, ret = acl.rt.get_device_utilization_rate(0)
    assert ret == 0
    assert sorted(info) == ["aicpu_utilization", "cube_utilization", "memory_utilization",
                            "utilization_extend", "vector_utilization"]
    assert info["memory_utilization"] == -1  # not measured, as CANN reports
    uuid, ret = acl.rt.device_get_uuid(0)
    raw = acl.aclrtUuid()
    assert ret == 0 and acl.rt.device_get_uuid(0, raw) == 0
    assert len(uuid["bytes"]) == 16 and bytes(b & 0xFF for b in uuid["bytes"]) == ctypes.string_at(
        ctypes.addressof(raw), 16)

    stream, ret = acl.rt.create_stream()
    assert ret == 0
    assert acl.rt.get_stream_attribute(stream, acl.ACL_STREAM_ATTR_FAILURE_MODE) == ({"failureMode": 0}, 0)
    assert acl.rt.set_stream_attribute(stream, acl.ACL_STREAM_ATTR_FAILURE_MODE, {"failureMode": 1}) == 0
    assert acl.rt.get_stream_attribute(stream, acl.ACL_STREAM_ATTR_FAILURE_MODE) == ({"failureMode": 1}, 0)
    value, ret = acl.rt.get_stream_attribute(stream, acl.ACL_STREAM_ATTR_PRIORITY)
    assert ret == 0 and list(value) == ["reserved"] and len(value["reserved"]) == 4
    with pytest.raises(TypeError, match="failureMode"):
        acl.rt.set_stream_attribute(stream, acl.ACL_STREAM_ATTR_FAILURE_MODE, {"failuremode": 1})
    with pytest.raises(TypeError, match="out of range"):
        acl.rt.set_stream_attribute(stream, acl.ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, {"overflowSwitch": -1})
    assert acl.rt.destroy_stream(stream) == 0

    dev, ret = acl.rt.malloc_with_cfg(4096, acl.ACL_MEM_MALLOC_HUGE_FIRST, {})  # {} is no config
    assert ret == 0, acl.get_recent_err_msg()
    attrs, ret = acl.rt.pointer_get_attributes(dev)
    assert ret == 0
    assert attrs["location"] == {"id": 0, "type": acl.ACL_MEM_LOCATION_TYPE_DEVICE} and attrs["page_size"] > 0
    assert attrs["rsv"] == [0, 0, 0, 0]
    host, ret = acl.rt.malloc_host_with_cfg(4096, {})
    assert ret == 0
    assert acl.rt.pointer_get_attributes(host)[0]["location"]["type"] == acl.ACL_MEM_LOCATION_TYPE_HOST
    cfg = {"numAttrs": 1, "attrs": [{"attr": acl.ACL_RT_MEM_ATTR_MODULE_ID, "value": {"moduleId": 7}}]}
    dev2, ret = acl.rt.malloc_with_cfg(4096, acl.ACL_MEM_MALLOC_HUGE_FIRST, cfg)
    assert ret == 0, acl.get_recent_err_msg()
    for bad, match in (({"numAttrs": 2, "attrs": []}, "numAttrs"), ({"attrs": 1}, "attrs"),
                       ({"numAttrs": 1, "attrs": [{"attr": 1, "value": {"module": 1}}]}, "module"),
                       ({"numAttrs": 1, "attrs": [{"attr": 1, "value": {"moduleId": 1 << 16}}]}, "out of range"),
                       ({"x": 1}, "unknown"), ([], "address")):
        with pytest.raises(TypeError, match=match):
            acl.rt.malloc_with_cfg(4096, 0, bad)
    for p in (dev, dev2):
        assert acl.rt.free(p) == 0
    assert acl.rt.free_host(host) == 0


def test_set_memcpy_desc_echoes(device):
    desc, ret = acl.rt.set_memcpy_desc(0, acl.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, 0, 0, 0, 0)
    assert desc == 0 and ret != 0  # NULL descriptor refused, handed back


def test_app_log(tmp_path):
    # A log line with the Python caller's function, file and line, written
    # where CANN writes its application log (here standard output).
    script = tmp_path / "log.py"
    script.write_text("import acl\n"
                      "def where():\n"
                      "    acl.app_log(acl.ACL_ERROR, 'disk %d%% full' % 90)\n"
                      "where()\n")
    env = dict(os.environ, ASCEND_SLOG_PRINT_TO_STDOUT="1", ASCEND_GLOBAL_LOG_LEVEL="0")
    out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, check=True)
    assert "[ERROR] APP(" in out.stdout
    assert 'where:%s:3: "disk 90%% full"' % script in out.stdout
    with pytest.raises(TypeError, match="log_level"):
        acl.app_log(9, "x")
    with pytest.raises(TypeError, match="message"):
        acl.app_log(1, b"x")


def test_thread_without_args_and_unset_callback(device):
    called = []
    tid, ret = acl.util.start_thread(lambda: called.append(threading.get_ident()), None)
    assert ret == 0 and acl.util.stop_thread(tid) == 0
    assert called == [tid]
    assert acl.rt.set_exception_info_callback(lambda info: None) == 0
    assert acl.rt.set_exception_info_callback() == 0  # no argument: unset
