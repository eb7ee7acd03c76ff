package engine

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/engine/ipc"
	"github.com/fuzzbox/fuzzbox/event"
)

// TestKnownFailuresDoNotEndTheCall: a fuzz call goes on past executions
// that fail with a known signature (ipc.FuzzArgs.Known), counting them, and
// ends at the first that fails otherwise. A -keepgoing run on pion/dtls's
// record layer, whose every fifth input failed the same way, ended a call
// per failure and fuzzed at a quarter of its rate.
func TestKnownFailuresDoNotEndTheCall(t *testing.T) {
	mem, err := ipc.CreateMem(1<<16, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	const (
		known   = "    --- FAIL: FuzzX (0.00s)\n        x_test.go:12: odd length\n"
		unknown = "    --- FAIL: FuzzX (0.00s)\n        x_test.go:20: has a Z\n"
	)
	var odd int64
	failZ := false
	w := &workerServer{mem: mem, fn: func(vals []any) error {
		b := vals[0].([]byte)
		switch {
		case failZ && bytes.IndexByte(b, 'Z') >= 0:
			return errors.New(unknown)
		case len(b)%2 == 1:
			odd++
			return errors.New(known)
		}
		return nil
	}}
	sig := signature(KindFail, known)
	base := appendValues(nil, []any{[]byte("ab")})

	mem.SetValue(base)
	resp := w.fuzz(&ipc.FuzzArgs{Limit: 3000, Seed: 1, Known: []string{"fail|other|", sig}})
	if resp.Err != "" || resp.InternalErr != "" || resp.Execs != 3000 {
		t.Fatalf("call with a known failure ended after %d executions: err %q, internal %q", resp.Execs, resp.Err, resp.InternalErr)
	}
	if odd == 0 || len(resp.Known) != 1 || resp.Known[0].Signature != sig || resp.Known[0].Count != odd || resp.Known[0].Err != known {
		t.Fatalf("known failures %+v, want one of signature %q counted %d times", resp.Known, sig, odd)
	}

	// The worker keeps the known signatures with SameKnown; another
	// failure still ends the call.
	failZ, odd = true, 0
	mem.SetValue(base)
	resp = w.fuzz(&ipc.FuzzArgs{Limit: 100000, Seed: 2, SameKnown: true})
	if resp.Err != unknown {
		t.Fatalf("call ended with %q after %d executions, want the unknown failure", resp.Err, resp.Execs)
	}
	if got := sumKnown(resp.Known); got != odd {
		t.Errorf("counted %d known failures, the function failed %d times so", got, odd)
	}

	// Without known signatures, the first failure ends the call, as before.
	failZ = false
	mem.SetValue(base)
	if resp = w.fuzz(&ipc.FuzzArgs{Limit: 3000, Seed: 3}); resp.Err != known || resp.Known != nil {
		t.Errorf("call without known signatures: err %q, known %+v; want the failure to end it", resp.Err, resp.Known)
	}
}

// TestKnownLine: a full t.Error line (ipc.FuzzArgs.Known's "at FILE:LINE")
// makes every fail reported there known, whatever its message; a failure
// whose own signature is known counts under that signature.
func TestKnownLine(t *testing.T) {
	mem, err := ipc.CreateMem(1<<16, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	var quoted int64
	w := &workerServer{mem: mem, fn: func(vals []any) error {
		if b := vals[0].([]byte); len(b)%2 == 1 {
			quoted++
			return fmt.Errorf("    --- FAIL: FuzzX (0.00s)\n        x_test.go:30: bad input %q\n", b)
		}
		return nil
	}}
	mem.SetValue(appendValues(nil, []any{[]byte("ab")}))
	resp := w.fuzz(&ipc.FuzzArgs{Limit: 2000, Seed: 1, Known: []string{linePrefix + "x_test.go:30"}})
	if resp.Err != "" || resp.Execs != 2000 || len(resp.Known) != 1 || resp.Known[0].Count != quoted || resp.Known[0].Signature != "at x_test.go:30" {
		t.Errorf("fails at a full line: err %q after %d executions, known %+v; want %d counted at the line", resp.Err, resp.Execs, resp.Known, quoted)
	}
	if len(w.sigs) > maxSigMemo {
		t.Errorf("the signature memo holds %d messages, more than its bound %d", len(w.sigs), maxSigMemo)
	}
}

func sumKnown(ks []ipc.KnownFailure) int64 {
	var n int64
	for _, k := range ks {
		n += k.Count
	}
	return n
}

// TestKnownEngineFaultEndsTheCall: a panic in fuzzbox's own code ends the
// call even when its signature (frames outside fuzzbox only) is known, so
// that the coordinator reports it as the internal error it is.
func TestKnownEngineFaultEndsTheCall(t *testing.T) {
	mem, err := ipc.CreateMem(1<<16, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	fault := "panic: boom [recovered]\n\tpanic: boom\n\ngoroutine 7 [running]:\n" +
		"github.com/fuzzbox/fuzzbox/engine.traceCmp(...)\n\t/src/engine/cmp.go:10 +0x1\n" +
		"example.com/m.parse(...)\n\t/src/m/parse.go:5 +0x1\n"
	if !engineFault(fault, "") {
		t.Fatal("the test's message is no engine fault")
	}
	w := &workerServer{mem: mem, fn: func([]any) error { return errors.New(fault) }}
	mem.SetValue(appendValues(nil, []any{[]byte("ab")}))
	clean := cleanMessage(fault)
	resp := w.fuzz(&ipc.FuzzArgs{Limit: 100, Seed: 1, Known: []string{signature(failureKind(clean), clean)}})
	if resp.Err != fault || resp.Known != nil {
		t.Errorf("engine fault with a known signature: err %q, known %+v; want it to end the call", resp.Err, resp.Known)
	}
}

// TestKnownSigsAndCounts: the coordinator sends the signatures it would
// refuse under -keepgoing (claimed, or too flaky), the same slice while
// they do not change, and reports a call's counts as duplicates of the
// recorded failure, dropping those of a signature no longer claimed.
func TestKnownSigsAndCounts(t *testing.T) {
	var events bytes.Buffer
	c := &coordinator{setup: &setup{opts: Options{Target: "FuzzX", KeepGoing: true}, rep: &reporter{events: &events, log: io.Discard}},
		sigs: map[string]bool{}, flaky: map[string]int{}, atLine: map[string]int{}, alias: map[string]string{}}
	if got := c.knownSigs(); got != nil {
		t.Fatalf("known signatures before any failure: %q", got)
	}
	f := &failure{kind: KindFail, msg: "    --- FAIL: FuzzX (0.00s)\n        x_test.go:12: odd length\n"}
	sig := signature(f.kind, f.msg)
	if !c.claim(f, sig) {
		t.Fatal("first failure refused")
	}
	c.flaky["fail|a|"], c.flaky["fail|b|"] = maxFlakyReports, 1
	c.atLine["x_test.go:20"], c.atLine["x_test.go:30"] = maxClaimsPerLine, maxClaimsPerLine+1
	first := c.knownSigs()
	if strings.Join(first, ",") != "at x_test.go:30,fail|a|,"+sig {
		t.Fatalf("known signatures %q, want the claimed one, the one too flaky and the line full since claim warned (not the one full before)", first)
	}
	if again := c.knownSigs(); !sameSlice(first, again) {
		t.Error("known signatures rebuilt while unchanged: every call would send them")
	}
	c.knownFailed([]ipc.KnownFailure{
		{Signature: sig, Count: 40, Err: f.msg},
		{Signature: "fail|a|", Count: 7, Err: "flaky"},
		{Signature: "at x_test.go:30", Count: 9, Err: "    --- FAIL: FuzzX (0.00s)\n        x_test.go:30: input \"abc\"\n"},
	})
	c.flushDuplicates()
	var dups []event.Event
	for _, e := range decodeEvents(t, &events) {
		if e.Duplicate {
			dups = append(dups, e)
		}
	}
	if len(dups) != 1 || dups[0].Count != 40 || dups[0].Bucket != bucketID(sig) || dups[0].Kind != KindFail {
		t.Errorf("duplicate events %+v, want one of bucket %s counting 40", dups, bucketID(sig))
	}
	c.dropClaim(f, sig)
	if got := c.knownSigs(); strings.Join(got, ",") != "at x_test.go:30,fail|a|" {
		t.Errorf("known signatures after the claim was dropped: %q", got)
	}
	c.opts.KeepGoing = false
	if got := c.knownSigs(); got != nil {
		t.Errorf("known signatures without -keepgoing: %q", got)
	}
}
