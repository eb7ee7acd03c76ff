package tiffpalette

import (
	"bytes"
	"image"
	"image/color"
	"testing"

	"golang.org/x/image/tiff"
)

// seed is a 4×4 paletted image with four colors, as tiff.Encode writes it.
func seed(f *testing.F) []byte {
	pal := color.Palette{color.Black, color.White, color.Gray{Y: 0x80}, color.Gray{Y: 0x40}}
	m := image.NewPaletted(image.Rect(0, 0, 4, 4), pal)
	for i := range m.Pix {
		m.Pix[i] = uint8(i % len(pal))
	}
	var buf bytes.Buffer
	if err := tiff.Encode(&buf, m, nil); err != nil {
		f.Fatal(err)
	}
	return buf.Bytes()
}

func FuzzDecode(f *testing.F) {
	f.Add(seed(f))
	f.Fuzz(func(t *testing.T, b []byte) {
		cfg, err := tiff.DecodeConfig(bytes.NewReader(b))
		if err != nil || cfg.Width*cfg.Height > 1<<20 {
			return
		}
		img, err := tiff.Decode(bytes.NewReader(b))
		if err != nil {
			return
		}
		var sum uint32
		r := img.Bounds()
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				_, g, _, _ := img.At(x, y).RGBA()
				sum += g
			}
		}
		_ = sum
	})
}
