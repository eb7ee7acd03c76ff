package nilptr

import (
	"testing"

	"fuzzbox.dev/bench/typed/internal/consume"
)

// FuzzOwnerBytes is FuzzOwner's byte-consuming twin (for go-118-fuzz-build):
// a node, then a flag byte for each pointer followed by what it points to.
func FuzzOwnerBytes(f *testing.F) {
	f.Add([]byte("\x03etc\x03dir\x01\xed\x01\x00\x01\x01\x01/\x03dir\x01\xed\x01\x01\x00\x00\x00\x00\x04root\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		OwnerOf(node(consume.New(data), 0))
	})
}

func node(c *consume.Bytes, depth int) *Node {
	if depth > 8 || c.Len() == 0 {
		return nil
	}
	n := &Node{Name: c.String(), Kind: c.String()}
	if c.Bool() {
		n.Meta = &Meta{Mode: c.Uint16()}
		if c.Bool() {
			n.Meta.Owner = &Owner{UID: c.Uint32(), Name: c.String()}
		}
		n.Meta.Inherit = c.Bool()
	}
	if c.Bool() {
		n.Parent = node(c, depth+1)
	}
	return n
}
