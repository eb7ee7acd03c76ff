package lsp

import (
	"bytes"
	"context"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzzvet"
	"github.com/fuzzbox/fuzzbox/lsp/protocol"
)

// Diagnostics come from producers, each owning its set per file: fuzzvet
// for a package ("vet:" + dir) and the last run of a fuzz test ("run:" +
// dir + name). A file's published list is the union over producers.

// diagnostic is a published diagnostic with the code actions it offers.
type diagnostic struct {
	protocol.Diagnostic
	fixes []protocol.CodeAction
}

// setDiagnostics replaces a producer's diagnostics and publishes every file
// whose list changed.
func (s *Server) setDiagnostics(ctx context.Context, producer string, byPath map[string][]diagnostic) {
	s.mu.Lock()
	touched := map[string]bool{}
	for p := range s.diags[producer] {
		touched[p] = true
	}
	for p := range byPath {
		touched[p] = true
	}
	if len(byPath) == 0 {
		delete(s.diags, producer)
	} else {
		s.diags[producer] = byPath
	}
	s.mu.Unlock()
	paths := make([]string, 0, len(touched))
	for p := range touched {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		s.publish(ctx, pathURI(p))
	}
}

// publish sends a file's diagnostics: every producer's, and in proxy mode
// gopls's too.
func (s *Server) publish(ctx context.Context, uri protocol.DocumentURI) {
	var ours []protocol.Diagnostic
	if path, err := uriPath(uri); err == nil {
		ours = s.fileDiagnostics(path)
	}
	if s.extraDiags == nil {
		s.notify(ctx, "textDocument/publishDiagnostics", protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: ours})
		return
	}
	all := []any{}
	for _, d := range s.extraDiags(uri) {
		all = append(all, d)
	}
	for _, d := range ours {
		all = append(all, d)
	}
	s.notify(ctx, "textDocument/publishDiagnostics", map[string]any{"uri": uri, "diagnostics": all})
}

// fileDiagnostics is the union of every producer's diagnostics of path.
func (s *Server) fileDiagnostics(path string) []protocol.Diagnostic {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []protocol.Diagnostic{}
	producers := make([]string, 0, len(s.diags))
	for p := range s.diags {
		producers = append(producers, p)
	}
	sort.Strings(producers)
	for _, p := range producers {
		for _, d := range s.diags[p][path] {
			out = append(out, d.Diagnostic)
		}
	}
	return out
}

// vetLater runs fuzzvet on the package of a Go or corpus file in the
// background; an older request for the same package is superseded.
func (s *Server) vetLater(path string) {
	var dir string
	switch {
	case strings.HasSuffix(path, ".go"):
		dir = filepath.Dir(path)
	case isCorpusFile(path):
		dir, _ = corpusTest(path)
	default:
		return
	}
	if _, err := s.workspacePath(string(pathURI(path))); err != nil {
		return // fuzzvet only the user's own packages
	}
	s.mu.Lock()
	s.vetGen[dir]++
	gen := s.vetGen[dir]
	s.runsWG.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.runsWG.Done()
		// One fuzzvet load at a time: each one runs go list on the
		// package's dependencies and type-checks the package (hundreds of
		// MB and seconds in a large module), and an editor that restores
		// its tabs opens files of many packages at once (go-ethereum,
		// eight test files: 1.9 GB). A request superseded while it waited
		// is dropped.
		s.vetSlot <- struct{}{}
		defer func() { <-s.vetSlot }()
		if s.vetStale(dir, gen) {
			return
		}
		byPath, err := s.vet(dir)
		stale := s.vetStale(dir, gen)
		if err != nil {
			s.logf("fuzzvet %s: %v", dir, err)
			return
		}
		if !stale {
			s.setDiagnostics(context.Background(), "vet:"+dir, byPath)
		}
	}()
}

// loadPackages is packages.Load; tests count its calls.
var loadPackages = packages.Load

// vetStale reports whether a fuzzvet request of dir is superseded by a newer
// one, or the server is shut down.
func (s *Server) vetStale(dir string, gen int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.vetGen[dir] != gen || s.state == stateShutdown
}

// overlay returns the open Go documents of the package in dir whose text
// differs from the file on disk, with the file's text: a document just
// opened or saved is the file, and fuzzvet loads it as it is (vetConfig).
func (s *Server) overlay(dir string) map[string]edit {
	s.mu.Lock()
	edits := map[string]edit{}
	for p, text := range s.open {
		if filepath.Dir(p) == dir && strings.HasSuffix(p, ".go") {
			edits[p] = edit{text: []byte(text)}
		}
	}
	s.mu.Unlock()
	for p, e := range edits {
		disk, err := os.ReadFile(p)
		switch {
		case err == nil && bytes.Equal(disk, e.text):
			delete(edits, p)
		case err == nil:
			edits[p] = edit{e.text, disk}
		}
	}
	return edits
}

// vet loads the package in dir with its tests (open documents with unsaved
// edits as they are in the editor: vetConfig) and returns the fuzzvet
// diagnostics by file.
func (s *Server) vet(dir string) (map[string][]diagnostic, error) {
	cfg := vetConfig(dir, s.opts.Tags, s.overlay(dir))
	pkgs, err := loadPackages(cfg, ".")
	if err != nil {
		return nil, fmt.Errorf("loading packages: %w", err)
	}
	g, err := checker.Analyze(fuzzvet.Analyzers, pkgs, nil)
	if err != nil {
		return nil, fmt.Errorf("running fuzzvet: %w", err)
	}
	out := map[string][]diagnostic{}
	seen := map[string]bool{}
	var skipped error // why the analyzers did not run (a type error: gopls shows it)
	for act := range g.All() {
		if act.IsRoot && act.Err != nil && skipped == nil {
			skipped = act.Err
		}
		if !act.IsRoot || act.Err != nil {
			continue
		}
		for _, d := range act.Diagnostics {
			pos := act.Package.Fset.Position(d.Pos)
			key := fmt.Sprintf("%s:%d:%d:%s", pos.Filename, pos.Line, pos.Column, d.Message)
			if seen[key] || pos.Filename == "" {
				continue
			}
			seen[key] = true
			out[pos.Filename] = append(out[pos.Filename], s.convert(act.Package.Fset, act.Analyzer, d))
		}
	}
	if skipped != nil {
		s.logf("fuzzvet %s: not checked: %v", dir, skipped)
	}
	return out, nil
}

// convert turns an analysis diagnostic into a protocol one with its fixes.
func (s *Server) convert(fset *token.FileSet, a *analysis.Analyzer, d analysis.Diagnostic) diagnostic {
	rng := s.span(fset, d.Pos, d.End)
	out := diagnostic{Diagnostic: protocol.Diagnostic{Range: rng, Severity: protocol.SeverityWarning,
		Source: "fuzzvet", Code: a.Name, Message: d.Message}}
	for _, f := range d.SuggestedFixes {
		edit := &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{}}
		for _, te := range f.TextEdits {
			p := fset.Position(te.Pos)
			edit.Changes[pathURI(p.Filename)] = append(edit.Changes[pathURI(p.Filename)],
				protocol.TextEdit{Range: s.span(fset, te.Pos, te.End), NewText: string(te.NewText)})
		}
		out.fixes = append(out.fixes, protocol.CodeAction{Title: f.Message, Kind: protocol.QuickFix,
			Diagnostics: []protocol.Diagnostic{out.Diagnostic}, IsPreferred: len(d.SuggestedFixes) == 1, Edit: edit})
	}
	return out
}

// span converts a token range into a protocol range using the file's text.
func (s *Server) span(fset *token.FileSet, pos, end token.Pos) protocol.Range {
	start := fset.Position(pos)
	stop := start
	if end.IsValid() {
		stop = fset.Position(end)
	}
	text, err := s.readFile(start.Filename)
	if err != nil {
		return protocol.Range{}
	}
	if !end.IsValid() || stop == start {
		// a position without an end (the corpus checks report a line): the rest of the line
		rng := lineRange(text, start.Line)
		rng.Start = position(text, start.Line, start.Column)
		return rng
	}
	return protocol.Range{Start: position(text, start.Line, start.Column), End: position(text, stop.Line, stop.Column)}
}

// failureDiagnostic places a run's failure at its frame, if that file exists.
func (s *Server) failureDiagnostic(f *failure) map[string][]diagnostic {
	if f.file == "" {
		return nil
	}
	text, err := s.readFile(f.file)
	if err != nil {
		if _, serr := os.Stat(f.file); serr != nil {
			return nil
		}
	}
	msg := fmt.Sprintf("%s fails (%s): %s", f.test, f.kind, f.message)
	if f.reproducer != "" {
		msg += "\nreproducer: " + f.reproducer
	}
	d := diagnostic{Diagnostic: protocol.Diagnostic{Range: lineRange(text, f.line), Severity: protocol.SeverityError,
		Source: "fuzzbox", Code: f.kind, Message: msg}}
	return map[string][]diagnostic{f.file: {d}}
}
