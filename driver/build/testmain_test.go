package build

import (
	"bytes"
	"errors"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The inputs in testdata/testmain are test mains as generated: gotest_* by
// go test -c -work (Go 1.26), rulesgo* rendered from rules_go's
// generate_test_main.go template (with and without lcov coverage);
// gotest_testing.txt is the test main of package testing, its lists cut short.

func TestRewriteTestmain(t *testing.T) {
	tests := []struct {
		file       string
		importPath string // argument
		direct     bool
		wantCall   string // the MainStart call in the output
		want       []string
		wantErr    string
	}{{
		// Built without the injected file: no external test package.
		file:    "gotest_internal_only.txt",
		wantErr: "no import of the external test package",
	}, {
		file:     "gotest_internal_only.txt",
		direct:   true,
		wantCall: `_fuzzmain.MainStart("example.com/u", "example.com/u", tests, benchmarks, fuzzTargets, examples)`,
		want:     []string{`_test "example.com/u"`, "os.Exit(m.Run())"},
	}, {
		// The package has no external tests of its own: cmd/go imports the
		// injected file's package as _, which must become _xtest.
		file:     "gotest_blank_xtest.txt",
		wantCall: `_xtest.FuzzboxMainStart("example.com/g/b", "example.com/g", tests, benchmarks, fuzzTargets, examples)`,
		want:     []string{`_xtest "example.com/g/b_test"`, `_ "example.com/g/b"`},
	}, {
		file:     "gotest_testmain.txt",
		wantCall: `_xtest.FuzzboxMainStart("example.com/g/a", "example.com/g", tests, benchmarks, fuzzTargets, examples)`,
		want:     []string{"_test.TestMain(m)", `FieldByName("exitCode")`, `{"FuzzX", _xtest.FuzzX}`},
	}, {
		file:       "gotest_testmain.txt",
		importPath: "override/path",
		direct:     true,
		wantCall:   `_fuzzmain.MainStart("override/path", "example.com/g", tests, benchmarks, fuzzTargets, examples)`,
		want:       []string{`_fuzzmain "github.com/fuzzbox/fuzzbox/engine/fuzzmain"`, "_test.TestMain(m)"},
	}, {
		// The test of package testing itself imports it twice: as testing
		// (MainStart) and as the package under test, _test.
		file:     "gotest_testing.txt",
		wantCall: `_xtest.FuzzboxMainStart("testing", "", tests, benchmarks, fuzzTargets, examples)`,
		want:     []string{`_test "testing"`, `{"FuzzNaming", _test.FuzzNaming}`, "_xtest.TestMain(m)"},
	}, {
		file:     "rulesgo.txt",
		direct:   true,
		wantCall: `_fuzzmain.MainStart("", "", testsInShard(), benchmarks, fuzzTargets, examples)`,
		want:     []string{"lib.TestMain(m)", "bzltestutil.ShouldWrap()", `flag.Lookup("test.run")`},
	}, {
		file:       "rulesgo.txt",
		importPath: "example.com/lib",
		direct:     true,
		wantCall:   `_fuzzmain.MainStart("example.com/lib", "", testsInShard(), benchmarks, fuzzTargets, examples)`,
	}, {
		file:    "rulesgo.txt",
		wantErr: "no import of the external test package",
	}, {
		file:    "gotest_cover.txt",
		wantErr: "coverage",
	}, {
		file:    "rulesgo_lcov.txt",
		direct:  true,
		wantErr: "not defined as testdeps.TestDeps{}",
	}}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "testmain", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			out, err := RewriteTestmain(src, tt.importPath, "", tt.direct)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkRewritten(t, out, append(tt.want, tt.wantCall))
		})
	}
}

// checkRewritten checks that out parses, has no trace of testdeps, and
// contains each of want.
func checkRewritten(t *testing.T, out []byte, want []string) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "out.go", out, 0)
	if err != nil {
		t.Fatalf("output does not parse: %v\n%s", err, out)
	}
	for _, spec := range f.Imports {
		if p, _ := strconv.Unquote(spec.Path.Value); p == testdepsPath {
			t.Errorf("output still imports %s", p)
		}
	}
	s := string(out)
	if strings.Contains(s, "testdeps.") || strings.Contains(s, "testing.MainStart") {
		t.Errorf("output still uses testdeps or testing.MainStart:\n%s", s)
	}
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Errorf("output lacks %q:\n%s", w, s)
		}
	}
}

// TestRewriteTestmainFile: the file form writes to stdout or to a file, and
// names the input file in an error.
func TestRewriteTestmainFile(t *testing.T) {
	in := filepath.Join("testdata", "testmain", "gotest_internal_only.txt")
	var stdout bytes.Buffer
	if err := RewriteTestmainFile(in, "", "", "", &stdout); err != nil || !strings.Contains(stdout.String(), "_fuzzmain.MainStart(") {
		t.Fatalf("to stdout: %v\n%s", err, stdout.String())
	}
	out := filepath.Join(t.TempDir(), "main.go")
	if err := RewriteTestmainFile(in, out, "", "", nil); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(out); err != nil || !bytes.Equal(got, stdout.Bytes()) {
		t.Errorf("to %s: %v; differs from the stdout result", out, err)
	}
	bad := filepath.Join(t.TempDir(), "bad.go")
	os.WriteFile(bad, []byte("package main\n"), 0o644)
	if err := RewriteTestmainFile(bad, "", "", "", &stdout); err == nil || !strings.HasPrefix(err.Error(), bad+": ") {
		t.Errorf("bad input: error %v, want it to start with %s: ", err, bad)
	}
}

func TestRewriteTestmainRejects(t *testing.T) {
	const head = "package main\n\nimport (\n\t\"testing\"\n\t\"testing/internal/testdeps\"\n\t_xtest \"p_test\"\n)\n\n"
	tests := []struct {
		desc, src, wantErr string
	}{
		{"not Go", "package main\nfunc {", "parsing"},
		{"no testdeps import", "package main\n\nimport \"testing\"\n\nfunc main() { testing.Main(nil, nil, nil, nil) }\n", "import"},
		{"no MainStart", head + "func main() { _ = testdeps.TestDeps{} }\n", "found 0 calls"},
		{"two MainStarts", head + "func main() {\n\ttesting.MainStart(testdeps.TestDeps{}, nil, nil, nil, nil)\n\ttesting.MainStart(testdeps.TestDeps{}, nil, nil, nil, nil)\n}\n", "found 2 calls"},
		{"old four-argument MainStart", head + "func main() { testing.MainStart(testdeps.TestDeps{}, nil, nil, nil) }\n", "4 arguments"},
		{"custom deps value", head + "func main() { testing.MainStart(myDeps{}, nil, nil, nil, nil) }\n", "first argument"},
		{"testdeps used elsewhere", head + "func main() {\n\ttesting.MainStart(testdeps.TestDeps{}, nil, nil, nil, nil)\n\ttestdeps.TestDeps{}.ImportPath()\n}\n", "still used"},
		{"coverage settings", head + "func init() { testdeps.CoverMode = \"set\" }\n\nfunc main() { testing.MainStart(testdeps.TestDeps{}, nil, nil, nil, nil) }\n", "coverage"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			_, err := RewriteTestmain([]byte(tt.src), "", "", false)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
			}
			if tt.wantErr == "coverage" && !errors.Is(err, errCoverage) {
				t.Errorf("err = %v, want errCoverage", err)
			}
		})
	}
}
