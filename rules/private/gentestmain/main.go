// Command gentestmain is the build-time tool of the fuzzbox Bazel rules
// (rules/private/testmain.bzl). For a go_fuzz_test's sources it splits them
// into the package's own test files and its external (package x_test) test
// files, so that rules_go's public go_library rule can compile each group, and
// it writes the test main of the fuzzing binary, which go_binary links.
//
//	gentestmain -mode=split -internal PREFIX -external PREFIX src.go...
//	gentestmain -mode=testmain -importpath P -ximportpath PX -o testmain.go src.go...
//
// split copies every source into both groups, as PREFIX followed by its own
// name (the rules name them dir/<target>.internal.x_test.go: files in the
// package's own output directory, where rules_go looks for the files a
// //go:embed names, not in a directory below it, which it refuses); the copy in
// the group it does not belong to is replaced by a file that build constraints
// exclude ("//go:build ignore"), because Bazel must know every output file
// before the action runs. testmain writes the go command's test main (tests,
// benchmarks, fuzz targets, examples with output, TestMain), importing the
// package under test as P and its external tests as PX, rewritten by
// driver/build.RewriteTestmain, as "fuzzbox testmain" does, to call
// fuzzmain.MainStart: testing/internal/testdeps is never linked.
//
// It imports the standard library, corpus and driver/build only.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"text/template"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/driver/build"
)

const usage = `usage: gentestmain -mode=split -internal PREFIX -external PREFIX src.go...
       gentestmain -mode=testmain -importpath P -ximportpath PX -o FILE src.go...`

func main() {
	mode := flag.String("mode", "", "split or testmain")
	importPath := flag.String("importpath", "", "testmain: import path of the package under test")
	xImportPath := flag.String("ximportpath", "", "testmain: import path of the external test package")
	internal := flag.String("internal", "", "split: path prefix of the package's own test files")
	external := flag.String("external", "", "split: path prefix of the external (package x_test) test files")
	out := flag.String("o", "", "testmain: the test main to write")
	flag.Parse()
	var err error
	switch {
	case flag.NArg() == 0:
		err = errUsage
	case *mode == "split" && *internal != "" && *external != "":
		err = split(*internal, *external, flag.Args())
	case *mode == "testmain" && *importPath != "" && *xImportPath != "" && *out != "":
		err = writeTestmain(*importPath, *xImportPath, *out, flag.Args())
	default:
		err = errUsage
	}
	if err == errUsage {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "gentestmain: %v\n", err)
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

// split writes each source, after its group's path prefix, and an excluded
// stub after the other's.
func split(internalPrefix, externalPrefix string, srcs []string) error {
	for _, src := range srcs {
		f, data, err := parse(src)
		if err != nil {
			return err
		}
		own, other := internalPrefix, externalPrefix
		if isExternal(f) {
			own, other = externalPrefix, internalPrefix
		}
		base := filepath.Base(src)
		// A line directive keeps the original file's name in positions (stack traces, vet).
		data = append([]byte(fmt.Sprintf("//line %s:1\n", filepath.ToSlash(src))), data...)
		if err := os.WriteFile(own+base, data, 0o666); err != nil {
			return err
		}
		stub := fmt.Sprintf("//go:build ignore\n\n// %s belongs to the other group (gentestmain).\npackage %s\n", base, f.Name.Name)
		if err := os.WriteFile(other+base, []byte(stub), 0o666); err != nil {
			return err
		}
	}
	return nil
}

func parse(src string) (*ast.File, []byte, error) {
	data, err := os.ReadFile(src)
	if err != nil {
		return nil, nil, err
	}
	f, err := parser.ParseFile(token.NewFileSet(), src, data, parser.ParseComments)
	return f, data, err
}

func isExternal(f *ast.File) bool { return strings.HasSuffix(f.Name.Name, "_test") }

func writeTestmain(importPath, xImportPath, out string, srcs []string) error {
	m := &testMain{ImportPath: importPath, XImportPath: xImportPath}
	for _, src := range srcs {
		if err := m.add(src); err != nil {
			return err
		}
	}
	var buf bytes.Buffer
	if err := testmainTmpl.Execute(&buf, m); err != nil {
		return fmt.Errorf("writing test main: %w", err)
	}
	res, err := build.RewriteTestmain(buf.Bytes(), importPath, "", true)
	if err != nil {
		return err
	}
	return os.WriteFile(out, res, 0o666)
}

// A testMain collects what the go command's test main lists.
type testMain struct {
	ImportPath  string
	XImportPath string
	ImportTest  bool // the package's own test files exist (import it as _test)
	ImportXtest bool // external test files exist (import them as _xtest)
	NeedTest    bool // the main refers to _test
	NeedXtest   bool // the main refers to _xtest
	Tests       []testFunc
	Benchmarks  []testFunc
	FuzzTargets []testFunc
	Examples    []testExample
	TestMain    *testFunc
}

type testFunc struct{ Package, Name string }

type testExample struct {
	Package, Name, Output string
	Unordered             bool
}

// add parses one test source and records its tests.
func (m *testMain) add(src string) error {
	f, _, err := parse(src)
	if err != nil {
		return err
	}
	pkg := "_test"
	if isExternal(f) {
		pkg = "_xtest"
	}
	if !strings.HasSuffix(src, "_test.go") {
		return nil // a helper source: compiled, but not scanned for tests
	}
	if pkg == "_test" {
		m.ImportTest = true
	} else {
		m.ImportXtest = true
	}
	return m.scan(f, pkg, src)
}

// scan records f's tests as the go command does (cmd/go/internal/load/test.go).
func (m *testMain) scan(f *ast.File, pkg, src string) error {
	need := func() {
		if pkg == "_test" {
			m.NeedTest = true
		} else {
			m.NeedXtest = true
		}
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil {
			continue
		}
		name := fn.Name.Name
		switch {
		case name == "TestMain" && isTestFunc(fn, "M"):
			if m.TestMain != nil {
				return fmt.Errorf("%s: multiple definitions of TestMain", src)
			}
			m.TestMain = &testFunc{pkg, name}
			need()
		case corpus.IsTestName(name, "Test") && isTestFunc(fn, "T"):
			m.Tests = append(m.Tests, testFunc{pkg, name})
			need()
		case corpus.IsTestName(name, "Benchmark") && isTestFunc(fn, "B"):
			m.Benchmarks = append(m.Benchmarks, testFunc{pkg, name})
			need()
		case corpus.IsFuzzTestDecl(fn):
			m.FuzzTargets = append(m.FuzzTargets, testFunc{pkg, name})
			need()
		}
	}
	for _, e := range doc.Examples(f) {
		if e.Output == "" && !e.EmptyOutput {
			continue // compiled, not run, as with go test
		}
		m.Examples = append(m.Examples, testExample{pkg, "Example" + e.Name, e.Output, e.Unordered})
		need()
	}
	return nil
}

// isTestFunc reports whether fn has the signature func(*testing.<arg>).
func isTestFunc(fn *ast.FuncDecl, arg string) bool {
	t := fn.Type
	if t.Results != nil && len(t.Results.List) > 0 || len(t.Params.List) != 1 || len(t.Params.List[0].Names) > 1 {
		return false
	}
	if t.TypeParams != nil && len(t.TypeParams.List) > 0 {
		return false
	}
	star, ok := t.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	// Like the go command, accept any package name: only the selector matters.
	switch x := star.X.(type) {
	case *ast.SelectorExpr:
		return x.Sel.Name == arg
	case *ast.Ident:
		return x.Name == arg // dot import of testing
	}
	return false
}

// testmainTmpl is the go command's test main (cmd/go/internal/load/test.go),
// without coverage; RewriteTestmain then points it at fuzzbox.
var testmainTmpl = template.Must(template.New("main").Parse(`// Code generated by fuzzbox's gentestmain. DO NOT EDIT.

package main

import (
	"os"
{{if .TestMain}}
	"reflect"
{{end}}
	"testing"
	"testing/internal/testdeps"

{{if .ImportTest}}
	{{if .NeedTest}}_test{{else}}_{{end}} {{.ImportPath | printf "%q"}}
{{end}}
{{if .ImportXtest}}
	{{if .NeedXtest}}_xtest{{else}}_{{end}} {{.XImportPath | printf "%q"}}
{{end}}
)

var tests = []testing.InternalTest{
{{range .Tests}}
	{"{{.Name}}", {{.Package}}.{{.Name}}},
{{end}}
}

var benchmarks = []testing.InternalBenchmark{
{{range .Benchmarks}}
	{"{{.Name}}", {{.Package}}.{{.Name}}},
{{end}}
}

var fuzzTargets = []testing.InternalFuzzTarget{
{{range .FuzzTargets}}
	{"{{.Name}}", {{.Package}}.{{.Name}}},
{{end}}
}

var examples = []testing.InternalExample{
{{range .Examples}}
	{"{{.Name}}", {{.Package}}.{{.Name}}, {{.Output | printf "%q"}}, {{.Unordered}}},
{{end}}
}

func init() {
	testdeps.ImportPath = {{.ImportPath | printf "%q"}}
}

func main() {
{{if .TestMain}}
	m := testing.MainStart(testdeps.TestDeps{}, tests, benchmarks, fuzzTargets, examples)
	{{with .TestMain}}
	{{.Package}}.{{.Name}}(m)
	os.Exit(int(reflect.ValueOf(m).Elem().FieldByName("exitCode").Int()))
	{{end}}
{{else}}
	m := testing.MainStart(testdeps.TestDeps{}, tests, benchmarks, fuzzTargets, examples)
	os.Exit(m.Run())
{{end}}
}
`))
