// Package oom decodes blob records: "BL", a flags byte, a 4-byte little-endian
// size n, then the data. A plain blob carries exactly n bytes; a sparse blob
// (flag 0x04) carries a prefix and the rest of its n bytes are the pad byte
// 0xff.
//
// Bug: the size of a sparse blob is trusted. The decoder allocates n bytes
// and fills the tail, so one 10-byte input makes it allocate and touch up to
// 3 GiB (the author's "sanity" cap, which also keeps a plain go test -fuzz
// run of this target, two workers each with garbage up to twice its live
// heap, under about 12 GB). go test -fuzz has no memory limit: it runs such
// inputs, and where page faults are slow (3 s per GiB on the benchmark
// machine) an input that takes over 10 s is reported as "fuzzing process hung
// or terminated unexpectedly", with no stack and the wrong diagnosis. An
// engine with a memory limit below 3 GiB (fuzzbox: -rss_limit_mb=2048)
// reports it as out of memory.
package oom

import (
	"encoding/binary"
	"fmt"
)

const (
	flagSparse = 0x04
	maxBlob    = 3 << 30 // bytes
)

// Decode returns the blob in b.
func Decode(b []byte) ([]byte, error) {
	if len(b) < 7 || b[0] != 'B' || b[1] != 'L' {
		return nil, fmt.Errorf("oom: bad header")
	}
	flags := b[2]
	n := int(binary.LittleEndian.Uint32(b[3:]))
	data := b[7:]
	if n > maxBlob {
		return nil, fmt.Errorf("oom: blob of %d bytes exceeds the limit", n)
	}
	if flags&flagSparse == 0 {
		if n != len(data) {
			return nil, fmt.Errorf("oom: plain blob says %d bytes, has %d", n, len(data))
		}
		return append([]byte(nil), data...), nil
	}
	if len(data) > n {
		return nil, fmt.Errorf("oom: sparse blob prefix longer than its size")
	}
	out := make([]byte, n)
	copy(out, data)
	fill(out[len(data):], 0xff)
	return out, nil
}

// fill sets every byte of b to c, doubling the filled prefix with copy (a
// memmove) at each step, as bytes.Repeat does.
func fill(b []byte, c byte) {
	if len(b) == 0 {
		return
	}
	b[0] = c
	for k := 1; k < len(b); k *= 2 {
		copy(b[k:], b[:k])
	}
}
