package lsp_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/lsp"
)

// TestApplyGoTestFlags: the editor's go.testFlags are read as go test reads
// its command line: -tags, -short and -vet win over the flags', the test
// binary's flags and what follows -args join -testarg's, and what is for go
// test's own runs or refused is left out and logged, never an error.
func TestApplyGoTestFlags(t *testing.T) {
	for _, tc := range []struct {
		flags []string
		want  lsp.Options
		log   []string
	}{
		{flags: nil, want: lsp.Options{Tags: "a", TestArgs: []string{"-x"}}},
		{flags: []string{"-v", "-tags=b", "-short", "-count=1"}, want: lsp.Options{Tags: "b", Short: true, TestArgs: []string{"-x"}},
			log: []string{"go.testFlags: -v left out: fuzzbox's runs set their own"}},
		{flags: []string{"-vet", "off", "-timeout=30s", "-race", "-coverprofile=c.out", "-update", "-args", "extra"},
			want: lsp.Options{Tags: "a", Vet: "off", TestArgs: []string{"-x", "-update", "extra"}},
			log:  []string{"-race left out", "-timeout left out", "go.testFlags: left out: go test's -coverprofile is not fuzzbox's"}},
		{flags: []string{"./...", "-failfast"}, want: lsp.Options{Tags: "a", TestArgs: []string{"-x", "-test.failfast"}},
			log: []string{`go.testFlags: ["./..."] left out`}},
		{flags: []string{"-tags"}, want: lsp.Options{Tags: "a", TestArgs: []string{"-x"}},
			log: []string{`go.testFlags ["-tags"] left out: flag needs an argument: -tags`}},
	} {
		opts := lsp.Options{Tags: "a", TestArgs: []string{"-x"}}
		var log []string
		opts.ApplyGoTestFlags(tc.flags, func(format string, args ...any) { log = append(log, fmt.Sprintf(format, args...)) })
		if opts.Tags != tc.want.Tags || opts.Short != tc.want.Short || opts.Vet != tc.want.Vet || !slices.Equal(opts.TestArgs, tc.want.TestArgs) {
			t.Errorf("%q: tags %q short %v vet %q test args %q; want %q %v %q %q", tc.flags, opts.Tags, opts.Short, opts.Vet, opts.TestArgs,
				tc.want.Tags, tc.want.Short, tc.want.Vet, tc.want.TestArgs)
		}
		all := strings.Join(log, "\n")
		for _, w := range tc.log {
			if !strings.Contains(all, w) {
				t.Errorf("%q: log lacks %q:\n%s", tc.flags, w, all)
			}
		}
		if len(log) != len(tc.log) {
			t.Errorf("%q: %d log lines, want %d:\n%s", tc.flags, len(log), len(tc.log), all)
		}
	}
}
