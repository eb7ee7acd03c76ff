package corpus

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Version1 is the first line of every file in the v1 format.
const Version1 = "go test fuzz v1"

// Marshal returns the canonical v1 encoding of vals, byte-identical to what the
// Go toolchain writes for the same values. Each value must have one of the
// supported types (see Types); named types are rejected, as the toolchain
// rejects them. At least one value is required.
func Marshal(vals ...any) ([]byte, error) {
	if len(vals) == 0 {
		return nil, errors.New("corpus: marshal: no values")
	}
	b := make([]byte, 0, len(Version1)+1+16*len(vals))
	b = append(b, Version1...)
	b = append(b, '\n')
	for i, v := range vals {
		var err error
		if b, err = appendValue(b, v); err != nil {
			return nil, fmt.Errorf("corpus: marshal value %d: %w", i, err)
		}
		b = append(b, '\n')
	}
	return b, nil
}

// Describe spells one value for people: its v1 literal, followed for a
// []byte or string by its length, as in `[]byte("ab")  (2 bytes)`; "fuzzbox
// corpus cat" prints it. A value of an unsupported type gives "".
func Describe(v any) string {
	b, _ := Marshal(v)
	lit := strings.TrimSuffix(strings.TrimPrefix(string(b), Version1+"\n"), "\n")
	switch v := v.(type) {
	case []byte:
		return fmt.Sprintf("%s  (%d bytes)", lit, len(v))
	case string:
		return fmt.Sprintf("%s  (%d bytes)", lit, len(v))
	}
	return lit
}

// Text returns e readably, as "fuzzbox corpus cat" shows it: a line with
// its path, then each value (Describe) numbered on a line of its own.
func (e Entry) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:\n", e.Path)
	for i, v := range e.Values {
		fmt.Fprintf(&b, "  %d: %s\n", i, Describe(v))
	}
	for i, v := range e.Typed {
		fmt.Fprintf(&b, "  typed argument %d: %s\n", i+1, v)
	}
	return b.String()
}

// appendValue appends the one-line spelling of v, without the newline.
func appendValue(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case []byte:
		return closeParen(strconv.AppendQuote(append(b, "[]byte("...), string(v))), nil
	case string:
		return closeParen(strconv.AppendQuote(append(b, "string("...), v)), nil
	case bool:
		return closeParen(strconv.AppendBool(append(b, "bool("...), v)), nil
	case byte:
		// Every byte is a valid rune, so a byte is always spelled as a character.
		return closeParen(strconv.AppendQuoteRune(append(b, "byte("...), rune(v))), nil
	case rune:
		// Negative values, surrogates and values above unicode.MaxRune have no
		// character spelling; the toolchain writes them as int32.
		if utf8.ValidRune(v) {
			return closeParen(strconv.AppendQuoteRune(append(b, "rune("...), v)), nil
		}
		return appendInt(b, "int32", int64(v)), nil
	case int:
		return appendInt(b, "int", int64(v)), nil
	case int8:
		return appendInt(b, "int8", int64(v)), nil
	case int16:
		return appendInt(b, "int16", int64(v)), nil
	case int64:
		return appendInt(b, "int64", v), nil
	case uint:
		return appendUint(b, "uint", uint64(v)), nil
	case uint16:
		return appendUint(b, "uint16", uint64(v)), nil
	case uint32:
		return appendUint(b, "uint32", uint64(v)), nil
	case uint64:
		return appendUint(b, "uint64", v), nil
	case float32:
		return appendFloat32(b, v), nil
	case float64:
		return appendFloat64(b, v), nil
	}
	return nil, fmt.Errorf("unsupported type %T", v)
}

func closeParen(b []byte) []byte { return append(b, ')') }

func appendInt(b []byte, typ string, v int64) []byte {
	b = append(append(b, typ...), '(')
	return closeParen(strconv.AppendInt(b, v, 10))
}

func appendUint(b []byte, typ string, v uint64) []byte {
	b = append(append(b, typ...), '(')
	return closeParen(strconv.AppendUint(b, v, 10))
}

// canonicalNaN32 and canonicalNaN64 are the NaNs spelled "NaN"; every other
// NaN is spelled by its bits. float32(math.NaN()) is platform dependent, which
// is why it is computed here the same way the toolchain computes it.
var (
	canonicalNaN64 = math.Float64bits(math.NaN())
	canonicalNaN32 = math.Float32bits(float32(math.NaN()))
)

func appendFloat32(b []byte, v float32) []byte {
	if bits := math.Float32bits(v); v != v && bits != canonicalNaN32 {
		b = append(b, "math.Float32frombits(0x"...)
		return closeParen(strconv.AppendUint(b, uint64(bits), 16))
	}
	return closeParen(appendShortest(append(b, "float32("...), float64(v), 32))
}

func appendFloat64(b []byte, v float64) []byte {
	if bits := math.Float64bits(v); v != v && bits != canonicalNaN64 {
		b = append(b, "math.Float64frombits(0x"...)
		return closeParen(strconv.AppendUint(b, bits, 16))
	}
	return closeParen(appendShortest(append(b, "float64("...), v, 64))
}

// appendShortest appends v in the shortest 'g' form that reads back exactly,
// which is what fmt's %v prints: "+Inf", "-Inf", "NaN", "-0", "1e+06".
func appendShortest(b []byte, v float64, bitSize int) []byte {
	return strconv.AppendFloat(b, v, 'g', -1, bitSize)
}
