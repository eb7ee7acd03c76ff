package driver

import (
	"errors"
	"flag"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestParseCommandLine: a command line is read as go test reads its own
// (cmd/go's testFlags): the front end's flags anywhere among the packages,
// go test's build flags for the go command, its test binary's flags and
// the flags it does not know for the test binary, with what follows them,
// -args and -- the rest, and a clear error for what fuzzbox does not do.
func TestParseCommandLine(t *testing.T) {
	for _, tc := range []struct {
		args               []string
		fuzz               string
		v                  bool
		pkgs, build, targs []string
		refused            string
		err                string
	}{
		{args: []string{"-fuzz=X", "."}, fuzz: "X", pkgs: []string{"."}},
		{args: []string{"./a", "-fuzz", "X", "./b", "-v", "./c"}, fuzz: "X", v: true, pkgs: []string{"./a", "./b", "./c"}},
		// A flag neither defines is the test binary's; go test then takes no more packages.
		{args: []string{"-fuzz=X", "./p", "-update"}, fuzz: "X", pkgs: []string{"./p"}, targs: []string{"-update"}},
		{args: []string{"-fuzz=X", "-update", "."}, fuzz: "X", targs: []string{"-update", "."}},
		{args: []string{"-golden=dir", "-v", "extra", "more"}, v: true, targs: []string{"-golden=dir", "extra", "more"}},
		{args: []string{".", "-golden", "dir", "-fuzz=X"}, fuzz: "X", pkgs: []string{"."}, targs: []string{"-golden", "dir"}},
		// go test's build flags, its test binary's own, -count=1.
		{args: []string{"-mod=mod", "-count=1", ".", "-ldflags", "-X a.b=c -s", "-trimpath", "-failfast", "-fuzz=X"}, fuzz: "X", pkgs: []string{"."},
			build: []string{"-mod=mod", "-ldflags=-X a.b=c -s", "-trimpath"}, targs: []string{"-test.failfast"}},
		{args: []string{"-update", "-fullpath", "."}, targs: []string{"-test.fullpath", "-update", "."}},
		// go test's -test.name form of its test binary's flags.
		{args: []string{"-test.fuzz=X", "-test.v", "-test.failfast", "."}, fuzz: "X", v: true, pkgs: []string{"."}, targs: []string{"-test.failfast"}},
		{args: []string{"-test.ldflags=-s", "."}, targs: []string{"-test.ldflags=-s", "."}},
		// -args and -- end the front end's flags.
		{args: []string{"-fuzz=X", ".", "-args", "-fuzz=Y", "extra"}, fuzz: "X", pkgs: []string{"."}, targs: []string{"-fuzz=Y", "extra"}},
		{args: []string{"-fuzz=X", "--args", "-args"}, fuzz: "X", targs: []string{"-args"}},
		{args: []string{"-fuzz=X", "--", "-v"}, fuzz: "X", targs: []string{"--", "-v"}},
		{args: []string{"-args"}},
		// -tags= overrides GOFLAGS' -tags, as for go test; a -tags with tags is the front end's.
		{args: []string{"-tags=", "."}, pkgs: []string{"."}, build: []string{"-tags="}},
		{args: []string{"-tags=integration", "."}, pkgs: []string{"."}},
		// Errors.
		// Refused, with the reason.
		{args: []string{"-count=2", "."}, pkgs: []string{"."}, refused: "-count=2 is go test's; fuzzbox takes only -count=1"},
		{args: []string{"-coverprofile", "c.out", "."}, pkgs: []string{"."}, refused: "go test's -coverprofile is not fuzzbox's: what a fuzz test's corpus covers is fuzzbox cover's"},
		{args: []string{"-c"}, refused: "go test's -c is not fuzzbox's"},
		{args: []string{".", "-fuzz"}, err: "flag needs an argument: -fuzz"},
		{args: []string{".", "-ldflags"}, err: "flag needs an argument: -ldflags"},
		{args: []string{"-v=maybe"}, err: `invalid value "maybe" for flag -v`},
	} {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fuzz := fs.String("fuzz", "", "")
		v := fs.Bool("v", false, "")
		fs.String("tags", "", "")
		cl, err := ParseCommandLine(fs, tc.args)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want one with %q", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if refused := strings.Join(cl.Refused, "\n"); !strings.Contains(refused, tc.refused) || (tc.refused == "") != (refused == "") {
			t.Errorf("%q: refused %q, want %q", tc.args, cl.Refused, tc.refused)
		}
		if *fuzz != tc.fuzz || *v != tc.v || !slices.Equal(cl.Positional, tc.pkgs) || !slices.Equal(cl.BuildFlags, tc.build) || !slices.Equal(cl.TestArgs, tc.targs) {
			t.Errorf("%q: fuzz %q v %v packages %q build %q test %q; want %q %v %q %q %q", tc.args, *fuzz, *v, cl.Positional, cl.BuildFlags, cl.TestArgs,
				tc.fuzz, tc.v, tc.pkgs, tc.build, tc.targs)
		}
	}
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	if _, err := ParseCommandLine(fs, []string{"-h"}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-h: %v, want flag.ErrHelp", err)
	}
}

// TestGoflagsWith: flags holding spaces are quoted as the go command's
// GOFLAGS splits them (cmd/internal/quoted); the user's GOFLAGS come first.
func TestGoflagsWith(t *testing.T) {
	got, err := goflagsWith(" -tags=x ", []string{"-mod=mod", "-ldflags=-X a.b=c -s", `-gcflags=-d="x y"`})
	if want := `-tags=x -mod=mod '-ldflags=-X a.b=c -s' '-gcflags=-d="x y"'`; err != nil || got != want {
		t.Errorf("goflagsWith = %q, %v; want %q", got, err, want)
	}
	if _, err := goflagsWith("", []string{`-ldflags=-X 'a.b=c d' -X "e.f=g h"`}); err == nil {
		t.Error("a flag with both quotes: no error")
	}
}

// TestReplayCommandsNamePackage: the replay commands fuzzbox prints name
// the package as seen from the directory the user ran it in (Config.Dir):
// "." was right only there (from the module's root, fuzzbox fuzz ... .
// said "no Go files").
func TestReplayCommandsNamePackage(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "kinds")
	for _, c := range []struct{ dir, pkgDir, want string }{
		{sub, sub, "go test '-run=^FuzzX$/^abc$' ."},
		{root, sub, "go test '-run=^FuzzX$/^abc$' ./kinds"},
		{sub, root, "cd " + root + " && go test '-run=^FuzzX$/^abc$' ."},
	} {
		cfg := Config{Dir: c.dir, RSSLimitMB: DefaultRSSLimitMB}
		tg := Target{Name: "FuzzX", Dir: c.pkgDir}
		if got := cfg.goTestCommand(tg, "abc"); got != c.want {
			t.Errorf("from %s, package %s: %q, want %q", c.dir, c.pkgDir, got, c.want)
		}
		want := strings.Replace(c.want, "go test '-run=^FuzzX$/^abc$'", "fuzzbox fuzz '-fuzz=^FuzzX$' -fuzztime=1x", 1)
		if got := cfg.fuzzboxReplayCommand(tg); got != want {
			t.Errorf("from %s, package %s: %q, want %q", c.dir, c.pkgDir, got, want)
		}
	}
}
