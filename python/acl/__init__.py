"""acl: CANN's Python interface (pyACL's names and call shapes) over the
C ABI of libascendcl.so.

    import acl
    ret = acl.init()
    ret = acl.rt.set_device(0)
    stream, ret = acl.rt.create_stream()
    ptr, ret = acl.rt.malloc(1 << 20, acl.ACL_MEM_MALLOC_HUGE_FIRST)

aclrt* functions are in acl.rt (aclrtSetDevice: acl.rt.set_device),
aclmdlRI* ones in acl.mdl (aclmdlRIExecuteAsync: acl.mdl.ri_execute_async),
aclprof* ones in acl.prof (aclprofStart: acl.prof.start),
the other acl* ones at the top (aclCreateDataBuffer: acl.create_data_buffer).
A function returns its out-parameters' values first and its aclError last,
or the aclError alone when it has no out-parameters. Handles and addresses
are ints; 0 or None is NULL, and the default stream.
"""

import ctypes
import os
import sys as _sys
import types

from . import _api
from . import _binding
from . import _callbacks
from . import _pyacl
from . import _pyacl_structs
from . import _pyprof
from . import _structs

_LIB_NAME = "libascendcl.so"


def _find_library():
    here = os.path.dirname(os.path.abspath(__file__))
    # <prefix>/python/site-packages/acl → <prefix>/lib64
    tried = [os.path.join(here, os.pardir, os.pardir, os.pardir, "lib64", _LIB_NAME)]
    home = os.environ.get("ASCEND_HOME_PATH")
    if home:
        tried.append(os.path.join(home, "lib64", _LIB_NAME))
    for path in tried:
        if os.path.isfile(path):
            return os.path.normpath(path)
    raise ImportError("acl: cannot find %s (looked at %s); install gocann with `make install "
                      "PREFIX=dir` and `source dir/set_env.sh`, or set ASCEND_HOME_PATH"
                      % (_LIB_NAME, ", ".join(os.path.normpath(p) for p in tried)))


# RTLD_GLOBAL: host-compiled kernels resolve GetBlockIdx, GetBlockNum and
# Trap from the process's global scope.
_lib = ctypes.CDLL(_find_library(), mode=ctypes.RTLD_GLOBAL)

for _name, _value in _api.CONSTANTS.items():
    globals()[_name] = _value

for _name in _structs.NAMES:
    globals()[_name] = getattr(_structs, _name)


def _namespace(name, doc):
    mod = types.ModuleType(__name__ + "." + name, doc)
    _sys.modules[mod.__name__] = mod
    globals()[name] = mod
    return mod


rt = _namespace("rt", "The aclrt* functions, in snake_case: aclrtSetDevice is rt.set_device.")
mdl = _namespace("mdl", "The aclmdl* functions: aclmdlRIExecuteAsync is mdl.ri_execute_async.")
sys_ = _namespace("sys", "The aclsys* functions: aclsysGetCANNVersion is sys.get_cann_version.")
prof = _namespace("prof", "The aclprof* functions: aclprofStart is prof.start.")
gocann = _namespace("gocann", "gocann's extensions (include/gocann/*.h): gocannSuperKernelBegin is "
                    "gocann.super_kernel_begin.")

# gocann's extensions, described as _api describes the acl functions.
EXTENSIONS = {
    "gocannSuperKernelBegin": ("superkernel.h", "c_int", (("stream", "c_void_p", None), ("name", "c_char_p", None), )),
    "gocannSuperKernelEnd": ("superkernel.h", "c_int", (("stream", "c_void_p", None), )),
}

# Where pyACL's documented name is not the mechanical one: namespace ("" for
# the top level), pyACL name → C function (the mechanical name stays too).
PYACL_NAMES = {
    ("rt", "get_context"): "aclrtGetCurrentContext",
    ("rt", "set_context"): "aclrtSetCurrentContext",
    ("", "get_soc_name"): "aclrtGetSocName",
    ("", "get_version"): "aclrtGetVersion",
    ("rt", "set_op_execute_timeout_v2"): "aclrtSetOpExecuteTimeOutV2",
    ("rt", "get_op_timeout_interval"): "aclrtGetOpTimeOutInterval",
}

# C name → (namespace module, Python name), for every bound function.
BINDINGS = {}


def _place(cname):
    for prefix, mod in (("aclrt", rt), ("aclmdl", mdl), ("aclsys", sys_), ("aclprof", prof)):
        if cname.startswith(prefix):
            return mod, _binding.snake(cname[len(prefix):])
    return _sys.modules[__name__], _binding.snake(cname[len("acl"):])


def _bind():
    this = _sys.modules[__name__]
    for cname in _api.FUNCTIONS:
        mod, pyname = _place(cname)
        fn = _binding.make(_lib, cname, pyname)
        if fn is None:
            continue
        setattr(mod, pyname, fn)
        BINDINGS[cname] = (mod, pyname)
    for cname, desc in EXTENSIONS.items():
        pyname = _binding.snake(cname[len("gocann"):])
        fn = _binding.make(_lib, cname, pyname, desc)
        if fn is not None:
            setattr(gocann, pyname, fn)
            BINDINGS[cname] = (gocann, pyname)
    for (ns, pyname), cname in PYACL_NAMES.items():
        if cname in BINDINGS:
            mod, mech = BINDINGS[cname]
            setattr(getattr(this, ns) if ns else this, pyname, getattr(mod, mech))


_bind()
_callbacks.install(rt, _lib)
_pyacl.install(_sys.modules[__name__], rt, _lib)
_pyprof.install(prof)
_pyacl_structs.install(rt)
BINDINGS["aclAppLog"] = (_sys.modules[__name__], "app_log")
_c_init = init  # noqa: F821 (bound above)


def init(config_path=None):
    """aclInit: ret = acl.init() or acl.init("acl.json")."""
    return _c_init(config_path)


from . import util  # noqa: E402

__all__ = ["init", "finalize", "get_recent_err_msg", "rt", "mdl", "prof", "gocann", "util", "BINDINGS"]
