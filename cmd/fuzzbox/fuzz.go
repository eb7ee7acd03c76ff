package main

import (
	"flag"
	"io"

	"github.com/fuzzbox/fuzzbox/driver"
)

func init() {
	register(&command{name: "fuzz", short: "fuzz fuzz tests with the fuzzbox engine", usage: fuzzUsage, flags: fuzzFlags, testArgs: true})
}

const fuzzUsage = `usage: fuzzbox fuzz [flags] [packages] [-args test binary arguments]
       fuzzbox fuzz -bin=BINARY [flags] [package directory]

Builds each package's test binary with fuzzbox's test main and coverage
instrumentation, runs the seed corpus, then fuzzes the fuzz tests matched by
-fuzz until -fuzztime is up, a failure is found, or Ctrl-C. A failing input is
re-run in a fresh worker, then written to testdata/fuzz/<FuzzTest>/ where
stock "go test -run" replays it; an input that does not fail again is
reported as flaky and not written (unless -keepflaky).

With -leaks (the default), an input that leaves goroutines it started
blocked (on a channel, a select, a lock, a WaitGroup) after the fuzz function
returned fails with kind leak. Stock "go test -run" passes such a reproducer;
the next fuzzbox fuzz run of the fuzz test reports it again, as a failing
seed, until it is fixed (docs/engine.md, Goroutine leaks).

With -racetwin, the fuzz test is also built with -race, and one background
worker of that build replays each new corpus entry and each failure's
input: a data race fails with kind race, replayed by "go test -race -run"
(docs/engine.md, Races). The fuzzing workers stay at full speed.

Packages default to "."; patterns such as ./... are allowed. When -fuzz
matches several fuzz tests they share the time and the workers: with
-fuzztime each gets an equal share, without it they take turns of one
minute until stopped. A fuzz test that fails leaves the rotation; the others
go on. Each package's tests run once, before its first fuzz test's turn, as
go test -fuzz runs them (-run=^$ leaves them out); a package whose tests fail
is not fuzzed, and one that does not build is reported while the others are
fuzzed.

With -bin, nothing is built: BINARY is a fuzzing binary built elsewhere
(by the Bazel rules, or with fuzzbox testmain) and the argument is its
package directory, where it runs and reproducers are written. Its failures
are checked with go test only if -stockbin names the package's test binary
built without fuzzbox (go test -c, or the build system's test).

As with go test, what follows -args goes to the test binary unchanged,
after its own flags, on every run (the tests, the workers, the re-runs):
a TestMain's own flags, or arguments; so does a flag that neither
fuzzbox nor go test defines (-update). go test's build flags (-mod,
-ldflags, -gcflags, -trimpath, ...) go to every build, -count=1 is taken,
and go test's flags in GOFLAGS apply unless given here (not -timeout,
which here bounds one input).

Exit status: 0 nothing found, 1 a failure was found, 2 usage or build error.

Flags:
`

// fuzzFlags adds fuzzbox fuzz's flags to fs.
func fuzzFlags(fs *flag.FlagSet) func(*invocation) int { return driverFlags(fs, "fuzz", "", false) }

// driverFlags adds the flags of a command that runs the driver on packages
// (fuzzbox fuzz, fuzzbox corpus minimize) to fs: the driver's, of every
// front end that fuzzes and of one that builds. Its usage errors start with
// usagePrefix, its other errors with "fuzzbox "+name; with pruneOnly it only
// prunes the corpus (driver.Config.PruneOnly).
func driverFlags(fs *flag.FlagSet, name, usagePrefix string, pruneOnly bool) func(*invocation) int {
	var f driver.Flags
	f.Register(fs)
	f.RegisterBuild(fs)
	return func(inv *invocation) int {
		cfg, err := f.Checked(inv.stderr)
		if err != nil {
			return inv.usageError(usagePrefix + err.Error())
		}
		cfg.PruneOnly, cfg.TestArgs = pruneOnly, inv.testArgs
		return fuzzMain(cfg, inv.Args(), f.JSON, "fuzzbox "+name, inv.stdout, inv.stderr)
	}
}

// fuzzMain runs the driver on the command line (driver.Run) until it is done
// or the process gets SIGINT or SIGTERM, and returns the exit code. Its
// errors start with prefix, the command's name ("fuzzbox fuzz").
func fuzzMain(cfg driver.Config, pkgs []string, asJSON bool, prefix string, stdout, stderr io.Writer) int {
	ctx, stop := interruptible()
	defer stop()
	out := driver.Output{Stdout: stdout, Stderr: stderr, Prefix: prefix, JSON: asJSON}
	return driver.Run(ctx, cfg, pkgs, out).ExitCode
}
