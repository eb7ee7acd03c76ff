// Package typedok holds correct fuzz tests written with fuzzbox's typed
// package: no fuzzvet analyzer may report anything here.
package typedok

import (
	"os"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/typed"
)

type Mode string

type Config struct {
	Port uint16
	Mode Mode
	At   time.Time
}

type OpKind uint8

type Op struct {
	Kind OpKind
	Path string
	Data []byte
}

func FuzzApply(f *testing.F) {
	typed.Add(f, Config{Port: 80, Mode: "tcp"}, []Op{{Kind: 1, Path: "/a"}})
	for _, seed := range [][]any{{Config{}, []Op(nil)}, {Config{Port: 1}, []Op{{}}}} {
		typed.Add(f, seed...)
	}
	typed.Fuzz(f, func(t *testing.T, c Config, ops []Op) {
		if f.Name() == "" {
			t.Skip("unnamed")
		}
		for _, op := range ops {
			op.Data[0] = 1 // decoded values are the fuzz function's own
		}
	})
}

// FuzzStrings has a corpus file: one []byte encoding the arguments.
func FuzzStrings(f *testing.F) {
	if os.Getenv("NOFUZZ") != "" {
		f.Skip("disabled")
	}
	typed.Add(f, "a", uint8(1))
	typed.Fuzz(f, func(t *testing.T, s string, n uint8) {})
}

func seeds(f *testing.F) {
	typed.Add(f, OpKind(1), 2)
}

func fuzz(f *testing.F) {
	typed.Fuzz(f, func(t *testing.T, k OpKind, n int) {})
}

func FuzzHelpers(f *testing.F) {
	seeds(f)
	fuzz(f)
}

func target(t *testing.T, b []byte, at time.Time) {}

func FuzzDeclared(f *testing.F) {
	typed.Add(f, []byte("x"), time.Time{})
	typed.Fuzz(f, target)
}
