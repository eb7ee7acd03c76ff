//go:build cgo

package libfuzzer

import (
	"bytes"
	"testing"
)

// copyHits copies the 64-byte blocks that hold a hit and the tail, and
// leaves the other blocks of dst as they are (the engine cleared them).
func TestCopyHits(t *testing.T) {
	src := make([]byte, 64*3+5)
	src[70] = 1   // block 1
	src[64*3] = 2 // the tail
	dst := bytes.Repeat([]byte{9}, len(src))
	copyHits(dst, src)
	want := bytes.Repeat([]byte{9}, len(src))
	copy(want[64:128], src[64:128])
	copy(want[64*3:], src[64*3:])
	if !bytes.Equal(dst, want) {
		t.Errorf("copyHits:\n got %v\nwant %v", dst, want)
	}
}
