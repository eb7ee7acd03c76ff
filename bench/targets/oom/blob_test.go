package oom

import "testing"

func FuzzDecode(f *testing.F) {
	f.Add([]byte("BL\x00\x05\x00\x00\x00hello"))
	f.Add([]byte("BL\x04\x10\x00\x00\x00abc"))
	f.Add([]byte("BL\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := Decode(b)
		if err == nil && len(out) < len(b)-7 {
			t.Fatalf("decoded %d bytes from %d", len(out), len(b))
		}
	})
}
