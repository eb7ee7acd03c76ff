package opseq

import (
	"testing"

	"fuzzbox.dev/bench/typed/internal/consume"
)

// FuzzApplyBytes is FuzzApply's byte-consuming twin (for go-118-fuzz-build):
// it builds operations from the bytes until they run out.
func FuzzApplyBytes(f *testing.F) {
	f.Add([]byte("\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x01a\x01\x00\x00\x00\x00\x00\x00\x00\x07\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := consume.New(data)
		s := New()
		for c.Len() > 0 {
			s.Apply(Op{Kind: OpKind(c.Uint8()), Key: c.String(), Value: int32(c.Uint32()), ID: c.Uint32()})
		}
	})
}
