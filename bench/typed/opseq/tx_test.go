package opseq

import (
	"testing"

	"github.com/fuzzbox/fuzzbox/typed"
)

func FuzzApply(f *testing.F) {
	typed.Add(f, []Op{{Kind: OpBegin}, {Kind: OpPut, Key: "a", Value: 1}, {Kind: OpCommit}})
	typed.Add(f, []Op{{Kind: OpPut, Key: "b", Value: 2}, {Kind: OpDelete, Key: "b"}})
	typed.Fuzz(f, func(t *testing.T, ops []Op) {
		s := New()
		for _, op := range ops {
			s.Apply(op)
		}
	})
}
