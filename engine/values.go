package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
)

// The engine keeps inputs as []any of the fuzz function's argument types and
// moves them through shared memory in a compact encoding that costs a copy,
// not a v1 text rendering, per execution:
//
//	value  = kind:byte payload
//	payload: []byte and string: uvarint length, bytes; bool: one byte;
//	         numbers: 8 bytes little-endian of the value's bits.

const (
	kBytes byte = iota
	kString
	kBool
	kFloat32
	kFloat64
	kInt
	kInt8
	kInt16
	kInt32
	kInt64
	kUint
	kUint8
	kUint16
	kUint32
	kUint64
)

var errBadEncoding = errors.New("engine: malformed value encoding")

// appendValues appends the encoding of vals to b.
func appendValues(b []byte, vals []any) []byte {
	for _, v := range vals {
		b = appendValue(b, v)
	}
	return b
}

func appendValue(b []byte, v any) []byte {
	switch v := v.(type) {
	case []byte:
		b = append(b, kBytes)
		b = binary.AppendUvarint(b, uint64(len(v)))
		return append(b, v...)
	case string:
		b = append(b, kString)
		b = binary.AppendUvarint(b, uint64(len(v)))
		return append(b, v...)
	case bool:
		if v {
			return append(b, kBool, 1)
		}
		return append(b, kBool, 0)
	}
	k, bits := numBits(v)
	b = append(b, k)
	return binary.LittleEndian.AppendUint64(b, bits)
}

// numBits returns the kind and raw bits of a numeric value.
func numBits(v any) (byte, uint64) {
	switch v := v.(type) {
	case float32:
		return kFloat32, uint64(math.Float32bits(v))
	case float64:
		return kFloat64, math.Float64bits(v)
	case int:
		return kInt, uint64(v)
	case int8:
		return kInt8, uint64(v)
	case int16:
		return kInt16, uint64(v)
	case int32:
		return kInt32, uint64(v)
	case int64:
		return kInt64, uint64(v)
	case uint:
		return kUint, uint64(v)
	case uint8:
		return kUint8, uint64(v)
	case uint16:
		return kUint16, uint64(v)
	case uint32:
		return kUint32, uint64(v)
	case uint64:
		return kUint64, v
	}
	panic(fmt.Sprintf("engine: unsupported value type %T", v))
}

// fromBits is the inverse of numBits.
func fromBits(k byte, bits uint64) any {
	switch k {
	case kFloat32:
		return math.Float32frombits(uint32(bits))
	case kFloat64:
		return math.Float64frombits(bits)
	case kInt:
		return int(bits)
	case kInt8:
		return int8(bits)
	case kInt16:
		return int16(bits)
	case kInt32:
		return int32(bits)
	case kInt64:
		return int64(bits)
	case kUint:
		return uint(bits)
	case kUint8:
		return uint8(bits)
	case kUint16:
		return uint16(bits)
	case kUint32:
		return uint32(bits)
	case kUint64:
		return bits
	}
	return nil
}

// decodeValues decodes an encoding made by appendValues. []byte values are
// fresh copies; nothing aliases b.
func decodeValues(b []byte) ([]any, error) {
	var vals []any
	for len(b) > 0 {
		k := b[0]
		b = b[1:]
		switch k {
		case kBytes, kString:
			n, w := binary.Uvarint(b)
			if w <= 0 || n > uint64(len(b)-w) {
				return nil, errBadEncoding
			}
			p := b[w : w+int(n)]
			b = b[w+int(n):]
			if k == kBytes {
				vals = append(vals, append([]byte{}, p...))
			} else {
				vals = append(vals, string(p))
			}
		case kBool:
			if len(b) < 1 {
				return nil, errBadEncoding
			}
			vals = append(vals, b[0] != 0)
			b = b[1:]
		default:
			if k > kUint64 || len(b) < 8 {
				return nil, errBadEncoding
			}
			vals = append(vals, fromBits(k, binary.LittleEndian.Uint64(b)))
			b = b[8:]
		}
	}
	return vals, nil
}

// replayCaps gives each []byte value of vals the capacity go test gives the
// value it reads from a corpus file, []byte(s): its length rounded up to
// the allocator's size class (append to a nil slice rounds the same way).
// A mutant's bytes may sit in a larger buffer, or in one of exactly their
// length; a fuzz function that slices past an argument's length, within
// its capacity (data[5:5+n] on 5 bytes), would then panic while fuzzing
// and not when the input is re-run in a fresh worker or replayed by go
// test, or the other way round.
// A value that has that capacity already is kept: most mutants of a
// cloned base do. An empty value is never nil, as go test's never is (its
// mutator's buffer and []byte("") are not): a clone or a splice that kept
// no byte was, and a fuzz function that panics on nil failed while fuzzing
// and not in the fresh worker's re-run (FerretDB/wire's FuzzDocument).
func replayCaps(vals []any) {
	for i, v := range vals {
		if b, ok := v.([]byte); ok && len(b) > 0 && cap(b) != sizeClassCap(len(b)) {
			vals[i] = append([]byte(nil), b...)
		} else if ok && b == nil {
			vals[i] = []byte{}
		} else if ok && len(b) == 0 {
			vals[i] = b[:0:0]
		}
	}
}

// sizeClassCaps caches sizeClassCap for short lengths. It is only used by
// the goroutine that runs executions.
var sizeClassCaps [1025]int

// sizeClassCap returns the capacity of append([]byte(nil), b...) for n
// bytes, or 0 (never a match) past the cache.
func sizeClassCap(n int) int {
	if n >= len(sizeClassCaps) {
		return 0
	}
	if sizeClassCaps[n] == 0 {
		sizeClassCaps[n] = cap(append([]byte(nil), make([]byte, n)...))
	}
	return sizeClassCaps[n]
}

// cloneValues returns a copy of vals whose []byte values do not alias vals'.
func cloneValues(vals []any) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		if b, ok := v.([]byte); ok {
			v = append([]byte(nil), b...)
		}
		out[i] = v
	}
	return out
}

// zeroValues returns the zero value of each type, the input the engine
// starts from when the seed corpus is empty.
func zeroValues(types []reflect.Type) []any {
	vals := make([]any, len(types))
	for i, t := range types {
		if t.Kind() == reflect.Slice {
			vals[i] = []byte{}
			continue
		}
		vals[i] = reflect.Zero(t).Interface()
	}
	return vals
}

// valuesSize is the size used to prefer small inputs: the length of []byte
// and string values plus one per other value.
func valuesSize(vals []any) int {
	n := 0
	for _, v := range vals {
		switch v := v.(type) {
		case []byte:
			n += len(v)
		case string:
			n += len(v)
		default:
			n++
		}
	}
	return n
}

// changedBytesArg returns the 1-based index of the first []byte value of
// vals whose contents differ from their encoding in enc (appendValues of
// the same values, made earlier), or 0. It walks enc in place.
func changedBytesArg(enc []byte, vals []any) int {
	for i, v := range vals {
		if len(enc) == 0 {
			return 0
		}
		size := 9 // kind and 8 bytes of bits
		switch enc[0] {
		case kBytes, kString:
			n, w := binary.Uvarint(enc[1:])
			if w <= 0 || n > uint64(len(enc)-1-w) {
				return 0
			}
			if b, ok := v.([]byte); ok && !bytes.Equal(b, enc[1+w:1+w+int(n)]) {
				return i + 1
			}
			size = 1 + w + int(n)
		case kBool:
			size = 2
		}
		if size > len(enc) {
			return 0
		}
		enc = enc[size:]
	}
	return 0
}
