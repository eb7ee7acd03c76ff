package build

import (
	"context"
	"os"
	"os/exec"
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
	if sh := read("build.sh"); !strings.Contains(sh, `cd "$SRC/proj"`) || !strings.Contains(sh, `fuzzbox build -libfuzzer ${tags:+-tags="$tags"} -o "$work/out" .`) {
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

// TestOSSFuzzBuildSh runs the build.sh with a stand-in fuzzbox (it writes
// what fuzzbox build -libfuzzer writes, for the fuzz tests go list gives;
// .ci/ossfuzz.sh runs the real one): two packages' fuzz tests of the same
// name both reach $OUT, the second named after its package; a fuzz test in
// a file the tags exclude is not built, nor does it stop the script, and
// with -tags it is; nor do a function named Fuzzy or a line in a string
// that looks like a fuzz test (the script stopped at them); a renamed fuzz
// test's .options names its own dictionary.
func TestOSSFuzzBuildSh(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	fuzz := func(pkg, name string) string {
		return "package " + pkg + "\n\nimport \"testing\"\n\nfunc " + name + "(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) {}) }\n"
	}
	src := t.TempDir()
	mod := filepath.Join(src, "proj")
	writeFiles(t, mod, map[string]string{
		"go.mod":           "module example.com/proj\n\ngo 1.21\n",
		"a/a_test.go":      fuzz("a", "FuzzCompress"),
		"b/sub/b_test.go":  fuzz("sub", "FuzzCompress"),
		"c/c_test.go":      "package c\n\nimport \"testing\"\n\nfunc TestC(t *testing.T) {}\n",
		"c/tagged_test.go": "//go:build gofuzz\n\n" + fuzz("c", "FuzzTagged"),
		"d/nofuzz_test.go": "package d\n\nimport \"testing\"\n\nfunc TestD(t *testing.T) {}\n",
		"e/e_test.go":      "package e\n\nimport \"testing\"\n\nfunc Fuzzy(t *testing.T) {}\n\nfunc TestE(t *testing.T) { Fuzzy(t) }\n",
		"f/f_test.go":      "package f\n\nimport \"testing\"\n\nconst src = `package g\nfunc FuzzG(f *testing.F) {}\n`\n\nfunc TestF(t *testing.T) { _ = src }\n",
	})
	stub := t.TempDir()
	writeFiles(t, stub, map[string]string{"fuzzbox": `#!/bin/bash
# fuzzbox build -libfuzzer [-tags=T] -o DIR .
tags=; out=
for a in "$@"; do case "$a" in -tags=*) tags=${a#-tags=} ;; esac; done
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
names=$(go test ${tags:+-tags=$tags} -list '^Fuzz' . | grep '^Fuzz' || true)
[ -n "$names" ] || { echo "fuzzbox build: build: no fuzz test of $PWD matches -fuzz=\"\" (fuzz tests: none)" >&2; exit 2; }
mkdir -p "$out"
for n in $names; do
	echo "$PWD" >"$out/$n"; chmod +x "$out/$n"; echo x >"$out/${n}_seed_corpus.zip"; echo x >"$out/$n.dict"
	printf '[libfuzzer]\ndict = %s.dict\n' "$n" >"$out/$n.options"
done
`})
	os.Chmod(filepath.Join(stub, "fuzzbox"), 0o755)
	run := func(tags string) (string, map[string]string) {
		if _, err := WriteOSSFuzz(context.Background(), OSSFuzzOptions{Dir: mod, Force: true, Tags: tags}); err != nil {
			t.Fatal(err)
		}
		out := t.TempDir()
		cmd := exec.Command("bash", "-eu", filepath.Join(mod, ".clusterfuzzlite", "build.sh"))
		cmd.Env = append(os.Environ(), "SRC="+src, "OUT="+out, "PATH="+stub+string(os.PathListSeparator)+os.Getenv("PATH"), "GOFLAGS=-mod=mod")
		log, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("build.sh (tags %q): %v\n%s", tags, err, log)
		}
		files := map[string]string{}
		ents, _ := os.ReadDir(out)
		for _, e := range ents {
			data, _ := os.ReadFile(filepath.Join(out, e.Name()))
			files[e.Name()] = strings.TrimSpace(string(data))
		}
		return string(log), files
	}
	log, files := run("")
	if files["FuzzCompress"] != filepath.Join(mod, "a") || files["b_sub_FuzzCompress"] != filepath.Join(mod, "b", "sub") ||
		files["b_sub_FuzzCompress_seed_corpus.zip"] == "" || files["b_sub_FuzzCompress.dict"] == "" {
		t.Errorf("$OUT: %v; want a's FuzzCompress and b/sub's as b_sub_FuzzCompress, each with its files", files)
	}
	if files["b_sub_FuzzCompress.options"] != "[libfuzzer]\ndict = b_sub_FuzzCompress.dict" || files["FuzzCompress.options"] != "[libfuzzer]\ndict = FuzzCompress.dict" {
		t.Errorf("want each .options to name its own dictionary, got %q and %q", files["FuzzCompress.options"], files["b_sub_FuzzCompress.options"])
	}
	if !strings.Contains(log, "FuzzCompress of b/sub is built as b_sub_FuzzCompress") {
		t.Errorf("build.sh did not say it renamed a fuzz test:\n%s", log)
	}
	if _, ok := files["FuzzTagged"]; ok {
		t.Errorf("FuzzTagged, behind a tag, was built without it")
	}
	if _, files = run("gofuzz"); files["FuzzTagged"] != filepath.Join(mod, "c") {
		t.Errorf("with -tags=gofuzz, $OUT: %v; want FuzzTagged", files)
	}
}
