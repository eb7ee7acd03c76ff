// Package parse decodes a tiny tagged header. It has a planted bug for the
// fuzzbox Bazel example: a header with the magic tag "FZBX" and a length byte
// larger than the payload makes Header index past the end of the input.
package parse

import "errors"

// ErrShort is returned for inputs too short to hold a header.
var ErrShort = errors.New("parse: input too short")

// Header returns the payload of a header: a 4-byte tag, a length byte and the
// payload. Only tag "FZBX" carries a payload.
func Header(data []byte) ([]byte, error) {
	if len(data) < 5 {
		return nil, ErrShort
	}
	if string(data[:4]) != "FZBX" {
		return nil, nil
	}
	n := int(data[4])
	return data[5 : 5+n], nil // bug: n is not checked against len(data)
}
