package engine

import (
	"slices"

	"github.com/fuzzbox/fuzzbox/engine/ipc"
)

// Known failures. A -keepgoing run goes on fuzzing after it recorded a
// failure, and an often-hit bug then fails execution after execution. Each
// such failure used to end its worker's fuzz call, so that the coordinator
// could tell it was a duplicate (claim), and each new call paid the call's
// setup again (the coverage copy, the splices, the base input's traced
// run): pion/dtls's FuzzRecordLayer_MarshalUnmarshal_RoundTrip fuzzed at
// 3.5k execs/s with -keepgoing and 130k without the bug. Fuzz calls now
// carry the signatures the coordinator would refuse (ipc.FuzzArgs.Known);
// the worker computes each failure's signature as the coordinator does and
// counts those rather than end the call, and the coordinator reports the
// counts as duplicates (knownFailed).

// knownSigs returns the signatures of failures a -keepgoing run records no
// more, for ipc.FuzzArgs.Known: those claimed (recorded, or being
// confirmed) and those flaky too often, and the t.Error lines that claim
// no more (linePrefix). It returns the same slice until
// they change (the worker keeps the last one sent: proc.fuzzArgs). Nil
// without KeepGoing, whose run ends with its first failure.
func (c *coordinator) knownSigs() []string {
	if !c.opts.KeepGoing {
		return nil
	}
	var sigs []string
	for sig := range c.sigs {
		sigs = append(sigs, sig)
	}
	for sig, n := range c.flaky {
		if n >= maxFlakyReports && !c.sigs[sig] {
			sigs = append(sigs, sig)
		}
	}
	for line, n := range c.atLine {
		if n > maxClaimsPerLine { // full, and claim has warned so
			sigs = append(sigs, linePrefix+line)
		}
	}
	slices.Sort(sigs)
	if !slices.Equal(sigs, c.known) {
		c.known = sigs
	}
	return c.known
}

// knownFailed reports the failures a fuzz call counted (ipc.FuzzResponse.Known)
// as claim would have: a duplicate of the recorded failure of the same
// signature. Those of a full line, and of a signature no longer claimed
// since the call started (its failure turned out flaky, or too flaky to
// report), are dropped, as claim refuses them without a word (a signature
// claimable again is claimed by the next call that hits it).
func (c *coordinator) knownFailed(known []ipc.KnownFailure) {
	for _, k := range known {
		if !c.sigs[k.Signature] || k.Count <= 0 {
			continue
		}
		kind, msg := classify(k.Err)
		c.duplicate(&failure{kind: kind, msg: msg}, c.bucketOf(k.Signature), int(k.Count))
	}
}

// knownFailure reports whether err, the failure of an execution of a fuzz
// call, has one of the call's known signatures (ipc.FuzzArgs.Known), and
// counts it in resp if so. A panic raised in fuzzbox's own code is never
// known: the coordinator reports it as an internal error (engineFault; the
// worker does not know the package under test, so a fuzz test of
// fuzzbox's own packages ends its call too, and the coordinator decides).
func (w *workerServer) knownFailure(err error, resp *ipc.FuzzResponse) bool {
	if len(w.known) == 0 {
		return false
	}
	msg := err.Error()
	keys, ok := w.sigs[msg]
	if !ok {
		if engineFault(msg, "") {
			return false
		}
		keys = knownKeysOf(msg)
		if len(w.sigs) >= maxSigMemo {
			clear(w.sigs)
		}
		w.sigs[msg] = keys
	}
	sig := keys.sig
	if !w.known[sig] {
		if sig = keys.line; sig == "" || !w.known[sig] {
			return false
		}
	}
	for i := range resp.Known {
		if resp.Known[i].Signature == sig {
			resp.Known[i].Count++
			return true
		}
	}
	resp.Known = append(resp.Known, ipc.KnownFailure{Signature: sig, Count: 1, Err: msg})
	return true
}

// knownLeak reports whether msg, the message a leak would have, has one of
// the fuzz call's known signatures (leakChecker.isKnown).
func (w *workerServer) knownLeak(msg string) bool {
	return w.known[knownKeysOf(msg).sig]
}

// knownKeys are what a failure may be known by: its signature, and for a
// fail or a panic its line (linePrefix and its claimLine; "" for other
// kinds).
type knownKeys struct{ sig, line string }

// linePrefix starts a known "signature" that stands for a t.Error or
// t.Fatal line, or a line that panics, whose failures claim refuses
// (maxClaimsPerLine): a failure reported at it is known, whatever its
// message.
const linePrefix = "at "

func knownKeysOf(msg string) knownKeys {
	kind, clean := classify(msg)
	k := knownKeys{sig: signature(kind, clean)}
	if line := claimLine(kind, clean); line != "" {
		k.line = linePrefix + line
	}
	return k
}

// maxSigMemo bounds workerServer.sigs. Its signature's regular expressions
// took more time than the fuzz function itself in a run whose every fifth
// input failed the same way (pion/dtls, above); a bug's message usually
// repeats, and one that quotes the input misses the memo and refills it.
const maxSigMemo = 256

// setKnown takes a fuzz call's known signatures, unless it has the worker
// keep the last ones (ipc.FuzzArgs.SameKnown).
func (w *workerServer) setKnown(args *ipc.FuzzArgs) {
	if args.SameKnown {
		return
	}
	w.known = nil
	for _, sig := range args.Known {
		if w.known == nil {
			w.known = map[string]bool{}
		}
		w.known[sig] = true
	}
	if w.known != nil && w.sigs == nil {
		w.sigs = map[string]knownKeys{}
	}
}
