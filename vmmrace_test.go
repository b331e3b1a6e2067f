//go:build race

package gocann_test

// raceEnabled: the race build moves the virtual memory windows.
const raceEnabled = true
