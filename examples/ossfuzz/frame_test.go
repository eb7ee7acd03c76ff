package ossfuzz

import (
	"bytes"
	"testing"
)

func TestFrame(t *testing.T) {
	got, err := Frame("ab", 2, []byte("xyz"))
	if err != nil || !bytes.Equal(got, []byte("ab\x02xyab\x01z")) {
		t.Errorf("Frame = %q, %v", got, err)
	}
	got, err = Frame("pad", 4, []byte("abcdef"))
	if err != nil || !bytes.Equal(got, []byte("pad\x04abcdpad\x02efdef")) {
		t.Errorf("Frame(pad) = %q, %v", got, err)
	}
	if _, err := Frame("", 1, nil); err != ErrTag {
		t.Errorf("empty tag: %v, want ErrTag", err)
	}
	if _, err := Frame("x", 0, nil); err != ErrSize {
		t.Errorf("size 0: %v, want ErrSize", err)
	}
}

// FuzzFrame checks that every frame can be read back. Its seeds (two f.Add
// calls and one file in testdata/fuzz/FuzzFrame) show the argument shapes;
// OSS-Fuzz builds made with go-118-fuzz-build drop the f.Add ones.
func FuzzFrame(f *testing.F) {
	f.Add("len", 4, []byte("abcdef"))
	f.Add("pad", 4, []byte("abcdef"))
	f.Fuzz(func(t *testing.T, tag string, size int, payload []byte) {
		out, err := Frame(tag, size, payload)
		if err != nil {
			return
		}
		frames := (len(payload) + size - 1) / size
		if len(out) < frames*(len(tag)+1)+len(payload) {
			t.Fatalf("Frame(%q, %d, %q) = %q: too short", tag, size, payload, out)
		}
	})
}
