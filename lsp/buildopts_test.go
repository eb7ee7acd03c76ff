package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/lsp"
	"github.com/fuzzbox/fuzzbox/lsp/command"
)

// The editor's build tags and -short (fuzzbox lsp -tags, -short: the VS Code
// extension passes go.buildTags and go.testFlags) reach every operation: a
// fuzz test behind a build tag, which fails without -short, runs its seeds,
// reports its coverage and debugs with them, and without them it does not.

const (
	taggedCode = `//go:build special

package planted

// Tagged is compiled with -tags=special only.
func Tagged(s string) int {
	if len(s) > 3 {
		return 2
	}
	return 1
}
`
	taggedTest = `//go:build special

package planted

import "testing"

func FuzzTagged(f *testing.F) {
	f.Add("ab")
	f.Fuzz(func(t *testing.T, s string) {
		if !testing.Short() {
			t.Fatal("fuzzbox-e2e: not -short")
		}
		Tagged(s)
	})
}
`
)

func TestTagsAndShort(t *testing.T) {
	root := fixture(t)
	for name, text := range map[string]string{"tagged.go": taggedCode, "tagged_test.go": taggedTest} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(root, "testdata/fuzz/FuzzTagged"), 0o755)
	entry := filepath.Join(root, "testdata/fuzz/FuzzTagged/e1")
	os.WriteFile(entry, []byte("go test fuzz v1\nstring(\"abcd\")\n"), 0o644)
	args := command.FuzzArgs{URI: string(uri(filepath.Join(root, "tagged_test.go"))), Name: "FuzzTagged"}

	// Without -short the seeds fail; without the tag there is no FuzzTagged.
	runSeeds(t, root, lsp.Options{Tags: "special"}, args, "fail failure: fuzzbox-e2e: not -short")
	runSeeds(t, root, lsp.Options{Tags: "special", Short: true}, args, "FuzzTagged: pass")

	c := start(t, root, lsp.Options{Tags: "special", Short: true})
	res, err := c.execute(command.Coverage, args)
	if err != nil {
		t.Fatalf("coverage with the tag: %v", err)
	}
	var rep command.CoverageReport
	json.Unmarshal(res, &rep)
	tagged := string(uri(filepath.Join(root, "tagged.go")))
	if !slices.ContainsFunc(rep.Files, func(f command.FileCoverage) bool { return f.URI == tagged }) || rep.Entries != 2 {
		t.Errorf("coverage %+v, want tagged.go and two entries", rep)
	}
	res, err = c.execute(command.DebugEntry, command.EntryArgs{URI: string(uri(entry))})
	if err != nil {
		t.Fatal(err)
	}
	var info command.DebugInfo
	json.Unmarshal(res, &info)
	if !slices.Equal(info.BuildFlags, []string{"-tags=special"}) || !slices.Equal(info.Args, []string{"-test.run=^FuzzTagged$/^e1$", "-test.short"}) ||
		info.CommandLine != "cd "+root+" && dlv test --build-flags=-tags=special . -- '-test.run=^FuzzTagged$/^e1$' -test.short" {
		t.Errorf("debug info %+v", info)
	}
	c.stop()

	c = start(t, root, lsp.Options{})
	if _, err := c.execute(command.Coverage, args); err == nil || !strings.Contains(err.Error(), "FuzzTagged") {
		t.Errorf("coverage without the tag: %v, want an error naming FuzzTagged", err)
	}
	c.stop()

	// go test's vet checks fail the build, as under go test, unless -vet=off
	// (go.testFlags), which the debug session's build gets too.
	vetTest := "//go:build special\n\npackage planted\n\nimport \"testing\"\n\nfunc TestLog(t *testing.T) { t.Logf(\"%d\", \"s\") }\n"
	if err := os.WriteFile(filepath.Join(root, "vet_test.go"), []byte(vetTest), 0o644); err != nil {
		t.Fatal(err)
	}
	runSeeds(t, root, lsp.Options{Tags: "special", Short: true}, args, "wrong type string")
	runSeeds(t, root, lsp.Options{Tags: "special", Short: true, Vet: "off"}, args, "FuzzTagged: pass")
	c = start(t, root, lsp.Options{Tags: "special", Vet: "off"})
	res, err = c.execute(command.DebugEntry, command.EntryArgs{URI: string(uri(entry))})
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(res, &info)
	if !slices.Equal(info.BuildFlags, []string{"-tags=special", "-vet=off"}) || !strings.Contains(info.CommandLine, "dlv test --build-flags='-tags=special -vet=off' . -- ") {
		t.Errorf("debug info with -vet=off %+v", info)
	}
	c.stop()
	// go test's build flags of go.testFlags (the sidecar's builds get them
	// from GOFLAGS) reach the debug session's build, as Delve splits them.
	c = start(t, root, lsp.Options{Tags: "special", BuildFlags: []string{"-ldflags=-X a.b=c d", "-trimpath"}})
	res, err = c.execute(command.DebugEntry, command.EntryArgs{URI: string(uri(entry))})
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(res, &info)
	if !slices.Equal(info.BuildFlags, []string{"-tags=special", "'-ldflags=-X a.b=c d'", "-trimpath"}) ||
		!strings.Contains(info.CommandLine, `dlv test --build-flags='-tags=special '\''-ldflags=-X a.b=c d'\'' -trimpath' . -- `) {
		t.Errorf("debug info with build flags %+v", info)
	}
	c.stop()
}

// TestTestArgs: the test binary's own arguments (fuzzbox lsp -testarg: what
// follows -args in go.testFlags) reach runs and debug sessions; a fuzz test
// whose package defines a flag fails without it.
func TestTestArgs(t *testing.T) {
	root := fixture(t)
	flagTest := "package planted\n\nimport (\n\t\"flag\"\n\t\"testing\"\n)\n\nvar e2eFlag = flag.String(\"e2eflag\", \"\", \"\")\n\n" +
		"func FuzzFlag(f *testing.F) {\n\tf.Add(\"ab\")\n\tf.Fuzz(func(t *testing.T, s string) {\n\t\tif *e2eFlag != \"yes\" {\n\t\t\tt.Fatalf(\"fuzzbox-e2e: e2eflag=[%s]\", *e2eFlag)\n\t\t}\n\t})\n}\n"
	if err := os.WriteFile(filepath.Join(root, "flag_test.go"), []byte(flagTest), 0o644); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(root, "testdata/fuzz/FuzzFlag"), 0o755)
	entry := filepath.Join(root, "testdata/fuzz/FuzzFlag/e1")
	os.WriteFile(entry, []byte("go test fuzz v1\nstring(\"abcd\")\n"), 0o644)
	args := command.FuzzArgs{URI: string(uri(filepath.Join(root, "flag_test.go"))), Name: "FuzzFlag"}

	runSeeds(t, root, lsp.Options{}, args, "fuzzbox-e2e: e2eflag=[]")
	opts := lsp.Options{TestArgs: []string{"-e2eflag=yes"}}
	runSeeds(t, root, opts, args, "FuzzFlag: pass")
	c := start(t, root, opts)
	defer c.stop()
	res, err := c.execute(command.DebugEntry, command.EntryArgs{URI: string(uri(entry))})
	if err != nil {
		t.Fatal(err)
	}
	var info command.DebugInfo
	json.Unmarshal(res, &info)
	if !slices.Equal(info.Args, []string{"-test.run=^FuzzFlag$/^e1$", "-e2eflag=yes"}) || !strings.HasSuffix(info.CommandLine, " -- '-test.run=^FuzzFlag$/^e1$' -e2eflag=yes") {
		t.Errorf("debug info %+v", info)
	}
}

// runSeeds runs the seeds of args' fuzz test on a server with opts and
// waits for a message containing want.
func runSeeds(t *testing.T, root string, opts lsp.Options, args command.FuzzArgs, want string) {
	t.Helper()
	c := start(t, root, opts)
	defer c.stop()
	from := c.mark()
	if _, err := c.execute(command.RunSeeds, args); err != nil {
		t.Fatal(err)
	}
	c.waitFor(from, "window/showMessage", want)
}

// TestFuzzvetTags: fuzzvet checks the files of the editor's build tags: a
// mistake in a file behind one was not reported (go vet -tags reports it).
func TestFuzzvetTags(t *testing.T) {
	root := fixture(t)
	bad := filepath.Join(root, "tagged_test.go")
	os.WriteFile(bad, []byte("//go:build special\n\npackage planted\n\nimport \"testing\"\n\nfunc FuzzBad(f *testing.F) {\n\tf.Add(5)\n\tf.Fuzz(func(t *testing.T, n uint8) {})\n}\n"), 0o644)
	c := start(t, root, lsp.Options{Tags: "special"})
	from := c.mark()
	c.open(bad)
	c.waitFor(from, "textDocument/publishDiagnostics", `untyped constant 5`)
	c.stop()
}
