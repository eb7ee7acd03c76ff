package jsondelete

import (
	"testing"

	"github.com/buger/jsonparser"
)

func FuzzDelete(f *testing.F) {
	f.Add([]byte(`{"id":1,"secret":"x","name":"ada"}`), "secret")
	f.Add([]byte(`{"a":{"b":[1,2]},"c":true}`), "a")
	f.Add([]byte(`{"k":"v"}`), "missing")
	f.Fuzz(func(t *testing.T, doc []byte, key string) {
		in := append([]byte(nil), doc...)
		out := jsonparser.Delete(in, key)
		if len(out) > len(doc) {
			t.Fatalf("Delete grew the document from %d to %d bytes", len(doc), len(out))
		}
	})
}
