package engine

import (
	"os"
	"strings"
)

// Goroutine stacks in workers. The testing package runs every input on a
// new goroutine, which starts with the runtime's starting stack size (2 KB)
// and grows by copying, walking and adjusting every frame each time: two or
// three copies per input on a parser, a fifth of a real parser's execution
// time in a worker's profile (miekg/dns's NewRR), and time libFuzzer's Go
// builds, which call the fuzz function directly, do not spend.
//
// With GODEBUG=adaptivestackstart=1, which the coordinator sets for its
// workers (adaptiveStacks), the runtime starts goroutines with the average
// stack size its last garbage collection scanned, rounded up to a power of
// two. stackBallast parks goroutines whose stacks are 12 KB deep, so that
// the average, and the starting size, is 16 KB: an input's goroutine takes
// a 16 KB stack from the runtime's free list (a stack of the starting size
// stays with its exited goroutine) and rarely grows. The cost is the
// ballast's memory, about 16 × 16 KB, and 16 KB for every goroutine the
// target starts (the size adapts down when a target keeps many goroutines).

const (
	ballastGoroutines = 16
	ballastDepth      = 12 << 10 // bytes of stack each ballast goroutine holds
)

// adaptiveStacks returns the worker's GODEBUG: the coordinator's with
// adaptivestackstart=1 added, unless it sets adaptivestackstart itself.
func adaptiveStacks(godebug string) string {
	if adaptiveStackSetting(godebug) != "" {
		return godebug
	}
	if godebug == "" {
		return "adaptivestackstart=1"
	}
	return godebug + ",adaptivestackstart=1"
}

// adaptiveStackSetting returns the value of the last adaptivestackstart
// setting in godebug, or "".
func adaptiveStackSetting(godebug string) string {
	v := ""
	for _, kv := range strings.Split(godebug, ",") {
		if name, val, ok := strings.Cut(strings.TrimSpace(kv), "="); ok && name == "adaptivestackstart" {
			v = val
		}
	}
	return v
}

var ballastPark chan struct{} // never closed: the ballast stays parked

// stackBallast starts the ballast goroutines when the runtime adapts its
// starting stack size; without adaptivestackstart=1 they would be useless.
func stackBallast() {
	if adaptiveStackSetting(os.Getenv("GODEBUG")) != "1" {
		return
	}
	for range ballastGoroutines {
		go ballast(ballastDepth)
	}
}

// ballast recurses until it holds about depth bytes of stack, then parks.
//
//go:noinline
func ballast(depth int) byte {
	var frame [4096]byte
	if depth > len(frame) {
		frame[depth%len(frame)] = ballast(depth - len(frame))
		return frame[1]
	}
	<-ballastPark
	return frame[0]
}

// ballastFrame is how the ballast's frames read in a goroutine dump.
const ballastFrame = "github.com/fuzzbox/fuzzbox/engine.ballast("

// dropIdle removes from a dump of every goroutine the worker's own idle
// goroutines: the stack ballast and the SIGQUIT handler (quit.go), which say
// nothing about the failure.
func dropIdle(dump string) string {
	if !strings.Contains(dump, ballastFrame) && !strings.Contains(dump, quitFrame) {
		return dump
	}
	blocks := goroutineGapRE.Split(dump, -1)
	kept := blocks[:0]
	for _, b := range blocks {
		if !strings.Contains(b, ballastFrame) && !strings.Contains(b, quitFrame) {
			kept = append(kept, b)
		}
	}
	return strings.Join(kept, "\n\n")
}
