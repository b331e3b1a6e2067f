import os
import shutil
import subprocess

import pytest

import acl
from acl import _api

# Exported functions without a binding, with the reason.
ABSENT = {}

# Exported symbols that are no API function: what host-compiled kernels
# resolve from the runtime.
KERNEL_SYMBOLS = {"GetBlockIdx", "GetBlockNum", "Trap"}


def exported():
    lib = os.path.join(os.environ["ASCEND_HOME_PATH"], "lib64", "libascendcl.so")
    if shutil.which("nm") is None:
        pytest.skip("nm not found (binutils)")
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in ("T", "W"):
            names.add(parts[2])
    return names


def test_every_export_bound():
    missing = []
    for name in sorted(exported()):
        if name in KERNEL_SYMBOLS or name in ABSENT:
            continue
        if not name.startswith("acl"):
            continue
        if name not in acl.BINDINGS:
            missing.append(name)
    assert not missing, "exported without a binding or an ABSENT entry: %s" % missing


def test_every_declared_bound():
    # Every function the headers declare is exported and bound, or absent.
    unbound = [n for n in _api.FUNCTIONS if n not in acl.BINDINGS and n not in ABSENT]
    assert not unbound
    for name in _api.VARIADIC:  # bound by hand, in pyACL's form
        assert name in ABSENT or name in acl.BINDINGS
    assert acl.BINDINGS["aclAppLog"] == (acl, "app_log")


def test_absent_is_absent():
    for name in ABSENT:
        assert name not in acl.BINDINGS
    assert not hasattr(acl, "op"), "acl.op: operator execution belongs to CANN's operator library"


def test_names_unique():
    names = [(mod.__name__, n) for mod, n in acl.BINDINGS.values()]
    assert len(names) == len(set(names))
