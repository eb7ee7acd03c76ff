package jsonget

import (
	"strings"
	"testing"

	"github.com/buger/jsonparser"
)

func FuzzGet(f *testing.F) {
	f.Add([]byte(`{"user":{"name":"ada","langs":["go","c"]},"n":3}`), "user.name")
	f.Add([]byte(`{"a":[{"b":1},{"b":2}]}`), "a.[1].b")
	f.Add([]byte(`[1,2,3]`), "[0]")
	f.Fuzz(func(t *testing.T, doc []byte, path string) {
		var keys []string
		if path != "" {
			keys = strings.Split(path, ".")
		}
		v, typ, off, err := jsonparser.Get(doc, keys...)
		if err == nil && off > len(doc) {
			t.Fatalf("Get returned offset %d past the end of a %d-byte document (value %q, %v)", off, len(doc), v, typ)
		}
	})
}
