package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"iter"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// typedValuesEnv and the request and answer below are package typed's
// ValuesEnv protocol (typed/values.go), which the driver, never linked
// with typed, speaks by the same names.
const typedValuesEnv = "FUZZBOX_TYPED_VALUES"

type valuesRequest struct {
	Fuzz  string   `json:"fuzz"`
	Files []string `json:"files"`
}

type valuesAnswer struct {
	File   string   `json:"file"`
	Values []string `json:"values,omitempty"`
	Err    string   `json:"error,omitempty"`
}

// TypedValues returns the arguments of corpus files of t, a typed fuzz test
// (package typed), as Go expressions, keyed by file as given: only the
// test binary knows the arguments' types, so it builds the package's test
// with stock go test (cfg's Tags) and asks the fuzz test. A file that does
// not hold one []byte has no entry. It returns an error when the package
// does not build or t is not a typed fuzz test: ErrNotTyped, without
// building anything, when no test file of its package imports package
// typed (most fuzz tests fuzz one []byte). fuzzbox corpus cat and the
// editor's hover use it.
func TypedValues(ctx context.Context, cfg Config, t Target, files []string) (map[string][]string, error) {
	dir, err := filepath.Abs(t.Dir)
	if err != nil {
		return nil, fmt.Errorf("driver: typed values: %w", err)
	}
	if !testsImport(dir, typedImport) {
		return nil, fmt.Errorf("driver: typed values of %s: %w", t.Name, ErrNotTyped)
	}
	abs := make([]string, len(files))
	for i, f := range files {
		if abs[i], err = filepath.Abs(f); err != nil {
			return nil, fmt.Errorf("driver: typed values: %w", err)
		}
	}
	tmp, release, err := workDir("values")
	if err != nil {
		return nil, fmt.Errorf("driver: typed values: %w", err)
	}
	defer release()
	req := filepath.Join(tmp, "request.json")
	data, err := json.Marshal(valuesRequest{Fuzz: t.Name, Files: abs})
	if err == nil {
		err = os.WriteFile(req, data, 0o666)
	}
	if err != nil {
		return nil, fmt.Errorf("driver: typed values: %w", err)
	}
	out, _, built, err := goTest(ctx, cfg, dir, "^"+t.Name+"$", typedValuesEnv+"="+req)
	switch {
	case err != nil:
		return nil, err
	case !built:
		return nil, fmt.Errorf("driver: typed values: build failed:\n%s", strings.TrimSpace(out))
	}
	data, err = os.ReadFile(req + ".out")
	if err != nil {
		return nil, fmt.Errorf("driver: typed values: %s is not a typed fuzz test (no answer from typed.Fuzz):\n%s", t.Name, strings.TrimSpace(out))
	}
	var answers []valuesAnswer
	if err := json.Unmarshal(data, &answers); err != nil {
		return nil, fmt.Errorf("driver: typed values: reading the answer: %w", err)
	}
	vals := map[string][]string{}
	for i, a := range answers {
		if a.Err == "" && i < len(files) {
			vals[files[i]] = a.Values
		}
	}
	return vals, nil
}

// CorpusTarget returns the fuzz test whose seed corpus file path is — a
// file of <package dir>/testdata/fuzz/FuzzX/ — with Name and Dir set, and
// whether path is one. The editor sidecar and TypedEntries decide it here.
func CorpusTarget(path string) (Target, bool) {
	fuzzDir := filepath.Dir(path)
	name := filepath.Base(fuzzDir)
	if !corpus.IsFuzzTestName(name) || filepath.Base(filepath.Dir(fuzzDir)) != "fuzz" ||
		filepath.Base(filepath.Dir(filepath.Dir(fuzzDir))) != "testdata" {
		return Target{}, false
	}
	return Target{Name: name, Dir: filepath.Dir(filepath.Dir(filepath.Dir(fuzzDir)))}, true
}

// typedImport is package typed's import path.
const typedImport = "github.com/fuzzbox/fuzzbox/typed"

// ErrNotTyped is TypedValues' error for a fuzz test whose package's test
// files do not import package typed.
var ErrNotTyped = errors.New("no test file of its package imports " + typedImport)

// TypedFiles is corpus.Files (no type check) with the Typed arguments of
// each entry of a typed fuzz test set (TypedEntries): what fuzzbox corpus
// cat and decode print. It calls warn (before the first entry) with why a
// typed fuzz test's arguments could not be had.
func TypedFiles(ctx context.Context, cfg Config, t Target, paths []string, warn func(error)) iter.Seq2[corpus.Entry, error] {
	return func(yield func(corpus.Entry, error) bool) {
		typed, errs := TypedEntries(ctx, cfg, t, paths)
		for _, err := range errs {
			warn(err)
		}
		for e, err := range corpus.Files(paths, nil) {
			e.Typed = typed[e.Path]
			if !yield(e, err) {
				return
			}
		}
	}
}

// TypedEntries returns the typed arguments (TypedValues) of those of paths
// that are corpus files of typed fuzz tests, keyed by path as given: with
// t.Name set, every path is a file of t (t.Dir its package), wherever it
// lies (the generated corpus in the cache, a CI artifact); otherwise the
// files of testdata/fuzz/FuzzX/ in a package whose tests import package
// typed. One test binary answers for each fuzz test. It returns why a fuzz
// test did not answer: its package does not build, or t is not typed.
func TypedEntries(ctx context.Context, cfg Config, t Target, paths []string) (map[string][]string, []error) {
	byTest := map[Target][]string{}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		if t.Name != "" {
			byTest[t] = append(byTest[t], p)
		} else if ct, ok := CorpusTarget(abs); ok {
			byTest[ct] = append(byTest[ct], p)
		}
	}
	out := map[string][]string{}
	var errs []error
	for ft, files := range byTest {
		vals, err := TypedValues(ctx, cfg, ft, files)
		switch {
		case errors.Is(err, ErrNotTyped):
			if t.Name != "" {
				errs = append(errs, fmt.Errorf("typed arguments not shown: no test file of %s imports %s", ft.Dir, typedImport))
			}
		case err != nil:
			errs = append(errs, fmt.Errorf("typed arguments of %s not shown: %w", ft.Name, err))
		default:
			maps.Copy(out, vals)
		}
	}
	return out, errs
}

// testsImport reports whether a _test.go file of dir imports path.
func testsImport(dir, path string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	for _, f := range files {
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			continue
		}
		for _, im := range af.Imports {
			if strings.Trim(im.Path.Value, "\"`") == path {
				return true
			}
		}
	}
	return false
}
