"""The headers' structs and unions as ctypes classes with the C field
names, built from _api.STRUCTS. A function taking a pointer to one takes
an instance (its address is passed) or an int address; the few taken by
value (dim3 …) must be instances."""

import ctypes

from . import _api


def _build():
    classes = {}
    for name, kind, fields in _api.STRUCTS:
        base = ctypes.Union if kind == "union" else ctypes.Structure
        cfields, anonymous = [], []
        for fname, ftype, count in fields:
            t = classes[ftype] if ftype in classes else getattr(ctypes, ftype)
            if count > 0:
                t = t * count
            elif count < 0:
                anonymous.append(fname)
            cfields.append((fname, t))
        ns = {"_fields_": cfields, "__module__": "acl"}
        if anonymous:
            ns["_anonymous_"] = tuple(anonymous)
        classes[name] = type(name, (base,), ns)
    return classes


_classes = _build()
globals().update(_classes)
NAMES = tuple(_classes)


class dim3(_classes["dim3"]):
    """A launch grid or block shape (x, y, z); unset dimensions are 1."""
    __module__ = "acl"

    def __init__(self, x=1, y=1, z=1):
        super().__init__(x, y, z)
