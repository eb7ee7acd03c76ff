package wrap

import (
	"strings"
	"testing"
)

// FuzzBody: a valid record whose body starts with "BUG" panics.
func FuzzBody(f *testing.F) {
	f.Add([]byte("hello\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, rec []byte) {
		if body, err := Body(rec); err == nil && strings.HasPrefix(body, "BUG") {
			panic("a valid record starting with BUG")
		}
	})
}
