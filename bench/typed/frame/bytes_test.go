package frame

import (
	"testing"

	"fuzzbox.dev/bench/typed/internal/consume"
)

// FuzzFlipBytes is FuzzFlip's byte-consuming twin (for go-118-fuzz-build):
// the frame's fields in order, the pixels as a one-byte length and bytes.
func FuzzFlipBytes(f *testing.F) {
	f.Add([]byte("\x03\x00\x02\x00\x0c\x00\x00\x00\x03\x00\x18\x09\x08\x07\x09\x08\x07\x09\x08\x07\x09\x08\x07\x09\x08\x07\x09\x08\x07\x09\x08\x07\x09\x08\x07\x0argb-padded"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := consume.New(data)
		fr := Frame{Width: c.Uint16(), Height: c.Uint16(), Stride: c.Uint32(), Format: Format{BPP: c.Uint8(), Alpha: c.Bool()}, Pix: c.Bytes(), Tag: c.String()}
		out, err := FlipVertical(fr)
		if err == nil && out.Tag != fr.Tag {
			t.Fatalf("tag %q became %q", fr.Tag, out.Tag)
		}
	})
}
