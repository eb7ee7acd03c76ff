// Package cgolib checks a record's checksum in C, as a package that wraps a
// C library does. CI fuzzes it under Bazel as the package under test
// (cgolib_fuzz) and as a dependency instrumented by instrument_deps
// (//cgolib/wrap).
package cgolib

/*
#include <stddef.h>

static unsigned int sum(const unsigned char *p, size_t n) {
	unsigned int s = 2166136261u;
	for (size_t i = 0; i < n; i++) {
		s = (s ^ p[i]) * 16777619u;
	}
	return s;
}
*/
import "C"

import (
	"encoding/binary"
	"errors"
	"unsafe"
)

// Check returns the record's body when its last 4 bytes are the C checksum
// (FNV-1a, little-endian) of the rest.
func Check(rec []byte) ([]byte, error) {
	if len(rec) < 5 {
		return nil, errors.New("short record")
	}
	body := rec[:len(rec)-4]
	s := C.sum((*C.uchar)(unsafe.Pointer(&body[0])), C.size_t(len(body)))
	if binary.LittleEndian.Uint32(rec[len(body):]) != uint32(s) {
		return nil, errors.New("bad checksum")
	}
	return body, nil
}
