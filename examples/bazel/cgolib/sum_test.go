package cgolib

import "testing"

// FuzzCheck: a record that passes the C checksum and whose body starts with
// "BUG" panics (the planted bug). The comparison with the checksum guides
// the engine to it.
func FuzzCheck(f *testing.F) {
	f.Add([]byte("hello\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, rec []byte) {
		body, err := Check(rec)
		if err == nil && len(body) >= 3 && string(body[:3]) == "BUG" {
			panic("a valid record starting with BUG")
		}
	})
}
