package routes

import (
	"net/netip"
	"testing"

	"github.com/fuzzbox/fuzzbox/typed"
)

func FuzzLookup(f *testing.F) {
	typed.Add(f, []Route{
		{Dst: netip.MustParsePrefix("10.0.0.0/8"), Via: netip.MustParseAddr("192.168.1.1"), Metric: 10},
	}, netip.MustParseAddr("10.20.30.40"))
	typed.Add(f, []Route{
		{Dst: netip.MustParsePrefix("2001:db8::/32"), Via: netip.MustParseAddr("fe80::1"), Metric: 1},
	}, netip.MustParseAddr("2001:db8::1"))
	typed.Fuzz(f, func(t *testing.T, routes []Route, probe netip.Addr) {
		tbl := New()
		for _, r := range routes {
			tbl.Add(r)
		}
		tbl.Lookup(probe)
	})
}
