package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/fuzzbox/fuzzbox/driver/build"
)

func init() {
	register(&command{name: "oss-fuzz",
		short: "write a ClusterFuzzLite/OSS-Fuzz setup that builds the module's fuzz tests with fuzzbox",
		run:   runOSSFuzz})
}

const ossFuzzUsage = `usage: fuzzbox oss-fuzz init [-dir DIR] [-name NAME] [-version V] [-tags TAGS] [-force]

Init writes DIR/.clusterfuzzlite/{build.sh,project.yaml,Dockerfile} for the
module in DIR (default "."): a ClusterFuzzLite setup (copy the three files to
projects/NAME/ of google/oss-fuzz for OSS-Fuzz) whose build.sh runs
"fuzzbox build -libfuzzer" on every package with fuzz tests (those in files
the build tags TAGS keep), so that the binaries get the f.Add and testdata
seeds, the dictionaries and options, and their crashes convert back with
"fuzzbox corpus import -from-libfuzzer" (docs/oss-fuzz.md). A fuzz test whose
name another package's has is built as <package path>_FuzzX.

Flags:
`

// ossFuzzInit is fuzzbox oss-fuzz's one subcommand.
var ossFuzzInit = &command{name: "init", group: "oss-fuzz", usage: ossFuzzUsage, flags: ossFuzzInitFlags}

// runOSSFuzz implements "fuzzbox oss-fuzz init" over build.WriteOSSFuzz.
func runOSSFuzz(args []string, stdout, stderr io.Writer) int {
	usage := func(w io.Writer) {
		fs := flag.NewFlagSet("", flag.ContinueOnError)
		ossFuzzInit.flags(fs)
		ossFuzzInit.printUsage(w, fs)
	}
	return dispatch(args, map[string]*command{"init": ossFuzzInit}, usage, "fuzzbox oss-fuzz: want the subcommand init", "fuzzbox oss-fuzz: unknown subcommand %q", stdout, stderr)
}

func ossFuzzInitFlags(fs *flag.FlagSet) func(*invocation) int {
	var opts build.OSSFuzzOptions
	fs.StringVar(&opts.Dir, "dir", ".", "module `DIR`")
	fs.StringVar(&opts.Name, "name", "", "project `NAME` (default: the last element of the module path)")
	fs.StringVar(&opts.Version, "version", "latest", "fuzzbox `version` the Dockerfile installs")
	fs.BoolVar(&opts.Force, "force", false, "overwrite existing files")
	fs.StringVar(&opts.Tags, "tags", "", "build `TAGS` (comma-separated) the packages are listed and built with")
	return func(inv *invocation) int {
		if inv.NArg() > 0 {
			return inv.usageError("init: unexpected arguments")
		}
		written, err := build.WriteOSSFuzz(context.Background(), opts)
		for _, p := range written {
			fmt.Fprintln(inv.stdout, p)
		}
		if err != nil {
			fmt.Fprintf(inv.stderr, "fuzzbox oss-fuzz init: %s\n", oneLine(err))
			return exitUsage
		}
		return exitOK
	}
}
