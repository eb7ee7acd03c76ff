package lsp

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/lsp/command"
)

// fuzzbox.tests: the fuzz tests of a workspace folder and their corpus
// files, for a client's test tree (the VS Code extension's Test Explorer).
// A file that does not parse is listed with its error, never dropped
// silently and never an error of the whole answer.

func (s *Server) tests(folder string) (any, error) {
	list := command.TestList{Tests: []command.TestInfo{}}
	err := filepath.WalkDir(folder, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: skip it
		}
		if d.IsDir() {
			if p != folder && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, "_test.go") {
			list.Tests = append(list.Tests, s.fileTests(p)...)
		}
		return nil
	})
	if err != nil {
		return nil, invalidParams("listing the fuzz tests of %s: %v", folder, err)
	}
	sort.SliceStable(list.Tests, func(i, j int) bool { return list.Tests[i].ID < list.Tests[j].ID })
	return list, nil
}

// skipDir reports whether a directory holds no package of the module, as
// the go command sees it.
func skipDir(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor" ||
		name == "node_modules"
}

// fileTests lists the fuzz tests of one test file with their corpus files
// (and their generated corpus, when it is listed: generated.go).
func (s *Server) fileTests(path string) []command.TestInfo {
	text, err := s.readFile(path)
	if err != nil {
		s.logf("fuzz tests of %s: %v", path, err)
		return nil
	}
	tests, _ := fuzzTests(path, text)
	var out []command.TestInfo
	for _, t := range tests {
		key := testKey{filepath.Dir(path), t.Name}
		ti := command.TestInfo{ID: testID(key), Name: t.Name, URI: string(pathURI(path)),
			Line: t.Line, Entries: s.entries(filepath.Join(key.dir, "testdata", "fuzz", t.Name))}
		if s.shownGenerated(key) {
			ti.Generated = s.generatedCorpus(key)
		}
		out = append(out, ti)
	}
	return out
}

// testID is the id of a fuzz test in TestInfo and RunEvent.
func testID(k testKey) string { return string(pathURI(k.dir)) + "#" + k.name }

// entries lists the corpus files of a directory, each with its parse error:
// all but its directories, as go test reads one, so a symbolic link's file
// too (a link to nothing or to a directory, which go test fails to read,
// is listed with its error).
func (s *Server) entries(dir string) []command.EntryInfo {
	out := []command.EntryInfo{}
	des, err := os.ReadDir(dir)
	if err != nil {
		return out // no corpus directory
	}
	for _, de := range des {
		if de.IsDir() {
			continue
		}
		p := filepath.Join(dir, de.Name())
		e := command.EntryInfo{Name: de.Name(), URI: string(pathURI(p))}
		if text, err := s.readFile(p); err != nil {
			e.Error = err.Error()
		} else if _, err := corpus.Unmarshal([]byte(text)); err != nil {
			e.Error = "malformed corpus file: " + err.Error()
		}
		out = append(out, e)
	}
	return out
}
