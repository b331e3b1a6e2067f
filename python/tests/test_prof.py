"""acl.prof: collection into a PROF_ directory with msproftx marks, the
call order's codes, string ids, and a model subscription read back from
its pipe."""

import ctypes
import glob
import json
import os
import threading

import acl


def test_collection_and_marks(device, tmp_path):
    _, ret = acl.rt.get_device()
    assert ret == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    config = acl.prof.create_config([0], acl.ACL_AICORE_NONE, 0,
                                    acl.ACL_PROF_ACL_API | acl.ACL_PROF_TASK_TIME | acl.ACL_PROF_MSPROFTX)
    assert config
    # Out of order: no aclprofInit yet.
    assert acl.prof.start(config) == acl.ACL_ERROR_PROF_NOT_RUN
    assert acl.prof.init(str(tmp_path)) == 0
    assert acl.prof.init(str(tmp_path)) == acl.ACL_ERROR_REPEAT_INITIALIZE
    assert acl.prof.set_config(acl.ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15") == 0
    assert acl.prof.set_config(acl.ACL_PROF_SYS_HARDWARE_MEM_FREQ, "101") == acl.ACL_ERROR_INVALID_PROFILING_CONFIG
    assert acl.prof.start(config) == 0
    stamp = acl.prof.create_stamp()
    assert stamp
    assert acl.prof.set_stamp_trace_message(stamp, "py_mark") == 0
    assert acl.prof.mark(stamp) == 0
    assert acl.prof.push(stamp) == 0
    assert acl.prof.pop() == 0
    assert acl.prof.pop() == acl.ACL_ERROR_PROF_NOT_RUN
    range_id, ret = acl.prof.range_start(stamp)
    assert ret == 0 and range_id != 0
    assert acl.prof.range_stop(range_id) == 0
    assert acl.prof.range_stop(range_id) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.prof.mark_ex("py_stream_mark", stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    acl.prof.destroy_stamp(stamp)
    assert acl.prof.stop(config) == 0
    assert acl.prof.destroy_config(config) == 0
    assert acl.prof.finalize() == 0
    assert acl.prof.finalize() == acl.ACL_ERROR_PROF_NOT_RUN
    assert acl.rt.destroy_stream(stream) == 0

    timelines = glob.glob(str(tmp_path / "PROF_*" / "mindstudio_profiler_output" / "msprof_*.json"))
    assert len(timelines) == 1
    with open(timelines[0]) as f:
        names = {(e["ph"], e["name"]) for e in json.load(f)}
    assert ("i", "py_mark") in names and ("X", "py_mark") in names
    assert ("X", "py_stream_mark") in names and ("i", "py_stream_mark") in names


def double_hash(s):
    h0 = h1 = 0
    for c in s.encode():
        c = c - 256 if c >= 128 else c
        h0 = (h0 * 29 + c) & 0xFFFFFFFF
        h1 = (h1 * 131 + c) & 0xFFFFFFFF
    return h0 << 32 | h1


def test_str2id():
    assert acl.prof.str2_id("MatMul_1") == double_hash("MatMul_1")
    assert acl.prof.str2_id("") == (1 << 64) - 1


def test_subscription(device):
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    dev, ret = acl.rt.malloc(64, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0
    assert acl.mdl.ri_capture_begin(stream, acl.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    assert acl.rt.memset_async(dev, 64, 1, 64, stream) == 0
    assert acl.rt.memset_async(dev, 64, 2, 64, stream) == 0
    model, ret = acl.mdl.ri_capture_end(stream)
    assert ret == 0
    model_id, ret = acl.mdl.ri_get_id(model)
    assert ret == 0

    r, w = os.pipe()
    fd = ctypes.c_int(w)
    cfg = acl.prof.create_subscribe_config(1, acl.ACL_AICORE_NONE, ctypes.addressof(fd))
    assert cfg
    assert acl.prof.model_subscribe(model_id + 1000, cfg) == acl.ACL_ERROR_INVALID_MODEL_ID
    assert acl.prof.model_subscribe(model_id, cfg) == 0
    assert acl.prof.model_subscribe(model_id, cfg) == acl.ACL_ERROR_PROF_REPEAT_SUBSCRIBE
    data = []
    reader = threading.Thread(target=lambda: data.append(b"".join(iter(lambda: os.read(r, 4096), b""))))
    reader.start()
    for _ in range(3):
        assert acl.mdl.ri_execute_async(model, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.prof.model_unsubscribe(model_id) == 0  # closes the write end: the reader sees EOF
    reader.join(20)
    assert not reader.is_alive()
    os.close(r)
    assert acl.prof.destroy_subscribe_config(cfg) == 0

    buf = ctypes.create_string_buffer(data[0], len(data[0]))
    size, ret = acl.prof.get_op_desc_size()
    assert ret == 0 and len(data[0]) == 6 * size
    n, ret = acl.prof.get_op_num(ctypes.addressof(buf), len(data[0]))
    assert ret == 0 and n == 6
    for i in range(n):
        assert acl.prof.get_model_id(ctypes.addressof(buf), len(data[0]), i) == model_id
        tlen, ret = acl.prof.get_op_type_len(ctypes.addressof(buf), len(data[0]), i)
        assert ret == 0
        op_type, ret = acl.prof.get_op_type(ctypes.addressof(buf), len(data[0]), i, tlen)
        assert ret == 0 and op_type == "MEMSET_ASYNC"
        start = acl.prof.get_op_start(ctypes.addressof(buf), len(data[0]), i)
        end = acl.prof.get_op_end(ctypes.addressof(buf), len(data[0]), i)
        assert 0 < start <= end
        assert acl.prof.get_op_duration(ctypes.addressof(buf), len(data[0]), i) == end - start
    assert acl.mdl.ri_destroy(model) == 0
    assert acl.rt.free(dev) == 0
    assert acl.rt.destroy_stream(stream) == 0
