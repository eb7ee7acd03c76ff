package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/engine/ipc"
)

func TestCacheWriter(t *testing.T) {
	dir, syncDir := t.TempDir(), t.TempDir()
	w := newCacheWriter(dir, func(msg string) { t.Errorf("warning: %s", msg) })
	var paths []string
	for _, s := range []string{"go test fuzz v1\nstring(\"a\")\n", "go test fuzz v1\nstring(\"b\")\n"} {
		paths = append(paths, w.save([]byte(s), ""))
	}
	// An import is linked from its file in the sync directory.
	imported := []byte("go test fuzz v1\nstring(\"c\")\n")
	src := filepath.Join(syncDir, corpus.Name(imported))
	if err := os.WriteFile(src, imported, 0o644); err != nil {
		t.Fatal(err)
	}
	paths = append(paths, w.save(imported, src))
	var log bytes.Buffer
	w.close(&log)
	if log.Len() > 0 {
		t.Errorf("log: %s", log.String())
	}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("entry not written: %v", err)
		}
	}
	fs, _ := os.Stat(src)
	if fc, err := os.Stat(paths[2]); err != nil || !os.SameFile(fs, fc) {
		t.Errorf("the import %s is not a link of %s (%v)", paths[2], src, err)
	}
	// The batch's temporary directory goes with the last flush.
	if tmps, _ := filepath.Glob(filepath.Join(dir, ".tmp-*")); len(tmps) != 0 {
		t.Errorf("close left %v", tmps)
	}
}

// TestCacheWriterWarnsAtOnce: a cache directory that cannot be written is
// reported at its first failure, once, and counted at the end (a full or
// read-only one lost every new input, said only after the run).
func TestCacheWriterWarnsAtOnce(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	warned := make(chan string, 10)
	w := newCacheWriter(filepath.Join(notDir, "FuzzX"), func(msg string) { warned <- msg })
	for _, s := range []string{"a", "b", "c", "d", "e"} {
		w.save([]byte("go test fuzz v1\nstring(\""+s+"\")\n"), "")
	}
	select {
	case msg := <-warned:
		if !strings.Contains(msg, "new inputs are not kept there") {
			t.Errorf("warning %q", msg)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no warning while the run goes on")
	}
	var log bytes.Buffer
	w.close(&log)
	if len(warned) != 0 {
		t.Errorf("%d more warnings during the run, want one", len(warned))
	}
	if !strings.Contains(log.String(), "failed in all") {
		t.Errorf("log at the end: %q, want the count of failed writes", log.String())
	}
}

func TestFuzzArgsSameDict(t *testing.T) {
	dict := [][]byte{[]byte("kw")}
	p := &proc{}
	first := p.fuzzArgs(&ipc.FuzzArgs{Dict: dict})
	if first.SameDict || len(first.Dict) != 1 {
		t.Fatalf("first call: %+v, want the dictionary sent", first)
	}
	again := p.fuzzArgs(&ipc.FuzzArgs{Dict: dict})
	if !again.SameDict || again.Dict != nil {
		t.Fatalf("second call: %+v, want SameDict", again)
	}
	grown := append(dict[:1:1], []byte("other"))
	if a := p.fuzzArgs(&ipc.FuzzArgs{Dict: grown}); a.SameDict || len(a.Dict) != 2 {
		t.Fatalf("after the dictionary changed: %+v, want it sent", a)
	}
	if a := (&proc{}).fuzzArgs(&ipc.FuzzArgs{Dict: dict}); a.SameDict {
		t.Fatalf("a fresh process: %+v, want the dictionary sent", a)
	}
}

func TestUnsentTokens(t *testing.T) {
	var w workerServer
	got := w.unsent([][]byte{[]byte("a"), []byte("b")})
	if len(got) != 2 {
		t.Fatalf("first: %q", got)
	}
	got = w.unsent([][]byte{[]byte("b"), []byte("c")})
	if len(got) != 1 || string(got[0]) != "c" {
		t.Fatalf("second: %q, want [c]", got)
	}
}
