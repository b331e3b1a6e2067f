"""The C structs the API takes by value, as ctypes structures with the C
field names. Structs the API takes by pointer are passed by address (an
int) or as any ctypes object, whose own address is passed."""

import ctypes

from . import _api


class dim3(ctypes.Structure):
    """A launch grid or block shape (x, y, z); unset dimensions are 1."""
    _fields_ = [("x", ctypes.c_uint32), ("y", ctypes.c_uint32), ("z", ctypes.c_uint32)]

    def __init__(self, x=1, y=1, z=1):
        super().__init__(x, y, z)


class aclrtMemManagedLocation(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("id", ctypes.c_int32)]


class aclrtIpcEventHandle(ctypes.Structure):
    _fields_ = [("reserved", ctypes.c_char * _api.CONSTANTS["ACL_IPC_EVENT_HANDLE_SIZE"])]


class aclmdlRICondTaskParams(ctypes.Structure):
    _fields_ = [("handle", ctypes.c_void_p), ("type", ctypes.c_int),
                ("size", ctypes.c_uint32), ("modelRIArray", ctypes.c_void_p)]
