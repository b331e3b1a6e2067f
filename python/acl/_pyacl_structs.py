"""pyACL's dicts and lists for the runtime's structs: the functions whose
documented Python form takes a dict or a list of dicts where C takes a
struct, or returns a dict where C fills one.

An input given as a dict or list is converted; anything else (a ctypes
struct of the module, an address, None) goes to the binding as it is, so
the C shape keeps working. An output-filling function called with the C
function's arity keeps the C shape; called with pyACL's, it returns the
dict. Dict keys are pyACL's: a missing key leaves its field 0, as in
pyACL; an unknown key or a value that is no int in the field's range
raises TypeError naming both, where pyACL would silently write 0.
"""

import ctypes

from . import _structs


def checked(ctype, value, what):
    """value, after checking it is an int that fits ctype."""
    if type(value) is not int:
        raise TypeError("%s: expected an int, got %s" % (what, type(value).__name__))
    bits = 8 * ctypes.sizeof(ctype)
    signed = ctype(-1).value < 0
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    if not lo <= value <= hi:
        raise TypeError("%s: %d is out of range [%d, %d]" % (what, value, lo, hi))
    return value


def _int_field(obj, field, value, what):
    setattr(obj, field, checked(dict(obj._fields_)[field], value, what))


def _int_list(obj, field, values, what):
    """obj.field[i] = values[i], for a C array field."""
    arr = getattr(obj, field)
    if not isinstance(values, (list, tuple)):
        raise TypeError("%s: expected a list, got %s" % (what, type(values).__name__))
    if len(values) > len(arr):
        raise TypeError("%s: %d values, the field holds %d" % (what, len(values), len(arr)))
    for i, v in enumerate(values):
        arr[i] = checked(arr._type_, v, "%s[%d]" % (what, i))


def _dict(value, what):
    if not isinstance(value, dict):
        raise TypeError("%s: expected a dict, got %s" % (what, type(value).__name__))
    return value


def _fill(obj, value, keys, what):
    """Fill obj's fields from dict value; keys maps pyACL's key to a field
    name, or to a function(obj, v, what) for a nested value."""
    for k, v in _dict(value, what).items():
        if k not in keys:
            raise TypeError("%s: unknown key %r (expected %s)" % (what, k, ", ".join(sorted(keys))))
        target = keys[k]
        if callable(target):
            target(obj, v, "%s[%r]" % (what, k))
        elif isinstance(getattr(obj, target), ctypes.Array):
            _int_list(obj, target, v, "%s[%r]" % (what, k))
        else:
            _int_field(obj, target, v, "%s[%r]" % (what, k))
    return obj


def _location(field):
    def fill(obj, v, what):
        _fill(getattr(obj, field), v, {"id": "id", "type": "type"}, what)
    return fill


def _malloc_config(cfg, what):
    """aclrtMallocConfig from pyACL's {"numAttrs": n, "attrs": [{"attr": t,
    "value": {"moduleId" | "deviceId" | "vaFlag" | "rsv": v}}]}; {} is
    no config (NULL)."""
    cfg = _dict(cfg, what)
    if not cfg:
        return None
    unknown = set(cfg) - {"numAttrs", "attrs"}
    if unknown:
        raise TypeError("%s: unknown keys %s (expected attrs, numAttrs)" % (what, sorted(unknown)))
    attrs = cfg.get("attrs")
    if not isinstance(attrs, list):
        raise TypeError("%s['attrs']: expected a list, got %s" % (what, type(attrs).__name__))
    n = cfg.get("numAttrs", 0)
    if n != len(attrs):
        raise TypeError("%s: numAttrs is %r but attrs has %d entries" % (what, n, len(attrs)))
    arr = (_structs.aclrtMallocAttribute * max(len(attrs), 1))()
    for i, a in enumerate(attrs):
        w = "%s['attrs'][%d]" % (what, i)
        _fill(arr[i], a, {"attr": "attr", "value": lambda o, v, w2: _fill(
            o.value, v, {"moduleId": "moduleId", "deviceId": "deviceId", "vaFlag": "vaFlag", "rsv": "rsv"}, w2)}, w)
    c = _structs.aclrtMallocConfig(ctypes.cast(arr, ctypes.c_void_p), len(attrs))
    c._attrs = arr  # the struct's pointer keeps nothing alive
    return c


def _pairs(items, elem, key, value_field, what):
    """A ctypes array of elem from pyACL's [{key: t, "value": v}, ...],
    each value written to elem.value.<value_field>; None for []."""
    if not isinstance(items, list):
        raise TypeError("%s: expected a list, got %s" % (what, type(items).__name__))
    if not items:
        return None
    arr = (elem * len(items))()
    for i, it in enumerate(items):
        w = "%s[%d]" % (what, i)
        _fill(arr[i], it, {key: key, "value": lambda o, v, w2: _int_field(o.value, value_field, v, w2)}, w)
    return arr


_STREAM_ATTR_KEYS = {1: ("failureMode", "failureMode"), 2: ("overflowSwitch", "overflowSwitch"),
                     3: ("userCustomTag", "userCustomTag")}


def _stream_attr_key(attr):
    """pyACL's key for a stream attribute's value, and its union member:
    the three it names, else the reserve words as "reserved"."""
    return _STREAM_ATTR_KEYS.get(attr, ("reserved", "reserve"))


def install(rt):
    """Put pyACL's dict forms in place on the module's rt namespace."""
    S = _structs
    mech = {n: getattr(rt, n) for n in dir(rt) if not n.startswith("_")}

    def malloc_cfg(name, cfg_at):
        c_fn = mech[name]

        def fn(*args):
            if len(args) > cfg_at and isinstance(args[cfg_at], dict):
                cfg = _malloc_config(args[cfg_at], "%s: cfg" % name)
                args = args[:cfg_at] + (cfg,) + args[cfg_at + 1:]
            return c_fn(*args)
        fn.__name__ = name
        fn.__doc__ = c_fn.__doc__ + " cfg may be pyACL's dict ({} for none)."
        setattr(rt, name, fn)
    malloc_cfg("malloc_with_cfg", 2)
    malloc_cfg("malloc_for_task_scheduler", 2)
    malloc_cfg("malloc_host_with_cfg", 1)

    def prop_arg(name, at):
        c_fn = mech[name]
        keys = {"handleType": "handleType", "allocationType": "allocationType", "memAttr": "memAttr",
                "location": _location("location"), "reserve": "reserve"}

        def fn(*args):
            if len(args) > at and isinstance(args[at], dict):
                prop = _fill(S.aclrtPhysicalMemProp(), args[at], keys, "%s: prop" % name)
                return c_fn(*args[:at], prop, *args[at + 1:])
            return c_fn(*args)
        fn.__name__ = name
        setattr(rt, name, fn)
    prop_arg("malloc_physical", 1)
    prop_arg("mem_get_allocation_granularity", 0)

    def options_arg(name, at, elem, key, field, outer, what):
        c_fn = mech[name]

        def fn(*args):
            if len(args) > at and isinstance(args[at], list):
                arr = _pairs(args[at], elem, key, field, "%s: %s" % (name, what))
                holder = None
                if arr is not None:
                    holder = outer(ctypes.cast(arr, ctypes.c_void_p), len(arr))
                    holder._items = arr  # the struct's pointer keeps nothing alive
                return c_fn(*args[:at], holder, *args[at + 1:])
            return c_fn(*args)
        fn.__name__ = name
        setattr(rt, name, fn)
    options_arg("binary_load_from_file", 1, S.aclrtBinaryLoadOption, "type", "isLazyLoad",
                S.aclrtBinaryLoadOptions, "options")
    options_arg("binary_load_from_data", 2, S.aclrtBinaryLoadOption, "type", "isLazyLoad",
                S.aclrtBinaryLoadOptions, "options")
    options_arg("launch_kernel_with_config", 3, S.aclrtLaunchKernelAttr, "id", "blockDimOffset",
                S.aclrtLaunchKernelCfg, "cfg")

    c_set_attr, c_get_attr = mech["set_stream_attribute"], mech["get_stream_attribute"]

    def set_stream_attribute(stream, stm_attr_type, value):
        """ret; value is pyACL's dict, keyed by the attribute's member
        (failureMode, overflowSwitch, userCustomTag, else reserved), or
        an aclrtStreamAttrValue."""
        if isinstance(value, dict):
            key, field = _stream_attr_key(stm_attr_type)
            value = _fill(S.aclrtStreamAttrValue(), value, {key: field}, "set_stream_attribute: value")
        return c_set_attr(stream, stm_attr_type, value)
    rt.set_stream_attribute = set_stream_attribute

    def get_stream_attribute(stream, stm_attr_type, *value):
        """(value dict, ret), as pyACL; with a third argument (an address or
        aclrtStreamAttrValue to fill), ret as in C."""
        if value:
            return c_get_attr(stream, stm_attr_type, *value)
        v = S.aclrtStreamAttrValue()
        ret = c_get_attr(stream, stm_attr_type, v)
        key, field = _stream_attr_key(stm_attr_type)
        got = getattr(v, field)
        return {key: list(got) if isinstance(got, ctypes.Array) else got}, ret
    rt.get_stream_attribute = get_stream_attribute

    def filled(name, cls, to_dict, py_arity):
        c_fn = mech[name]

        def fn(*args):
            if len(args) != py_arity:
                return c_fn(*args)
            obj = cls()
            ret = c_fn(*args, obj)
            return to_dict(obj), ret
        fn.__name__ = name
        fn.__doc__ = "%s: (dict, ret) as pyACL; with the C arguments, as C." % name
        setattr(rt, name, fn)
    filled("get_device_utilization_rate", S.aclrtUtilizationInfo, lambda o: {
        "cube_utilization": o.cubeUtilization, "vector_utilization": o.vectorUtilization,
        "aicpu_utilization": o.aicpuUtilization, "memory_utilization": o.memoryUtilization,
        "utilization_extend": o.utilizationExtend or 0}, 1)
    filled("pointer_get_attributes", S.aclrtPtrAttributes, lambda o: {
        "location": {"id": o.location.id, "type": o.location.type}, "page_size": o.pageSize,
        "rsv": list(o.rsv)}, 1)
    filled("device_get_uuid", S.aclrtUuid, lambda o: {
        "bytes": [ctypes.c_int8(b).value for b in ctypes.string_at(ctypes.addressof(o), 16)]}, 1)
