package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOSSFuzzInit checks the files oss-fuzz init writes; .ci/ossfuzz.sh runs
// the build.sh with OSS-Fuzz's environment and clang.
func TestOSSFuzzInit(t *testing.T) {
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/deep/proj\n\ngo 1.21\n"})
	var out, errb bytes.Buffer
	if code := runOSSFuzz([]string{"init", "-dir", dir}, &out, &errb); code != exitOK {
		t.Fatalf("init: exit %d: %s", code, errb.String())
	}
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(dir, ".clusterfuzzlite", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	if sh := read("build.sh"); !strings.Contains(sh, `cd "$SRC/proj"`) || !strings.Contains(sh, `fuzzbox build -libfuzzer -o "$OUT"`) {
		t.Errorf("build.sh:\n%s", sh)
	}
	if df := read("Dockerfile"); !strings.Contains(df, "base-builder-go") || !strings.Contains(df, "fuzzbox/cmd/fuzzbox@latest") || !strings.Contains(df, "COPY . $SRC/proj") {
		t.Errorf("Dockerfile:\n%s", df)
	}
	if y := read("project.yaml"); y != "language: go\n" {
		t.Errorf("project.yaml = %q", y)
	}
	errb.Reset()
	if code := runOSSFuzz([]string{"init", "-dir", dir}, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "-force") {
		t.Errorf("second init: exit %d, %q; want a refusal naming -force", code, errb.String())
	}
	if code := runOSSFuzz([]string{"init", "-dir", dir, "-force", "-name", "other"}, &out, &errb); code != exitOK || !strings.Contains(read("build.sh"), "$SRC/other") {
		t.Errorf("init -force -name other: exit %d", code)
	}
	if code := runOSSFuzz(nil, &out, &errb); code != exitUsage {
		t.Errorf("no subcommand: exit %d, want %d", code, exitUsage)
	}
}
