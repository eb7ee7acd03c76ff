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

// buildFlags records the flags of fuzzbox fuzz's build (driver's
// RegisterBuild: -race, -tags, -bin, ...) given to the runner, which the
// rules decide: taken as the test binary's, they failed it with "flag
// provided but not defined". run refuses them by name.
type buildFlags struct {
	given []string
}

func (b *buildFlags) register(fs *flag.FlagSet) {
	build := flag.NewFlagSet("", flag.ContinueOnError)
	new(driver.Flags).RegisterBuild(build)
	build.VisitAll(func(f *flag.Flag) {
		_, isBool := f.Value.(interface{ IsBoolFlag() bool })
		fs.Var(buildFlag{f.Name, isBool, b}, f.Name, "fuzzbox fuzz's, refused here: the rules build the fuzzing binary")
	})
}

// buildFlag is one of buildFlags.
type buildFlag struct {
	name   string
	isBool bool
	b      *buildFlags
}

func (f buildFlag) String() string { return "" }

func (f buildFlag) Set(string) error {
	f.b.given = append(f.b.given, "-"+f.name)
	return nil
}

func (f buildFlag) IsBoolFlag() bool { return f.isBool }

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
