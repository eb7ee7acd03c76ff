package typedmod

import (
	"testing"

	"github.com/fuzzbox/fuzzbox/typed"
)

type Config struct {
	Name  string
	Magic uint32
}

func FuzzCheck(f *testing.F) {
	typed.Fuzz(f, func(t *testing.T, c Config, n int8) {})
}
