package basedeps

import (
	"os"
	"strings"
)

// Goroutine stacks. The testing package runs every input on a new
// goroutine, which starts with the runtime's starting stack size (2 KB) and
// grows by copying, walking and adjusting every frame each time: two or
// three copies per input on a parser, a fifth of a real parser's execution
// time in a worker's profile (miekg/dns's NewRR), and a twentieth of a
// libFuzzer binary's (bench/targets/nobug), time that go-118-fuzz-build's
// binaries, which call the fuzz function directly, do not spend.
//
// With adaptivestackstart (GODEBUG; on by default since Go 1.19), the
// runtime starts goroutines with the average stack size its last garbage
// collection scanned, rounded up to a power of two. StackBallast parks
// goroutines whose stacks are 12 KB deep, so that the average, and the
// starting size, is 16 KB: an input's goroutine takes a 16 KB stack from the
// runtime's free list (a stack of the starting size stays with its exited
// goroutine) and rarely grows. The cost is the ballast's memory, about
// 16 × 16 KB, and 16 KB for every goroutine the target starts (the size
// adapts down when a target keeps many goroutines).

const (
	ballastGoroutines = 16
	ballastDepth      = 12 << 10 // bytes of stack each ballast goroutine holds
)

// BallastFrame is how the ballast's frames read in a goroutine dump.
const BallastFrame = "github.com/fuzzbox/fuzzbox/engine/basedeps.ballast("

// AdaptiveStackSetting returns the value of the last adaptivestackstart
// setting in godebug, or "".
func AdaptiveStackSetting(godebug string) string {
	v := ""
	for _, kv := range strings.Split(godebug, ",") {
		if name, val, ok := strings.Cut(strings.TrimSpace(kv), "="); ok && name == "adaptivestackstart" {
			v = val
		}
	}
	return v
}

var ballastPark chan struct{} // never closed: the ballast stays parked

// StackBallast starts the ballast goroutines, unless GODEBUG turns
// adaptivestackstart off: then they would be useless. Fuzzing binaries
// call it once, before the first input.
func StackBallast() {
	if AdaptiveStackSetting(os.Getenv("GODEBUG")) == "0" {
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
