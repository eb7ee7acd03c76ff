// Command runner is the program the fuzzbox Bazel rules' fuzzing targets run
// (rules/private/runner.bzl): `bazel test //pkg:x_fuzz` and `bazel run
// //pkg:x_run`. It is a thin Bazel front end of package driver, which does the
// fuzzing exactly as `fuzzbox fuzz -bin` does; the runner only does what is
// Bazel's:
//
//   - test mode: copies the package's read-only runfiles into TEST_TMPDIR and
//     fuzzes there with the generated corpus in TEST_TMPDIR (hermetic), splits
//     the fuzz tests over TEST_TOTAL_SHARDS (touching TEST_SHARD_STATUS_FILE),
//     and copies the reproducers, the event stream and a summary into
//     TEST_UNDECLARED_OUTPUTS_DIR;
//   - run mode: fuzzes in $BUILD_WORKSPACE_DIRECTORY/<package>, so reproducers
//     land in the source tree and the generated corpus in fuzzbox's persistent
//     cache; relative paths in flags are relative to BUILD_WORKING_DIRECTORY;
//   - merge mode (bazel run //pkg:x_merge): merges the new inputs the shards
//     of x_fuzz saved in their outputs into a corpus directory of the source
//     tree (merge.go).
//
// In test and run mode the fuzzing starts from the go_fuzz_test corpus
// attribute's files too (corpus.go), and the driver replays failures with
// the replay test's binary (stock rules_go go_test of the same sources), as
// fuzzbox fuzz replays them with go test: one only the fuzzing binary has
// (a seed slow only there) is not reported as the code's (stock.go).
//
// Its flags are the rules' -bazel.* flags, then fuzzbox fuzz's (driver.Flags).
// It prints as fuzzbox fuzz does (driver.Run; in test mode event.Printer and
// driver.Result.WriteSummary).
// It imports the standard library, corpus, driver and event.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/fuzzbox/fuzzbox/driver"
)

// Exit codes, as fuzzbox fuzz's.
const (
	exitOK    = driver.ExitOK
	exitUsage = driver.ExitError
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// bazelFlags are the flags the rules pass; users do not set them.
type bazelFlags struct {
	mode       string   // "test" or "run"
	bin        string   // the fuzzing binary, relative to the runfiles directory of the workspace
	stock      string   // the replay test's binary (stock go_test), likewise: failures are replayed with it; "" = unchecked
	pkgDir     string   // the package's directory in runfiles
	pkg        string   // the package's directory in its workspace
	importPath string   // the package's import path
	corpus     string   // file listing the corpus attribute's files, one runfiles path per line; "" = none
	test       string   // merge mode: the name of the fuzzing test (x_fuzz) whose shards' outputs are merged
	testArgs   []string // the replay test's args attribute: every run of the test binary gets them first
}

func (b *bazelFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&b.mode, "bazel.mode", "", "test (bazel test) or run (bazel run); set by the rules")
	fs.StringVar(&b.bin, "bazel.bin", "", "the fuzzing binary; set by the rules")
	fs.StringVar(&b.stock, "bazel.stock", "", "the replay test's binary, which replays failures; set by the rules")
	fs.StringVar(&b.pkgDir, "bazel.pkgdir", "", "the package's directory in runfiles; set by the rules")
	fs.StringVar(&b.pkg, "bazel.pkg", "", "the package's directory in the workspace; set by the rules")
	fs.StringVar(&b.importPath, "bazel.importpath", "", "the package's import path; set by the rules")
	fs.StringVar(&b.corpus, "bazel.corpus", "", "list of the corpus attribute's files; set by the rules")
	fs.StringVar(&b.test, "bazel.test", "", "merge mode: the fuzzing test whose outputs are merged; set by the rules")
	fs.Func("bazel.testarg", "an argument of every run of the test binary (the replay test's args), before those of -args; set by the rules", func(a string) error {
		b.testArgs = append(b.testArgs, a)
		return nil
	})
}

func run(args []string, stdout, stderr io.Writer) int {
	var b bazelFlags
	var f fuzzFlags
	var m mergeFlags
	var build buildFlags
	fs := flag.NewFlagSet("fuzzbox (bazel)", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	b.register(fs)
	f.register(fs)
	m.register(fs)
	build.register(fs)
	cl, err := driver.ParseCommandLine(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fmt.Fprintln(stdout, "usage: bazel run //pkg:x_run -- [fuzzbox fuzz flags] [-args test binary arguments], bazel test //pkg:x_fuzz --test_arg=FLAG,\nor bazel run //pkg:x_merge -- [-into=DIR] [-testlogs=DIR]\n\nFlags:")
			fs.PrintDefaults()
			return exitOK
		}
		return usageError(stderr, err)
	}
	if len(cl.Refused) > 0 {
		return usageError(stderr, errors.New(cl.Refused[0]))
	}
	f.TestArgs = append(b.testArgs, cl.TestArgs...) // Checked keeps them in the Config
	if len(cl.Positional) > 0 {
		return usageError(stderr, fmt.Errorf("unexpected arguments %q: the package is the target's", cl.Positional))
	}
	if len(build.given) > 0 {
		return usageError(stderr, fmt.Errorf("%s: the rules build the fuzzing binary (go_fuzz_test's attributes: gotags for -tags; race is not supported by fuzzing targets yet)", strings.Join(build.given, " ")))
	}
	if len(cl.BuildFlags) > 0 {
		return usageError(stderr, fmt.Errorf("%s: the rules build the fuzzing binary (go_fuzz_test's attributes)", strings.Join(cl.BuildFlags, " ")))
	}
	if b.bin == "" || b.pkgDir == "" || b.pkg == "" {
		return usageError(stderr, errors.New("-bazel.bin, -bazel.pkgdir and -bazel.pkg are required (run the rules' targets, not the runner)"))
	}
	if m.set() && b.mode != "merge" {
		return usageError(stderr, errors.New("-into and -testlogs are flags of the merge target (bazel run //pkg:x_merge)"))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch b.mode {
	case "test":
		return runTest(ctx, &b, &f, stdout, stderr)
	case "run":
		return runRun(ctx, &b, &f, stdout, stderr)
	case "merge":
		return runMerge(ctx, &b, &f, &m, stdout, stderr)
	}
	return usageError(stderr, fmt.Errorf("-bazel.mode must be test, run or merge, not %q", b.mode))
}

func usageError(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "fuzzbox (bazel): %v\n", err)
	return exitUsage
}

// config returns the driver configuration for the flags and the binary.
func config(b *bazelFlags, f *fuzzFlags, stderr io.Writer) (driver.Config, error) {
	cfg, err := f.config(stderr)
	if err != nil {
		return cfg, err
	}
	if cfg.Binary, err = filepath.Abs(b.bin); err != nil {
		return cfg, err
	}
	if b.stock != "" {
		if cfg.StockBinary, err = filepath.Abs(b.stock); err != nil {
			return cfg, err
		}
		cfg.StockEnv = stockEnv(os.Environ())
	}
	cfg.ImportPath = b.importPath
	return cfg, cfg.Check()
}

// runRun fuzzes in the source tree, as fuzzbox fuzz -bin would there.
func runRun(ctx context.Context, b *bazelFlags, f *fuzzFlags, stdout, stderr io.Writer) int {
	ws := os.Getenv("BUILD_WORKSPACE_DIRECTORY")
	if ws == "" {
		return usageError(stderr, errors.New("BUILD_WORKSPACE_DIRECTORY is not set: start this target with bazel run"))
	}
	if wd := os.Getenv("BUILD_WORKING_DIRECTORY"); wd != "" {
		f.relativeTo(wd)
	}
	cfg, err := config(b, f, stderr)
	if err != nil {
		return usageError(stderr, err)
	}
	dir := filepath.Join(ws, filepath.FromSlash(b.pkg))
	if err := seedRun(ctx, b, cfg, dir, f.JSON, stdout, stderr); err != nil {
		return usageError(stderr, err)
	}
	out := driver.Output{Stdout: stdout, Stderr: stderr, Prefix: "fuzzbox", JSON: f.JSON}
	return driver.Run(ctx, cfg, []string{dir}, out).ExitCode
}

// seedRun copies the corpus attribute's files into the generated corpus
// (the persistent cache) of each fuzz test the run fuzzes.
func seedRun(ctx context.Context, b *bazelFlags, cfg driver.Config, dir string, asJSON bool, stdout, stderr io.Writer) error {
	files, err := corpusFiles(b.corpus)
	if err != nil || len(files) == 0 {
		return err
	}
	targets, err := driver.Resolve(ctx, cfg, []string{dir})
	if err != nil {
		return err
	}
	say := stdout
	if asJSON {
		say = stderr
	}
	for _, t := range targets {
		cache := cfg.CacheDir
		if cache == "" {
			if cache, err = driver.DefaultCacheDir(t.Package); err != nil {
				return err
			}
		}
		seedTargets(files, []string{t.Name}, dir, cache, say, stderr)
	}
	return nil
}
