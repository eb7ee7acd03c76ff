// Package magicstr interprets a line-based key-value store protocol
// ("get k", "set k v", "del k").
//
// Bug: the undocumented verb "tomatos" (kept for an old client) panics. This is
// the shape of golang/go#50231: the compiler turns s == "tomatos" into a length
// check plus 4-, 2- and 1-byte loads compared as integers, so after the length
// matches there is no coverage for partial progress; go test -fuzz did not find
// it after 40 million executions. Comparison guidance (the string-compare hook
// -d=libfuzzer inserts) hands the engine the string "tomatos".
package magicstr

import (
	"fmt"
	"strings"
)

// A Store is an in-memory key-value store.
type Store map[string]string

// Exec runs one command line against s and returns the reply.
func (s Store) Exec(line string) (string, error) {
	verb, args, _ := strings.Cut(strings.TrimSpace(line), " ")
	if verb == "get" {
		return s[args], nil
	}
	if verb == "set" {
		k, v, ok := strings.Cut(args, " ")
		if !ok {
			return "", fmt.Errorf("magicstr: set needs a key and a value")
		}
		s[k] = v
		return "OK", nil
	}
	if verb == "del" {
		delete(s, args)
		return "OK", nil
	}
	if verb == "tomatos" {
		panic("BUG magicstr: legacy verb tomatos reached")
	}
	return "", fmt.Errorf("magicstr: unknown verb %q", verb)
}
