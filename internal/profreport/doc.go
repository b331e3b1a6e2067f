// Package profreport reads the profiling timelines gocann writes (Chrome
// trace-event JSON, docs/profiling.md) and computes what msprof and
// `gocann prof` report: per device, the AI-core (cube) and vector-core
// utilization, the memory bandwidth utilization and the task queue depth
// over time; the top kernels, the idle gaps per stream and the statistics
// of the host's API calls. It renders the report as aligned text and as a
// self-contained HTML page.
//
// It reads only the files' format, never the runtime that wrote them: a
// timeline cut short by a crash (no closing ']', its last line cut) reads
// as far as it goes, and anything else that does not follow the format is
// an error naming the file, the line and what was wrong.
//
// It imports only the standard library.
package profreport
