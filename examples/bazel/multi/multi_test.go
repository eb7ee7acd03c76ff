package multi_test

import (
	"strings"
	"testing"

	"example.com/fuzzbox-bazel-example/multi"
)

func FuzzReverse(f *testing.F) {
	f.Add("hello")
	f.Fuzz(func(t *testing.T, s string) {
		if multi.Reverse(multi.Reverse(s)) != s {
			t.Fatalf("Reverse(Reverse(%q)) != %q", s, s)
		}
	})
}

func FuzzWords(f *testing.F) {
	f.Add("a b  c")
	f.Fuzz(func(t *testing.T, s string) {
		for _, w := range multi.Words(s) {
			if w == "" || strings.ContainsAny(w, " \t\n") {
				t.Fatalf("Words(%q) has %q", s, w)
			}
		}
	})
}
