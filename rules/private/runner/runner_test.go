package main

import (
	"flag"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// notTaken are fuzzbox fuzz's flags the runner leaves out: the rules build
// the binary (-bin, -race, -tags are the targets' attributes).
var notTaken = map[string]bool{"bin": true, "race": true, "tags": true}

// TestFlagsMatchFuzzboxFuzz checks that the runner takes fuzzbox fuzz's
// flags (flags.go copies their registration), with the same defaults.
func TestFlagsMatchFuzzboxFuzz(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/fuzzbox")
	}
	out, err := exec.Command("go", "run", "github.com/fuzzbox/fuzzbox/cmd/fuzzbox", "fuzz", "-h").CombinedOutput()
	if err != nil {
		t.Fatalf("fuzzbox fuzz -h: %v\n%s", err, out)
	}
	want := parseDefaults(string(out))
	if len(want) < 10 {
		t.Fatalf("parsed only %d flags from fuzzbox fuzz -h:\n%s", len(want), out)
	}
	var f fuzzFlags
	fs := flag.NewFlagSet("runner", flag.ContinueOnError)
	var usage strings.Builder
	fs.SetOutput(&usage)
	f.register(fs)
	fs.PrintDefaults()
	got := parseDefaults(usage.String())
	for name, def := range want {
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("the runner lacks fuzzbox fuzz's flag -%s", name)
		case g != def:
			t.Errorf("-%s: the runner's default is %q, fuzzbox fuzz's %q", name, g, def)
		}
	}
	var extra []string
	for name := range got {
		if _, ok := want[name]; !ok {
			extra = append(extra, name)
		}
	}
	sort.Strings(extra)
	if len(extra) > 0 {
		t.Errorf("the runner has flags fuzzbox fuzz does not: %v", extra)
	}
}

// parseDefaults returns the flags PrintDefaults lists in out, each with the
// "(default X)" its lines show ("" for none), minus notTaken.
func parseDefaults(out string) map[string]string {
	flags := map[string]string{}
	flagLine := regexp.MustCompile(`^  -([a-z_.]+)`)
	var last string
	for _, l := range strings.Split(out, "\n") {
		if m := flagLine.FindStringSubmatch(l); m != nil {
			last = m[1]
			if !notTaken[last] {
				flags[last] = ""
			}
		}
		if i := strings.Index(l, "(default "); i >= 0 && last != "" && !notTaken[last] {
			flags[last] = strings.TrimSuffix(l[i+len("(default "):], ")")
		}
	}
	return flags
}
