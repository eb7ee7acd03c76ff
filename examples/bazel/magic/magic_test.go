package magic

import (
	"errors"
	"testing"

	"example.com/fuzzbox-bazel-example/magic/frame"
	"example.com/fuzzbox-bazel-example/magic/frametest"
)

func TestDecodeShort(t *testing.T) {
	if _, err := Decode(frametest.Short()); !errors.Is(err, frame.ErrShort) {
		t.Fatalf("Decode(short) error = %v, want frame.ErrShort", err)
	}
}

// FuzzDecode's seeds hold no valid magic number: the engine must learn it from
// the comparison in package frame, which only instrument_deps instruments.
func FuzzDecode(f *testing.F) {
	f.Add([]byte("hello, frame"))
	f.Add(frametest.Short())
	f.Fuzz(func(t *testing.T, data []byte) {
		Decode(data)
	})
}
