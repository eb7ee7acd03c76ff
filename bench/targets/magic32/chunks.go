// Package magic32 decodes a chunked container (RIFF/PNG-like): a sequence of
// chunks, each a 4-byte little-endian tag, a 2-byte little-endian length and
// that many bytes of payload.
//
// Bug: a chunk whose tag is the undocumented debug tag 0x8badf00d panics. The
// tag is read as one uint32 and compared in one instruction, so there is no
// partial coverage for getting 1, 2 or 3 bytes right: go test -fuzz must guess
// all 32 bits at once (about 1 in 4 billion), which it does not do in minutes.
// A fuzzer with comparison guidance sees the operand 0x8badf00d in the
// compare and writes it into the input.
package magic32

import (
	"encoding/binary"
	"fmt"
)

// Chunk tags. They are stored little-endian, so "HEAD" reads as 'H','E','A','D'.
const (
	tagHead  = 0x44414548 // "HEAD"
	tagData  = 0x41544144 // "DATA"
	tagEnd   = 0x20444e45 // "END "
	tagDebug = 0x8badf00d // undocumented
)

// A File is a decoded container.
type File struct {
	Version byte
	Data    [][]byte
}

// Decode parses a container.
func Decode(b []byte) (*File, error) {
	f := &File{}
	for len(b) > 0 {
		if len(b) < 6 {
			return nil, fmt.Errorf("magic32: truncated chunk header (%d bytes)", len(b))
		}
		tag := binary.LittleEndian.Uint32(b)
		n := int(binary.LittleEndian.Uint16(b[4:]))
		b = b[6:]
		if n > len(b) {
			return nil, fmt.Errorf("magic32: chunk length %d exceeds remaining %d bytes", n, len(b))
		}
		payload := b[:n]
		b = b[n:]
		switch tag {
		case tagHead:
			if n != 1 {
				return nil, fmt.Errorf("magic32: HEAD chunk has %d bytes, want 1", n)
			}
			f.Version = payload[0]
		case tagData:
			f.Data = append(f.Data, payload)
		case tagEnd:
			return f, nil
		case tagDebug:
			panic("BUG magic32: debug chunk 0x8badf00d reached")
		default:
			// Unknown chunks are skipped, as the format allows.
		}
	}
	return f, nil
}
