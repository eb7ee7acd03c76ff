// Package fuzzutil holds what the fuzzvet analyzers share: recognising
// *testing.F and *testing.T, finding Fuzz tests and their f.Fuzz calls, walking
// a Fuzz test together with the helpers it passes its *testing.F to, the
// table of argument types the testing package accepts, the seed lists passed
// as f.Add(seeds...) (spread.go) and the untyped constants of seeds
// (constant.go).
//
// It is used only by the analyzers under analyzers/ and imports nothing but the
// standard library and golang.org/x/tools/go/analysis.
package fuzzutil

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
)

// IsTesting reports whether t is *testing.<name>, for name "F", "T" or "B".
func IsTesting(t types.Type, name string) bool {
	ptr, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	named, ok := ptr.Elem().(*types.Named)
	if !ok {
		return false
	}
	obj := named.Obj()
	return obj.Pkg() != nil && obj.Pkg().Path() == "testing" && obj.Name() == name
}

// FMethod returns the name of the *testing.F method that call invokes, or "".
func FMethod(info *types.Info, call *ast.CallExpr) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if s := info.Selections[sel]; s == nil || s.Kind() != types.MethodVal {
		return ""
	}
	if !IsTesting(info.TypeOf(sel.X), "F") {
		return ""
	}
	return sel.Sel.Name
}

// IsTestFile reports whether f is a _test.go file.
func IsTestFile(pass *analysis.Pass, f *ast.File) bool {
	return strings.HasSuffix(pass.Fset.File(f.FileStart).Name(), "_test.go")
}

// TakesF reports whether decl has exactly one parameter, of type *testing.F,
// no results and no type parameters: the signature go test requires.
func TakesF(info *types.Info, decl *ast.FuncDecl) bool {
	fn, ok := info.Defs[decl.Name].(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Signature()
	return sig.Params().Len() == 1 && IsTesting(sig.Params().At(0).Type(), "F") &&
		sig.Results().Len() == 0 && sig.TypeParams().Len() == 0
}

// supported lists the argument types testing.F accepts, in the order the
// testing package documents them. The testing package compares reflect types
// exactly, so named types (type ID uint32) are rejected.
var supported = []struct {
	typ  types.Type
	refl reflect.Type
}{
	{types.NewSlice(types.Typ[types.Byte]), reflect.TypeFor[[]byte]()},
	{types.Typ[types.String], reflect.TypeFor[string]()},
	{types.Typ[types.Bool], reflect.TypeFor[bool]()},
	{types.Typ[types.Byte], reflect.TypeFor[byte]()},
	{types.Typ[types.Rune], reflect.TypeFor[rune]()},
	{types.Typ[types.Float32], reflect.TypeFor[float32]()},
	{types.Typ[types.Float64], reflect.TypeFor[float64]()},
	{types.Typ[types.Int], reflect.TypeFor[int]()},
	{types.Typ[types.Int8], reflect.TypeFor[int8]()},
	{types.Typ[types.Int16], reflect.TypeFor[int16]()},
	{types.Typ[types.Int64], reflect.TypeFor[int64]()},
	{types.Typ[types.Uint], reflect.TypeFor[uint]()},
	{types.Typ[types.Uint16], reflect.TypeFor[uint16]()},
	{types.Typ[types.Uint32], reflect.TypeFor[uint32]()},
	{types.Typ[types.Uint64], reflect.TypeFor[uint64]()},
}

// Supported reports whether the testing package accepts t as a fuzzed
// argument or f.Add value.
func Supported(t types.Type) bool { return ReflectType(t) != nil }

// ReflectType returns the reflect.Type of a supported type t, or nil.
func ReflectType(t types.Type) reflect.Type {
	if t == nil {
		return nil
	}
	if _, named := types.Unalias(t).(*types.Named); named {
		return nil
	}
	for _, s := range supported {
		if types.Identical(t, s.typ) {
			return s.refl
		}
	}
	return nil
}

// SupportedList names the supported types for diagnostics.
const SupportedList = "[]byte, string, bool, float32, float64, int, int8, int16, int32 (rune), int64, uint, uint8 (byte), uint16, uint32, uint64"

// ParamType returns the syntax of the i-th parameter's type in fields, or nil.
func ParamType(fields *ast.FieldList, i int) ast.Expr {
	if fields == nil {
		return nil
	}
	n := 0
	for _, f := range fields.List {
		k := max(len(f.Names), 1)
		if i < n+k {
			return f.Type
		}
		n += k
	}
	return nil
}

// Pos returns the start of n, or fallback if n is nil.
func Pos(n ast.Node, fallback token.Pos) token.Pos {
	if n == nil {
		return fallback
	}
	return n.Pos()
}

// Doc extracts an analyzer's documentation from the text of its doc.go, as
// x/tools does: the section under the "# Analyzer name" heading, which starts
// with the line "name: summary"; Doc drops the "name: " prefix. The summary is
// lowercase without a final period. Doc panics on a malformed doc.go, so that
// every test of the analyzer fails.
func Doc(docGo, name string) string {
	text := docGo
	if i := strings.Index(text, "package "+name); i >= 0 {
		text = text[:i]
	}
	_, sec, ok := strings.Cut(text, "// # Analyzer "+name+"\n")
	if !ok {
		panic("fuzzutil: doc.go has no \"# Analyzer " + name + "\" section")
	}
	var lines []string
	for _, l := range strings.Split(sec, "\n") {
		lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(l, "//"), " "))
	}
	out, ok := strings.CutPrefix(strings.TrimSpace(strings.Join(lines, "\n")), name+": ")
	title, _, _ := strings.Cut(out, "\n")
	if r, _ := utf8.DecodeRuneInString(title); !ok || !unicode.IsLower(r) || strings.HasSuffix(title, ".") {
		panic("fuzzutil: doc of " + name + " must start with \"" + name + ": lowercase summary\" without a period")
	}
	return out
}
