package main

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

func TestCombineInstances(t *testing.T) {
	rs := []runResult{
		{Execs: 1000, ExecsPerSec: 100, FuzzS: 10, Log: "a", Early: 10},
		{Execs: 500, ExecsPerSec: 100, FuzzS: 5, Failed: true, Kind: "panic", TTF: 5, ExecsToFailure: 480, Log: "b", Early: 20},
		{Execs: 700, ExecsPerSec: 50, FuzzS: 8, Failed: true, Kind: "fatal", TTF: 7, Log: "c", Early: 30},
	}
	got := combineInstances(target{name: "x"}, engineFuzzboxSync, 1, rs)
	if !got.Failed || got.Kind != "panic" || got.TTF != 5 {
		t.Errorf("combined failure %q at %v s, want the first one (panic at 5 s)", got.Kind, got.TTF)
	}
	if got.Execs != 2200 || got.ExecsPerSec != 250 || got.FuzzS != 10 || got.Early != 20 {
		t.Errorf("combined execs %d, rate %v, fuzz time %v, early corpus %v; want 2200, 250, 10, 20 (the instances' mean)",
			got.Execs, got.ExecsPerSec, got.FuzzS, got.Early)
	}
	// Until the failure at 5 s: 500 + 500 + 250 at the rates, with the
	// winner's own count (480) instead of its estimate (500).
	if want := int64(1230); got.ExecsToFailure != want {
		t.Errorf("combined executions to failure %d, want %d", got.ExecsToFailure, want)
	}
	if none := combineInstances(target{name: "x"}, engineFuzzboxSplit, 1, rs[:1]); none.Failed {
		t.Error("a run without failures combined into a failure")
	}
}

// TestInstanceCommand checks that -netns puts an instance in a network
// namespace of its own: where the system allows one, a command run so
// sees the loopback interface alone.
func TestInstanceCommand(t *testing.T) {
	plain := instanceCommand(config{}, []string{"A=1"}, []string{"fuzzbox", "fuzz"})
	if strings.Join(plain, " ") != "env A=1 fuzzbox fuzz" {
		t.Errorf("without -netns: %q", plain)
	}
	if err := checkNetns(context.Background()); err != nil {
		t.Skipf("no network namespace here: %v", err)
	}
	argv := instanceCommand(config{netns: true}, []string{"A=1"}, []string{"cat", "/proc/net/dev"})
	out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
	if err != nil {
		t.Fatalf("%q: %v: %s", argv, err, out)
	}
	var ifaces []string
	for _, line := range strings.Split(string(out), "\n") {
		if name, _, ok := strings.Cut(line, ":"); ok {
			ifaces = append(ifaces, strings.TrimSpace(name))
		}
	}
	if !slices.Equal(ifaces, []string{"lo"}) {
		t.Errorf("interfaces seen by an instance under -netns: %q, want lo alone", ifaces)
	}
}
