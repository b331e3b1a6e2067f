package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/gocann/gocann/internal/profreport"
)

// profilingEnv is what turns the runtime's profiling on in the program
// msprof runs (docs/profiling.md): CANN's PROFILING_MODE and
// PROFILING_OPTIONS, with everything the report reads switched on.
func profilingEnv(output string) ([]string, error) {
	opts, err := json.Marshal(map[string]string{
		"output": output, "task_time": "on", "runtime_api": "on", "msproftx": "on",
	})
	if err != nil {
		return nil, err
	}
	return []string{"PROFILING_MODE=true", "PROFILING_OPTIONS=" + string(opts)}, nil
}

// runApplication runs argv with profiling on, writing under output, and
// returns the timelines it wrote and its exit status.
func runApplication(argv []string, output string, stdout, stderr io.Writer) (written []string, status int, err error) {
	if err := os.MkdirAll(output, 0o755); err != nil {
		return nil, 0, fmt.Errorf("--output: %w", err)
	}
	abs, err := filepath.Abs(output)
	if err != nil {
		return nil, 0, err
	}
	before, err := timelines(abs)
	if err != nil {
		return nil, 0, err
	}
	env, err := profilingEnv(abs)
	if err != nil {
		return nil, 0, err
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, 0, fmt.Errorf("the application %s: %w", argv[0], err)
	}
	cmd := exec.Command(path, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	// The terminal's interrupt reaches the application too; msprof waits
	// for it and reports what it wrote, and passes a termination on.
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	if err := cmd.Start(); err != nil {
		return nil, 0, fmt.Errorf("the application %s: %w", argv[0], err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var waitErr error
wait:
	for {
		select {
		case s := <-signals:
			if s == syscall.SIGTERM {
				cmd.Process.Signal(s)
			}
		case waitErr = <-done:
			break wait
		}
	}
	var exit *exec.ExitError
	switch {
	case errors.As(waitErr, &exit):
		status = exit.ExitCode()
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			status = 128 + int(ws.Signal()) // as a shell reports it
		}
	case waitErr != nil:
		return nil, 0, waitErr
	}
	after, err := timelines(abs)
	if err != nil {
		return nil, status, err
	}
	for path, mod := range after {
		if was, ok := before[path]; !ok || !was.Equal(mod) {
			written = append(written, path)
		}
	}
	return written, status, nil
}

// timelines maps the timelines under dir to their modification times.
func timelines(dir string) (map[string]time.Time, error) {
	paths, err := profreport.Find(dir)
	if err != nil {
		return nil, err
	}
	out := map[string]time.Time{}
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil {
			out[p] = st.ModTime()
		}
	}
	return out, nil
}

// splitCommand splits --application's value into words as a POSIX shell
// does for plain words and quotes: 'single', "double" (with \" and \\),
// and backslash escapes outside quotes. Nothing is expanded.
func splitCommand(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("--application=%s: a ' is not closed", s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i == len(s) {
				return nil, fmt.Errorf("--application=%s: a \" is not closed", s)
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("--application is empty; want the program to run and its arguments")
	}
	return words, nil
}
