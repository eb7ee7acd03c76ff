package main

import (
	"strings"
	"testing"
)

// TestFitTimeout: a bazel test's -fuzztime leaves the overhead of its
// timeout (TEST_TIMEOUT), so that what it finds is reported rather than a
// TIMEOUT; no budget becomes the time that fits.
func TestFitTimeout(t *testing.T) {
	for _, tc := range []struct {
		fuzztime, timeout string
		want, says        string // says: a part of the note, "" for none
	}{
		{"30s", "300", "30s", ""},
		{"3m30s", "300", "3m30s", ""},
		{"1h", "300", "3m30s", "-fuzztime=1h does not fit the test's timeout: fuzzing for 3m30s, the test's timeout (300s) less about 90s"},
		{"1h", "300", "3m30s", "--test_timeout=3690"},
		{"", "300", "3m30s", "no -fuzztime: fuzzing for 3m30s"},
		{"0s", "900", "13m30s", "no -fuzztime: fuzzing for 13m30s"},
		{"", "60", "15s", "no -fuzztime: fuzzing for 15s"}, // a quarter at least
		{"1000000x", "60", "1000000x", ""},
		{"", "", "", ""},     // not under bazel test
		{"1h", "", "1h", ""}, // likewise
		{"1h", "soon", "1h", ""},
	} {
		got, says := fitTimeout(tc.fuzztime, tc.timeout)
		if got != tc.want || (tc.says == "") != (says == "") || !strings.Contains(says, tc.says) {
			t.Errorf("fitTimeout(%q, %q) = %q, %q; want %q, saying %q", tc.fuzztime, tc.timeout, got, says, tc.want, tc.says)
		}
	}
}
