package build

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

func TestToolexecCommand(t *testing.T) {
	if got, err := ToolexecCommand("/x/fuzzbox"); err != nil || !slices.Equal(got, []string{"/x/fuzzbox", "toolexec"}) {
		t.Errorf("ToolexecCommand(/x/fuzzbox) = %q, %v", got, err)
	}
	self, _ := os.Executable()
	if got, err := ToolexecCommand(""); err != nil || !slices.Equal(got, []string{self, "toolexec"}) {
		t.Errorf("ToolexecCommand(\"\") = %q, %v; want this executable", got, err)
	}
}

func TestVersionLine(t *testing.T) {
	suffix := "fuzzbox=" + toolexecVersion + "-cmp-" + runtimeRewriteID()
	tests := []struct {
		in, want string
	}{
		{"compile version go1.26.8\n", "compile version go1.26.8 " + suffix},
		{"compile version go1.26.8 X:nocoverageredesign\n", "compile version go1.26.8 X:nocoverageredesign " + suffix},
	}
	for _, tt := range tests {
		if got := versionLine(tt.in); got != tt.want {
			t.Errorf("versionLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// A development compiler: cmd/go keys on the part after the last '/'
	// of the buildID= field, which must change and stay stable.
	devel := "compile version devel go1.27-abc buildID=aaa/bbb\n"
	got := versionLine(devel)
	id := got[strings.LastIndex(got, "/")+1:]
	if !strings.HasPrefix(got, strings.TrimSpace(devel)+"/") || id == "bbb" || id == "" || versionLine(devel) != got {
		t.Errorf("versionLine(%q) = %q, want a new stable content ID after the build ID", devel, got)
	}
}

func TestCompileArgs(t *testing.T) {
	tests := []struct {
		desc string
		args []string
		want []string
	}{{
		desc: "user package is instrumented, flag before the files",
		args: []string{"compile", "-o", "x.a", "-p", "example.com/u", "-lang=go1.21", "u.go"},
		want: []string{"compile", instrumentFlag, "-o", "x.a", "-p", "example.com/u", "-lang=go1.21", "u.go"},
	}, {
		desc: "skipped standard package",
		args: []string{"compile", "-p", "sync", "-std", "mutex.go"},
		want: []string{"compile", "-p", "sync", "-std", "mutex.go"},
	}, {
		desc: "runtime package: no instrumentation, its own language version, its files recorded under the module path",
		args: []string{"compile", "-trimpath", "$WORK/b001=>", "-p", "github.com/fuzzbox/fuzzbox/engine", "-lang=go1.11", "a.go"},
		want: []string{"compile", "-trimpath", "$WORK/b001=>;" + extractedRuntime() + "=>github.com/fuzzbox/fuzzbox", "-p", "github.com/fuzzbox/fuzzbox/engine", "-lang=" + runtimeLang, "a.go"},
	}, {
		desc: "a package the build marked (unreachedFlags) is not instrumented, and the compiler does not see the mark",
		args: []string{"compile", "-o", "x.a", "-p", "regexp", noInstrumentMark, "-std", "regexp.go"},
		want: []string{"compile", "-o", "x.a", "-p", "regexp", "-std", "regexp.go"},
	}, {
		desc: "a main package that is not the test main is instrumented",
		args: []string{"compile", "-p", "main", "main.go"},
		want: []string{"compile", instrumentFlag, "-p", "main", "main.go"},
	}}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, err := compileArgs(tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("compileArgs(%q)\n got %q\nwant %q", tt.args, got, tt.want)
			}
		})
	}
}

// TestCompileArgsTestmainResponseFile rewrites a test main passed, as the go
// command does for long command lines, in a response file.
func TestCompileArgsTestmainResponseFile(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "testmain", "gotest_testmain.txt"))
	if err != nil {
		t.Fatal(err)
	}
	testmain := filepath.Join(dir, "_testmain.go")
	writeFiles(t, dir, map[string]string{"_testmain.go": string(src),
		"rsp": "-p\nmain\n-trimpath\n" + `C:\\dir=>` + "\n" + testmain + "\n"})
	got, err := compileArgs([]string{"compile", "@" + filepath.Join(dir, "rsp")})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !strings.HasPrefix(got[1], "@") {
		t.Fatalf("compileArgs = %q, want a new response file", got)
	}
	expanded, _, err := expandResponseFiles(got)
	if err != nil {
		t.Fatal(err)
	}
	if len(expanded) != 6 || expanded[4] != `C:\dir=>` || filepath.Base(expanded[5]) != "_fuzzbox_testmain.go" || slices.Contains(expanded, instrumentFlag) {
		t.Fatalf("response file holds %q, want the test main replaced, the rest kept, no instrumentation", expanded)
	}
	out, err := os.ReadFile(expanded[5])
	if err != nil {
		t.Fatal(err)
	}
	checkRewritten(t, out, []string{`_xtest.FuzzboxMainStart("example.com/g/a", "example.com/g", tests`})
}

func TestCompileArgsCoverage(t *testing.T) {
	_, err := compileArgs([]string{"compile", "-p", "example.com/u", "-coveragecfg=/tmp/cfg", "u.go"})
	if !errors.Is(err, errCoverage) {
		t.Errorf("compileArgs with -coveragecfg: err = %v, want errCoverage", err)
	}
}

func TestToolexecPassesThrough(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(echoExitEnv, "3")
	var stdout, stderr strings.Builder
	code := Toolexec([]string{self, "-some", "args"}, strings.NewReader("input"), &stdout, &stderr)
	if code != 3 || stdout.String() != "input" {
		t.Errorf("Toolexec = exit %d, stdout %q; want 3, %q (stderr %q)", code, stdout.String(), "input", stderr.String())
	}
	if code := Toolexec(nil, nil, &stdout, &stderr); code != 2 {
		t.Errorf("Toolexec with no args = %d, want 2", code)
	}
}

func TestToolexecBadTestmain(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"_testmain.go": "package main\n\nfunc main() {}\n"})
	var stderr strings.Builder
	code := Toolexec([]string{"compile", "-p", "main", filepath.Join(dir, "_testmain.go")}, nil, &stderr, &stderr)
	if code != 2 || !strings.Contains(stderr.String(), "fuzzbox toolexec: build: unrecognised test main") {
		t.Errorf("Toolexec = %d, stderr %q; want 2 and an unrecognised test main message", code, stderr.String())
	}
}

func TestJoinCommand(t *testing.T) {
	tests := []struct {
		in      []string
		want    string
		wantErr bool
	}{
		{[]string{"/bin/fuzzbox", "toolexec"}, "/bin/fuzzbox toolexec", false},
		{[]string{"/my dir/fuzzbox", "toolexec"}, "'/my dir/fuzzbox' toolexec", false},
		{[]string{"it's here", "x"}, `"it's here" x`, false},
		{[]string{`both ' and "`}, "", true},
	}
	for _, tt := range tests {
		got, err := joinCommand(tt.in)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("joinCommand(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestCheckGoVersion(t *testing.T) {
	for v, ok := range map[string]bool{
		"go1.26.8": true, "go1.26": true, "go1.27rc1": true, "go1.30.0": true,
		"devel go1.27-abcdef": true, "go1.25.3": false, "go1.9": false,
	} {
		if err := checkGoVersion(v); (err == nil) != ok {
			t.Errorf("checkGoVersion(%q) = %v, want ok=%v", v, err, ok)
		}
	}
}

// TestRuntimeLang keeps runtimeLang equal to the go line of fuzzbox's go.mod,
// the version the runtime source is written for.
func TestRuntimeLang(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "go "); ok {
			if minor, _ := goMinor("go" + v); "go1."+strconv.Itoa(minor) != runtimeLang {
				t.Errorf("go.mod says go %s, runtimeLang is %s", v, runtimeLang)
			}
			return
		}
	}
	t.Fatal("no go line in go.mod")
}

func TestExtractRuntime(t *testing.T) {
	src := fstest.MapFS{
		"engine/a.go":          {Data: []byte("package engine\n")},
		"engine/a_test.go":     {Data: []byte("package engine\n")},
		"engine/fuzzmain/m.go": {Data: []byte("package fuzzmain\n")},
	}
	dir := filepath.Join(t.TempDir(), "runtime", "abc")
	if err := extractRuntime(src, dir); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"go.mod":               runtimeGoMod,
		"engine/a.go":          "package engine\n",
		"engine/fuzzmain/m.go": "package fuzzmain\n",
	} {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", name, got, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "engine", "a_test.go")); err == nil {
		t.Error("test file extracted")
	}
	// An existing directory is complete: it is kept as it is.
	if err := os.WriteFile(filepath.Join(dir, "marker"), nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := extractRuntime(src, dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "marker")); err != nil {
		t.Errorf("second extraction replaced the directory: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Errorf("runtime cache holds %d entries, want 1 (no temporary directories left)", len(entries))
	}
	if err := extractRuntime(fstest.MapFS{}, filepath.Join(t.TempDir(), "x")); err == nil {
		t.Error("extracting an empty runtime succeeded")
	}
}

func TestSplitSymbol(t *testing.T) {
	for sym, want := range map[string]string{
		"github.com/pjbgf/sha1cd/ubc.calculateDvMaskGeneric": "github.com/pjbgf/sha1cd/ubc",
		"example.com/a/b.(*T).m":                             "example.com/a/b",
		"example.com/a.F.func1":                              "example.com/a",
		"main.f":                                             "main",
		"nodot":                                              "",
	} {
		if got, _, _ := SplitSymbol(sym); got != want {
			t.Errorf("SplitSymbol(%q) package = %q, want %q", sym, got, want)
		}
	}
	out := "# example.com/m.test\ngithub.com/pjbgf/sha1cd/ubc.calculateDvMaskGeneric: nosplit stack over 792 byte limit\ngithub.com/pjbgf/sha1cd/ubc.calculateDvMaskGeneric<1>\n    grows 720 bytes\n"
	if m := nosplitRE.FindAllStringSubmatch(out, -1); len(m) != 1 || m[0][1] != "github.com/pjbgf/sha1cd/ubc.calculateDvMaskGeneric" {
		t.Errorf("nosplitRE found %q", m)
	}
}
