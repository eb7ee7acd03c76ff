package main

import "testing"

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
	t.Setenv("TEST_TARGET", "//parse:parse_fuzz_fuzz")
	if got, want := testOutputsZip("parse"), "bazel-testlogs/parse/parse_fuzz_fuzz/test.outputs/outputs.zip"; got != want {
		t.Errorf("testOutputsZip(parse) = %q, want %q", got, want)
	}
	if got, want := goTestIn("parse", "FuzzX", "abc"), "(cd parse && go test -run=FuzzX/abc)"; got != want {
		t.Errorf("goTestIn(parse) = %q, want %q", got, want)
	}
}
