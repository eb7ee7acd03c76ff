// Package typedhook is where package typed, in a user's fuzz test, and
// fuzzbox's engine, linked into the same fuzzing binary, meet. typed.Fuzz
// sets the running fuzz test's Harness before it calls f.Fuzz; the engine's
// worker processes ask for it to mutate and minimize the encoded arguments
// by their structure, and its coordinator to print a failing input as Go
// syntax. Under stock go test nobody asks.
//
// Its users are package typed and package engine; it imports only the
// standard library.
package typedhook

import (
	"math/rand/v2"
	"sync"
)

// Harness is a typed fuzz test's view of its one []byte argument: the
// encoding of the fuzz function's typed arguments.
type Harness interface {
	// Mutate returns a copy of data with its decoded value changed at one
	// or more places in its structure, encoded again. splice holds other
	// corpus entries' data to take sub-values from; hints the operands of
	// the comparisons the base input's execution made. It never changes
	// data and does not keep r, splice or hints.
	Mutate(data []byte, r *rand.Rand, splice [][]byte, hints *Hints) []byte

	// Shrink tries smaller values than data's (fewer elements, zero fields,
	// shorter strings, smaller numbers) and keeps each one keep accepts,
	// until none is accepted or stop returns true. It returns the encoding
	// of the smallest value kept and whether it is smaller than data's.
	Shrink(data []byte, keep func([]byte) bool, stop func() bool) ([]byte, bool)

	// Format returns data's decoded arguments as Go expressions, one per
	// argument.
	Format(data []byte) []string
}

// Hints are what the engine knows that a mutation may use: the operands of
// the unequal comparisons the base input's execution made, and dictionary
// tokens (-dict, string literals of the code, operands seen before).
type Hints struct {
	Ints   []IntCmp
	Strs   [][2]string
	Tokens [][]byte
}

// IntCmp is one integer comparison: its operands' bits and their size in
// bytes (1, 2, 4 or 8).
type IntCmp struct {
	A, B uint64
	Size int
}

var (
	mu      sync.Mutex
	current Harness
)

// Set makes h the running fuzz test's harness (nil: none).
func Set(h Harness) {
	mu.Lock()
	current = h
	mu.Unlock()
}

// Get returns the running fuzz test's harness, or nil when the fuzz test is
// not typed.
func Get() Harness {
	mu.Lock()
	defer mu.Unlock()
	return current
}
