package main

import (
	"flag"
	"io"
	"path/filepath"
	"strings"

	"github.com/fuzzbox/fuzzbox/driver"
)

// fuzzFlags are fuzzbox fuzz's flags, registered by the driver (driver.Flags)
// so that every front end takes the same ones. The rules build the binary,
// so the runner leaves out fuzzbox fuzz's -bin, -race and -tags (the
// targets' attributes decide them).
type fuzzFlags struct {
	driver.Flags
}

func (f *fuzzFlags) register(fs *flag.FlagSet) { f.Register(fs) }

// config returns the driver configuration the flags set, as fuzzbox fuzz does.
func (f *fuzzFlags) config(stderr io.Writer) (driver.Config, error) {
	return f.Checked(stderr)
}

// relativeTo makes the path flags absolute against dir (bazel run's
// BUILD_WORKING_DIRECTORY: where the user typed the command).
func (f *fuzzFlags) relativeTo(dir string) {
	for _, p := range []*string{&f.Config.CacheDir, &f.Config.Dict} {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(dir, *p)
		}
	}
}

func oneLine(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
