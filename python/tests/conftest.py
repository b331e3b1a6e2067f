import pytest

import acl


@pytest.fixture
def device():
    """An initialised runtime with device 0 set; torn down after the test."""
    assert acl.init() == acl.ACL_SUCCESS
    assert acl.rt.set_device(0) == acl.ACL_SUCCESS
    yield 0
    assert acl.rt.reset_device(0) == acl.ACL_SUCCESS
    assert acl.finalize() == acl.ACL_SUCCESS
