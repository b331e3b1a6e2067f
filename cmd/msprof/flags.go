package main

import (
	"fmt"
	"strings"
)

// options is msprof's command line.
type options struct {
	application string   // --application: a command line, split as a shell would
	app         []string // or the program and its arguments after the options
	output      string   // --output
	export      bool     // --export=on
	view        bool     // --view
	files       []string // --view's files
	help        bool
}

// usageError is a command-line mistake: exit status 2 and the usage.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// parse reads msprof's options as CANN's msprof spells them,
// --name=value (or --name value); the first argument that is not an
// option starts the application's command line, or --view's files.
func parse(args []string) (*options, error) {
	o := &options{}
	seen := map[string]bool{}
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			if o.view {
				o.files = args[i:]
			} else {
				o.app = args[i:]
			}
			break
		}
		if arg == "--" {
			if o.view {
				o.files = args[i+1:]
			} else {
				o.app = args[i+1:]
			}
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if seen[name] {
			return nil, usagef("--%s is given twice", name)
		}
		seen[name] = true
		// takeValue is the value of --name=value, or of --name value.
		takeValue := func() (string, error) {
			if hasValue {
				return value, nil
			}
			if i+1 == len(args) {
				return "", usagef("--%s needs a value: --%s=...", name, name)
			}
			i++
			return args[i], nil
		}
		var err error
		switch name {
		case "h", "help":
			o.help = true
		case "application":
			o.application, err = takeValue()
			if err == nil && strings.TrimSpace(o.application) == "" {
				err = usagef("--application is empty; want the program to run and its arguments")
			}
		case "output":
			o.output, err = takeValue()
			if err == nil && o.output == "" {
				err = usagef("--output is empty; want a directory")
			}
		case "export":
			var v string
			if v, err = takeValue(); err == nil {
				switch v {
				case "on":
					o.export = true
				case "off":
				default:
					err = usagef("--export=%s: want on or off", v)
				}
			}
		case "view":
			if hasValue {
				return nil, usagef("--view takes files after it, not a value: --view FILE...")
			}
			o.view = true
		default:
			return nil, usagef("unknown option %s", arg)
		}
		if err != nil {
			return nil, err
		}
	}
	return o, o.check()
}

// check refuses what does not make one thing to do.
func (o *options) check() error {
	if o.help {
		return nil
	}
	modes := 0
	for _, on := range []bool{o.application != "" || len(o.app) > 0, o.export, o.view} {
		if on {
			modes++
		}
	}
	switch {
	case o.application != "" && len(o.app) > 0:
		return usagef("both --application and a program after the options (%s); give one", o.app[0])
	case modes == 0:
		return usagef("nothing to do: give --application=\"./app args\", --export=on --output=DIR or --view FILE...")
	case modes > 1:
		return usagef("--application, --export=on and --view are different things to do; give one")
	case o.export && o.output == "":
		return usagef("--export=on reports the data under --output=DIR; give --output")
	case o.view && len(o.files) == 0:
		return usagef("--view needs the timeline files to report: --view FILE...")
	case o.view && o.output != "":
		return usagef("--view reads the files named and writes report.html beside the first; --output does not apply")
	}
	return nil
}
