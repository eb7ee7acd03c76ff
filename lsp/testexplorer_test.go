package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/lsp"
	"github.com/fuzzbox/fuzzbox/lsp/command"
)

// TestTests lists the workspace's fuzz tests and corpus files; a malformed
// corpus file is listed with its error, and folders outside the workspace
// are refused.
func TestTests(t *testing.T) {
	root := fixture(t)
	bad := filepath.Join(root, "testdata/fuzz/FuzzParse/bad")
	os.WriteFile(bad, []byte("go test fuzz v1\nstring(\"unterminated)\n"), 0o644)
	// go test reads a linked file as a seed too (they were left out), and
	// fails to read a link to a directory.
	os.WriteFile(filepath.Join(root, "shared"), []byte("go test fuzz v1\nstring(\"linked\")\n"), 0o644)
	os.Symlink(filepath.Join(root, "shared"), filepath.Join(root, "testdata/fuzz/FuzzParse/linked"))
	os.Symlink(filepath.Join(root, "testdata"), filepath.Join(root, "testdata/fuzz/FuzzParse/dirlink"))
	os.MkdirAll(filepath.Join(root, "sub", "testdata"), 0o755)
	os.WriteFile(filepath.Join(root, "sub", "testdata", "x_test.go"), []byte("package x\nimport \"testing\"\nfunc FuzzHidden(f *testing.F) {}\n"), 0o644)
	c := start(t, root, lsp.Options{})
	res, err := c.execute(command.Tests, command.FolderArgs{URI: string(uri(root))})
	if err != nil {
		t.Fatal(err)
	}
	var list command.TestList
	json.Unmarshal(res, &list)
	var names []string
	var parse command.TestInfo
	for _, ti := range list.Tests {
		names = append(names, ti.Name)
		if ti.Name == "FuzzParse" {
			parse = ti
		}
	}
	if strings.Join(names, " ") != "FuzzLength FuzzModify FuzzParse" {
		t.Errorf("tests %q, want FuzzLength FuzzModify FuzzParse (none from testdata)", names)
	}
	if parse.ID != string(uri(root))+"#FuzzParse" || parse.URI != string(uri(filepath.Join(root, "parse_test.go"))) || parse.Line != 5 {
		t.Errorf("FuzzParse: %+v", parse)
	}
	if len(parse.Entries) != 4 || parse.Entries[0].Name != "bad" || !strings.HasPrefix(parse.Entries[0].Error, "malformed corpus file") ||
		parse.Entries[1].Name != "dirlink" || !strings.Contains(parse.Entries[1].Error, "is a directory") ||
		parse.Entries[2].Name != "linked" || parse.Entries[2].Error != "" || parse.Entries[3].Name != "ok1" || parse.Entries[3].Error != "" {
		t.Errorf("FuzzParse entries: %+v, want bad (malformed), dirlink (a directory, which go test fails to read), linked and ok1", parse.Entries)
	}
	if _, err := c.execute(command.Tests, command.FolderArgs{URI: "file:///etc"}); err == nil || !strings.Contains(err.Error(), "outside the workspace") {
		t.Errorf("listing /etc: %v, want outside the workspace", err)
	}
	c.stop()
}

// runEvent waits for the fuzzbox/run notification after from in the given state.
func (c *client) runEvent(from int, state string) (command.RunEvent, int) {
	c.t.Helper()
	m, next := c.waitFor(from, command.RunNotification, `"state":"`+state+`"`)
	var e command.RunEvent
	json.Unmarshal(*m.Params, &e)
	return e, next
}

// TestRunEvents: a run reports its start and its end; a failure carries the
// crash line in the user's code, the stack's frames, the input's values and
// the reproducer.
func TestRunEvents(t *testing.T) {
	root := fixture(t)
	crash := filepath.Join(root, "testdata/fuzz/FuzzParse/crash1")
	os.WriteFile(crash, []byte("go test fuzz v1\nstring(\"FUZZ!\")\n"), 0o644)
	c := start(t, root, lsp.Options{})
	id := string(uri(root)) + "#FuzzParse"

	from := c.mark()
	if _, err := c.execute(command.RerunEntry, command.EntryArgs{URI: string(uri(crash))}); err != nil {
		t.Fatal(err)
	}
	started, next := c.runEvent(from, command.StateStarted)
	if started.Test != id || started.Run != command.KindEntry || started.Entry != "crash1" {
		t.Errorf("started: %+v", started)
	}
	failed, _ := c.runEvent(next, command.StateFailed)
	f := failed.Failure
	if f == nil || f.Kind != "panic" || f.URI != string(uri(filepath.Join(root, "parse.go"))) || f.Line != 9 ||
		f.Reproducer != string(uri(crash)) || strings.Join(f.Values, ",") != `"FUZZ!"` || !strings.Contains(f.Stack, "index out of range") {
		t.Fatalf("failure: %+v", f)
	}
	found := false
	for _, fr := range f.Frames {
		found = found || fr.Func == "example.com/planted.Parse" && fr.Line == 9
	}
	if !found {
		t.Errorf("no frame example.com/planted.Parse at line 9 in %+v", f.Frames)
	}

	from = c.mark()
	if _, err := c.execute(command.RerunEntry, command.EntryArgs{URI: string(uri(filepath.Join(root, "testdata/fuzz/FuzzParse/ok1")))}); err != nil {
		t.Fatal(err)
	}
	passed, _ := c.runEvent(from, command.StatePassed)
	if passed.Entry != "ok1" || passed.Failure != nil {
		t.Errorf("passed: %+v", passed)
	}
	c.stop()
}

// TestCoverage measures the corpus of FuzzParse: the planted branch is never
// reached until an entry reaches it; gaps name its line. Lenses are answered
// while the coverage replay runs.
func TestCoverage(t *testing.T) {
	root := fixture(t)
	c := start(t, root, lsp.Options{})
	test := filepath.Join(root, "parse_test.go")
	args := command.FuzzArgs{URI: string(uri(test)), Name: "FuzzParse"}
	parse := string(uri(filepath.Join(root, "parse.go")))

	gapsDone := make(chan []command.Gap, 1)
	go func() {
		res, err := c.execute(command.CoverageGaps, args)
		var gaps []command.Gap
		if err != nil {
			t.Errorf("coverage gaps: %v", err)
		}
		json.Unmarshal(res, &gaps)
		gapsDone <- gaps
	}()
	if got := titles(c.lenses(test)); len(got) != 2 { // answered while the replay runs (no deadlock behind it)
		t.Errorf("lenses during coverage: %q", got)
	}
	gaps := <-gapsDone
	if len(gaps) != 1 || gaps[0].URI != parse || gaps[0].Line != 8 || gaps[0].Col != 3 || !strings.Contains(gaps[0].Text, "FuzzParse never reaches this (2 statements)") {
		t.Errorf("gaps %+v, want parse.go line 8 col 3 (the planted branch, 2 statements)", gaps)
	}

	os.WriteFile(filepath.Join(root, "testdata/fuzz/FuzzParse/magic"), []byte("go test fuzz v1\nstring(\"FUZZ\")\n"), 0o644)
	res, err := c.execute(command.Coverage, args)
	if err != nil {
		t.Fatal(err)
	}
	var rep command.CoverageReport
	json.Unmarshal(res, &rep)
	if len(rep.Files) != 1 || rep.Files[0].URI != parse || rep.Entries != 3 {
		t.Fatalf("coverage %+v, want parse.go only, 3 entries (seed, ok1, magic)", rep)
	}
	// magic crashes the test binary: its coverage is not counted, the planted branch stays unreached
	for _, b := range rep.Files[0].Blocks {
		if b.StartLine == 7 && b.Count != 0 {
			t.Errorf("the planted branch (crashes) counted as reached: %+v", b)
		}
		if b.StartLine == 6 && b.Count == 0 {
			t.Errorf("Parse's first block not reached: %+v", b)
		}
	}
	if _, err := c.execute(command.Coverage, command.FuzzArgs{URI: "file:///etc/passwd", Name: "FuzzParse"}); err == nil {
		t.Error("coverage of a file outside the workspace: no error")
	}
	c.stop()
}

// TestDebugEntry: the Delve command line of a corpus file, and the debug
// lens only for a client that runs the client command.
func TestDebugEntry(t *testing.T) {
	root := fixture(t)
	ok1 := filepath.Join(root, "testdata/fuzz/FuzzParse/ok1")
	c := start(t, root, lsp.Options{})
	res, err := c.execute(command.DebugEntry, command.EntryArgs{URI: string(uri(ok1))})
	if err != nil {
		t.Fatal(err)
	}
	var info command.DebugInfo
	json.Unmarshal(res, &info)
	if info.Dir != root || info.Test != "FuzzParse" || info.Entry != "ok1" || strings.Join(info.Args, " ") != "-test.run=^FuzzParse$/^ok1$" ||
		info.CommandLine != "cd "+root+" && dlv test . -- '-test.run=^FuzzParse$/^ok1$'" {
		t.Errorf("debug info %+v", info)
	}
	if got := titles(c.lenses(ok1)); strings.Contains(strings.Join(got, "|"), "debug") {
		t.Errorf("debug lens for a client without the client command: %q", got)
	}
	c.stop()

	c = startWith(t, root, json.RawMessage(`{"clientCommands":["fuzzbox.debug"]}`))
	lenses := c.lenses(ok1)
	if got := titles(lenses); len(got) != 3 || got[1] != "debug" || lenses[1].Command.Command != command.Debug {
		t.Errorf("lenses %q, want rerun, debug (fuzzbox.debug), values", got)
	}
	c.stop()
}

// startWith is start with initializationOptions.
func startWith(t *testing.T, root string, initOpts json.RawMessage) *client {
	return startOpts(t, root, lsp.Options{}, initOpts)
}

// TestShutdownStopsCoverage: shutdown while a coverage replay is answering
// stops it and waits for it; no process is left and later slow commands
// are refused.
func TestShutdownStopsCoverage(t *testing.T) {
	root := fixture(t)
	c := start(t, root, lsp.Options{})
	args := command.FuzzArgs{URI: string(uri(filepath.Join(root, "parse_test.go"))), Name: "FuzzParse"}
	answered := make(chan error, 1)
	go func() {
		_, err := c.execute(command.Coverage, args)
		answered <- err
	}()
	c.waitFor(0, "window/logMessage", "fuzzbox cover -json") // the replay has started
	c.stop()
	if ps := descendants(); len(ps) > 0 {
		t.Errorf("processes left after shutdown: %q", ps)
	}
	t.Logf("coverage answer at shutdown: %v", <-answered)
}
