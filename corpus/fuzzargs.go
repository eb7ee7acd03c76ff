package corpus

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
)

// ArgTypes returns the types in list (ParseTypes) or, if list is "", the
// argument types of the fuzz test name read from the package source in dir
// (FuzzArgTypes): how libFuzzer inputs and merged corpora get their types.
func ArgTypes(list, dir, name string) ([]reflect.Type, error) {
	if list != "" {
		return ParseTypes(list)
	}
	return FuzzArgTypes(dir, name)
}

// ErrNoFuzzTest is FuzzArgTypes's error when the test files declare no
// function of the fuzz test's name.
var ErrNoFuzzTest = errors.New("no fuzz test")

// FuzzArgTypes reads the argument types of the fuzz test name from the
// _test.go files in dir: the parameters after *testing.T of the function its
// f.Fuzz call takes (a function literal, or a function declared in those
// files). Types are read as written, so they must be spelled as TypeByName
// spells them; the error for any other spelling says to give the types
// ("-types", as "fuzzbox corpus import -from-libfuzzer" and "merge" call it).
func FuzzArgTypes(dir, name string) ([]reflect.Type, error) {
	fset := token.NewFileSet()
	tf, err := parseTestFuncs(fset, dir, name)
	if err != nil {
		return nil, err
	}
	decl := tf.funcs[name]
	if decl == nil {
		return nil, fmt.Errorf("%w %s in the test files of %s", ErrNoFuzzTest, name, dir)
	}
	ft, typed := tf.fuzzFuncType(decl, map[*ast.FuncDecl]bool{})
	if typed {
		// typed.Fuzz(f, fn) fuzzes one []byte that encodes fn's
		// arguments (docs/typed.md).
		return []reflect.Type{reflect.TypeFor[[]byte]()}, nil
	}
	if ft == nil {
		return nil, fmt.Errorf("cannot read the argument types of %s from its source (f.Fuzz is not called with a function); give -types", name)
	}
	return paramTypes(ft, name, func(e ast.Expr) string { return sourceText(fset, tf.srcs, e) })
}

// testFuncs is what parseTestFuncs reads of a package's test files.
type testFuncs struct {
	funcs map[string]*ast.FuncDecl // top-level functions by name
	srcs  map[string][]byte        // contents by file name
	typed map[string]bool          // the names package typed is imported as
}

// typedImport is package typed's import path: a fuzz test that calls its
// Fuzz fuzzes one []byte.
const typedImport = "github.com/fuzzbox/fuzzbox/typed"

// parseTestFuncs reads the _test.go files in dir.
func parseTestFuncs(fset *token.FileSet, dir, name string) (*testFuncs, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	tf := &testFuncs{funcs: map[string]*ast.FuncDecl{}, srcs: map[string][]byte{}, typed: map[string]bool{}}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("reading the argument types of %s: %w", name, err)
		}
		f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("reading the argument types of %s: %w", name, err)
		}
		tf.srcs[file] = src
		for _, im := range f.Imports {
			if strings.Trim(im.Path.Value, "`\"") == typedImport {
				name := "typed"
				if im.Name != nil {
					name = im.Name.Name
				}
				tf.typed[name] = true
			}
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil {
				tf.funcs[fn.Name.Name] = fn
			}
		}
	}
	return tf, nil
}

// fuzzFuncType returns the type of the function passed to f.Fuzz in decl,
// or in a function of the test files decl calls (a helper that calls
// f.Fuzz: goldmark's fuzz(f)) when decl itself calls no Fuzz, or whether it
// calls typed.Fuzz(f, fn); seen holds the functions already looked in.
func (tf *testFuncs) fuzzFuncType(decl *ast.FuncDecl, seen map[*ast.FuncDecl]bool) (ft *ast.FuncType, typed bool) {
	if decl.Body == nil || seen[decl] {
		return nil, false
	}
	seen[decl] = true
	var helpers []*ast.FuncDecl
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || ft != nil || typed {
			return ft == nil && !typed
		}
		if id, ok := call.Fun.(*ast.Ident); ok && tf.funcs[id.Name] != nil {
			helpers = append(helpers, tf.funcs[id.Name])
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Fuzz" {
			return true
		}
		if pkg, ok := sel.X.(*ast.Ident); ok && tf.typed[pkg.Name] && len(call.Args) == 2 {
			typed = true
			return false
		}
		if len(call.Args) != 1 {
			return true
		}
		switch arg := call.Args[0].(type) {
		case *ast.FuncLit:
			ft = arg.Type
		case *ast.Ident:
			if fn := tf.funcs[arg.Name]; fn != nil {
				ft = fn.Type
			}
		}
		return ft == nil
	})
	for _, h := range helpers {
		if ft != nil || typed {
			break
		}
		ft, typed = tf.fuzzFuncType(h, seen)
	}
	return ft, typed
}

// paramTypes returns the supported types of ft's parameters after the
// first; spell gives an unsupported type's source for the error.
func paramTypes(ft *ast.FuncType, name string, spell func(ast.Expr) string) ([]reflect.Type, error) {
	var out []reflect.Type
	for i, field := range ft.Params.List {
		n := max(len(field.Names), 1)
		if i == 0 {
			n-- // *testing.T
		}
		t, ok := TypeByName(typeName(field.Type))
		if n > 0 && !ok {
			return nil, fmt.Errorf("%s: argument type %s is not one fuzzbox reads from source; give -types", name, spell(field.Type))
		}
		for range n {
			out = append(out, t)
		}
	}
	return out, nil
}

// typeName spells a type expression that can name a supported type (an
// identifier, or a slice of one) as TypeByName does, and others as "".
func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.ArrayType:
		if elt, ok := e.Elt.(*ast.Ident); ok && e.Len == nil {
			return "[]" + elt.Name
		}
	}
	return ""
}

// sourceText returns the source of e, parsed into fset from one of srcs.
func sourceText(fset *token.FileSet, srcs map[string][]byte, e ast.Expr) string {
	start, end := fset.Position(e.Pos()), fset.Position(e.End())
	return string(srcs[start.Filename][start.Offset:end.Offset])
}
