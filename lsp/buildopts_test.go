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
	for _, tc := range []struct {
		opts lsp.Options
		want string
	}{
		{lsp.Options{Tags: "special"}, "fail failure: fuzzbox-e2e: not -short"},
		{lsp.Options{Tags: "special", Short: true}, "FuzzTagged: pass"},
	} {
		c := start(t, root, tc.opts)
		from := c.mark()
		if _, err := c.execute(command.RunSeeds, args); err != nil {
			t.Fatal(err)
		}
		c.waitFor(from, "window/showMessage", tc.want)
		c.stop()
	}

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
}
