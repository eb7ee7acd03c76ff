package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// The libFuzzer side of "fuzzbox corpus": import -from-libfuzzer turns crash
// and corpus files of a libFuzzer binary built by "fuzzbox build -libfuzzer"
// (inputs in the fuzzbox-libfuzzer-v1 encoding) into go test fuzz v1 entries,
// and export -to-libfuzzer does the reverse. Both are flags of the existing
// subcommands, dispatched here before corpus.go's plain import and export.
func init() {
	plainImport, plainExport := corpusSubcommands["import"], corpusSubcommands["export"]
	corpusSubcommands["import"] = func(fs *flag.FlagSet, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		if slices.Contains(args, "-from-libfuzzer") || slices.Contains(args, "--from-libfuzzer") {
			return corpusImportLibFuzzer(fs, args, stdout, stderr)
		}
		return plainImport(fs, args, stdin, stdout, stderr)
	}
	corpusSubcommands["export"] = func(fs *flag.FlagSet, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		if slices.Contains(args, "-to-libfuzzer") || slices.Contains(args, "--to-libfuzzer") {
			return corpusExportLibFuzzer(fs, args, stdout, stderr)
		}
		return plainExport(fs, args, stdin, stdout, stderr)
	}
}

// corpusImportLibFuzzer implements
// fuzzbox corpus import -from-libfuzzer -fuzz=FuzzX [-types LIST] [-pkg DIR] [-o DIR] FILE...
func corpusImportLibFuzzer(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) int {
	fs.Bool("from-libfuzzer", true, "the files are libFuzzer inputs (fuzzbox-libfuzzer-v1)")
	fuzz := fs.String("fuzz", "", "the fuzz test `FuzzX` the inputs are for (required)")
	typeList := fs.String("types", "", "its argument `types`, such as 'string,int' (default: read from the package source)")
	pkg := fs.String("pkg", ".", "package `DIR` of the fuzz test")
	out := fs.String("o", "", "corpus `DIR` to write to (default PKG/testdata/fuzz/FuzzX)")
	if code, ok := parseFlags(fs, args, 1, stdout, stderr); !ok {
		return code
	}
	if *fuzz == "" {
		return corpusUsageError(stderr, "import: -from-libfuzzer needs -fuzz=FuzzX")
	}
	types, err := resolveTypes(*typeList, *pkg, *fuzz)
	if err != nil {
		fmt.Fprintf(stderr, "fuzzbox corpus import: %v\n", err)
		return exitUsage
	}
	if *out == "" {
		*out = filepath.Join(*pkg, "testdata", "fuzz", *fuzz)
	}
	code := exitOK
	for _, file := range fs.Args() {
		name, err := importLibFuzzerFile(file, types, *out)
		if err != nil {
			fmt.Fprintf(stderr, "fuzzbox corpus import: %s: %v\n", file, err)
			code = exitFinding
			continue
		}
		fmt.Fprintf(stdout, "%s: %s (replay: go test -run=%s/%s)\n", file, filepath.Join(*out, name), *fuzz, name)
	}
	return code
}

func resolveTypes(list, pkgDir, fuzz string) ([]reflect.Type, error) {
	if list != "" {
		return corpus.ParseTypes(list)
	}
	return fuzzArgTypes(pkgDir, fuzz)
}

// importLibFuzzerFile writes one libFuzzer input as a v1 entry in dir and
// returns the entry's name.
func importLibFuzzerFile(file string, types []reflect.Type, dir string) (string, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	vals, err := corpus.DecodeLibFuzzer(raw, types)
	if err != nil {
		return "", err
	}
	data, err := corpus.Marshal(vals...)
	if err != nil {
		return "", err
	}
	path, err := corpus.Write(dir, data)
	return filepath.Base(path), err
}

// corpusExportLibFuzzer implements
// fuzzbox corpus export -to-libfuzzer -o DIR FILE|DIR...: each entry (of any
// argument types) becomes a libFuzzer input file of the same name.
func corpusExportLibFuzzer(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) int {
	fs.Bool("to-libfuzzer", true, "write libFuzzer inputs (fuzzbox-libfuzzer-v1) instead of raw bytes")
	dir := fs.String("o", "", "`DIR` to write the libFuzzer inputs to (required)")
	if code, ok := parseFlags(fs, args, 1, stdout, stderr); !ok {
		return code
	}
	if *dir == "" {
		return corpusUsageError(stderr, "export: -o DIR is required")
	}
	if err := os.MkdirAll(*dir, 0o777); err != nil {
		fmt.Fprintf(stderr, "fuzzbox corpus export: %v\n", err)
		return exitFinding
	}
	return forEachEntryArg(fs.Args(), stderr, func(e corpus.Entry) error {
		raw, err := corpus.EncodeLibFuzzer(e.Values)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(*dir, filepath.Base(e.Path)), raw, 0o666)
	})
}

// fuzzArgTypes reads the argument types of fuzz test name from the test files
// of dir: the parameters after *testing.T of the function its f.Fuzz call
// takes (a function literal, or a function declared in the package's test
// files). Types are read as written, so they must be spelled as the
// supported type names; -types covers anything else.
func fuzzArgTypes(dir, name string) ([]reflect.Type, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	funcs := map[string]*ast.FuncDecl{}
	for _, file := range files {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("reading the argument types of %s: %w", name, err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil {
				funcs[fn.Name.Name] = fn
			}
		}
	}
	decl := funcs[name]
	if decl == nil {
		return nil, fmt.Errorf("no fuzz test %s in the test files of %s", name, dir)
	}
	ft := fuzzFuncType(decl, funcs)
	if ft == nil {
		return nil, fmt.Errorf("cannot read the argument types of %s from its source (f.Fuzz is not called with a function); give -types", name)
	}
	return paramTypes(ft, name)
}

// fuzzFuncType returns the type of the function passed to f.Fuzz in decl.
func fuzzFuncType(decl *ast.FuncDecl, funcs map[string]*ast.FuncDecl) *ast.FuncType {
	var ft *ast.FuncType
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || ft != nil || len(call.Args) != 1 {
			return ft == nil
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "Fuzz" {
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
	return ft
}

// paramTypes returns the supported types of ft's parameters after the first.
func paramTypes(ft *ast.FuncType, name string) ([]reflect.Type, error) {
	var out []reflect.Type
	for i, field := range ft.Params.List {
		n := max(len(field.Names), 1)
		if i == 0 {
			n-- // *testing.T
		}
		spelled := types.ExprString(field.Type)
		t, ok := corpus.TypeByName(spelled)
		if n > 0 && !ok {
			return nil, fmt.Errorf("%s: argument type %s is not one fuzzbox reads from source; give -types", name, spelled)
		}
		for range n {
			out = append(out, t)
		}
	}
	return out, nil
}
