package main

import (
	"slices"
	"testing"
)

// TestStockEnv: the replay test's binary runs without the test runner's
// variables that would change what it runs, with the rest kept.
func TestStockEnv(t *testing.T) {
	env := []string{"PATH=/bin", "TEST_SRCDIR=/r", "TEST_WORKSPACE=ws", "TESTBRIDGE_TEST_ONLY=FuzzX", "TEST_TOTAL_SHARDS=2",
		"TEST_SHARD_INDEX=1", "XML_OUTPUT_FILE=/o/test.xml", "GO_TEST_WRAP=1", "TEST_TMPDIR=/t", "HOME=/h"}
	got := stockEnv(env)
	want := []string{"PATH=/bin", "TEST_SRCDIR=/r", "TEST_TMPDIR=/t", "HOME=/h", "GO_TEST_WRAP=0"}
	if !slices.Equal(got, want) {
		t.Errorf("stockEnv = %q, want %q", got, want)
	}
	if env[2] != "TEST_WORKSPACE=ws" {
		t.Errorf("stockEnv changed its argument: %q", env)
	}
}
