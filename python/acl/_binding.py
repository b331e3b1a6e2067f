"""Builds the Python functions of the module from the description in _api.

Each C function becomes a Python function taking the C function's input
parameters in order and returning its out-parameters' values followed by
its result (the aclError), or the result alone when it has none.
"""

import ctypes
import re

from . import _api
from . import _structs

# Integer ctypes: (bits, signed).
_INTS = {
    "c_int8": (8, True), "c_uint8": (8, False), "c_int16": (16, True), "c_uint16": (16, False),
    "c_int32": (32, True), "c_uint32": (32, False), "c_int64": (64, True), "c_uint64": (64, False),
    "c_int": (8 * ctypes.sizeof(ctypes.c_int), True), "c_uint": (8 * ctypes.sizeof(ctypes.c_uint), False),
    "c_long": (8 * ctypes.sizeof(ctypes.c_long), True), "c_ulong": (8 * ctypes.sizeof(ctypes.c_ulong), False),
    "c_size_t": (8 * ctypes.sizeof(ctypes.c_size_t), False), "c_char": (8, True),
}
_PTR_MAX = (1 << (8 * ctypes.sizeof(ctypes.c_void_p))) - 1
_COMPOSITE = (ctypes.Structure, ctypes.Union, ctypes.Array)


def ctype(name):
    """The ctypes type a name in _api stands for."""
    if name == "None":
        return None
    if name.startswith("P:"):
        return ctypes.POINTER(ctype(name[2:]))
    if name.startswith("S:"):
        return getattr(_structs, name[2:])
    return getattr(ctypes, name)


def address(value, what="argument"):
    """The address a pointer argument stands for: an int, None (NULL), a
    ctypes object (its own address), bytes (its buffer; read-only), or a
    writable buffer such as a bytearray."""
    if type(value) is int and 0 <= value <= _PTR_MAX:
        return value or None
    if value is None:
        return None
    if isinstance(value, _COMPOSITE):
        return ctypes.addressof(value)
    if isinstance(value, bool):
        raise TypeError("%s: a bool is no address" % what)
    if isinstance(value, int):
        if value < 0 or value > _PTR_MAX:
            raise TypeError("%s: address %d out of range" % (what, value))
        return value or None
    if isinstance(value, ctypes._Pointer) or isinstance(value, ctypes._SimpleCData) and type(value).__name__ == "c_void_p":
        return ctypes.cast(value, ctypes.c_void_p).value
    if isinstance(value, ctypes._CFuncPtr):
        return ctypes.cast(value, ctypes.c_void_p).value
    if isinstance(value, ctypes._SimpleCData):
        return ctypes.addressof(value)
    if isinstance(value, bytes):
        return ctypes.cast(ctypes.c_char_p(value), ctypes.c_void_p).value
    try:
        view = memoryview(value)
    except TypeError:
        raise TypeError("%s: expected an address (int), None or a buffer, got %s"
                        % (what, type(value).__name__)) from None
    if view.readonly:
        raise TypeError("%s: a read-only buffer other than bytes has no address to pass" % what)
    return ctypes.addressof(ctypes.c_char.from_buffer(view)) if view.nbytes else None


def _int_range(typ):
    bits, signed = _INTS[typ]
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)


def _converter(typ, what):
    """A function checking and converting one input argument of type typ."""
    if typ in _INTS:
        lo, hi = _int_range(typ)
        if typ == "c_char":
            lo, hi = -128, 255

        def conv(v):
            if type(v) is int and lo <= v <= hi:
                return v
            if not isinstance(v, int):
                raise TypeError("%s: expected an int, got %s" % (what, type(v).__name__))
            if v < lo or v > hi:
                raise TypeError("%s: %d is out of range for %s" % (what, v, typ))
            return int(v)
        return conv
    if typ in ("c_float", "c_double"):
        def conv(v):
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                raise TypeError("%s: expected a number, got %s" % (what, type(v).__name__))
            return float(v)
        return conv
    if typ == "c_bool":
        def conv(v):
            if not isinstance(v, int):
                raise TypeError("%s: expected a bool, got %s" % (what, type(v).__name__))
            return bool(v)
        return conv
    if typ == "c_char_p":
        def conv(v):
            if v is None or isinstance(v, bytes):
                return v
            if isinstance(v, str):
                return v.encode()
            if isinstance(v, int) and not isinstance(v, bool):
                return ctypes.cast(address(v, what), ctypes.c_char_p)
            raise TypeError("%s: expected str, bytes or None, got %s" % (what, type(v).__name__))
        return conv
    if typ == "c_void_p" or typ.startswith("P:"):
        def conv(v):
            if isinstance(v, _COMPOSITE):  # an argument struct, mostly
                return ctypes.addressof(v)
            return address(v, what)
        return conv
    if typ.startswith("S:"):
        cls = getattr(_structs, typ[2:])

        def conv(v):
            if not isinstance(v, cls):
                raise TypeError("%s: expected acl.%s, got %s" % (what, cls.__name__, type(v).__name__))
            return v
        return conv
    raise TypeError("%s: unsupported type %s" % (what, typ))


def _result(restype):
    if restype == "c_char_p":
        return lambda r: r.decode(errors="replace") if r is not None else None
    if restype == "c_void_p":
        return lambda r: r or 0
    return None


def snake(name):
    """aclrtGetDeviceCount → get_device_count (after the prefix); the C
    names' Un prefix stays on its word (UnSubscribeReport →
    unsubscribe_report, BinaryUnLoad → binary_unload)."""
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    name = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return re.sub(r"(^|_)un_", r"\1un", name.lower())


def make(lib, cname, pyname, desc=None):
    """The Python function for the C function cname (described by desc,
    else by _api.FUNCTIONS), or None when the library does not export it.

    The function's source is written here from the description. ctypes
    truncates out-of-range ints silently, so every integer and address is
    checked; one inline test covers the common case (each an int in range,
    or None for an address) and lets them through untouched. Otherwise each
    argument failing its test goes to its converter, which converts it (an
    argument struct to its address, say) or raises TypeError. Every launch
    from Python pays this test, so it stays one expression."""
    _, restype, params = desc or _api.FUNCTIONS[cname]
    try:
        cfunc = getattr(lib, cname)
    except AttributeError:
        return None
    cfunc.restype = ctype(restype)
    cfunc.argtypes = [ctype(t) for _, t, _ in params]
    env = {"_cfunc": cfunc, "_byref": ctypes.byref, "_post": _result(restype)}
    args, fast, slow, always, outdecls, cargs, outs = [], [], [], [], [], [], []
    for i, (p, t, o) in enumerate(params):
        if o is not None:
            env["_t%d" % i] = ctype(o)
            outdecls.append("    o%d = _t%d()" % (i, i))
            cargs.append("_byref(o%d)" % i)
            outs.append("(o%d.value or 0)" % i if o == "c_void_p" else "o%d.value" % i)
            continue
        a = "a%d" % i
        args.append(a)
        cargs.append(a)
        env["_c%d" % i] = _converter(t, "%s: %s" % (pyname, p))
        conv = "%s = _c%d(%s)" % (a, i, a)
        # A shift tests both bounds at once: the cheapest range test there is.
        if t in _INTS and t != "c_char":
            bits, signed = _INTS[t]
            shifted = "(%s + %d)" % (a, 1 << (bits - 1)) if signed else a
            test = "type(%s) is int and not %s >> %d" % (a, shifted, bits)
        elif t == "c_void_p":
            test = "(%s is None or type(%s) is int and not %s >> %d)" % (a, a, a, _PTR_MAX.bit_length())
        else:
            always.append("    " + conv)
            continue
        fast.append(test)
        slow.append("        if not (%s):\n            %s" % (test, conv))
    body = []
    if fast:
        body.append("    if not (%s):" % " and ".join(fast))
        body.extend(slow)
    body.extend(always)
    body.extend(outdecls)
    call = "_cfunc(%s)" % ", ".join(cargs)
    if env["_post"] is not None:
        call = "_post(%s)" % call
    if not outs:
        body.append("    return " + call)
    elif restype == "None":
        body.append("    " + call)
        body.append("    return " + (outs[0] if len(outs) == 1 else "(%s,)" % ", ".join(outs)))
    else:
        body.append("    ret = " + call)
        body.append("    return (%s, ret)" % ", ".join(outs))
    src = "def %s(%s):\n%s\n" % (pyname, ", ".join(args), "\n".join(body))
    exec(compile(src, "<acl binding %s>" % cname, "exec"), env)
    fn = env[pyname]
    names = [p for p, _, o in params if o is None]
    outnames = [p for p, _, o in params if o is not None]
    fn.__doc__ = "%s(%s): binds %s%s." % (
        pyname, ", ".join(names), cname, "; returns (%s, ret)" % ", ".join(outnames) if outnames else "")
    return fn
