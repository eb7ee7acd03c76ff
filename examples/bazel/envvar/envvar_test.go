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

// sharedLoopVar reports whether this file is compiled as Go 1.21 compiled
// it (go_fuzz_test's gc_goopts, -lang=go1.21): then a for loop's variable is
// one variable, shared by its iterations; from Go 1.22 on, each iteration
// has its own.
func sharedLoopVar() bool {
	var fs []func() int
	for i := 0; i < 2; i++ {
		fs = append(fs, func() int { return i })
	}
	return fs[0]() == 2
}

// FuzzLabel fails on every input when the test runs without its env
// (ENVVAR_PREFIX, and ENVVAR_DATA, a $(location) expanded by the rules), its
// args (-envvar.mode=on), its x_defs (Greeting), its gc_linkopts (Linked) or
// its gc_goopts (sharedLoopVar), and its //go:embed (embedsrcs) builds: so
// envvar_fuzz_fuzz and envvar_fuzz_run pass only when all six reach the
// fuzzing binary. CI checks it.
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
		if Linked != "yes" {
			t.Fatalf("Linked is %q: the test is linked without go_fuzz_test's gc_linkopts", Linked)
		}
		if !sharedLoopVar() {
			t.Fatalf("a loop's variable is per iteration: the test is compiled without go_fuzz_test's gc_goopts (-lang=go1.21)")
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
