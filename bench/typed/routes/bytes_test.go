package routes

import (
	"net/netip"
	"testing"

	"fuzzbox.dev/bench/typed/internal/consume"
)

// FuzzLookupBytes is FuzzLookup's byte-consuming twin (for
// go-118-fuzz-build): a count of routes, each a destination (a family byte,
// 4 or 16 address bytes, the prefix length), a gateway and a metric, then
// the probe address.
func FuzzLookupBytes(f *testing.F) {
	f.Add([]byte("\x01" + "\x04\x0a\x00\x00\x00\x08" + "\x04\xc0\xa8\x01\x01" + "\x0a\x00" + "\x04\x0a\x14\x1e\x28"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := consume.New(data)
		tbl := New()
		for range c.Count(16) {
			dst := addr(c)
			tbl.Add(Route{Dst: netip.PrefixFrom(dst, int(c.Uint8())), Via: addr(c), Metric: c.Uint16()})
		}
		tbl.Lookup(addr(c))
	})
}

// addr is a family byte (even: IPv4, odd: IPv6) and the address's bytes.
func addr(c *consume.Bytes) netip.Addr {
	if c.Uint8()%2 == 0 {
		var b [4]byte
		for i := range b {
			b[i] = c.Uint8()
		}
		return netip.AddrFrom4(b)
	}
	var b [16]byte
	for i := range b {
		b[i] = c.Uint8()
	}
	return netip.AddrFrom16(b)
}
