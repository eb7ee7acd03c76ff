package main

import (
	"cmp"
	"flag"

	"github.com/fuzzbox/fuzzbox/driver"
)

func init() {
	register(&command{name: "ci", short: "fuzz what a change affects, for a CI job (new crash buckets fail it)", usage: ciUsage, flags: ciFlags, testArgs: true})
}

const ciUsage = `usage: fuzzbox ci -base=REV [flags] [packages] [-args test binary arguments]

Fuzzes the fuzz tests of the packages (default ./...) that the changes since
the branch left the git revision REV (their merge base) affect: packages with a changed file (in their
directory, under their testdata, or embedded), the packages of a module whose
go.mod requirement changed (a dependency update; all of the module's for a new
go line), and those that import one (their code transitively, their tests
directly). They share one -fuzztime (default 5m), with -keepgoing, and run no
other tests before fuzzing (-run to have them). Keep the cache directory between
jobs (-cachedir, or $XDG_CACHE_HOME/fuzzbox) so that each job starts from the
corpus of the last one and knows the crash buckets it found: the job fails
(exit 1) only when a failure falls in a new bucket. -junit, -sarif and
-summary write reports for the CI system (docs/ci.md).

Exit status: 0 no new bucket, 1 a failure in a new bucket, 2 usage or build error.

Flags:
`

// ciFlags adds fuzzbox ci's flags to fs: fuzzbox fuzz's and the reports'.
func ciFlags(fs *flag.FlagSet) func(*invocation) int {
	var f driver.Flags
	f.Register(fs)
	f.RegisterBuild(fs)
	for name, usage := range map[string]string{ // fuzzbox fuzz's, with ci's defaults
		"fuzz":     "`regexp` matching the affected fuzz tests to fuzz (default all of them)",
		"fuzztime": "time the affected fuzz tests share (duration, or Nx for N executions over all workers; default " + driver.CIFuzzTime + ")",
		"run":      "`regexp` of tests to run before fuzzing, as go test -run (default none: the CI job's go test runs them)",
	} {
		fs.Lookup(name).Usage = usage
	}
	base := fs.String("base", "", "git `revision` the change is compared with, such as origin/main (required)")
	var reps driver.CIReports
	fs.StringVar(&reps.JUnit, "junit", "", "write a JUnit XML report to `file`")
	fs.StringVar(&reps.SARIF, "sarif", "", "write a SARIF 2.1.0 report to `file`")
	fs.StringVar(&reps.Markdown, "summary", "", "write a markdown summary to `file` (e.g. $GITHUB_STEP_SUMMARY)")
	return func(inv *invocation) int {
		if *base == "" {
			return inv.usageError("-base is required")
		}
		f.Fuzz = cmp.Or(f.Fuzz, ".") // -fuzz is required elsewhere; driver.CI defaults it too
		cfg, err := f.Checked(inv.stderr)
		if err != nil {
			return inv.usageError(err.Error())
		}
		cfg.TestArgs = inv.testArgs
		ctx, stop := interruptible()
		defer stop()
		out := driver.Output{Stdout: inv.stdout, Stderr: inv.stderr, Prefix: "fuzzbox ci", JSON: f.JSON}
		return driver.CI(ctx, cfg, *base, inv.Args(), out, reps).ExitCode
	}
}
