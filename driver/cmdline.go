package driver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fuzzbox/fuzzbox/driver/build"
	"github.com/fuzzbox/fuzzbox/event"
)

// A front end's command line, read as go test reads its own (cmd/go's
// testFlags): "go test -fuzz=FuzzX -count=1 ./p -update" typed as
// "fuzzbox fuzz -fuzz=FuzzX -count=1 ./p -update" does what it did.

// CommandLine is a front end's command line, split (ParseCommandLine).
type CommandLine struct {
	// Positional are the arguments that are not flags: the packages.
	Positional []string
	// BuildFlags are go test's build flags that the front end's flag set
	// does not define (-mod, -modfile, -ldflags, -gcflags, -trimpath, ...),
	// each as one "-name=value" (or "-name" for a boolean): the go command
	// must build with them (UseBuildFlags), as go test would.
	BuildFlags []string
	// TestArgs go to every run of the test binary (Config.TestArgs), in
	// order: the go test flags that are the test binary's own (-failfast,
	// -fullpath, as -test.name), the flags neither fuzzbox nor go test
	// defines (a TestMain's or a package's own, such as -update), with what
	// follows them, and what follows -args.
	TestArgs []string
	// Refused says, for each of go test's flags that fuzzbox does not take
	// (-cover, -bench, -count=2, ...), why: a command line front end stops
	// at the first, the editor's sidecar logs them and goes on.
	Refused []string
}

// goTestFlag is what fuzzbox does with one of go test's flags that its own
// flag set does not define.
type goTestFlag struct {
	value bool   // it takes a value (-name=value or -name value)
	build bool   // a build flag: the go command gets it (CommandLine.BuildFlags)
	test  bool   // the test binary's: it gets it as -test.name
	only  string // the one value fuzzbox accepts, and drops (-count=1)
	why   string // why fuzzbox refuses it, when it is neither of the above
}

// goTestFlags are go test's flags (cmd/go: testflag.go, and work.AddBuildFlags
// for go test), but for those every front end defines (-fuzz, -run, -v, ...).
var goTestFlags = func() map[string]goTestFlag {
	m := map[string]goTestFlag{
		"count":    {value: true, only: "1"},
		"failfast": {test: true},
		"fullpath": {test: true},
	}
	for _, n := range []string{"a", "modcacherw", "trimpath"} {
		m[n] = goTestFlag{build: true}
	}
	m["buildvcs"] = goTestFlag{build: true} // boolean, or auto
	for _, n := range []string{"asmflags", "gccgoflags", "gcflags", "installsuffix", "ldflags", "mod", "modfile", "overlay", "p", "pgo", "pkgdir"} {
		m[n] = goTestFlag{value: true, build: true}
	}
	refuse := func(why string, value bool, names ...string) {
		for _, n := range names {
			m[n] = goTestFlag{value: value, why: why}
		}
	}
	refuse("the fuzzing binary is built by fuzzbox and run by it", false, "c", "n", "x", "work")
	refuse("the fuzzing binary is built by fuzzbox and run by it", true, "o", "exec", "toolexec", "compiler", "buildmode")
	refuse("-C must be the first flag, as in go test", true, "C")
	refuse("fuzzbox builds with the race detector (-race, -racetwin) and no other sanitizer", false, "asan", "msan", "linkshared")
	refuse("what a fuzz test's corpus covers is fuzzbox cover's (docs/cover.md)", false, "cover")
	refuse("what a fuzz test's corpus covers is fuzzbox cover's (docs/cover.md)", true, "covermode", "coverpkg", "coverprofile")
	refuse("fuzzbox runs no benchmarks", false, "benchmem")
	refuse("fuzzbox runs no benchmarks", true, "bench", "benchtime")
	refuse("to profile a fuzz test, profile go test -run on its corpus", true, "cpuprofile", "memprofile", "memprofilerate",
		"blockprofile", "blockprofilerate", "mutexprofile", "mutexprofilefraction", "trace", "outputdir")
	refuse("fuzzbox runs the package's tests once, in their order, with GOMAXPROCS as it is", true, "cpu", "shuffle")
	refuse("go test -list lists a package's tests", true, "list")
	refuse("fuzzbox keeps no test artifacts (t.ArtifactDir is a temporary directory, as under go test without -artifacts); go test -artifacts -run=FuzzX/NAME keeps a reproducer's", false, "artifacts")
	refuse("debugging the go command is go build's", true, "debug-actiongraph", "debug-runtime-trace", "debug-trace")
	return m
}()

// ParseCommandLine parses args, a front end's command line after its name,
// as go test parses its own: fs's flags may come before, between and after
// the positional arguments; a flag fs does not define is one of go test's
// (goTestFlags: passed on, or refused with the reason, CommandLine.Refused), or else the test
// binary's, which gets it and what follows it, as go test passes it; after
// the first such flag, go test takes no more packages; -args hands the rest
// to the test binary, as does "--". fs's flags are set as fs.Parse sets
// them; fs.Args() is not changed. -h and -help are flag.ErrHelp unless fs
// defines them.
func ParseCommandLine(fs *flag.FlagSet, args []string) (*CommandLine, error) {
	cl := &CommandLine{}
	var testOwn, passed []string // -test.name flags first, as go test orders them
	pkgsDone := false            // a flag was passed on: what follows is the binary's
	afterBare := false           // the last argument was a flag passed on without =value
	for len(args) > 0 {
		a := args[0]
		args = args[1:]
		wasBare := afterBare
		afterBare = false
		if a == "--" {
			passed = append(passed, append([]string{a}, args...)...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			if !pkgsDone {
				cl.Positional = append(cl.Positional, a)
				continue
			}
			passed = append(passed, a)
			if !wasBare { // it cannot be a flag's value: it and the rest are the binary's arguments
				passed = append(passed, args...)
				break
			}
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		if n, ok := strings.CutPrefix(name, "test."); ok && (fs.Lookup(n) != nil || goTestFlags[n] != (goTestFlag{}) && !goTestFlags[n].build) {
			name = n // go test takes -test.v for -v, and so for every flag of the test binary's
		}
		if name == "args" && !hasValue {
			passed = append(passed, args...)
			break
		}
		if f := fs.Lookup(name); f != nil {
			rest, err := setFlag(fs, f, name, value, hasValue, args)
			if err != nil {
				return nil, err
			}
			args = rest
			continue
		}
		gt, ok := goTestFlags[name]
		if !ok {
			if name == "h" || name == "help" {
				return nil, flag.ErrHelp
			}
			pkgsDone = true
			passed = append(passed, a)
			afterBare = !hasValue
			continue
		}
		if gt.value && !hasValue {
			if len(args) == 0 {
				return nil, fmt.Errorf("flag needs an argument: -%s", name)
			}
			value, args = args[0], args[1:]
		}
		switch {
		case gt.build:
			cl.BuildFlags = append(cl.BuildFlags, buildFlag(name, value, gt.value || hasValue))
		case gt.test:
			testOwn = append(testOwn, buildFlag("test."+name, value, hasValue))
		case gt.only != "" && value == gt.only:
		case gt.only != "":
			cl.Refused = append(cl.Refused, fmt.Sprintf("-%s=%s is go test's; fuzzbox takes only -%s=%s", name, value, name, gt.only))
		default:
			cl.Refused = append(cl.Refused, fmt.Sprintf("go test's -%s is not fuzzbox's: %s", name, gt.why))
		}
	}
	cl.TestArgs = append(testOwn, passed...)
	if f := fs.Lookup("tags"); f != nil && f.Value.String() == "" && flagSet(fs, "tags") {
		// -tags= overrides GOFLAGS' -tags, as for go test: the build
		// reads GOFLAGS' when its own are none.
		cl.BuildFlags = append(cl.BuildFlags, "-tags=")
	}
	return cl, nil
}

// flagSet reports whether fs's flag name was set.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// setFlag sets fs's flag f from -name[=value], taking the value from rest
// when the flag is not boolean and has none; it returns what is left of rest.
func setFlag(fs *flag.FlagSet, f *flag.Flag, name, value string, hasValue bool, rest []string) ([]string, error) {
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() && !hasValue {
		value = "true"
	} else if !hasValue {
		if len(rest) == 0 {
			return nil, fmt.Errorf("flag needs an argument: -%s", name)
		}
		value, rest = rest[0], rest[1:]
	}
	if err := fs.Set(name, value); err != nil {
		return nil, fmt.Errorf("invalid value %q for flag -%s: %w", value, name, err)
	}
	return rest, nil
}

// buildFlag is -name=value, or -name when it had no value.
func buildFlag(name, value string, withValue bool) string {
	if !withValue {
		return "-" + name
	}
	return "-" + name + "=" + value
}

// buildFlags are the flags UseBuildFlags added to GOFLAGS, for messages
// that show a go test command (Config.replayCommand).
var buildFlags []string

// testGOFLAGS is what a test binary's environment has for GOFLAGS once
// UseBuildFlags changed this process's: what it had before (testCmd).
var testGOFLAGS struct {
	changed, had bool
	value        string
}

// UseBuildFlags makes every go command this process starts build with
// flags (CommandLine.BuildFlags), as go test builds with those on its
// command line: it adds them to the environment's GOFLAGS, after the
// user's own (GOFLAGS). The test binaries the driver runs keep the GOFLAGS
// the environment had, as under go test. For a command-line front end,
// once, before it runs the driver.
func UseBuildFlags(flags []string) error {
	flags = absPathFlags(flags)
	if len(flags) == 0 && !slices.ContainsFunc(strings.Fields(build.UserGoEnv(os.Environ(), "GOFLAGS")), func(f string) bool { return isPathFlag(f) || isJSONFlag(f) }) {
		return nil
	}
	user := GOFLAGS("")
	words := strings.Fields(user)
	for i, abs := range absPathFlags(words) {
		switch {
		case isJSONFlag(words[i]):
			// go test's test2json stream, not for fuzzbox's go commands,
			// whose output it would change (go env, go test -c's errors).
			user = strings.Replace(user, words[i], "", 1)
		case abs != words[i]:
			user = strings.Replace(user, words[i], abs, 1)
		}
	}
	goflags, err := goflagsWith(user, flags)
	if err != nil {
		return err
	}
	testGOFLAGS.value, testGOFLAGS.had = os.LookupEnv("GOFLAGS")
	testGOFLAGS.changed = true
	buildFlags = flags
	return os.Setenv("GOFLAGS", build.NonEmptyGOFLAGS(goflags)) // or go env -w's would count
}

// isJSONFlag reports whether f is go test's -json (GOFLAGS).
func isJSONFlag(f string) bool {
	name, _, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
	return strings.HasPrefix(f, "-") && name == "json"
}

// pathFlags are the build flags whose value is a file, which the go
// command reads relative to the directory it runs in: the user's, where
// the driver runs its go commands in the packages' directories.
var pathFlags = []string{"modfile", "overlay", "pgo", "pkgdir"}

// isPathFlag reports whether f is -name=value for one of pathFlags with
// a relative value (not -pgo's auto, default or off), or an -overlay
// (whose file may name relative paths).
func isPathFlag(f string) bool {
	name, value, ok := strings.Cut(strings.TrimLeft(f, "-"), "=")
	if !ok || !strings.HasPrefix(f, "-") || !slices.Contains(pathFlags, name) || value == "" {
		return false
	}
	return name == "overlay" || !filepath.IsAbs(value) && !(name == "pgo" && (value == "auto" || value == "default" || value == "off"))
}

// absPathFlags returns flags with the values of pathFlags made absolute
// (relative to the current directory, the user's).
func absPathFlags(flags []string) []string {
	out := slices.Clone(flags)
	for i, f := range out {
		if !isPathFlag(f) {
			continue
		}
		name, value, _ := strings.Cut(f, "=")
		if abs, err := filepath.Abs(value); err == nil {
			out[i] = name + "=" + abs
		}
		if strings.TrimLeft(name, "-") == "overlay" {
			if abs, err := absOverlay(value); err == nil {
				out[i] = name + "=" + abs
			}
		}
	}
	return out
}

// absOverlay returns an overlay file whose paths are absolute: path itself
// when they are, else a copy with its relative paths made absolute
// (relative to the current directory, as the go command reads them), kept
// under the user's cache directory by its content's hash.
func absOverlay(path string) (string, error) {
	abs, err := build.ReadOverlay(path)
	if err != nil {
		return "", err
	}
	out, err := json.Marshal(map[string]map[string]string{"Replace": abs})
	if err != nil {
		return "", err
	}
	if data, err := os.ReadFile(path); err == nil && bytes.Equal(bytes.TrimSpace(data), out) {
		return filepath.Abs(path) // already absolute (written by an earlier run)
	}
	sum := sha256.Sum256(out)
	file := filepath.Join(build.UserCacheDir(), "fuzzbox", "overlay", hex.EncodeToString(sum[:8])+".json")
	if err := os.MkdirAll(filepath.Dir(file), 0o777); err != nil {
		return "", err
	}
	return file, os.WriteFile(file, out, 0o666)
}

// replayCommand returns the go test command line that replays the corpus
// entry name of fuzz test t with the flags of this run that change what
// runs (-race, -short, -tags, the build flags, the test binary's
// arguments), for the reader to copy where they ran fuzzbox
// (Config.packageArg): the testing package's "To re-run" line has none. ""
// when the run has none of them.
func (c *Config) replayCommand(t Target, name string) string {
	if !c.Race && !c.Short && c.Tags == "" && len(buildFlags) == 0 && len(c.TestArgs) == 0 {
		return ""
	}
	return c.commandLine([]string{"go", "test"}, t.Dir, runEntry(t.Name, name))
}

// goTestCommand returns the go test command line that replays the corpus
// entry name of fuzz test t: replayCommand's, or the plain one.
func (c *Config) goTestCommand(t Target, name string) string {
	if cmd := c.replayCommand(t, name); cmd != "" {
		return cmd
	}
	cd, pkg := c.packageArg(t.Dir)
	return cd + "go test " + runEntry(t.Name, name) + " " + pkg
}

// fuzzboxReplayCommand returns the fuzzbox command line that runs fuzz test
// t's seeds, the reproducers in testdata/fuzz among them, in a worker with
// this run's limits and checks, and stops there (-fuzztime=1x): the replay
// of a failure kind go test does not have (an oom, a leak).
func (c *Config) fuzzboxReplayCommand(t Target) string {
	var tail []string
	if c.RSSLimitMB != DefaultRSSLimitMB {
		tail = append(tail, fmt.Sprintf("-rss_limit_mb=%d", c.RSSLimitMB))
	}
	return c.commandLine([]string{"fuzzbox", "fuzz"}, t.Dir, append(tail, ShellQuote("-fuzz=^"+t.Name+"$"), "-fuzztime=1x")...)
}

// packageArg returns how a command typed in the directory the user ran
// the driver in (c.Dir, where the package patterns were given) names the
// package in dir: "." there, "./sub" below it; elsewhere (above, beside,
// GOROOT) "." after cd, the shell words that go to dir first.
func (c *Config) packageArg(dir string) (cd, pkg string) {
	wd, err := filepath.Abs(c.Dir)
	if err != nil || dir == "" {
		return "", "."
	}
	dir, _ = filepath.Abs(dir)
	rel, err := filepath.Rel(wd, dir)
	switch {
	case err != nil || !filepath.IsLocal(rel):
		return "cd " + ShellQuote(dir) + " && ", "."
	case rel == ".":
		return "", "."
	}
	return "", ShellQuote("./" + filepath.ToSlash(rel))
}

// runEntry returns the -run flag, quoted, that selects the corpus entry
// name of fuzz test target.
func runEntry(target, name string) string {
	return ShellQuote("-run=^" + target + "$/^" + event.EntryPattern(name) + "$")
}

// commandLine returns the command line words, then this run's flags that
// change what runs (shownTestFlags, the build flags), then tail, then the
// package in dir (Config.packageArg), then the test binary's arguments after
// -args, each quoted for a shell.
func (c *Config) commandLine(words []string, dir string, tail ...string) string {
	for _, f := range append(strings.Fields(c.shownTestFlags()), buildFlags...) {
		words = append(words, ShellQuote(f))
	}
	cd, pkg := c.packageArg(dir)
	words = append(append(words, tail...), pkg)
	if len(c.TestArgs) > 0 {
		words = append(words, "-args")
		for _, a := range c.TestArgs {
			words = append(words, ShellQuote(a))
		}
	}
	return cd + strings.Join(words, " ")
}

// ShellQuote quotes s for a POSIX shell when it needs it, for command
// lines shown to be copied (the driver's, the sidecar's debug command).
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=+,:@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ChildEnv returns env, the environment of a process that is not one of
// the run's go commands (a test binary, gopls), with the GOFLAGS it had
// before UseBuildFlags.
func ChildEnv(env []string) []string {
	if !testGOFLAGS.changed {
		return env
	}
	env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "GOFLAGS=") })
	if testGOFLAGS.had {
		env = append(env, "GOFLAGS="+testGOFLAGS.value)
	}
	return env
}

// goflagsWith returns goflags (the go command's GOFLAGS) with flags added
// after it, quoted where they hold spaces, as the go command splits
// GOFLAGS (cmd/internal/quoted).
func goflagsWith(goflags string, flags []string) (string, error) {
	words := []string{}
	if s := strings.TrimSpace(goflags); s != "" {
		words = append(words, s)
	}
	for _, f := range flags {
		switch {
		case !strings.ContainsAny(f, " \t\n\r'\""):
			words = append(words, f)
		case !strings.Contains(f, "'"):
			words = append(words, "'"+f+"'")
		case !strings.Contains(f, `"`):
			words = append(words, `"`+f+`"`)
		default:
			return "", errors.New("a build flag holds both kinds of quotes, which GOFLAGS cannot carry: " + f)
		}
	}
	return strings.Join(words, " "), nil
}
