package server

import (
	"testing"

	"github.com/fuzzbox/fuzzbox/typed"
)

func TestApply(t *testing.T) {
	s := New(Config{Port: 443, Mode: "tls"})
	for _, op := range []Op{{Kind: OpOpen, Path: "/a"}, {Kind: OpWrite, Path: "/a", Size: 10}, {Kind: OpClose, Path: "/a"}} {
		if err := s.Apply(op); err != nil {
			t.Fatal(err)
		}
	}
}

func FuzzApply(f *testing.F) {
	typed.Add(f, Config{Port: 80, Mode: "plain"}, []Op{{Kind: OpOpen, Path: "/a"}, {Kind: OpWrite, Path: "/a", Size: 3}})
	typed.Fuzz(f, func(t *testing.T, c Config, ops []Op) {
		s := New(c)
		for _, op := range ops {
			s.Apply(op)
		}
	})
}
