package go118

import (
	stdtesting "testing"

	"example.com/go118/testing"
	"github.com/fuzzbox/fuzzbox/typed"
)

type Config struct {
	Name  string
	Magic uint32
}

// fuzzCheck is a typed fuzz test as go-118-fuzz-build rewrites it: its
// testing import is the replacement's.
func fuzzCheck(f *testing.F) {
	typed.Add(f, Config{Name: "guest"})
	typed.Fuzz(f, func(t *testing.T, c Config) {
		if c.Name == "admin" && c.Magic == 0x5eed {
			t.Fatalf("admin with the magic")
		}
	})
}

func TestUnderReplacement(t *stdtesting.T) {
	// typed.Encode(Config{Name: "admin", Magic: 0x5eed}): docs/typed.md.
	f := &testing.F{T: &testing.T{}, Data: []byte("\x01\x05admin\xed\x5e\x00\x00")}
	func() {
		defer func() { recover() }()
		fuzzCheck(f)
	}()
	if !f.T.Failed {
		t.Error("the typed fuzz function did not run the bug's input under the replacement F")
	}
	ok := &testing.F{T: &testing.T{}, Data: []byte("\x01\x05guest")}
	fuzzCheck(ok)
	if ok.T.Failed {
		t.Error("a harmless input failed")
	}
}
