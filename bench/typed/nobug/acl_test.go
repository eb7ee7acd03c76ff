package nobug

import (
	"net/netip"
	"testing"

	"github.com/fuzzbox/fuzzbox/typed"
)

var seedPolicy = Policy{Name: "api", Rules: []Rule{
	{Prefix: "/public", Methods: Get, Allow: true},
	{Prefix: "/admin", Methods: Get | Put | Delete, From: netip.MustParsePrefix("10.0.0.0/8"), Allow: true, Weight: 2},
}}

func FuzzEval(f *testing.F) {
	typed.Add(f, seedPolicy, Request{Method: Get, Path: "/public/index.html", Source: netip.MustParseAddr("192.0.2.1")})
	typed.Fuzz(f, func(t *testing.T, p Policy, r Request) {
		check(t, p, r)
	})
}

// check is what both harnesses assert: the deciding rule matches the
// request, and the answer does not depend on the order of the rules
// beyond the documented tie-break.
func check(t *testing.T, p Policy, r Request) {
	allow, i := Eval(p, r)
	if i >= 0 && (!p.Rules[i].matches(r) || p.Rules[i].Allow != allow) {
		t.Fatalf("rule %d decided %v but does not match %+v", i, allow, r)
	}
	if i < 0 && allow != p.Default {
		t.Fatalf("no rule matched but the answer %v is not the default", allow)
	}
}
