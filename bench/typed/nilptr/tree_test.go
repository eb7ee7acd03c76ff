package nilptr

import (
	"testing"

	"github.com/fuzzbox/fuzzbox/typed"
)

func FuzzOwner(f *testing.F) {
	root := &Node{Name: "/", Kind: "dir", Meta: &Meta{Mode: 0o755, Owner: &Owner{UID: 0, Name: "root"}}}
	typed.Add(f, &Node{Name: "etc", Kind: "dir", Meta: &Meta{Mode: 0o755, Inherit: true}, Parent: root})
	typed.Add(f, &Node{Name: "notes", Kind: "file", Meta: &Meta{Mode: 0o644, Owner: &Owner{UID: 1000, Name: "ana"}}})
	typed.Fuzz(f, func(t *testing.T, n *Node) {
		OwnerOf(n)
	})
}
