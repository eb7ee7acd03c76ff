package corpus

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
)

// LibFuzzerEncoding names the byte encoding that maps a libFuzzer input (a
// raw byte string, as libFuzzer, AFL++ and honggfuzz hand it to
// LLVMFuzzerTestOneInput and write it to crash and corpus files) to a fuzz
// function's arguments. Version 1 is frozen: an input decodes to the same
// values in every fuzzbox version (golden vectors in libfuzzer_test.go). A
// different layout would get a new name; it is recorded in the .options file
// fuzzbox writes next to each libFuzzer binary. docs/oss-fuzz.md documents it.
//
// Layout, for argument types T1..Tn (after *testing.T):
//
//   - The tail is the last argument of type []byte or string, if any. Its
//     bytes come last and are everything left after the other arguments; a
//     single []byte or string argument is therefore the raw input itself.
//   - Every other argument, in order: bool is one byte (true iff its low bit
//     is set); int8, uint8 one byte; int16, uint16 two; int32 (rune), uint32,
//     float32 four; int, uint, int64, uint64, float64 eight, little-endian,
//     floats as their IEEE 754 bits (int and uint as 64-bit values); a
//     []byte or string that is not the tail is a uvarint length followed by
//     that many bytes.
//
// Decoding is total: every byte string decodes. A fixed-size value cut off
// by the end of the input takes the bytes that are there as its low bytes
// (the rest are zero); a length larger than what is left, or a length prefix
// that is overlong (over 64 bits), stands for everything left after it; a
// length prefix cut off by the end of the input means an empty value; bytes
// after the last argument are ignored when there is no tail.
const LibFuzzerEncoding = "fuzzbox-libfuzzer-v1"

// errUnsupported marks a type the libFuzzer encoding cannot hold.
var errUnsupported = errors.New("corpus: unsupported type")

// DecodeLibFuzzer decodes a libFuzzer input into one value per type. Every
// input decodes; the only error is a type the v1 format cannot hold. The
// values do not alias data.
func DecodeLibFuzzer(data []byte, types []reflect.Type) ([]any, error) {
	tail := tailIndex(types)
	vals := make([]any, len(types))
	for i, t := range types {
		if i == tail {
			continue
		}
		v, rest, err := decodeOne(data, t)
		if err != nil {
			return nil, fmt.Errorf("corpus: decoding libFuzzer input: argument %d: %w", i, err)
		}
		vals[i], data = v, rest
	}
	if tail >= 0 {
		vals[tail] = bytesAs(types[tail], data)
	}
	return vals, nil
}

// EncodeLibFuzzer encodes values (of the supported types) into the libFuzzer
// input that DecodeLibFuzzer decodes back to the same values, bit for bit.
func EncodeLibFuzzer(vals []any) ([]byte, error) {
	types := make([]reflect.Type, len(vals))
	for i, v := range vals {
		types[i] = reflect.TypeOf(v)
		if !Supported(types[i]) {
			return nil, fmt.Errorf("corpus: encoding libFuzzer input: argument %d: %w %T", i, errUnsupported, v)
		}
	}
	tail := tailIndex(types)
	var out []byte
	for i, v := range vals {
		if i != tail {
			out = appendOne(out, v)
		}
	}
	if tail >= 0 {
		out = append(out, bytesOf(vals[tail])...)
	}
	return out, nil
}

// tailIndex returns the index of the last []byte or string type, or -1.
func tailIndex(types []reflect.Type) int {
	for i := len(types) - 1; i >= 0; i-- {
		if isBytesKind(types[i]) {
			return i
		}
	}
	return -1
}

func isBytesKind(t reflect.Type) bool {
	return t == reflect.TypeFor[[]byte]() || t == reflect.TypeFor[string]()
}

func bytesAs(t reflect.Type, b []byte) any {
	if t == reflect.TypeFor[string]() {
		return string(b)
	}
	return append([]byte{}, b...)
}

func bytesOf(v any) []byte {
	if s, ok := v.(string); ok {
		return []byte(s)
	}
	return v.([]byte)
}

// decodeOne decodes one non-tail value of type t from the front of data.
func decodeOne(data []byte, t reflect.Type) (any, []byte, error) {
	if isBytesKind(t) {
		b, rest := takeLength(data)
		return bytesAs(t, b), rest, nil
	}
	size, ok := fixedSize(t)
	if !ok {
		return nil, nil, fmt.Errorf("%w %v", errUnsupported, t)
	}
	var buf [8]byte
	n := copy(buf[:size], data)
	return fromBits(t, binary.LittleEndian.Uint64(buf[:])), data[n:], nil
}

// takeLength reads a uvarint length and that many bytes (clamped to what is
// left), returning them and the rest.
func takeLength(data []byte) ([]byte, []byte) {
	n, k := binary.Uvarint(data)
	switch {
	case k == 0: // cut off: the prefix takes what is left
		return data[len(data):], nil
	case k < 0: // overlong: the value is everything after it
		n, k = math.MaxUint64, -k
	}
	data = data[k:]
	if n > uint64(len(data)) {
		return data, nil
	}
	return data[:n], data[n:]
}

// fixedSize returns the encoded width in bytes of a fixed-size type.
func fixedSize(t reflect.Type) (int, bool) {
	switch t.Kind() {
	case reflect.Bool, reflect.Int8, reflect.Uint8:
		return 1, true
	case reflect.Int16, reflect.Uint16:
		return 2, true
	case reflect.Int32, reflect.Uint32, reflect.Float32:
		return 4, true
	case reflect.Int, reflect.Uint, reflect.Int64, reflect.Uint64, reflect.Float64:
		return 8, true
	}
	return 0, false
}

// fromBits converts the little-endian bits of a fixed-size value to a value
// of type t (a supported type, so t.Kind() names it).
func fromBits(t reflect.Type, u uint64) any {
	switch t.Kind() {
	case reflect.Bool:
		return u&1 != 0
	case reflect.Int8:
		return int8(u)
	case reflect.Uint8:
		return uint8(u)
	case reflect.Int16:
		return int16(u)
	case reflect.Uint16:
		return uint16(u)
	case reflect.Int32:
		return int32(u)
	case reflect.Uint32:
		return uint32(u)
	case reflect.Float32:
		return math.Float32frombits(uint32(u))
	case reflect.Int:
		return int(u)
	case reflect.Uint:
		return uint(u)
	case reflect.Int64:
		return int64(u)
	case reflect.Uint64:
		return u
	}
	return math.Float64frombits(u) // float64
}

// appendOne appends the non-tail encoding of v, a supported value.
func appendOne(out []byte, v any) []byte {
	switch v := v.(type) {
	case []byte:
		return append(binary.AppendUvarint(out, uint64(len(v))), v...)
	case string:
		return append(binary.AppendUvarint(out, uint64(len(v))), v...)
	case bool:
		if v {
			return append(out, 1)
		}
		return append(out, 0)
	}
	size, _ := fixedSize(reflect.TypeOf(v))
	return binary.LittleEndian.AppendUint64(out, toBits(v))[:len(out)+size]
}

// toBits returns the bits of a fixed-size, non-bool value, zero-extended.
func toBits(v any) uint64 {
	switch v := v.(type) {
	case int8:
		return uint64(uint8(v))
	case uint8:
		return uint64(v)
	case int16:
		return uint64(uint16(v))
	case uint16:
		return uint64(v)
	case int32:
		return uint64(uint32(v))
	case uint32:
		return uint64(v)
	case float32:
		return uint64(math.Float32bits(v))
	case int:
		return uint64(v)
	case uint:
		return uint64(v)
	case int64:
		return uint64(v)
	case uint64:
		return v
	case float64:
		return math.Float64bits(v)
	}
	panic(fmt.Sprintf("corpus: toBits of %T", v)) // appendOne checked the type
}
