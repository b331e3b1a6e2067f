package gocann

import "github.com/gocann/gocann/internal/rt"

// InitDump starts a data dump session, to be configured by SetDump. It
// fails with ACL_ERROR_UNINITIALIZE before Init, with
// ACL_ERROR_REPEAT_INITIALIZE when a session is open, and with
// ACL_ERROR_DUMP_ALREADY_RUN when the Init configuration's "dump" section
// turned dumping on.
//
// CANN: aclmdlInitDump.
func (r *Runtime) InitDump() error {
	if err := r.require("aclmdlInitDump"); err != nil {
		return err
	}
	return wrap("Runtime.InitDump (aclmdlInitDump)", r.rt.InitDump())
}

// SetDump applies the "dump" section of the JSON file at path, checked as
// CANN checks it: a section CANN refuses fails with
// ACL_ERROR_INVALID_DUMP_CONFIG and a message naming the field; a missing
// file with ACL_ERROR_INVALID_FILE; nesting deeper than 10 with
// ACL_ERROR_PARSE_FILE; before InitDump, ACL_ERROR_DUMP_NOT_RUN. A later
// call replaces the configuration; one that turns nothing on turns
// dumping off.
//
// While a tensor dump is on, every kernel launched on a stream (not
// captured) is followed by a task of its stream writing each pointer
// argument's whole allocation to a file in dump_path, named by DumpFile:
// after the kernel (dump_mode output, the default, or all) and as it was
// just before (input or all). dump_list entries with a "layer" list limit
// the dump to kernels of those names.
//
// CANN: aclmdlSetDump.
func (r *Runtime) SetDump(path string) error {
	if err := r.require("aclmdlSetDump"); err != nil {
		return err
	}
	return wrap("Runtime.SetDump (aclmdlSetDump)", r.rt.SetDump(path))
}

// FinalizeDump ends the dump session; tasks already queued still write
// their files. It fails with ACL_ERROR_DUMP_NOT_RUN without InitDump, and
// with ACL_ERROR_INTERNAL_ERROR if a dump file of the session could not be
// written.
//
// CANN: aclmdlFinalizeDump.
func (r *Runtime) FinalizeDump() error {
	if err := r.require("aclmdlFinalizeDump"); err != nil {
		return err
	}
	return wrap("Runtime.FinalizeDump (aclmdlFinalizeDump)", r.rt.FinalizeDump())
}

// DumpFile is the name, in dump_path, of the file holding argument arg of
// the kernel task numbered seq (its sequence number on the stream, the
// dump's own tasks counted) on the stream with id stream (Stream.ID) of
// device dev: "device<dev>.stream<stream>.task<seq>.<kernel>.arg<arg>.<end>.bin",
// end "input" or "output". Characters of the kernel name other than
// letters, digits, '_', '-' and '.' become '_'.
//
// CANN: none.
func DumpFile(dev int, stream int32, seq uint64, kernel string, arg int, end string) string {
	return rt.DumpFile(dev, stream, seq, kernel, arg, end)
}
