package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestOSSFuzzInit checks the command's flags, output and exit codes; the
// files themselves are build.WriteOSSFuzz's (driver/build/ossfuzz_test.go).
func TestOSSFuzzInit(t *testing.T) {
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/deep/proj\n\ngo 1.21\n"})
	var out, errb bytes.Buffer
	if code := runOSSFuzz([]string{"init", "-dir", dir}, &out, &errb); code != exitOK {
		t.Fatalf("init: exit %d: %s", code, errb.String())
	}
	want := ""
	for _, f := range []string{"build.sh", "project.yaml", "Dockerfile"} {
		want += filepath.Join(dir, ".clusterfuzzlite", f) + "\n"
	}
	if out.String() != want {
		t.Errorf("init printed %q, want %q", out.String(), want)
	}
	errb.Reset()
	if code := runOSSFuzz([]string{"init", "-dir", dir}, &out, &errb); code != exitUsage || !strings.HasPrefix(errb.String(), "fuzzbox oss-fuzz init: ") || !strings.Contains(errb.String(), "-force") {
		t.Errorf("second init: exit %d, %q; want a refusal naming -force", code, errb.String())
	}
	if code := runOSSFuzz([]string{"init", "-dir", dir, "-force", "-name", "other"}, &out, &errb); code != exitOK {
		t.Errorf("init -force -name other: exit %d", code)
	}
	for _, args := range [][]string{nil, {"frob"}, {"init", "extra"}, {"init", "-bogus"}} {
		errb.Reset()
		if code := runOSSFuzz(args, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "usage: fuzzbox oss-fuzz init") {
			t.Errorf("%q: exit %d, stderr %q; want %d and the usage", args, code, errb.String(), exitUsage)
		}
	}
	for _, args := range [][]string{{"init", "-h"}, {"-h"}} {
		out.Reset()
		if code := runOSSFuzz(args, &out, &errb); code != exitOK || !strings.Contains(out.String(), "Flags:\n  -dir DIR") || !strings.Contains(out.String(), "-version") {
			t.Errorf("%q: exit %d, stdout %q; want the usage with the flags", args, code, out.String())
		}
	}
}
