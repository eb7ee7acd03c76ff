package lsp

import (
	"flag"
	"io"

	"github.com/fuzzbox/fuzzbox/driver"
)

// goTestRunFlags are the flags of go test's own runs in an editor's
// go.testFlags (its test runs'), which the sidecar's runs set themselves:
// boolean ones, then those with a value.
var goTestRunFlags = [2][]string{{"v", "race", "json"}, {"run", "skip", "parallel", "timeout", "fuzz", "fuzztime", "fuzzminimizetime"}}

// ApplyGoTestFlags reads the editor's go.testFlags (fuzzbox lsp
// -gotestflag, one each) into o as go test reads its command line (driver.ParseCommandLine):
// their -tags, -short and -vet win over the flags', what goes to the test
// binary (a flag go test does not define, what follows -args) joins
// TestArgs, and go test's build flags reach every build
// (driver.UseBuildFlags). What is for go test's own runs (goTestRunFlags),
// the flags fuzzbox does not take and a bad one are left out, each said
// in the log: the sidecar starts whatever the settings hold.
func (o *Options) ApplyGoTestFlags(flags []string, logf func(string, ...any)) {
	if len(flags) == 0 {
		return
	}
	fs := flag.NewFlagSet("go.testFlags", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var tags, vet string
	var short bool
	driver.TagsFlag(fs, &tags)
	driver.VetFlag(fs, &vet)
	driver.ShortFlag(fs, &short)
	for _, name := range goTestRunFlags[0] {
		fs.Bool(name, false, "")
	}
	for _, name := range goTestRunFlags[1] {
		fs.String(name, "", "")
	}
	cl, err := driver.ParseCommandLine(fs, flags)
	if err != nil {
		logf("go.testFlags %q left out: %v", flags, err)
		return
	}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "tags":
			o.Tags = tags
		case "vet":
			o.Vet = vet
		case "short":
			o.Short = short
		default:
			logf("go.testFlags: -%s left out: fuzzbox's runs set their own", f.Name)
		}
	})
	for _, why := range cl.Refused {
		logf("go.testFlags: left out: %s", why)
	}
	if len(cl.Positional) > 0 {
		logf("go.testFlags: %q left out: the sidecar's runs name their packages", cl.Positional)
	}
	o.TestArgs = append(o.TestArgs, cl.TestArgs...)
	if err := driver.UseBuildFlags(cl.BuildFlags); err != nil {
		logf("go.testFlags: build flags %q left out: %v", cl.BuildFlags, err)
		return
	}
	o.BuildFlags = cl.BuildFlags
}
