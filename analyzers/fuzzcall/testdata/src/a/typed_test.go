package a

import (
	"os"
	"testing"

	"github.com/fuzzbox/fuzzbox/typed"
)

// typed.Fuzz and typed.Add count as f.Fuzz and f.Add.

func FuzzTypedGood(f *testing.F) {
	if os.Getenv("X") == "" {
		f.Skip("no X")
	}
	typed.Add(f, "a", 1)
	typed.Fuzz(f, func(t *testing.T, s string, n int) {})
}

func FuzzTypedTwice(f *testing.F) {
	typed.Fuzz(f, func(t *testing.T, s string) {})
	typed.Fuzz(f, func(t *testing.T, s string) {}) // want `typed.Fuzz must be called only once: this call can follow another f.Fuzz call`
}

func FuzzTypedEarlyReturn(f *testing.F) {
	if os.Getenv("X") == "" {
		return // want `FuzzTypedEarlyReturn returns without calling f.Fuzz, f.Skip or f.Fail on this path`
	}
	typed.Fuzz(f, func(t *testing.T, s string) {})
}

func FuzzTypedNever(f *testing.F) {
	typed.Add(f, "a")
} // want `FuzzTypedNever can reach its end without calling f.Fuzz, f.Skip or f.Fail`

func FuzzTypedAddAfter(f *testing.F) {
	typed.Fuzz(f, func(t *testing.T, s string) {})
	typed.Add(f, "late") // want `typed.Add after typed.Fuzz is ignored: add seeds before calling typed.Fuzz`
}

func runTyped(f *testing.F) {
	typed.Fuzz(f, func(t *testing.T, n int) {})
}

func seedTyped(f *testing.F) { typed.Add(f, 1) }

func FuzzTypedHelpers(f *testing.F) {
	seedTyped(f)
	runTyped(f)
}

func FuzzTypedHelperAddAfter(f *testing.F) {
	runTyped(f)
	seedTyped(f) // want `f.Add after f.Fuzz is ignored`
}
