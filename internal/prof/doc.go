// Package prof is the profiler: a session that, while it runs, drains the
// device traces (hal.TraceReader) and the host's API-call records, and
// writes them in msprof's formats as the program runs: the timeline
// (Chrome trace events, timeline.go) and the CSV summaries (csv.go), in
// the seed's layout or CANN's (layout.go). docs/profiling.md specifies
// the outputs.
//
// It owns the session's collector goroutine, the matching of device tasks
// to the host calls that submitted them, and the output files. It knows
// nothing of contexts or streams beyond the ids records carry: the runtime
// hands it its devices and a source of API calls.
//
// prof imports hal, kernel and the standard library.
package prof
