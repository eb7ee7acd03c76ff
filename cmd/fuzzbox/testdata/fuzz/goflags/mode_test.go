package goflags

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "a test binary's own flag, as golden-file tests have")

func FuzzMode(f *testing.F) {
	f.Add("F")
	f.Fuzz(func(t *testing.T, s string) {
		// The environment is go test's: GOFLAGS as the user set it, without the build flags.
		if *update && Mode == "on air" && os.Getenv("GOFLAGS") == "-modcacherw" && strings.HasPrefix(s, "FUZ") {
			panic("fuzzbox-e2e: built with -ldflags, run with -update")
		}
	})
}
