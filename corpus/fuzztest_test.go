package corpus

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFuzzTestRuleAgreesWithGoCommand writes declarations the go command
// must decide on into a package, asks go test -list which are fuzz tests,
// and checks IsFuzzTestDecl and IsFuzzTestName say the same of each.
func TestFuzzTestRuleAgreesWithGoCommand(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	// Every declaration here is one the go command accepts in a test file:
	// a fuzz test, or a function it does not take for one. (A fuzz test
	// name with another signature is a build error: see the next test.)
	src := `package p

import (
	"testing"
	tt "testing"
)

func Fuzz(f *testing.F)          {}
func FuzzA(f *testing.F)         {}
func Fuzz_a(f *testing.F)        {}
func Fuzz1(f *testing.F)         {}
func FuzzÉcole(f *testing.F)     {}
func FuzzAlias(f *tt.F)          {}
func Fuzzy(f *testing.F)         {}
func Fuzzé(f *testing.F)         {}
func Fuzzer(f *testing.F)        {}
func fuzzLower(f *testing.F)     {}
func TestFuzzLike(t *testing.T)  {}

type helper struct{}

func (helper) FuzzMethod(f *testing.F) {}
`
	listed := goTestList(t, src)
	decls := parseDecls(t, src)
	for name, fn := range decls {
		want := listed[name]
		if got := IsFuzzTestDecl(fn); got != want {
			t.Errorf("IsFuzzTestDecl(%s) = %v, go test -list says %v", name, got, want)
		}
		if fn.Recv == nil && name != "TestFuzzLike" {
			if got := IsFuzzTestName(name); got != want {
				t.Errorf("IsFuzzTestName(%q) = %v, go test -list says %v", name, got, want)
			}
		}
	}
	if len(listed) != 6 {
		t.Errorf("go test -list listed %v; the test expects the six fuzz tests", listed)
	}
}

// TestFuzzTestRuleSignatures: a fuzz test name with a signature go test
// refuses ("wrong signature for FuzzX") is not a fuzz test to fuzzbox; the
// ones it accepts are.
func TestFuzzTestRuleSignatures(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	for _, tc := range []struct {
		decl string
		ok   bool
	}{
		{"func FuzzX(f *testing.F) {}", true},
		{"func FuzzX(f *testing.T) {}", false},
		{"func FuzzX(f *testing.F, n int) {}", false},
		{"func FuzzX(f *testing.F) error { return nil }", false},
		{"func FuzzX(f testing.F) {}", false},
		{"func FuzzX() {}", false},
		{"func FuzzX[T any](f *testing.F) {}", false},
	} {
		src := "package p\n\nimport \"testing\"\n\nvar _ testing.F\n\n" + tc.decl + "\n"
		listed, err := goTestListErr(t, src)
		if (err == nil) != tc.ok || (tc.ok && !listed["FuzzX"]) {
			t.Fatalf("go test on %q: listed %v, error %v; the test expects ok=%v", tc.decl, listed, err, tc.ok)
		}
		if got := IsFuzzTestDecl(parseDecls(t, src)["FuzzX"]); got != tc.ok {
			t.Errorf("IsFuzzTestDecl(%q) = %v, want %v (go test agrees)", tc.decl, got, tc.ok)
		}
	}
}

func TestIsTestName(t *testing.T) {
	for _, tc := range []struct {
		name, prefix string
		want         bool
	}{
		{"Test", "Test", true}, {"TestX", "Test", true}, {"Testify", "Test", false},
		{"Benchmark_1", "Benchmark", true}, {"Example", "Example", true}, {"Fuzz", "Test", false},
	} {
		if got := IsTestName(tc.name, tc.prefix); got != tc.want {
			t.Errorf("IsTestName(%q, %q) = %v", tc.name, tc.prefix, got)
		}
	}
	for _, name := range []string{"", "Fuzz X", "Fuzz/a", "Fuzz-1", "fuzzX"} {
		if IsFuzzTestName(name) {
			t.Errorf("IsFuzzTestName(%q) = true", name)
		}
	}
}

func parseDecls(t *testing.T, src string) map[string]*ast.FuncDecl {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "p_test.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	decls := map[string]*ast.FuncDecl{}
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok {
			decls[fn.Name.Name] = fn
		}
	}
	return decls
}

func goTestList(t *testing.T, src string) map[string]bool {
	t.Helper()
	listed, err := goTestListErr(t, src)
	if err != nil {
		t.Fatal(err)
	}
	return listed
}

// goTestListErr writes src as the test file of a new module and returns the
// fuzz tests go test -list=^Fuzz lists, or go test's error.
func goTestListErr(t *testing.T, src string) (map[string]bool, error) {
	t.Helper()
	dir := t.TempDir()
	for name, data := range map[string]string{"go.mod": "module example.com/p\n\ngo 1.22\n", "p_test.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "test", "-vet=off", "-list=^Fuzz", ".") // vet would refuse Fuzzy
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, &listError{string(out)}
	}
	listed := map[string]bool{}
	for _, l := range strings.Fields(string(out)) {
		if strings.HasPrefix(l, "Fuzz") {
			listed[l] = true
		}
	}
	return listed, nil
}

type listError struct{ out string }

func (e *listError) Error() string { return "go test -list: " + e.out }
