package lsp

import (
	"context"
	"fmt"
	"strings"

	"github.com/fuzzbox/fuzzbox/driver"
	"github.com/fuzzbox/fuzzbox/lsp/command"
	"github.com/fuzzbox/fuzzbox/lsp/protocol"
)

// Coverage of a fuzz test's corpus: driver.Cover (what fuzzbox cover -json
// reports) replays the corpus through a stock coverage test binary; the
// answer keeps the files inside the workspace. fuzzbox.coverage answers the
// blocks (the VS Code extension's coverage gutter), fuzzbox.coverageGaps the
// blocks never reached (a quickfix list for any client). Both are slow
// commands: they answer from their own goroutine (Server.handleAsync).

func (s *Server) coverage(ctx context.Context, key testKey) (command.CoverageReport, error) {
	stderr := s.logWriter()
	defer stderr.Close()
	s.logMessage("fuzzbox cover -json -fuzz=^%s$ in %s", key.name, key.dir)
	cfg := s.config(key.dir)
	cfg.Stderr = stderr
	rep, err := driver.Cover(ctx, cfg, driver.Target{Dir: key.dir, Name: key.name}, driver.CoverOptions{})
	if err != nil {
		return command.CoverageReport{}, invalidParams("coverage of %s: %v", key.name, err)
	}
	out := command.CoverageReport{Percent: rep.Percent, Statements: rep.Statements, Covered: rep.Covered,
		Entries: len(rep.Entries.Passed) + len(rep.Entries.Failed) + len(rep.Entries.Crashed), Files: []command.FileCoverage{}}
	for _, f := range rep.Files {
		if f.Path == "" {
			continue
		}
		if _, err := s.workspacePath(string(pathURI(f.Path))); err != nil {
			continue // a dependency outside the workspace (-coverpkg)
		}
		fc := command.FileCoverage{URI: string(pathURI(f.Path)), Blocks: []command.Block{}}
		for _, b := range f.Blocks {
			fc.Blocks = append(fc.Blocks, command.Block{StartLine: b.StartLine, StartCol: b.StartCol, EndLine: b.EndLine,
				EndCol: b.EndCol, Statements: b.Statements, Count: b.Count})
		}
		out.Files = append(out.Files, fc)
	}
	s.logMessage("%s: the corpus (%d entries) reaches %d of %d statements (%.1f%%)", key.name, out.Entries, out.Covered, out.Statements, out.Percent)
	return out, nil
}

// coverageGaps returns the blocks the corpus never reaches.
func (s *Server) coverageGaps(ctx context.Context, key testKey) ([]command.Gap, error) {
	rep, err := s.coverage(ctx, key)
	if err != nil {
		return nil, err
	}
	gaps := []command.Gap{}
	for _, f := range rep.Files {
		for _, b := range f.Blocks {
			if b.Count > 0 || b.Statements == 0 {
				continue
			}
			line, col := s.firstStatement(f.URI, b)
			gaps = append(gaps, command.Gap{URI: f.URI, Line: line, Col: col, EndLine: b.EndLine, EndCol: b.EndCol,
				Text: fmt.Sprintf("%s never reaches this (%d statements)", key.name, b.Statements)})
		}
	}
	return gaps, nil
}

// firstStatement is where a block's code starts: a block that opens at the
// end of a line (at the "{" of "if x {") starts on the next line's first non-blank byte.
func (s *Server) firstStatement(uri string, b command.Block) (line, col int) {
	path, err := uriPath(protocol.DocumentURI(uri))
	if err != nil {
		return b.StartLine, b.StartCol
	}
	text, err := s.readFile(path)
	lines := strings.Split(text, "\n")
	if err != nil || b.StartLine >= len(lines) || b.StartLine >= b.EndLine {
		return b.StartLine, b.StartCol
	}
	if rest := lines[b.StartLine-1]; b.StartCol-1 <= len(rest) && strings.TrimSpace(strings.TrimPrefix(rest[b.StartCol-1:], "{")) != "" {
		return b.StartLine, b.StartCol
	}
	next := lines[b.StartLine]
	return b.StartLine + 1, len(next) - len(strings.TrimLeft(next, " \t")) + 1
}
