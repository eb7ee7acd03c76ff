package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestRootPackagePaths: the summary's commands for a fuzz test of the
// workspace's root package name no "./" directory (they printed
// bazel-testlogs/./x_fuzz/... and (cd . && go test ...); both worked).
func TestRootPackagePaths(t *testing.T) {
	t.Setenv("TEST_TARGET", "//:unmarshal_fuzz_fuzz")
	t.Setenv("TEST_TOTAL_SHARDS", "")
	if got, want := testOutputsZip("."), "bazel-testlogs/unmarshal_fuzz_fuzz/test.outputs/outputs.zip"; got != want {
		t.Errorf("testOutputsZip(.) = %q, want %q", got, want)
	}
	if got, want := goTestIn(".", "FuzzX", "abc"), "go test -run=FuzzX/abc"; got != want {
		t.Errorf("goTestIn(.) = %q, want %q", got, want)
	}
	// A label of the root package has no "." (//.:x is not a label).
	t.Setenv("TEST_TARGET", "")
	if got, want := mergeTarget("."), "//:<name>_merge"; got != want {
		t.Errorf("mergeTarget(.) = %q, want %q", got, want)
	}
	if got, want := label(".", "x_fuzz"), "//:x_fuzz"; got != want {
		t.Errorf("label(., x_fuzz) = %q, want %q", got, want)
	}
	if got, want := label("a/b", "x_fuzz"), "//a/b:x_fuzz"; got != want {
		t.Errorf("label(a/b, x_fuzz) = %q, want %q", got, want)
	}
	t.Setenv("TEST_TARGET", "//parse:parse_fuzz_fuzz")
	if got, want := testOutputsZip("parse"), "bazel-testlogs/parse/parse_fuzz_fuzz/test.outputs/outputs.zip"; got != want {
		t.Errorf("testOutputsZip(parse) = %q, want %q", got, want)
	}
	if got, want := goTestIn("parse", "FuzzX", "abc"), "(cd parse && go test -run=FuzzX/abc)"; got != want {
		t.Errorf("goTestIn(parse) = %q, want %q", got, want)
	}
}

// TestBuildFlagsRefused: fuzzbox fuzz's flags of the build, given to a
// target (--test_arg, bazel run -- ...), are refused by name: taken as the
// test binary's, -race failed it with "flag provided but not defined".
func TestBuildFlagsRefused(t *testing.T) {
	for _, args := range [][]string{{"-race"}, {"-tags=foo"}, {"-bin", "x"}, {"-fuzztime=1s", "-racetwin=false"}} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"-bazel.mode=test"}, args...), &stdout, &stderr)
		name, _, _ := strings.Cut(args[len(args)-1], "=")
		if len(args) == 2 && args[0] == "-bin" {
			name = "-bin"
		}
		if code != exitUsage || !strings.Contains(stderr.String(), "fuzzbox (bazel): "+name+": the rules build the fuzzing binary") {
			t.Errorf("%q: exit %d, want %d naming %s\n%s", args, code, exitUsage, name, stderr.String())
		}
	}
}
