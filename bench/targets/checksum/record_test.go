package checksum

import "testing"

func FuzzDecode(f *testing.F) {
	f.Add(Encode(nil, kindText, []byte("hello")))
	f.Add(Encode(Encode(nil, kindCounter, []byte("\x01\x00\x00\x00\x00\x00\x00\x00")), kindText, nil))
	f.Add([]byte("R\x01\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		recs, err := Decode(b)
		if err == nil && len(b) > 0 && len(recs) == 0 {
			t.Fatal("non-empty input decoded to no records")
		}
	})
}
