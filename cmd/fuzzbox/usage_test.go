package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestUsageError: a usage error prints the error, the command's synopsis
// and where the rest is, not the page of flags that -h prints.
func TestUsageError(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		help     []string // the same command with -h
		want     []string
		notWant  string
		helpWant []string
	}{
		{
			args:     []string{"fuzz", "-fuzz=[", "."},
			help:     []string{"fuzz", "-h"},
			want:     []string{"fuzzbox fuzz: -fuzz: error parsing regexp", "\nusage: fuzzbox fuzz [flags] [packages]", "\n       fuzzbox fuzz -bin=BINARY", "\nRun 'fuzzbox fuzz -h' for details.\n"},
			notWant:  "-rss_limit_mb",
			helpWant: []string{"-rss_limit_mb"},
		},
		{
			args:     []string{"corpus", "merge", "-bogus", "dir"},
			help:     []string{"corpus", "merge", "-h"},
			want:     []string{"fuzzbox corpus: flag provided but not defined: -bogus\nusage: fuzzbox corpus merge -fuzz=FuzzX [-pkg DIR] [-cachedir DIR] [-from-libfuzzer] DIR...\nRun 'fuzzbox corpus merge -h' for details.\n"},
			notWant:  "Subcommands:",
			helpWant: []string{"Subcommands:", "\nFlags of corpus merge:\n", "-json", "-tags", "-types"},
		},
		{
			args:     []string{"corpus", "export"},
			help:     []string{"corpus", "export", "-h"},
			want:     []string{"fuzzbox corpus: export: missing file arguments\nusage: fuzzbox corpus export -o DIR FILE|DIR...\n       fuzzbox corpus export -to-libfuzzer -o DIR FILE|DIR...\n"},
			notWant:  "import",
			helpWant: []string{"import", "\nFlags of corpus export:\n  -o DIR"},
		},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(tc.args, &stdout, &stderr); code != exitUsage {
			t.Errorf("%q: exit %d, want %d", tc.args, code, exitUsage)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr.String(), w) {
				t.Errorf("%q: stderr lacks %q:\n%s", tc.args, w, stderr.String())
			}
		}
		if strings.Contains(stderr.String(), tc.notWant) {
			t.Errorf("%q: stderr has %q, which is for -h:\n%s", tc.args, tc.notWant, stderr.String())
		}
		// -h still prints it all.
		stdout.Reset()
		if code := run(tc.help, &stdout, &stderr); code != exitOK {
			t.Errorf("%q: exit %d", tc.help, code)
		}
		for _, w := range tc.helpWant {
			if !strings.Contains(stdout.String(), w) {
				t.Errorf("%q: stdout lacks %q:\n%s", tc.help, w, stdout.String())
			}
		}
	}
}
