package envvar

import (
	_ "embed"
	"flag"
	"os"
	"strings"
	"testing"
)

// words is embedded (go_fuzz_test's embedsrcs).
//
//go:embed words.txt
var words string

// mode is set by go_fuzz_test's args (-envvar.mode=on).
var mode = flag.String("envvar.mode", "", "on under the rules' args")

// FuzzLabel fails on every input when the test runs without its env
// (ENVVAR_PREFIX, and ENVVAR_DATA, a $(location) expanded by the rules), its
// args (-envvar.mode=on) or its x_defs (Greeting), and its //go:embed
// (embedsrcs) builds: so envvar_fuzz_fuzz and envvar_fuzz_run pass only when
// all four reach the fuzzing binary. CI checks it.
func FuzzLabel(f *testing.F) {
	prefix, data := os.Getenv("ENVVAR_PREFIX"), os.Getenv("ENVVAR_DATA")
	f.Add("x")
	f.Fuzz(func(t *testing.T, s string) {
		if prefix != "label:" {
			t.Fatalf("ENVVAR_PREFIX is %q: the test runs without go_fuzz_test's env", prefix)
		}
		if Greeting != "hello" {
			t.Fatalf("Greeting is %q: the test is linked without go_fuzz_test's x_defs", Greeting)
		}
		if !strings.HasPrefix(words, "alpha") {
			t.Fatalf("words is %q, not words.txt", words)
		}
		if *mode != "on" {
			t.Fatalf("-envvar.mode is %q: the test runs without go_fuzz_test's args", *mode)
		}
		if !strings.HasSuffix(data, "envvar/words.txt") {
			t.Fatalf("ENVVAR_DATA is %q, not the $(location) of words.txt", data)
		}
		if got := Label(prefix, s); !strings.HasPrefix(got, prefix) {
			t.Fatalf("Label(%q, %q) = %q", prefix, s, got)
		}
	})
}
