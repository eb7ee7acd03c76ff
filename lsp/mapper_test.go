package lsp

import (
	"testing"

	"github.com/fuzzbox/fuzzbox/lsp/protocol"
)

func TestApplyChange(t *testing.T) {
	const text = "ab\r\né😀x\nlast"
	for _, tc := range []struct {
		from, to protocol.Position
		insert   string
		want     string
	}{
		{protocol.Position{}, protocol.Position{}, "0", "0ab\r\né😀x\nlast"},
		{protocol.Position{Line: 1, Character: 1}, protocol.Position{Line: 1, Character: 3}, "", "ab\r\néx\nlast"}, // the emoji: two UTF-16 units
		{protocol.Position{Line: 0, Character: 2}, protocol.Position{Line: 1, Character: 0}, "", "abé😀x\nlast"},
		{protocol.Position{Line: 2, Character: 99}, protocol.Position{Line: 9}, "!", "ab\r\né😀x\nlast!"},
	} {
		got := applyChange(text, protocol.TextDocumentContentChangeEvent{Range: &protocol.Range{Start: tc.from, End: tc.to}, Text: tc.insert})
		if got != tc.want {
			t.Errorf("%v-%v %q: got %q, want %q", tc.from, tc.to, tc.insert, got, tc.want)
		}
	}
	if got := applyChange(text, protocol.TextDocumentContentChangeEvent{Text: "new"}); got != "new" {
		t.Errorf("whole text: %q", got)
	}
}
