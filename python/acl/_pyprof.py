"""pyACL's call shapes of the acl.prof functions, where they are not the
mechanical binding of the C one: a string's length and a list's count
come from the string and the list, and a string the C function writes
into a buffer is returned. Called with the C arguments, each is the
binding itself.
"""

import ctypes

from ._pyacl import _array, _string_out


def _with_length(c_fn, name, at, arity):
    """fn(args...) with the string at index at followed by its length in
    bytes, for the C arity arity."""
    def fn(*args):
        if len(args) == arity:
            return c_fn(*args)
        if len(args) != arity - 1:
            raise TypeError("%s: expected %d arguments (or %d, as C), got %d" % (name, arity - 1, arity, len(args)))
        s = args[at]
        if isinstance(s, str):
            s = s.encode()
        if not isinstance(s, bytes):
            raise TypeError("%s: expected a str or bytes, got %s" % (name, type(s).__name__))
        return c_fn(*args[:at], s, len(s), *args[at + 1:])
    fn.__name__ = name
    return fn


def install(prof):
    """Put pyACL's shapes in place on the acl.prof namespace."""
    prof.init = _with_length(prof.init, "init", 0, 2)
    prof.set_config = _with_length(prof.set_config, "set_config", 1, 3)
    prof.set_stamp_trace_message = _with_length(prof.set_stamp_trace_message, "set_stamp_trace_message", 1, 3)
    prof.mark_ex = _with_length(prof.mark_ex, "mark_ex", 0, 3)
    prof.get_op_type = _string_out(prof.get_op_type, "get_op_type", 3, 3, 4)
    prof.get_op_name = _string_out(prof.get_op_name, "get_op_name", 3, 3, 4)

    c_create = prof.create_config

    def create_config(*args):
        """config: create_config(device_id_list, aicore_metrics,
        aicore_events, data_type_config) with a list of device ids; with
        the C arguments, as C."""
        if len(args) != 4:
            return c_create(*args)
        devs = _array(ctypes.c_uint32, args[0], "create_config: device_id_list")
        return c_create(ctypes.addressof(devs) if len(devs) else None, len(devs), *args[1:])
    prof.create_config = create_config
