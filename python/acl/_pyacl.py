"""pyACL's own call shapes, where its documented Python function is not
the mechanical binding of the C one: a list where C takes an array and
its length, outputs in pyACL's order, inputs pyACL echoes back.

Each function here replaces the mechanical binding of the same name (the
C shape would be ambiguous under one name) and is built on the binding
itself, so its argument checks and codes are the binding's.
"""

import ctypes
import sys

from . import _api
from . import _structs
from ._pyacl_structs import checked


def _array(ctype, values, what):
    """A ctypes array of values (a list or tuple of ints), or raises
    TypeError naming the argument."""
    if not isinstance(values, (list, tuple)):
        raise TypeError("%s: expected a list, got %s" % (what, type(values).__name__))
    return (ctype * len(values))(*(checked(ctype, v, "%s[%d]" % (what, i)) for i, v in enumerate(values)))


def _with_list(c_fn, ctype, name, what, c_arity):
    """fn(head..., values): c_fn(head..., array, len(values)); called with
    the C arity (an address and a count), as C."""
    def fn(*args):
        if len(args) == c_arity:
            return c_fn(*args)
        if not args:
            raise TypeError("%s: expected its arguments and the list %s" % (name, what))
        arr = _array(ctype, args[-1], "%s: %s" % (name, what))
        return c_fn(*args[:-1], ctypes.addressof(arr) if len(arr) else None, len(arr))
    fn.__name__ = name
    return fn


def _string_out(c_fn, name, key_at, len_at, py_arity):
    """fn(inputs...): (str, ret), for a C function writing a string into a
    buffer at key_at whose length is the input at len_at (of the inputs
    pyACL takes); called with the C arity, as C."""
    def fn(*args):
        if len(args) != py_arity:
            return c_fn(*args)
        n = args[len_at]
        if type(n) is not int or not 0 <= n < (1 << 32):
            raise TypeError("%s: length: expected an int in [0, 2^32), got %r" % (name, n))
        buf = ctypes.create_string_buffer(n + 1)
        ret = c_fn(*args[:key_at], buf, *args[key_at:])
        return buf.value.decode("utf-8", "replace"), ret
    fn.__name__ = name
    fn.__doc__ = "%s: (str, ret) as pyACL, the buffer made here; with the C arguments, as C." % name
    return fn


def _cstr(arr):
    return bytes(arr).split(b"\0", 1)[0].decode("utf-8", "replace")


def install(top, rt, lib):
    """Put pyACL's shapes in place on the module top and its rt namespace;
    lib is the runtime library."""
    rt.get_function_name = _string_out(rt.get_function_name, "get_function_name", 2, 1, 2)
    rt.ipc_mem_get_export_key = _string_out(rt.ipc_mem_get_export_key, "ipc_mem_get_export_key", 2, 2, 4)
    rt.notify_get_export_key = _string_out(rt.notify_get_export_key, "notify_get_export_key", 1, 1, 3)

    c_version_str = lib.aclsysGetVersionStr

    def get_version_str(pkg_name):
        """version_str, ret: the version of the installed package pkg_name."""
        if not isinstance(pkg_name, str):
            raise TypeError("get_version_str: pkg_name: expected a str, got %s" % type(pkg_name).__name__)
        name = ctypes.create_string_buffer(pkg_name.encode())
        buf = ctypes.create_string_buffer(_api.CONSTANTS["ACL_PKG_VERSION_MAX_SIZE"])
        ret = c_version_str(name, buf)
        return buf.value.decode("utf-8", "replace"), ret
    top.get_version_str = get_version_str

    c_cann_version = lib.aclsysGetCANNVersion

    def get_cann_version(name):
        """version, ret: a dict of the package's version strings."""
        if type(name) is not int or not -(1 << 31) <= name < (1 << 31):
            raise TypeError("get_cann_version: name: expected an int, got %r" % (name,))
        v = _structs.aclCANNPackageVersion()
        ret = c_cann_version(name, ctypes.byref(v))
        return {"version": _cstr(v.version), "major_version": _cstr(v.majorVersion),
                "minor_version": _cstr(v.minorVersion), "release_version": _cstr(v.releaseVersion),
                "patch_version": _cstr(v.patchVersion), "reserved": _cstr(v.reserved)}, ret
    top.get_cann_version = get_cann_version

    c_attr_list = top.get_cann_attribute_list

    def get_cann_attribute_list(*args):
        """cann_attr_list, num, ret: the features this CANN offers; with
        the C arguments, as C."""
        if args:
            return c_attr_list(*args)
        p = ctypes.c_void_p()
        num, ret = c_attr_list(ctypes.addressof(p))
        values = ctypes.cast(p, ctypes.POINTER(ctypes.c_int))
        return [values[i] for i in range(num)] if ret == 0 and p.value else [], num, ret
    top.get_cann_attribute_list = get_cann_attribute_list

    for name in ("notify_set_import_pid", "ipc_mem_set_import_pid", "mem_set_pid_to_shareable_handle"):
        setattr(rt, name, _with_list(getattr(rt, name), ctypes.c_int32, name, "pid", 3))
    rt.notify_batch_reset = _with_list(rt.notify_batch_reset, ctypes.c_void_p, "notify_batch_reset",
                                       "notifies", 2)

    c_primary = lib.aclrtGetPrimaryCtxState  # argtypes set by its binding

    def get_primary_ctx_state(device_id):
        """active, flags, ret, in pyACL's order. flags is reserved: C must
        be passed NULL for it, and pyACL returns 0."""
        if type(device_id) is not int or not -(1 << 31) <= device_id < (1 << 31):
            raise TypeError("get_primary_ctx_state: device_id: expected an int32, got %r" % (device_id,))
        active = ctypes.c_int32()
        ret = c_primary(device_id, None, ctypes.byref(active))
        return active.value, 0, ret
    rt.get_primary_ctx_state = get_primary_ctx_state

    c_set_desc = rt.set_memcpy_desc

    def set_memcpy_desc(desc, kind, src_addr, dst_addr, count, config):
        """desc, ret: pyACL hands the descriptor back."""
        return desc, c_set_desc(desc, kind, src_addr, dst_addr, count, config)
    rt.set_memcpy_desc = set_memcpy_desc

    log = lib.aclAppLog  # variadic: only the fixed arguments are typed
    log.restype = None

    def app_log(log_level, message):
        """ACL_APP_LOG(log_level, "%s", message), with the caller's
        function, file and line."""
        if type(log_level) is not int or not 0 <= log_level <= 3:
            raise TypeError("app_log: log_level: expected 0 (DEBUG) to 3 (ERROR), got %r" % (log_level,))
        if not isinstance(message, str):
            raise TypeError("app_log: message: expected a str, got %s" % type(message).__name__)
        caller = sys._getframe(1)
        code = caller.f_code
        log(ctypes.c_int(log_level), code.co_name.encode(), code.co_filename.encode(),
            ctypes.c_uint32(caller.f_lineno), b"%s", message.encode("utf-8", "replace"))
    top.app_log = app_log
