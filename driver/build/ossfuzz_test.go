package build

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWriteOSSFuzz checks the setup files; .ci/ossfuzz.sh runs the build.sh
// with OSS-Fuzz's environment and clang.
func TestWriteOSSFuzz(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"go.mod": "module example.com/deep/proj\n\ngo 1.21\n"})
	ctx := context.Background()
	written, err := WriteOSSFuzz(ctx, OSSFuzzOptions{Dir: dir})
	var want []string
	for _, rel := range ossFuzzFiles {
		want = append(want, filepath.Join(dir, rel))
	}
	if err != nil || !slices.Equal(written, want) {
		t.Fatalf("WriteOSSFuzz = %q, %v; want %q", written, err, want)
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
	if info, err := os.Stat(want[0]); err != nil || info.Mode().Perm()&0o100 == 0 {
		t.Errorf("build.sh is not executable: %v, %v", info, err)
	}
	if written, err := WriteOSSFuzz(ctx, OSSFuzzOptions{Dir: dir}); len(written) != 0 || err == nil || !strings.Contains(err.Error(), "exists (-force overwrites it)") {
		t.Errorf("second WriteOSSFuzz = %q, %v; want a refusal", written, err)
	}
	os.Remove(want[0])
	if written, err := WriteOSSFuzz(ctx, OSSFuzzOptions{Dir: dir}); !slices.Equal(written, want[:1]) || err == nil {
		t.Errorf("WriteOSSFuzz with one file missing = %q, %v; want it written, then a refusal", written, err)
	}
	if _, err := WriteOSSFuzz(ctx, OSSFuzzOptions{Dir: dir, Force: true, Name: "other", Version: "v1.2.3"}); err != nil ||
		!strings.Contains(read("build.sh"), "$SRC/other") || !strings.Contains(read("Dockerfile"), "fuzzbox@v1.2.3") {
		t.Errorf("WriteOSSFuzz with Force, Name and Version: %v", err)
	}
	if _, err := WriteOSSFuzz(ctx, OSSFuzzOptions{Dir: filepath.Join(t.TempDir(), "missing")}); err == nil || !strings.Contains(err.Error(), "finding the module in") {
		t.Errorf("WriteOSSFuzz in a missing directory: %v", err)
	}
}
