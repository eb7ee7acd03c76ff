package lsp_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/lsp"
	"github.com/fuzzbox/fuzzbox/lsp/command"
)

// TestGenerated: the generated corpus on request. fuzzbox.showGenerated
// lists it (in the user cache dir, fuzzbox/fuzz/<import path>/FuzzX) in
// fuzzbox.tests; files written and deleted there bring fuzzbox/testsChanged;
// a malformed file is an entry with its error; fuzzbox.copyGenerated copies
// an entry to testdata/fuzz/FuzzX (refusing bad names and different files
// already there); hiding it takes it out of the list again.
func TestGenerated(t *testing.T) {
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOCACHE", strings.TrimSpace(string(gocache))) // keep the build cache while the user cache dir moves
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	gen := filepath.Join(cache, "fuzzbox", "fuzz", "example.com", "planted", "FuzzParse")
	root := fixture(t)
	c := start(t, root, lsp.Options{})
	test := command.GeneratedArgs{URI: string(uri(filepath.Join(root, "parse_test.go"))), Name: "FuzzParse"}
	parse := func() command.TestInfo {
		t.Helper()
		res, err := c.execute(command.Tests, command.FolderArgs{URI: string(uri(root))})
		if err != nil {
			t.Fatal(err)
		}
		var list command.TestList
		json.Unmarshal(res, &list)
		for _, ti := range list.Tests {
			if ti.Name == "FuzzParse" {
				return ti
			}
		}
		t.Fatalf("no FuzzParse in %s", res)
		return command.TestInfo{}
	}
	if g := parse().Generated; g != nil {
		t.Errorf("generated corpus listed before it was asked for: %+v", g)
	}

	show := test
	show.Show = true
	res, err := c.execute(command.ShowGenerated, show)
	if err != nil {
		t.Fatal(err)
	}
	var g command.GeneratedCorpus
	json.Unmarshal(res, &g)
	if g.Dir != gen || len(g.Entries) != 0 || g.Error != "" {
		t.Errorf("showGenerated before any fuzzing: %s, want dir %s and no entries", res, gen)
	}

	from := c.mark()
	os.MkdirAll(gen, 0o755)
	os.WriteFile(filepath.Join(gen, "0123abcd"), []byte("go test fuzz v1\nstring(\"FUZ\")\n"), 0o644)
	os.WriteFile(filepath.Join(gen, "bad"), []byte("go test fuzz v1\nstring(\"unterminated)\n"), 0o644)
	_, from = c.waitFor(from, command.TestsChanged, "")
	ti := parse()
	if ti.Generated == nil || len(ti.Generated.Entries) != 2 {
		t.Fatalf("generated entries %+v, want 0123abcd and bad", ti.Generated)
	}
	if e := ti.Generated.Entries[0]; e.Name != "0123abcd" || e.Error != "" || e.URI != string(uri(filepath.Join(gen, "0123abcd"))) {
		t.Errorf("entry %+v, want 0123abcd", e)
	}
	if e := ti.Generated.Entries[1]; e.Name != "bad" || !strings.HasPrefix(e.Error, "malformed corpus file") {
		t.Errorf("entry %+v, want bad, malformed", e)
	}
	if len(ti.Entries) != 1 || ti.Entries[0].Name != "ok1" {
		t.Errorf("testdata entries %+v, want ok1 only", ti.Entries)
	}

	os.Remove(filepath.Join(gen, "bad"))
	c.waitFor(from, command.TestsChanged, "")
	if ti := parse(); len(ti.Generated.Entries) != 1 {
		t.Errorf("after deleting bad: %+v", ti.Generated.Entries)
	}

	cp := test
	cp.Entry = "0123abcd"
	res, err = c.execute(command.CopyGenerated, cp)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(root, "testdata/fuzz/FuzzParse/0123abcd")
	var e command.EntryInfo
	json.Unmarshal(res, &e)
	if b, _ := os.ReadFile(dst); e.URI != string(uri(dst)) || string(b) != "go test fuzz v1\nstring(\"FUZ\")\n" {
		t.Errorf("copy: %s, file %q", res, b)
	}
	if _, err := c.execute(command.CopyGenerated, cp); err != nil {
		t.Errorf("copying the same entry again: %v", err)
	}
	os.WriteFile(dst, []byte("go test fuzz v1\nstring(\"other\")\n"), 0o644)
	if _, err := c.execute(command.CopyGenerated, cp); err == nil || !strings.Contains(err.Error(), "exists with other contents") {
		t.Errorf("copying over a different file: %v", err)
	}
	for _, name := range []string{"", "../parse.go", "missing"} {
		cp.Entry = name
		if _, err := c.execute(command.CopyGenerated, cp); err == nil {
			t.Errorf("copying %q: no error", name)
		}
	}
	outside := command.GeneratedArgs{URI: "file:///etc/x_test.go", Name: "FuzzX", Show: true}
	if _, err := c.execute(command.ShowGenerated, outside); err == nil || !strings.Contains(err.Error(), "outside the workspace") {
		t.Errorf("a test outside the workspace: %v", err)
	}

	if _, err := c.execute(command.ShowGenerated, test); err != nil { // Show false: stop listing it
		t.Fatal(err)
	}
	if g := parse().Generated; g != nil {
		t.Errorf("generated corpus still listed after hiding it: %+v", g)
	}
	c.stop()
}
