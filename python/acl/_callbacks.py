"""Python callables as the runtime's callbacks.

acl.rt.launch_callback, acl.rt.launch_host_func and
acl.rt.set_exception_info_callback take a Python callable (or, as in C, a
function's address). A callable launched on a stream is kept until it runs;
it runs with the GIL held on the runtime's thread (or the thread calling
acl.rt.process_report). One that raises does not stop the interpreter: its
exception is printed to stderr and kept for acl.rt.callback_errors(), and a
host function or blocking callback that raised fails its task, as a C one
calling gocann_host_func_fail does: the stream reports
ACL_ERROR_RT_INTERNAL_ERROR with the exception in the message.
"""

import ctypes
import itertools
import sys
import threading
import traceback

_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_void_p)

_lock = threading.Lock()
_tokens = itertools.count(1)
_pending = {}  # token → (callable, user data)
_errors = []   # (callable, exception), oldest first
_exception_callback = None  # the CFUNCTYPE object given to the runtime
_fail = None  # gocann_host_func_fail of the runtime library (install)


def report(fn, exc):
    """Print fn's exception exc and keep it for callback_errors."""
    with _lock:
        _errors.append((fn, exc))
    try:
        sys.stderr.write("acl: callback %r raised:\n" % (fn,))
        traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)
    except Exception:
        pass


def _run(token):
    with _lock:
        entry = _pending.pop(token or 0, None)
    if entry is None:
        return
    fn, data = entry
    try:
        fn(data)
    except BaseException as exc:  # never into C: a raising callable is reported
        report(fn, exc)
        if _fail is not None:
            _fail(("%s: %s" % (type(exc).__name__, exc)).encode("utf-8", "replace"))


_trampoline = _CALLBACK(_run)
_TRAMPOLINE = ctypes.cast(_trampoline, ctypes.c_void_p).value


def _hold(fn, data):
    token = next(_tokens)
    with _lock:
        _pending[token] = (fn, data)
    return token


def _drop(token):
    with _lock:
        _pending.pop(token, None)


def callback_errors():
    """The exceptions raised by callbacks since the last call, as
    (callable, exception) pairs, oldest first; clears them."""
    with _lock:
        errs = list(_errors)
        del _errors[:]
    return errs


def install(rt, lib):
    """Replace rt's callback-taking functions with ones that also take
    Python callables; lib is the runtime library."""
    global _fail
    _fail = lib.gocann_host_func_fail
    _fail.argtypes, _fail.restype = [ctypes.c_char_p], None
    c_launch_callback = rt.launch_callback
    c_launch_host_func = rt.launch_host_func
    c_set_exception = rt.set_exception_info_callback

    def launch_callback(fn, user_data, block_type, stream):
        """aclrtLaunchCallback: fn(user_data) runs on the thread subscribed
        with subscribe_report, in its process_report; ret."""
        if not callable(fn):
            return c_launch_callback(fn, user_data, block_type, stream)
        token = _hold(fn, user_data)
        try:
            ret = c_launch_callback(_TRAMPOLINE, token, block_type, stream)
        except BaseException:
            _drop(token)
            raise
        if ret != 0:
            _drop(token)
        return ret

    def launch_host_func(stream, fn, args):
        """aclrtLaunchHostFunc: fn(args) runs on a runtime thread once the
        stream's earlier tasks are done; ret."""
        if not callable(fn):
            return c_launch_host_func(stream, fn, args)
        token = _hold(fn, args)
        try:
            ret = c_launch_host_func(stream, _TRAMPOLINE, token)
        except BaseException:
            _drop(token)
            raise
        if ret != 0:
            _drop(token)
        return ret

    def set_exception_info_callback(fn=None):
        """aclrtSetExceptionInfoCallback: fn(info) with info the address of
        the aclrtExceptionInfo (read it with get_*_from_exception_info);
        None, or no argument, unsets it; ret."""
        global _exception_callback
        if fn is None or not callable(fn):
            ret = c_set_exception(fn)
            if ret == 0:
                _exception_callback = None
            return ret

        def call(info):
            try:
                fn(info or 0)
            except BaseException as exc:
                report(fn, exc)
        cb = _CALLBACK(call)
        ret = c_set_exception(cb)
        if ret == 0:
            _exception_callback = cb
        return ret

    rt.launch_callback = launch_callback
    rt.launch_host_func = launch_host_func
    rt.set_exception_info_callback = set_exception_info_callback
    rt.callback_errors = callback_errors
