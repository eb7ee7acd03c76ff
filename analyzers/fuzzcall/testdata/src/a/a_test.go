package a

import (
	"os"
	"testing"
)

func FuzzGood(f *testing.F) {
	f.Add("a")
	f.Fuzz(func(t *testing.T, s string) {})
}

func FuzzSkip(f *testing.F) {
	if os.Getenv("X") == "" {
		f.Skip("no X")
	}
	f.Fuzz(func(t *testing.T, s string) {})
}

func FuzzFatalOrError(f *testing.F) {
	data, err := os.ReadFile("seed")
	if err != nil {
		f.Fatal(err)
	}
	if len(data) == 0 {
		f.Error("empty")
		return
	}
	if len(data) == 1 {
		panic("one")
	}
	f.Add(data)
	f.Fuzz(func(t *testing.T, b []byte) {})
}

func FuzzTwice(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {})
	f.Fuzz(func(t *testing.T, s string) {}) // want `f.Fuzz must be called only once: this call can follow another f.Fuzz call`
}

func FuzzLoop(f *testing.F) {
	for range 2 {
		f.Fuzz(func(t *testing.T, s string) {}) // want `f.Fuzz must be called only once`
	}
}

func FuzzEarlyReturn(f *testing.F) {
	if os.Getenv("X") == "" {
		return // want `FuzzEarlyReturn returns without calling f.Fuzz, f.Skip or f.Fail on this path`
	}
	f.Fuzz(func(t *testing.T, s string) {})
}

func FuzzNever(f *testing.F) {
	f.Add("a")
} // want `FuzzNever can reach its end without calling f.Fuzz, f.Skip or f.Fail`

func FuzzAddAfter(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {})
	f.Add("late") // want `f.Add after f.Fuzz is ignored: add seeds before calling f.Fuzz`
}

func FuzzBranches(f *testing.F) {
	if len(os.Args) > 3 {
		f.Fuzz(func(t *testing.T, s string) {})
	} else {
		f.Fuzz(func(t *testing.T, s string) {})
	}
}

func run(f *testing.F) {
	f.Fuzz(func(t *testing.T, n int) {})
}

func seed(f *testing.F) { f.Add(1) }

func FuzzHelpers(f *testing.F) {
	seed(f)
	run(f)
}

func FuzzHelperTwice(f *testing.F) {
	run(f)
	run(f) // want `f.Fuzz must be called only once`
}

func FuzzHelperAddAfter(f *testing.F) {
	run(f)
	seed(f) // want `f.Add after f.Fuzz is ignored`
}

// f escapes into a closure the analyzer does not follow: not checked.
func FuzzOpaque(f *testing.F) {
	do := func(g *testing.F) { g.Fuzz(func(t *testing.T, s string) {}) }
	do(f)
}

func FuzzGoexitInT(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" {
			return // returns of the fuzz function itself are fine
		}
		t.Skip()
	})
}
