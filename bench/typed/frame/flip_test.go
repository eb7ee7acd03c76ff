package frame

import (
	"bytes"
	"testing"

	"github.com/fuzzbox/fuzzbox/typed"
)

func FuzzFlip(f *testing.F) {
	typed.Add(f, Frame{Width: 4, Height: 2, Stride: 16, Format: Format{BPP: 4, Alpha: true}, Pix: bytes.Repeat([]byte{1, 2, 3, 4}, 8), Tag: "rgba"})
	typed.Add(f, Frame{Width: 3, Height: 2, Stride: 12, Format: Format{BPP: 3}, Pix: bytes.Repeat([]byte{9, 8, 7}, 8), Tag: "rgb-padded"})
	typed.Fuzz(f, func(t *testing.T, fr Frame) {
		out, err := FlipVertical(fr)
		if err == nil && out.Tag != fr.Tag {
			t.Fatalf("tag %q became %q", fr.Tag, out.Tag)
		}
	})
}
