// Package frame flips raw video frames vertically: rows of Width pixels of
// Format.BPP bytes each, Stride bytes apart, in one pixel buffer.
//
// Bug: the fast path for tightly packed 24-bit frames (Stride equal to
// Width×3) copies each pixel as a four-byte word, so on the last pixel of
// the last row it reads one byte past the buffer when the buffer is exactly
// Stride×Height bytes. Two fields must agree with a third (Stride ==
// Width×BPP, with BPP 3) and the buffer's length must equal Stride×Height:
// the seeds are a packed 32-bit frame and a padded 24-bit one. Comparison
// guidance puts Width×BPP into Stride and Stride×Height as the buffer's
// length; as bytes, the four-byte Stride, and the buffer's length prefix in
// the middle of the input (the frame's tag follows it), must be rewritten to
// match.
//
// Signature: (?s)index out of range.*frame\.flipPacked24
package frame

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Format is a pixel format.
type Format struct {
	BPP   uint8 // bytes per pixel, 1 to 4
	Alpha bool
}

// Frame is one video frame.
type Frame struct {
	Width, Height uint16
	Stride        uint32 // bytes from one row to the next, at least Width×BPP
	Format        Format
	Pix           []byte
	Tag           string // the frame's label, kept through the flip
}

// FlipVertical returns f upside down.
func FlipVertical(f Frame) (Frame, error) {
	bpp := uint32(f.Format.BPP)
	if bpp < 1 || bpp > 4 {
		return Frame{}, fmt.Errorf("frame: %d bytes per pixel", bpp)
	}
	row := uint32(f.Width) * bpp
	if f.Stride < row {
		return Frame{}, fmt.Errorf("frame: stride %d below row size %d", f.Stride, row)
	}
	if f.Width == 0 || f.Height == 0 {
		return Frame{}, errors.New("frame: empty frame")
	}
	need := uint64(f.Stride)*uint64(f.Height-1) + uint64(row)
	if uint64(len(f.Pix)) < need {
		return Frame{}, fmt.Errorf("frame: %d bytes of pixels, want %d", len(f.Pix), need)
	}
	out := f
	out.Pix = make([]byte, len(f.Pix))
	if bpp == 3 && f.Stride == row {
		flipPacked24(out.Pix, f.Pix, int(f.Width), int(f.Height))
		return out, nil
	}
	for y := range int(f.Height) {
		src := f.Pix[y*int(f.Stride):][:row]
		copy(out.Pix[(int(f.Height)-1-y)*int(f.Stride):], src)
	}
	return out, nil
}

// flipPacked24 flips a packed 24-bit frame pixel by pixel, moving four
// bytes at a time and letting the next pixel overwrite the fourth.
func flipPacked24(dst, src []byte, w, h int) {
	row := 3 * w
	for y := range h {
		d := dst[(h-1-y)*row:]
		s := src[y*row:]
		for x := range w {
			v := binary.LittleEndian.Uint32(s[3*x:])
			binary.LittleEndian.PutUint32(d[3*x:], v)
		}
	}
}
