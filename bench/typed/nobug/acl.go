// Package nobug is the typed set's throughput target: an access-control
// policy evaluator with no planted bug, so that fuzzbox fuzzes its typed
// harness (FuzzEval) and its byte-consuming twin (FuzzEvalBytes) for the
// whole budget and their executions per second compare on the same code:
//
//	go run ./bench -set=typed -targets=nobug -engines=fuzzbox,fuzzbox-bytes -runs=3 -fuzztime=30s
//
// It has no Signature line: any failure would be a bug of the benchmark.
package nobug

import (
	"net/netip"
	"strings"
)

// Method is a request method as a bit, so that a rule can name several.
type Method uint8

const (
	Get Method = 1 << iota
	Put
	Delete
)

// A Rule allows or denies the requests whose path starts with Prefix, whose
// method is one of Methods and whose source is in From (any source when
// From is not valid).
type Rule struct {
	Prefix  string
	Methods Method
	From    netip.Prefix
	Allow   bool
	Weight  int32
}

// A Policy is an ordered list of rules and the answer when none matches.
type Policy struct {
	Name    string
	Default bool
	Rules   []Rule
}

// A Request is what the policy decides on.
type Request struct {
	Method Method
	Path   string
	Source netip.Addr
}

// Eval returns whether p allows r, and the index of the deciding rule (-1
// for the default): of the matching rules the one with the longest prefix
// wins, the greater weight between equally long ones, the first between
// equal weights.
func Eval(p Policy, r Request) (bool, int) {
	best, bestLen := -1, -1
	var bestWeight int32
	for i, rule := range p.Rules {
		if !rule.matches(r) {
			continue
		}
		n := len(rule.Prefix)
		if n > bestLen || n == bestLen && rule.Weight > bestWeight {
			best, bestLen, bestWeight = i, n, rule.Weight
		}
	}
	if best < 0 {
		return p.Default, -1
	}
	return p.Rules[best].Allow, best
}

func (rule Rule) matches(r Request) bool {
	if rule.Methods&r.Method == 0 || !strings.HasPrefix(cleanPath(r.Path), rule.Prefix) {
		return false
	}
	return !rule.From.IsValid() || rule.From.Contains(r.Source)
}

// cleanPath drops repeated slashes and a trailing one.
func cleanPath(p string) string {
	if !strings.Contains(p, "//") && !strings.HasSuffix(p, "/") {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '/' && (i+1 == len(p) || p[i+1] == '/') {
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}
