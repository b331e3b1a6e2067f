// Package python holds the Python module acl (pyACL's interface over the
// C ABI) and the Go test that runs its pytest suite against a fresh
// install tree. acl/_api.py is generated from the acl headers.
package python

//go:generate go run ./gen
