// Package frame parses the frames of package magic. It holds the planted bug of
// the instrument_deps example: a frame with the right 4-byte magic number and a
// length byte larger than its body makes Parse slice past the end of the input.
// The magic is compared here, inside a dependency of the package under test, so
// only this package's comparison hooks can tell the fuzzing engine its value.
package frame

import (
	"encoding/binary"
	"errors"
)

// HeaderLen is the length of a frame's header: the magic number and a length byte.
const HeaderLen = 5

// ErrShort is returned for inputs too short to hold a header.
var ErrShort = errors.New("frame: input too short")

// ErrMagic is returned for inputs that do not start with the magic number.
var ErrMagic = errors.New("frame: bad magic number")

// Parse returns the body of a frame: a big-endian magic number, a length byte
// and the body.
//
// noinline keeps the comparison in this package: inlined into its caller, it
// would be compiled (and instrumented) as part of the package under test.
//
//go:noinline
func Parse(data []byte) ([]byte, error) {
	if len(data) < HeaderLen {
		return nil, ErrShort
	}
	if binary.BigEndian.Uint32(data) != 0x7a3c91e5 {
		return nil, ErrMagic
	}
	n := int(data[4])
	return data[HeaderLen : HeaderLen+n], nil // bug: n is not checked against len(data)
}
