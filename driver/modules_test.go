package driver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// End to end with the real runtime, the two kinds of module driver/build
// builds in a workspace of its own (its TestBuildInWorkspace and
// TestBuildVendored check the build alone): fuzzbox fuzz finds a bug in a
// package the fuzz test's module gets from a go.work workspace, or from
// its vendor directory with no module cache or proxy, and stock go test,
// in the same environment, fails on the reproducer.

const (
	workLib = `package lib

// Parse panics on "FUZ".
func Parse(s string) {
	if len(s) >= 3 && s[0] == 'F' && s[1] == 'U' && s[2] == 'Z' {
		panic("fuzzbox-e2e: lib bug")
	}
}
`
	workApp = `package app

import (
	"testing"

	"example.com/lib"
)

func FuzzParse(f *testing.F) {
	f.Add("F")
	f.Fuzz(func(t *testing.T, s string) { lib.Parse(s) })
}
`
)

func TestFuzzInWorkspace(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"go.work":       "go 1.24\n\nuse (\n\t./app\n\t./lib\n)\n",
		"app/go.mod":    "module example.com/app\n\ngo 1.24\n\nrequire example.com/lib v0.0.0\n",
		"app/app.go":    "package app\n",
		"app/x_test.go": workApp,
		"lib/go.mod":    "module example.com/lib\n\ngo 1.24\n",
		"lib/lib.go":    workLib,
	} {
		writeTestFile(t, filepath.Join(root, name), text)
	}
	t.Setenv("GOWORK", "")
	dir := filepath.Join(root, "app")
	r := fuzzIn(t, dir, Config{Fuzz: "^FuzzParse$", FuzzTime: "60s", RSSLimitMB: DefaultRSSLimitMB, Fuzzbox: testFuzzbox(t)}, ".")
	name := onlyReproducer(t, r, "FuzzParse")
	if !strings.Contains(r.out, "panic: fuzzbox-e2e: lib bug") || !strings.Contains(r.out, filepath.Join(root, "lib", "lib.go")) {
		t.Errorf("the failure is not lib's panic at lib/lib.go:\n%s", r)
	}
	stockReplay(t, dir, "FuzzParse", name)
}

func TestFuzzVendored(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":                        "module example.com/app\n\ngo 1.24\n\nrequire example.com/lib v1.0.0\n",
		"app.go":                        "package app\n",
		"x_test.go":                     workApp,
		"vendor/modules.txt":            "# example.com/lib v1.0.0\n## explicit; go 1.24\nexample.com/lib\n",
		"vendor/example.com/lib/lib.go": workLib,
	} {
		writeTestFile(t, filepath.Join(dir, name), text)
	}
	fuzzbox := testFuzzbox(t) // built before the module cache goes
	// Offline: nothing but the vendor directory provides example.com/lib.
	t.Setenv("GOWORK", "")
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOMODCACHE", t.TempDir())
	t.Setenv("GOFLAGS", "-modcacherw")
	r := fuzzIn(t, dir, Config{Fuzz: "^FuzzParse$", FuzzTime: "60s", RSSLimitMB: DefaultRSSLimitMB, Fuzzbox: fuzzbox}, ".")
	name := onlyReproducer(t, r, "FuzzParse")
	vendored := filepath.Join(dir, "vendor", "example.com", "lib", "lib.go")
	if !strings.Contains(r.out, "panic: fuzzbox-e2e: lib bug") || !strings.Contains(r.out, vendored) {
		t.Errorf("the failure is not lib's panic at %s:\n%s", vendored, r)
	}
	if _, err := os.Stat(filepath.Join(dir, "vendor", "modules.txt")); err != nil {
		t.Error(err)
	}
	stockReplay(t, dir, "FuzzParse", name)
}
