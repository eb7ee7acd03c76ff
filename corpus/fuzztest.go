package corpus

import (
	"go/ast"
	"go/token"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Which functions are fuzz tests is the go command's decision
// (cmd/go/internal/load/test.go): every part of fuzzbox that looks at names
// or declarations asks these functions, and corpus_test checks them against
// go test -list on the same declarations.

// IsTestName reports whether go test treats a function called name as a test
// function of the kind prefix names ("Test", "Benchmark", "Fuzz", "Example"):
// the prefix alone, or followed by a character that is not a lower-case
// letter. "FuzzParse" and "Fuzz_x" are fuzz test names; "Fuzzy" is not.
func IsTestName(name, prefix string) bool {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return !unicode.IsLower(r)
}

// IsFuzzTestName reports whether name can name a fuzz test: a Go identifier
// that is a test name with prefix "Fuzz". It is what a testdata/fuzz/
// directory or a -fuzz value naming one test must be.
func IsFuzzTestName(name string) bool {
	return token.IsIdentifier(name) && IsTestName(name, "Fuzz")
}

// IsFuzzTestDecl reports whether fn, a declaration in a _test.go file,
// declares a fuzz test as the go command sees it: a function (not a method)
// with a fuzz test name, no type parameters, no results, and one parameter
// of type *F or *x.F (the go command cannot tell how package testing was
// imported either). go test refuses a fuzz test name with another signature;
// such a declaration is not a fuzz test here.
func IsFuzzTestDecl(fn *ast.FuncDecl) bool {
	if fn.Recv != nil || !IsTestName(fn.Name.Name, "Fuzz") || fn.Type.TypeParams != nil {
		return false
	}
	if fn.Type.Results != nil && len(fn.Type.Results.List) > 0 {
		return false
	}
	params := fn.Type.Params.List
	if len(params) != 1 || len(params[0].Names) > 1 {
		return false
	}
	star, ok := params[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	switch x := star.X.(type) {
	case *ast.Ident:
		return x.Name == "F"
	case *ast.SelectorExpr:
		return x.Sel.Name == "F"
	}
	return false
}
