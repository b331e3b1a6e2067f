"""Host-buffer interop: numpy arrays and bytes to addresses and back.

numpy is optional: numpy_to_ptr and ptr_to_numpy import it when called.
"""

import ctypes

from . import _binding


def bytes_to_ptr(data):
    """The address of data's buffer, without a copy: bytes (read-only: do
    not have the runtime write it), bytearray or any writable buffer. The
    caller keeps data alive while the address is in use."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        try:
            memoryview(data)
        except TypeError:
            raise TypeError("bytes_to_ptr: expected bytes or a buffer, got %s" % type(data).__name__) from None
    return _binding.address(data, "bytes_to_ptr") or 0


def ptr_to_bytes(ptr, size):
    """A copy of size bytes at host address ptr, as bytes."""
    if not isinstance(ptr, int) or isinstance(ptr, bool) or not isinstance(size, int):
        raise TypeError("ptr_to_bytes: expected (int address, int size)")
    if size < 0:
        raise TypeError("ptr_to_bytes: negative size %d" % size)
    if size == 0:
        return b""
    if not ptr:
        raise TypeError("ptr_to_bytes: NULL address")
    return ctypes.string_at(ptr, size)


def numpy_to_ptr(array):
    """The address of a C-contiguous numpy array's data, without a copy."""
    import numpy
    if not isinstance(array, numpy.ndarray):
        raise TypeError("numpy_to_ptr: expected a numpy.ndarray, got %s" % type(array).__name__)
    if not array.flags["C_CONTIGUOUS"]:
        raise TypeError("numpy_to_ptr: the array is not C-contiguous (use numpy.ascontiguousarray)")
    return array.ctypes.data


def ptr_to_numpy(ptr, shape, dtype):
    """A numpy array over host memory at ptr (shape, dtype), without a
    copy: the memory must outlive the array."""
    import numpy
    if not isinstance(ptr, int) or isinstance(ptr, bool) or not ptr:
        raise TypeError("ptr_to_numpy: expected a non-NULL int address")
    if isinstance(shape, int):
        shape = (shape,)
    dt = numpy.dtype(dtype)
    count = 1
    for d in shape:
        count *= d
    buf = (ctypes.c_char * (count * dt.itemsize)).from_address(ptr)
    return numpy.frombuffer(buf, dtype=dt, count=count).reshape(shape)
