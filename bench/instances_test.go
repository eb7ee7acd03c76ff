package main

import "testing"

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
