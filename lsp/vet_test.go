package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"
)

// An open document that is the file on disk is no overlay: any overlay makes
// go/packages type-check every dependency from source (go-ethereum's
// core/vm: 425 MB and 10.7 s instead of 55 MB and 1.4 s).
func TestVetOverlayOnlyUnsavedEdits(t *testing.T) {
	dir := t.TempDir()
	clean, dirty := filepath.Join(dir, "clean_test.go"), filepath.Join(dir, "dirty_test.go")
	for _, p := range []string{clean, dirty} {
		if err := os.WriteFile(p, []byte("package p\n"), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	s := New(Options{})
	s.open[clean] = "package p\n"
	s.open[dirty] = "package p\n\nfunc F() {}\n"
	s.open[filepath.Join(t.TempDir(), "other.go")] = "package q\n" // another package
	got := s.overlay(dir)
	if len(got) != 1 || string(got[dirty].text) != s.open[dirty] || string(got[dirty].disk) != "package p\n" {
		t.Errorf("overlay = %q, want only %s with its unsaved text", got, dirty)
	}
}

// fuzzvet loads one package at a time, and a request superseded while it
// waits is dropped: an editor restoring its tabs opens test files of many
// packages at once (go-ethereum, eight of them: 1.9 GB in the server).
func TestVetOneLoadAtATime(t *testing.T) {
	var mu sync.Mutex
	running, most := 0, 0
	loads := map[string]int{}
	old := loadPackages
	loadPackages = func(cfg *packages.Config, patterns ...string) ([]*packages.Package, error) {
		mu.Lock()
		running++
		most = max(most, running)
		loads[cfg.Dir]++
		mu.Unlock()
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		running--
		mu.Unlock()
		return nil, nil
	}
	defer func() { loadPackages = old }()

	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := New(Options{})
	s.roots = []string{root}
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	s.vetSlot <- struct{}{} // a load in progress
	for range 3 {
		s.vetLater(filepath.Join(a, "a_test.go"))
	}
	s.vetLater(filepath.Join(b, "b_test.go"))
	time.Sleep(50 * time.Millisecond)
	<-s.vetSlot
	s.runsWG.Wait()
	if most != 1 || loads[a] != 1 || loads[b] != 1 {
		t.Errorf("most loads at once = %d, loads = %v; want 1, and one load of each package", most, loads)
	}
}

// A package fuzzvet cannot check (a type error: gopls shows it) says so in
// the log: its fuzzvet diagnostics disappeared without a word.
func TestVetTypeErrorLogged(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":    "module example.com/p\n\ngo 1.26\n",
		"p_test.go": "package p\n\nimport \"testing\"\n\nfunc FuzzX(f *testing.F) { var n int = \"x\"; _ = n }\n",
	}
	writeFiles(t, dir, files)
	var mu sync.Mutex
	var logged []string
	s := New(Options{Logf: func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		logged = append(logged, fmt.Sprintf(format, args...))
	}})
	if _, err := s.vet(dir); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, l := range logged {
		if strings.Contains(l, "fuzzvet "+dir+": not checked:") {
			return
		}
	}
	t.Errorf("no log line says the package was not checked: %q", logged)
}

// An unsaved edit that keeps its file's imports is checked as the editor
// has it without an overlay, which would make go/packages type-check every
// dependency from source (go-ethereum's core/vm: 10.7 s and 425 MB instead
// of 1.4 s and 55 MB). An edit that changes the imports still goes in as an
// overlay: go list must see it.
func TestVetUnsavedEditKeepsExportData(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "p_test.go")
	onDisk := "package p\n\nimport \"testing\"\n\nfunc FuzzX(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, b []byte) {})\n}\n"
	writeFiles(t, dir, map[string]string{"go.mod": "module example.com/p\n\ngo 1.26\n", "p_test.go": onDisk})
	var overlays []int
	old := loadPackages
	loadPackages = func(cfg *packages.Config, patterns ...string) ([]*packages.Package, error) {
		overlays = append(overlays, len(cfg.Overlay))
		return old(cfg, patterns...)
	}
	defer func() { loadPackages = old }()
	s := New(Options{})
	for _, tc := range []struct {
		name, text string
		overlay    int // files the load took as an overlay
	}{
		{"same imports", onDisk, 0},
		{"a new import", strings.Replace(onDisk, "import \"testing\"", "import (\n\t\"strings\"\n\t\"testing\"\n)\n\nvar _ = strings.Cut", 1), 1},
	} {
		s.open[file] = strings.Replace(tc.text, "f.Fuzz", "f.Add(1)\n\tf.Fuzz", 1)
		overlays = nil
		byPath, err := s.vet(dir)
		if err != nil {
			t.Fatal(err)
		}
		var msgs []string
		for _, d := range byPath[file] {
			msgs = append(msgs, d.Message)
		}
		if len(msgs) == 0 || !strings.Contains(strings.Join(msgs, "\n"), "f.Add") || len(overlays) != 1 || overlays[0] != tc.overlay {
			t.Errorf("%s: diagnostics %q, overlays %v; want the unsaved f.Add's, from one load with %d overlaid files", tc.name, msgs, overlays, tc.overlay)
		}
	}
}

// What an edit must keep to be parsed in place of its file.
func TestSameShape(t *testing.T) {
	disk := "//go:build linux\n\n// Package a.\npackage a\n\nimport (\n\tstr \"strings\"\n\t\"os\"\n)\n\nvar _ = str.Cut\nvar _ = os.Args\n"
	for _, tc := range []struct {
		edit string
		same bool
	}{
		{strings.Replace(disk, "Cut", "Fields", 1), true},
		{strings.Replace(disk, "str \"strings\"", "\"strings\"", 1) + "var _ = strings.Cut\n", true}, // the name of an import is no matter to go list
		{strings.Replace(disk, "\t\"os\"\n", "", 1), false},
		{strings.Replace(disk, "linux", "darwin", 1), false},
		{strings.Replace(disk, "package a", "package a_test", 1), false},
		{strings.Replace(disk, "\t\"os\"\n", "\t\"os\"\n\t\"C\"\n", 1), false},
		{strings.Replace(disk, "import (", "import ((", 1), false},
	} {
		if got := sameShape([]byte(disk), []byte(tc.edit)); got != tc.same {
			t.Errorf("sameShape(%q) = %v, want %v", tc.edit, got, tc.same)
		}
	}
	if sameShape(nil, []byte(disk)) {
		t.Error("a file not on disk has the same shape")
	}
}
