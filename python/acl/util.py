"""acl.util: host buffers (numpy arrays and bytes) to addresses and back,
and pyACL's threads for report processing.

numpy is optional: the numpy functions import it when called.
"""

import ctypes
import threading

from . import _api
from . import _binding
from . import _callbacks

_threads_lock = threading.Lock()
_threads = {}  # thread id → threading.Thread, from start_thread until stop_thread


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


def numpy_contiguous_to_ptr(array):
    """(ptr, contiguous): the address of the data of array, or of a
    C-contiguous copy of it when it is not; the caller keeps the returned
    array alive while the address is in use."""
    import numpy
    if not isinstance(array, numpy.ndarray):
        raise TypeError("numpy_contiguous_to_ptr: expected a numpy.ndarray, got %s" % type(array).__name__)
    contiguous = numpy.ascontiguousarray(array)
    return contiguous.ctypes.data, contiguous


def _dtype(numpy, dtype):
    """A numpy dtype from a dtype-like or, as pyACL takes it, a NumPy C
    type number (NPY_FLOAT32 is 11)."""
    if isinstance(dtype, int) and not isinstance(dtype, bool):
        for t in set(numpy.sctypeDict.values()):
            if numpy.dtype(t).num == dtype:
                return numpy.dtype(t)
        raise TypeError("ptr_to_numpy: %d is no NumPy type number" % dtype)
    return numpy.dtype(dtype)


def ptr_to_numpy(ptr, shape, dtype):
    """A numpy array over host memory at ptr (shape, dtype), without a
    copy: the memory must outlive the array. dtype is a numpy dtype or a
    NumPy C type number, as pyACL's type argument."""
    import numpy
    if not isinstance(ptr, int) or isinstance(ptr, bool) or not ptr:
        raise TypeError("ptr_to_numpy: expected a non-NULL int address")
    if isinstance(shape, int):
        shape = (shape,)
    dt = _dtype(numpy, dtype)
    count = 1
    for d in shape:
        count *= d
    buf = (ctypes.c_char * (count * dt.itemsize)).from_address(ptr)
    return numpy.frombuffer(buf, dtype=dt, count=count).reshape(shape)


def start_thread(func, args_list):
    """(thread_id, ret): starts a thread running func(args_list), or
    func() when args_list is None, as pyACL's: thread_id is what acl.rt.subscribe_report takes. The thread
    has no context until it sets one (acl.rt.set_context). An exception
    func raises is reported as a callback's (acl.rt.callback_errors)."""
    if not callable(func):
        raise TypeError("start_thread: func: expected a callable, got %s" % type(func).__name__)

    known = threading.Event()  # func runs once its thread is known to stop_thread

    def run():
        known.wait()
        try:
            if args_list is None:  # as pyACL: func() without arguments
                func()
            else:
                func(args_list)
        except BaseException as exc:
            _callbacks.report(func, exc)
    t = threading.Thread(target=run, name="acl.util thread", daemon=True)
    t.start()
    with _threads_lock:
        _threads[t.ident] = t
    known.set()
    return t.ident, 0


def stop_thread(thread_id):
    """ret: waits for the thread start_thread made to end. An id it did not
    make, or one stopped already, is ACL_ERROR_INVALID_PARAM; the thread
    itself cannot wait for its own end (ACL_ERROR_FAILURE)."""
    if not isinstance(thread_id, int) or isinstance(thread_id, bool):
        raise TypeError("stop_thread: thread_id: expected an int, got %s" % type(thread_id).__name__)
    with _threads_lock:
        t = _threads.get(thread_id)
        if t is None or t is threading.current_thread():
            return _api.CONSTANTS["ACL_ERROR_INVALID_PARAM" if t is None else "ACL_ERROR_FAILURE"]
        del _threads[thread_id]
    t.join()
    return 0
