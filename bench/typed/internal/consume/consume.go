// Package consume builds values from fuzzer bytes, in the style of
// go-fuzz-headers: the byte-consuming harnesses (FuzzXBytes) of the typed
// benchmark set use it to build the same arguments their typed twins get
// from package typed. Bytes that run out read as zero.
package consume

// Bytes consumes a fuzzer input from the front. It is not safe for
// concurrent use.
type Bytes struct{ b []byte }

// New returns a consumer of data.
func New(data []byte) *Bytes { return &Bytes{b: data} }

// uint consumes n ≤ 8 bytes, little-endian.
func (c *Bytes) uint(n int) uint64 {
	var x uint64
	for i := 0; i < n && len(c.b) > 0; i++ {
		x |= uint64(c.b[0]) << (8 * i)
		c.b = c.b[1:]
	}
	return x
}

// Uint8 consumes one byte.
func (c *Bytes) Uint8() uint8 { return uint8(c.uint(1)) }

// Uint16 consumes two bytes.
func (c *Bytes) Uint16() uint16 { return uint16(c.uint(2)) }

// Uint32 consumes four bytes.
func (c *Bytes) Uint32() uint32 { return uint32(c.uint(4)) }

// Uint64 consumes eight bytes.
func (c *Bytes) Uint64() uint64 { return c.uint(8) }

// Bool consumes one byte: true when its low bit is set.
func (c *Bytes) Bool() bool { return c.uint(1)&1 == 1 }

// Bytes consumes a one-byte length and that many bytes (fewer if the input
// runs out).
func (c *Bytes) Bytes() []byte {
	n := min(int(c.Uint8()), len(c.b))
	out := append([]byte(nil), c.b[:n]...)
	c.b = c.b[n:]
	return out
}

// String is Bytes as a string.
func (c *Bytes) String() string { return string(c.Bytes()) }

// Count consumes one byte: a count below max.
func (c *Bytes) Count(max int) int { return int(c.Uint8()) % max }

// Len is how many bytes are left.
func (c *Bytes) Len() int { return len(c.b) }
