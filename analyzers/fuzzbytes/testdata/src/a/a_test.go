package a

import (
	"bytes"
	"testing"
)

var last []byte

var all [][]byte

type holder struct{ data []byte }

var h holder

func FuzzGood(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte, s string) {
		c := bytes.Clone(b)
		c[0] = 1
		local := b[1:]
		_ = local[0]
		var keep [][]byte
		keep = append(keep, b) // local: dies with the call
		last = bytes.Clone(b)
		all = append(all, append([]byte(nil), b...))
		h.data = []byte(s)
		buf := make([]byte, len(b))
		copy(buf, b)
		_ = keep
		if len(b) > 8 {
			b = b[:8] // the parameter itself (klauspost/compress's huff0 and zstd fuzz tests)
		}
		// Capacity cut to the length: append copies (klauspost/compress's s2).
		src := append(b[:len(b):len(b)], bytes.Repeat([]byte{0x55}, 16)...)
		_ = append(b[:0:0], 'z')
		_ = src
	})
}

func FuzzModify(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		b[0] = 'x' // want `the fuzz function must not modify its \[\]byte argument b: the engine reuses its memory`
		b[1]++     // want `must not modify its \[\]byte argument b`
		tail := b[2:]
		tail[0] ^= 1             // want `must not modify its \[\]byte argument b`
		copy(b, "abc")           // want `must not modify its \[\]byte argument b`
		_ = append(b[:0], 'y')   // want `must not modify its \[\]byte argument b`
		_ = append(b[:1:2], 'y') // want `must not modify its \[\]byte argument b`
	})
}

func FuzzRetain(f *testing.F) {
	var prev []byte
	seen := map[string][]byte{}
	f.Fuzz(func(t *testing.T, data []byte) {
		last = data             // want `the fuzz function must not retain its \[\]byte argument data after it returns`
		prev = data[1:]         // want `must not retain its \[\]byte argument data`
		all = append(all, data) // want `must not retain its \[\]byte argument data`
		h.data = data           // want `must not retain its \[\]byte argument data`
		seen["k"] = data        // want `must not retain its \[\]byte argument data`
		alias := data
		last = alias // want `must not retain its \[\]byte argument data`
	})
	_ = prev
}

func target(t *testing.T, n int, in []byte) {
	in[0] = 0 // want `must not modify its \[\]byte argument in`
}

func FuzzDeclared(f *testing.F) {
	f.Fuzz(target)
}
