package engine

import "testing"

// TestConfirms: a re-run confirms a failure of the same kind, and an input
// whose memory grew without end confirms itself across the two limits that
// stop it: an oom in one run, in another a hang whose memory still grew at
// the watchdog's growth bound (x/text's UTF-16 decoder on a loaded machine:
// a hang at 20 s, its re-runs ooms, called flaky and not written). A hang
// that stopped moving is no oom's.
func TestConfirms(t *testing.T) {
	grew := hangMessage(10e9, 20e9, 1764, "goroutine 1 [running]:\n")
	stuck := hangMessage(10e9, 0, 0, "goroutine 1 [running]:\n")
	oom := "fuzzbox: out of memory: one execution held 2603 MiB in the heap for 500ms while it ran, over -rss_limit_mb=2048"
	for _, tt := range []struct {
		first, firstMsg, rerun, rerunMsg string
		want                             bool
	}{
		{KindPanic, "panic: x", KindPanic, "panic: y", true},
		{KindHang, grew, KindOOM, oom, true},
		{KindOOM, oom, KindHang, grew, true},
		{KindHang, stuck, KindOOM, oom, false},
		{KindOOM, oom, KindHang, stuck, false},
		{KindPanic, "panic: x", KindOOM, oom, false},
		{KindFail, grew, KindOOM, oom, false}, // the words alone are no hang
	} {
		f := &failure{kind: tt.first, msg: tt.firstMsg}
		if got := confirms(f, tt.rerun, tt.rerunMsg); got != tt.want {
			t.Errorf("%s (%.40q) re-run as %s (%.40q): confirms = %v, want %v", tt.first, tt.firstMsg, tt.rerun, tt.rerunMsg, got, tt.want)
		}
	}
}
