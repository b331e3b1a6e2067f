// Command gocann runs the gocann demo and device tools on the simulated NPU.
//
//	gocann demo          copy, compute on two streams ordered by an event, check
//	gocann info          list the simulated devices (like npu-smi info)
//	gocann prof DIR      the profiling report of the timelines under DIR
//	gocann prof FILE...  the profiling report of the timelines named
//
// A -config flag names an aclInit JSON file.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/gocann/gocann"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gocann", flag.ContinueOnError)
	fs.SetOutput(stderr)
	config := fs.String("config", "", "aclInit JSON configuration file")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gocann [-config file.json] demo|info")
		fmt.Fprintln(stderr, "       gocann prof DIR|FILE...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() >= 1 && fs.Arg(0) == "prof" {
		return prof(fs.Args()[1:], stdout, stderr) // reads files; no runtime
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	r, err := gocann.Open(gocann.WithConfigFile(*config))
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	defer r.Close()
	switch fs.Arg(0) {
	case "demo":
		err = demo(r, stdout)
	case "info":
		err = info(r, stdout)
	default:
		fs.Usage()
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "gocann:", err)
		return 1
	}
	return 0
}

func info(r *gocann.Runtime, w io.Writer) error {
	n, err := r.DeviceCount()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%-4s %-16s %8s %8s %8s %12s %8s\n", "NPU", "SoC", "AICore", "Cube", "Vector", "HBM (MiB)", "Streams")
	for id := range n {
		d, err := r.Device(id)
		if err != nil {
			return err
		}
		p := d.Props()
		fmt.Fprintf(w, "%-4d %-16s %8d %8d %8d %12d %8d\n", id, p.SoCName, p.AICores, p.CubeCores, p.VectorCores, p.HBMSize>>20, p.StreamLimit)
	}
	return nil
}
