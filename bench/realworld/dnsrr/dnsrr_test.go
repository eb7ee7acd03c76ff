package dnsrr

import (
	"testing"

	"github.com/miekg/dns"
)

func FuzzNewRR(f *testing.F) {
	f.Add("example.org. 3600 IN A 192.0.2.1")
	f.Add("example.org. IN MX 10 mail.example.org.")
	f.Add(`example.org. IN TXT "v=spf1 -all"`)
	f.Add("$ORIGIN example.org.\nwww 300 IN CNAME example.org.")
	f.Add("$GENERATE 1-4 host-$ A 10.0.0.$")
	f.Fuzz(func(t *testing.T, s string) {
		rr, err := dns.NewRR(s)
		if err != nil || rr == nil {
			return
		}
		if _, err := dns.NewRR(rr.String()); err != nil {
			t.Logf("%q does not parse again: %v", rr.String(), err)
		}
	})
}
