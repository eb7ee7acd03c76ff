package magic32

import "testing"

func FuzzDecode(f *testing.F) {
	f.Add([]byte("HEAD\x01\x00\x02DATA\x03\x00abcEND \x00\x00"))
	f.Add([]byte("DATA\x00\x00XTRA\x02\x00hi"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := Decode(b)
		if err == nil && file == nil {
			t.Fatal("Decode returned neither a file nor an error")
		}
	})
}
