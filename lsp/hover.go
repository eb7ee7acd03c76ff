package lsp

import (
	"context"
	"fmt"
	"strings"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/lsp/protocol"
)

// Hover on a corpus file: the decoded value of the line under the cursor
// (type, length, readable text), or all values on the header line.

func (s *Server) hover(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	var p protocol.TextDocumentPositionParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	path, err := uriPath(p.TextDocument.URI)
	if err != nil || !isCorpusFile(path) {
		return nil, nil
	}
	text, err := s.readFile(path)
	if err != nil {
		return nil, nil
	}
	md, ok := hoverText(text, int(p.Position.Line)+1)
	if !ok {
		return nil, nil
	}
	if vals, err := corpus.Unmarshal([]byte(text)); err == nil {
		if typed, ok := s.entryTypedValues(path, text, vals); ok {
			md += "\n\ntyped arguments (package typed):\n\n"
			for i, v := range typed {
				md += fmt.Sprintf("%d. `%s`\n", i+1, strings.ReplaceAll(v, "`", "\\`"))
			}
		}
	}
	rng := lineRange(text, int(p.Position.Line)+1)
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: "markdown", Value: md}, Range: &rng}, nil
}

// hoverText describes the value on a 1-based line of a corpus file.
func hoverText(text string, line int) (string, bool) {
	vals, err := corpus.Unmarshal([]byte(text))
	if err != nil {
		return fmt.Sprintf("malformed corpus file: %v", err), true
	}
	if line == 1 {
		var b strings.Builder
		fmt.Fprintf(&b, "corpus entry with %d value(s):\n\n", len(vals))
		for i, v := range vals {
			fmt.Fprintf(&b, "%d. %s\n", i+1, describe(v))
		}
		return b.String(), true
	}
	// value lines are the non-blank lines after the header, in order
	i := -1
	for l := 2; l <= line; l++ {
		if strings.TrimSpace(lineText(text, l)) != "" {
			i++
		}
	}
	if strings.TrimSpace(lineText(text, line)) == "" || i < 0 || i >= len(vals) {
		return "", false
	}
	return fmt.Sprintf("value %d of %d: %s", i+1, len(vals), describe(vals[i])), true
}

// describe is a value's type, size and readable text, as markdown.
func describe(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("`string`, %d bytes: `%s`", len(v), strings.ReplaceAll(fmt.Sprintf("%q", v), "`", "\\`"))
	case []byte:
		return fmt.Sprintf("`[]byte`, %d bytes: `%s` (hex %x)", len(v), strings.ReplaceAll(fmt.Sprintf("%q", v), "`", "\\`"), v)
	}
	return fmt.Sprintf("`%T`: `%s`", v, readable(v))
}
