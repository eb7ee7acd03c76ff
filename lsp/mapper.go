package lsp

import (
	"strings"
	"unicode/utf8"

	"github.com/fuzzbox/fuzzbox/lsp/protocol"
)

// Conversions between Go's byte positions and the protocol's UTF-16 ones.

// lineText returns the 1-based line of text, without its newline.
func lineText(text string, line int) string {
	for i := 1; i < line; i++ {
		nl := strings.IndexByte(text, '\n')
		if nl < 0 {
			return ""
		}
		text = text[nl+1:]
	}
	if nl := strings.IndexByte(text, '\n'); nl >= 0 {
		text = text[:nl]
	}
	return strings.TrimSuffix(text, "\r")
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// position converts a 1-based line and 1-based byte column of text.
func position(text string, line, col int) protocol.Position {
	if line < 1 {
		return protocol.Position{}
	}
	l := lineText(text, line)
	b := min(max(col-1, 0), len(l))
	for b > 0 && b < len(l) && !utf8.RuneStart(l[b]) {
		b--
	}
	return protocol.Position{Line: uint32(line - 1), Character: uint32(utf16Len(l[:b]))}
}

// offset converts a protocol position to a byte offset in text: a line
// past the end is the end of text, a character past its line's end that
// end.
func offset(text string, pos protocol.Position) int {
	off := 0
	for range pos.Line {
		nl := strings.IndexByte(text[off:], '\n')
		if nl < 0 {
			return len(text)
		}
		off += nl + 1
	}
	line := text[off:]
	if nl := strings.IndexByte(line, '\n'); nl >= 0 {
		line = line[:nl]
	}
	units := 0
	for i, r := range line {
		if units >= int(pos.Character) {
			return off + i
		}
		units += utf16Len(string(r))
	}
	return off + len(line)
}

// lineRange is the range of a 1-based line's text without leading blanks.
func lineRange(text string, line int) protocol.Range {
	l := lineText(text, line)
	trimmed := strings.TrimLeft(l, " \t")
	start := position(text, line, len(l)-len(trimmed)+1)
	end := position(text, line, len(l)+1)
	return protocol.Range{Start: start, End: end}
}
