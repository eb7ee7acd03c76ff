package fuzzcorpus

import (
	_ "embed"
	"errors"
	"go/ast"
	"os"
	"path/filepath"
	"reflect"

	"golang.org/x/tools/go/analysis"

	"github.com/fuzzbox/fuzzbox/analyzers/internal/fuzzutil"
	"github.com/fuzzbox/fuzzbox/corpus"
)

//go:embed doc.go
var doc string

// Analyzer checks seed corpus files against the fuzz function.
var Analyzer = &analysis.Analyzer{
	Name: "fuzzcorpus",
	Doc:  fuzzutil.Doc(doc, "fuzzcorpus"),
	URL:  "https://github.com/fuzzbox/fuzzbox/blob/main/docs/fuzzvet.md#fuzzcorpus",
	Run:  run,
}

func run(pass *analysis.Pass) (any, error) {
	ix := fuzzutil.NewIndex(pass)
	for _, fd := range ix.FuzzTests() {
		file := pass.Fset.File(fd.Pos())
		dir := filepath.Join(filepath.Dir(file.Name()), "testdata", "fuzz", fd.Name.Name)
		_, err := corpus.ReadDir(dir, argTypes(ix, fd))
		var me *corpus.MalformedError
		if errors.As(err, &me) {
			for _, e := range me.Errs {
				report(pass, fd.Name.Name, e)
			}
		}
		// Other errors (unreadable directory) are not findings about the code.
	}
	return nil, nil
}

// argTypes returns the reflect types of the fuzzed arguments of fd's fuzz
// function, or nil if it is not known or not valid. typed.Fuzz gives f.Fuzz
// a function of one []byte, whatever the arguments it decodes from it.
func argTypes(ix *fuzzutil.Index, fd *ast.FuncDecl) []reflect.Type {
	tgs := ix.Targets(fd)
	if len(tgs) > 0 && tgs[0].Typed {
		return []reflect.Type{reflect.TypeFor[[]byte]()}
	}
	if len(tgs) == 0 || !fuzzutil.ValidTarget(tgs[0].Sig) {
		return nil
	}
	ps := tgs[0].Sig.Params()
	out := make([]reflect.Type, 0, ps.Len()-1)
	for i := 1; i < ps.Len(); i++ {
		out = append(out, fuzzutil.ReflectType(ps.At(i).Type()))
	}
	return out
}

// report reports one bad file at its line.
func report(pass *analysis.Pass, fuzzName string, err error) {
	var fe *corpus.FileError
	if !errors.As(err, &fe) {
		return
	}
	data, rerr := os.ReadFile(fe.Path)
	if rerr != nil {
		return
	}
	tf := pass.Fset.AddFile(fe.Path, -1, len(data))
	tf.SetLinesForContent(data)
	pos := tf.Pos(0)
	if fe.Line > 1 && fe.Line <= tf.LineCount() {
		pos = tf.LineStart(fe.Line)
	}
	var se *corpus.SyntaxError
	var te *corpus.TypeError
	switch {
	case errors.As(fe.Err, &se):
		pass.Reportf(pos, "malformed corpus file for %s: %s", fuzzName, se.Msg)
	case errors.As(fe.Err, &te):
		pass.Reportf(pos, "corpus entry does not fit %s: %s", fuzzName, te.Msg)
	}
}
