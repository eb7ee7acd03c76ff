package easy

import "testing"

func FuzzHeader(f *testing.F) {
	f.Add([]byte("# a comment\n"))
	f.Add([]byte("#!/bin/sh\necho hi\n"))
	f.Add([]byte("plain text"))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := ParseHeader(b)
		if err == nil && h.Interpreter != "" && h.Comment != "" {
			t.Fatalf("header has both interpreter and comment: %+v", h)
		}
	})
}
