package build

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// offline makes the go command unable to fetch or find any module but the
// build's own: an empty module cache, no proxy. fuzzbox's workspace
// directories go to a temporary cache directory; the go build cache stays
// where it is.
func offline(t *testing.T) {
	t.Helper()
	gocache, err := (goCmd{}).output(context.Background(), "env", "GOCACHE")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOCACHE", strings.TrimSpace(string(gocache)))
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("GOMODCACHE", t.TempDir())
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-modcacherw")
	t.Setenv("GOWORK", "")
}

const libInWorkspace = `package lib

import "runtime"

// Where returns the file it is in, as the binary recorded it.
func Where() string {
	_, file, _, _ := runtime.Caller(0)
	return file
}
`

const usesLib = `package app

import (
	"testing"

	"example.com/lib"
)

func TestWhere(t *testing.T) { t.Log("lib is in " + lib.Where()) }

func FuzzApp(f *testing.F) {
	f.Add("a")
	f.Fuzz(func(t *testing.T, s string) { lib.Where() })
}
`

// TestBuildInWorkspace: a module of a go.work workspace that requires
// another of its modules, which no proxy serves and no go.sum lists, builds
// as go test builds it (it failed with "missing go.sum entry" when the
// build turned the workspace off). The user's go.work is left as it was.
func TestBuildInWorkspace(t *testing.T) {
	offline(t)
	work := "go 1.21\n\nuse (\n\t./app\n\t./lib\n)\n\nreplace example.com/unused => ./unused\n"
	opts := setup(t, map[string]string{
		"go.work":       work,
		"app/go.mod":    "module example.com/app\n\ngo 1.21\n\nrequire example.com/lib v0.0.0\n",
		"app/app.go":    "package app\n",
		"app/x_test.go": usesLib,
		"lib/go.mod":    "module example.com/lib\n\ngo 1.21\n",
		"lib/lib.go":    libInWorkspace,
		"unused/go.mod": "module example.com/unused\n\ngo 1.21\n",
	})
	root := opts.Dir
	opts.Dir = filepath.Join(root, "app")
	res, err := Build(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	out, code := runBinary(t, res.Binary, opts.Dir, "-test.run=.", "-test.v")
	want := "lib is in " + filepath.Join(root, "lib", "lib.go")
	if code != 0 || !strings.Contains(out, want) || !strings.Contains(out, "--- PASS: FuzzApp/seed#0") {
		t.Errorf("binary exit %d, want %q and FuzzApp's seed passing:\n%s", code, want, out)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "go.work")); string(data) != work {
		t.Errorf("go.work changed:\n%s", data)
	}
}

// TestBuildVendored: a module with a vendor directory builds from it, with
// no module cache or proxy to fetch its requirements from (it failed with
// "module lookup disabled by GOPROXY=off"), and the binary names the
// vendored files by their paths in the module, as go test's does.
func TestBuildVendored(t *testing.T) {
	offline(t)
	modules := "# example.com/lib v1.0.0\n## explicit; go 1.21\nexample.com/lib\n"
	opts := setup(t, map[string]string{
		"go.mod":                         "module example.com/app\n\ngo 1.21\n\nrequire example.com/lib v1.0.0\n",
		"app.go":                         "package app\n",
		"x_test.go":                      usesLib,
		"vendor/modules.txt":             modules,
		"vendor/example.com/lib/lib.go":  libInWorkspace,
		"vendor/example.com/lib/LICENSE": "none\n",
	})
	res, err := Build(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	out, code := runBinary(t, res.Binary, opts.Dir, "-test.run=.", "-test.v")
	want := "lib is in " + filepath.Join(opts.Dir, "vendor", "example.com", "lib", "lib.go")
	if code != 0 || !strings.Contains(out, want) {
		t.Errorf("binary exit %d, want %q:\n%s", code, want, out)
	}
	if data, _ := os.ReadFile(filepath.Join(opts.Dir, "vendor", "modules.txt")); string(data) != modules {
		t.Errorf("vendor/modules.txt changed:\n%s", data)
	}

	// A vendored package changed: the next build compiles the change.
	writeFiles(t, opts.Dir, map[string]string{"vendor/example.com/lib/lib.go": strings.Replace(libInWorkspace, "return file", `return "changed " + file`, 1)})
	if _, err := Build(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if out, _ := runBinary(t, res.Binary, opts.Dir, "-test.run=TestWhere", "-test.v"); !strings.Contains(out, "lib is in changed ") {
		t.Errorf("the rebuilt binary does not have the changed vendored package:\n%s", out)
	}

	// -mod=mod in GOFLAGS: go test uses the module cache, and so does the
	// build (which fails here, offline, as go test does).
	t.Setenv("GOFLAGS", "-modcacherw -mod=mod")
	if _, err := Build(context.Background(), opts); err == nil || !strings.Contains(err.Error(), "module lookup disabled") {
		t.Errorf("with -mod=mod: err = %v, want the module lookup refused", err)
	}
}

func TestWithPathMap(t *testing.T) {
	t.Setenv(pathMapEnv, "/w/vendor=>/m/vendor")
	for _, c := range []struct{ in, want []string }{
		{[]string{"compile", "-trimpath", "$WORK/b001=>", "-p", "x", "a.go"}, []string{"compile", "-trimpath", "$WORK/b001=>;/w/vendor=>/m/vendor", "-p", "x", "a.go"}},
		{[]string{"asm", "-trimpath=$WORK/b001=>", "a.s"}, []string{"asm", "-trimpath=$WORK/b001=>;/w/vendor=>/m/vendor", "a.s"}},
		{[]string{"cgo", "-objdir", "o", "a.go"}, []string{"cgo", "-trimpath=/w/vendor=>/m/vendor", "-objdir", "o", "a.go"}},
		{[]string{"compile", "-V=full"}, []string{"compile", "-V=full"}},
	} {
		if got := withPathMap(c.in); !slices.Equal(got, c.want) {
			t.Errorf("withPathMap(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	t.Setenv(pathMapEnv, "")
	in := []string{"compile", "-trimpath", "$WORK/b001=>", "a.go"}
	if got := withPathMap(in); !slices.Equal(got, in) {
		t.Errorf("without a map: %q, want %q", got, in)
	}
}

// TestVendored: when go test builds a module from its vendor directory.
func TestVendored(t *testing.T) {
	for _, c := range []struct {
		goLine, goflags string
		vendor, want    bool
	}{
		{"1.21", "", true, true},
		{"1.21", "", false, false},
		{"1.13", "", true, false},
		{"1.13", "-mod=vendor", true, true},
		{"1.21", "-mod=mod", true, false},
		{"1.21", "-buildvcs=false --mod=readonly", true, false},
	} {
		dir := t.TempDir()
		files := map[string]string{"go.mod": "module example.com/v\n\ngo " + c.goLine + "\n"}
		if c.vendor {
			files["vendor/modules.txt"] = ""
		}
		writeFiles(t, dir, files)
		g := goCmd{dir: dir, gomod: filepath.Join(dir, "go.mod"), goflags: c.goflags}
		if got, err := g.vendored(context.Background()); err != nil || got != c.want {
			t.Errorf("go %s, GOFLAGS=%q, vendor directory %v: vendored = %v, %v; want %v", c.goLine, c.goflags, c.vendor, got, err, c.want)
		}
	}
}

// TestMirrorVendorConcurrent: builds of one vendored module at the same time
// in one process (fuzzbox fuzz builds its race twin beside the main binary)
// write its workspace's vendor directory without getting in each other's
// way (with temporary names per process, they made the same one).
func TestMirrorVendorConcurrent(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "vendor")
	files := map[string]string{"modules.txt": "# example.com/lib0 v1.0.0\n## explicit; go 1.21\nexample.com/lib0\n"}
	for i := range 200 {
		files[fmt.Sprintf("example%d.com/lib/lib.go", i)] = "package lib\n"
	}
	writeFiles(t, src, files)
	for round := range 3 {
		start := make(chan struct{})
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Go(func() {
				<-start
				_, errs[i] = mirrorVendor(src, dst, true)
			})
		}
		close(start)
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Errorf("round %d: %v", round, err)
			}
		}
		os.RemoveAll(dst)
	}
	if ok, err := mirrorVendor(src, dst, true); err != nil || !ok {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(dst)
	if err != nil || len(ents) != 201 {
		t.Errorf("the vendor directory has %d entries (%v), want modules.txt and 200 links", len(ents), err)
	}
	// A vendored directory gone since: its link goes too.
	if err := os.RemoveAll(filepath.Join(src, "example7.com")); err != nil {
		t.Fatal(err)
	}
	if _, err := mirrorVendor(src, dst, true); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dst, "example7.com")); !os.IsNotExist(err) {
		t.Errorf("the link to a removed vendored directory is still there: %v", err)
	}
}

// TestBuildVendoredReplaced: a vendored module whose requirement is replaced
// by a directory beside it builds (the go command checked the replacement in
// modules.txt, relative to the module, against go.mod's made relative to
// the workspace's directory: "inconsistent vendoring").
func TestBuildVendoredReplaced(t *testing.T) {
	offline(t)
	opts := setup(t, map[string]string{
		"app/go.mod":                        "module example.com/app\n\ngo 1.21\n\nrequire example.com/lib v1.0.0\n\nreplace example.com/lib v1.0.0 => ../locallib\n",
		"app/app.go":                        "package app\n",
		"app/x_test.go":                     usesLib,
		"app/vendor/modules.txt":            "# example.com/lib v1.0.0 => ../locallib\n## explicit; go 1.21\nexample.com/lib\n",
		"app/vendor/example.com/lib/lib.go": libInWorkspace,
		"locallib/go.mod":                   "module example.com/lib\n\ngo 1.21\n",
		"locallib/lib.go":                   libInWorkspace,
	})
	root := opts.Dir
	opts.Dir = filepath.Join(root, "app")
	res, err := Build(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	out, code := runBinary(t, res.Binary, opts.Dir, "-test.run=TestWhere", "-test.v")
	if want := "lib is in " + filepath.Join(opts.Dir, "vendor", "example.com", "lib", "lib.go"); code != 0 || !strings.Contains(out, want) {
		t.Errorf("binary exit %d, want %q:\n%s", code, want, out)
	}
}

func TestRelocateReplacements(t *testing.T) {
	in := "# a.com/x v1.0.0 => ../x\n## explicit\na.com/x\n# b.com/y => ./y\n# c.com/z v1.0.0 => d.com/z v1.1.0\n# e.com/w v1.0.0 => /abs/w\n"
	want := "# a.com/x v1.0.0 => ../../m/x\n## explicit\na.com/x\n# b.com/y => ../../m/sub/y\n# c.com/z v1.0.0 => d.com/z v1.1.0\n# e.com/w v1.0.0 => /abs/w\n"
	if got := string(relocateReplacements([]byte(in), "/r/m/sub", "/r/w/v")); got != want {
		t.Errorf("relocateReplacements:\n%s\nwant\n%s", got, want)
	}
}

// TestBuildWorkspaceVendored: a workspace vendored with go work vendor,
// whose go.work replaces a requirement by a directory, builds offline from
// its vendor directory.
func TestBuildWorkspaceVendored(t *testing.T) {
	offline(t)
	opts := setup(t, map[string]string{
		"go.work":         "go 1.22\n\nuse ./app\n\nreplace example.com/lib v1.0.0 => ./locallib\n",
		"app/go.mod":      "module example.com/app\n\ngo 1.22\n\nrequire example.com/lib v1.0.0\n",
		"app/app.go":      "package app\n",
		"app/x_test.go":   usesLib,
		"locallib/go.mod": "module example.com/lib\n\ngo 1.22\n",
		"locallib/lib.go": libInWorkspace,
	})
	root := opts.Dir
	vendor := exec.Command("go", "work", "vendor")
	vendor.Dir = root
	if out, err := vendor.CombinedOutput(); err != nil {
		t.Fatalf("go work vendor: %v\n%s", err, out)
	}
	opts.Dir = filepath.Join(root, "app")
	res, err := Build(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	out, code := runBinary(t, res.Binary, opts.Dir, "-test.run=TestWhere", "-test.v")
	if want := "lib is in " + filepath.Join(root, "vendor", "example.com", "lib", "lib.go"); code != 0 || !strings.Contains(out, want) {
		t.Errorf("binary exit %d, want %q:\n%s", code, want, out)
	}
}

// TestBuildInWorkspaceGodebug: a go.work's godebug lines reach the binary,
// as go test's (go work edit -json does not print them: they were left
// out, and a seed that needs one failed only in fuzzbox's binary).
func TestBuildInWorkspaceGodebug(t *testing.T) {
	offline(t)
	opts := setup(t, map[string]string{
		"go.work":    "go 1.21\n\ngodebug panicnil=1\n\ngodebug (\n\tasynctimerchan=1 // a block\n)\n\nuse ./app\n",
		"app/go.mod": "module example.com/app\n\ngo 1.21\n",
		"app/app.go": "package app\n",
		"app/x_test.go": `package app

import (
	"runtime/debug"
	"testing"
)

func TestGodebug(t *testing.T) {
	bi, _ := debug.ReadBuildInfo()
	for _, s := range bi.Settings {
		if s.Key == "DefaultGODEBUG" {
			t.Log("DefaultGODEBUG=" + s.Value)
		}
	}
}

func FuzzApp(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) {}) }
`,
	})
	opts.Dir = filepath.Join(opts.Dir, "app")
	res, err := Build(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	out, code := runBinary(t, res.Binary, opts.Dir, "-test.run=TestGodebug", "-test.v")
	if code != 0 || !strings.Contains(out, "panicnil=1") || !strings.Contains(out, "asynctimerchan=1") {
		t.Errorf("binary exit %d, want go.work's godebug settings in its DefaultGODEBUG:\n%s", code, out)
	}
}
