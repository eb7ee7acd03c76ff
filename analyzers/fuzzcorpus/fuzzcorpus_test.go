package fuzzcorpus_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fuzzbox/fuzzbox/analyzers/fuzzcorpus"
)

// recorder collects analysistest's complaints; corpus files cannot hold
// "// want" comments, so their diagnostics are checked against want below.
type recorder struct{ errs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// want lists the diagnostics by "<file under testdata/fuzz>:<line>".
var want = map[string]*regexp.Regexp{
	"FuzzA/syntax:3":   regexp.MustCompile(`^malformed corpus file for FuzzA: .+`),
	"FuzzA/types:3":    regexp.MustCompile(`^corpus entry does not fit FuzzA: mismatched types in corpus entry: \[string uint8\], want \[string int\]$`),
	"FuzzA/count:2":    regexp.MustCompile(`^corpus entry does not fit FuzzA: wrong number of values in corpus entry: 1, want 2$`),
	"FuzzB/header:1":   regexp.MustCompile(`^malformed corpus file for FuzzB: .+`),
	"FuzzBad/syntax:3": regexp.MustCompile(`^malformed corpus file for FuzzBad: .+`),
	"FuzzTyped/raw:3":  regexp.MustCompile(`^corpus entry does not fit FuzzTyped: wrong number of values in corpus entry: 2, want 1$`),
}

func Test(t *testing.T) {
	rec := &recorder{}
	results := analysistest.Run(rec, analysistest.TestData(), fuzzcorpus.Analyzer, "a")
	got := map[string]string{}
	for _, res := range results {
		for _, d := range res.Diagnostics {
			posn := res.Pass.Fset.Position(d.Pos)
			_, rel, ok := strings.Cut(filepath.ToSlash(posn.Filename), "testdata/fuzz/")
			if !ok {
				t.Errorf("diagnostic outside a corpus file: %s: %s", posn, d.Message)
				continue
			}
			got[fmt.Sprintf("%s:%d", rel, posn.Line)] = d.Message
		}
	}
	for k, re := range want {
		if !re.MatchString(got[k]) {
			t.Errorf("%s: got %q, want match for %q", k, got[k], re)
		}
	}
	for k, msg := range got {
		if want[k] == nil {
			t.Errorf("%s: unexpected diagnostic %q", k, msg)
		}
	}
	// analysistest complains only about the corpus diagnostics it cannot match.
	for _, e := range rec.errs {
		if !strings.Contains(e, "unexpected diagnostic") || !strings.Contains(e, "testdata/fuzz/") {
			t.Errorf("analysistest: %s", e)
		}
	}
	if len(rec.errs) != len(got) {
		t.Errorf("analysistest reported %d errors for %d corpus diagnostics: %q", len(rec.errs), len(got), slices.Sorted(slices.Values(rec.errs)))
	}
}
