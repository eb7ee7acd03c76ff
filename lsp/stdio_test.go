package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNewLog: the sidecar's log goes to the writer, or is appended to the
// file; a file that cannot be opened is an error.
func TestNewLog(t *testing.T) {
	var b strings.Builder
	l, closeLog, err := NewLog("", &b)
	if err != nil {
		t.Fatal(err)
	}
	l.Printf("hello %d", 1)
	if err := closeLog(); err != nil || !strings.HasPrefix(b.String(), "fuzzbox lsp: ") || !strings.HasSuffix(b.String(), " hello 1\n") {
		t.Errorf("log %q, close %v", b.String(), err)
	}
	file := filepath.Join(t.TempDir(), "log")
	for _, msg := range []string{"one", "two"} {
		l, closeLog, err := NewLog(file, &b)
		if err != nil {
			t.Fatal(err)
		}
		l.Print(msg)
		closeLog()
	}
	if data, _ := os.ReadFile(file); strings.Count(string(data), "fuzzbox lsp: ") != 2 || !strings.HasSuffix(string(data), " two\n") {
		t.Errorf("log file %q: want both lines, appended", data)
	}
	if _, _, err := NewLog(filepath.Join(file, "sub"), &b); err == nil {
		t.Error("a log file under a regular file: no error")
	}
}
