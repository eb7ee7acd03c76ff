package parse

import "testing"

func TestHeader(t *testing.T) {
	if _, err := Header([]byte("abc")); err != ErrShort {
		t.Fatalf("Header(abc) error = %v, want ErrShort", err)
	}
	got, err := Header([]byte("FZBX\x02hi"))
	if err != nil || string(got) != "hi" {
		t.Fatalf("Header = %q, %v; want \"hi\"", got, err)
	}
}

func FuzzHeader(f *testing.F) {
	f.Add([]byte("FZBX\x02hi"))
	f.Add([]byte("other"))
	f.Fuzz(func(t *testing.T, data []byte) {
		Header(data)
	})
}
