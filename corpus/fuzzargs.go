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
	funcs, srcs, err := parseTestFuncs(fset, dir, name)
	if err != nil {
		return nil, err
	}
	decl := funcs[name]
	if decl == nil {
		return nil, fmt.Errorf("%w %s in the test files of %s", ErrNoFuzzTest, name, dir)
	}
	ft := fuzzFuncType(decl, funcs, map[*ast.FuncDecl]bool{})
	if ft == nil {
		return nil, fmt.Errorf("cannot read the argument types of %s from its source (f.Fuzz is not called with a function); give -types", name)
	}
	return paramTypes(ft, name, func(e ast.Expr) string { return sourceText(fset, srcs, e) })
}

// parseTestFuncs returns the top-level functions of the _test.go files in
// dir by name, and the files' contents by name.
func parseTestFuncs(fset *token.FileSet, dir, name string) (map[string]*ast.FuncDecl, map[string][]byte, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, nil, err
	}
	funcs, srcs := map[string]*ast.FuncDecl{}, map[string][]byte{}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			return nil, nil, fmt.Errorf("reading the argument types of %s: %w", name, err)
		}
		f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, fmt.Errorf("reading the argument types of %s: %w", name, err)
		}
		srcs[file] = src
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil {
				funcs[fn.Name.Name] = fn
			}
		}
	}
	return funcs, srcs, nil
}

// fuzzFuncType returns the type of the function passed to f.Fuzz in decl,
// or in a function of the test files decl calls (a helper that calls
// f.Fuzz: goldmark's fuzz(f)) when decl itself calls no Fuzz; seen holds
// the functions already looked in.
func fuzzFuncType(decl *ast.FuncDecl, funcs map[string]*ast.FuncDecl, seen map[*ast.FuncDecl]bool) *ast.FuncType {
	if decl.Body == nil || seen[decl] {
		return nil
	}
	seen[decl] = true
	var ft *ast.FuncType
	var helpers []*ast.FuncDecl
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || ft != nil {
			return ft == nil
		}
		if id, ok := call.Fun.(*ast.Ident); ok && funcs[id.Name] != nil {
			helpers = append(helpers, funcs[id.Name])
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "Fuzz" || len(call.Args) != 1 {
			return true
		}
		switch arg := call.Args[0].(type) {
		case *ast.FuncLit:
			ft = arg.Type
		case *ast.Ident:
			if fn := funcs[arg.Name]; fn != nil {
				ft = fn.Type
			}
		}
		return ft == nil
	})
	for _, h := range helpers {
		if ft != nil {
			break
		}
		ft = fuzzFuncType(h, funcs, seen)
	}
	return ft
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
