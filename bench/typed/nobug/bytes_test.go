package nobug

import (
	"net/netip"
	"testing"

	"fuzzbox.dev/bench/typed/internal/consume"
)

// FuzzEvalBytes is FuzzEval's byte-consuming twin: the policy's name and
// default, a rule count and each rule's fields (From as a 4-byte address
// and a prefix length), then the request.
func FuzzEvalBytes(f *testing.F) {
	f.Add([]byte("\x03api\x00\x02\x07/public\x01\x00\x00\x00\x00\x21\x01\x00\x00\x00\x00\x06/admin\x07\x0a\x00\x00\x00\x08\x01\x02\x00\x00\x00\x01\x12/public/index.html\xc0\x00\x02\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := consume.New(data)
		p := Policy{Name: c.String(), Default: c.Bool()}
		p.Rules = make([]Rule, c.Count(16))
		for i := range p.Rules {
			p.Rules[i] = Rule{Prefix: c.String(), Methods: Method(c.Uint8()), From: prefix(c), Allow: c.Bool(), Weight: int32(c.Uint32())}
		}
		check(t, p, Request{Method: Method(c.Uint8()), Path: c.String(), Source: addr(c)})
	})
}

func addr(c *consume.Bytes) netip.Addr {
	v := c.Uint32()
	return netip.AddrFrom4([4]byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)})
}

// prefix is an IPv4 prefix; a length over 32 gives the invalid prefix
// (any source), as a zero netip.Prefix does in FuzzEval.
func prefix(c *consume.Bytes) netip.Prefix {
	a := addr(c)
	n := int(c.Uint8())
	if n > 32 {
		return netip.Prefix{}
	}
	return netip.PrefixFrom(a, n)
}
