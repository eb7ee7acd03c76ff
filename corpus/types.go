package corpus

import (
	"fmt"
	"reflect"
	"strings"
)

// typeNames lists the supported types in the toolchain's order, by the name
// the v1 format and the fuzzbox command use. byte and rune are the same types
// as uint8 and int32.
var typeNames = []struct {
	name string
	typ  reflect.Type
}{
	{"[]byte", reflect.TypeFor[[]byte]()},
	{"[]uint8", reflect.TypeFor[[]byte]()}, // as reflect and the toolchain's messages write it
	{"string", reflect.TypeFor[string]()},
	{"bool", reflect.TypeFor[bool]()},
	{"byte", reflect.TypeFor[byte]()},
	{"rune", reflect.TypeFor[rune]()},
	{"float32", reflect.TypeFor[float32]()},
	{"float64", reflect.TypeFor[float64]()},
	{"int", reflect.TypeFor[int]()},
	{"int8", reflect.TypeFor[int8]()},
	{"int16", reflect.TypeFor[int16]()},
	{"int32", reflect.TypeFor[int32]()},
	{"int64", reflect.TypeFor[int64]()},
	{"uint", reflect.TypeFor[uint]()},
	{"uint8", reflect.TypeFor[uint8]()},
	{"uint16", reflect.TypeFor[uint16]()},
	{"uint32", reflect.TypeFor[uint32]()},
	{"uint64", reflect.TypeFor[uint64]()},
}

// TypeByName returns the supported type spelled name ("[]byte", "string",
// "byte", "rune", "uint8", ...), or false.
func TypeByName(name string) (reflect.Type, bool) {
	for _, t := range typeNames {
		if t.name == name {
			return t.typ, true
		}
	}
	return nil, false
}

// TypeName returns the name of a supported type as ParseTypes reads it
// ("[]byte", "byte", "rune", "int"), or false.
func TypeName(t reflect.Type) (string, bool) {
	for _, n := range typeNames {
		if n.typ == t {
			return n.name, true
		}
	}
	return "", false
}

// ParseTypes parses a comma-separated list of type names such as
// "string,int" (spaces allowed) into argument types for CheckTypes.
func ParseTypes(list string) ([]reflect.Type, error) {
	var types []reflect.Type
	for _, name := range strings.Split(list, ",") {
		t, ok := TypeByName(strings.TrimSpace(name))
		if !ok {
			return nil, fmt.Errorf("corpus: unsupported type %q", strings.TrimSpace(name))
		}
		types = append(types, t)
	}
	return types, nil
}

// Supported reports whether t is a type the format can hold.
func Supported(t reflect.Type) bool {
	for _, n := range typeNames {
		if n.typ == t {
			return true
		}
	}
	return false
}

// A TypeError reports values that do not fit a fuzz function's arguments.
type TypeError struct {
	Index int    // index of the first offending value; len(values) when values are missing
	Msg   string // the toolchain's wording
}

func (e *TypeError) Error() string { return e.Msg }

// CheckTypes checks vals against the fuzz function's argument types (count and
// each type) and returns a *TypeError worded like the toolchain's:
// "wrong number of values in corpus entry: 2, want 1" or
// "mismatched types in corpus entry: [int], want [string]".
func CheckTypes(vals []any, types []reflect.Type) error {
	if len(vals) != len(types) {
		msg := fmt.Sprintf("wrong number of values in corpus entry: %d, want %d", len(vals), len(types))
		return &TypeError{Index: min(len(vals), len(types)), Msg: msg}
	}
	got := make([]reflect.Type, len(vals))
	for i, v := range vals {
		got[i] = reflect.TypeOf(v)
	}
	for i := range types {
		if got[i] != types[i] {
			msg := fmt.Sprintf("mismatched types in corpus entry: %v, want %v", got, types)
			return &TypeError{Index: i, Msg: msg}
		}
	}
	return nil
}

// typeErrorLine returns the line of the value a *TypeError points at, or the
// last value's line when values are missing, or 0.
func typeErrorLine(err error, lines []int) int {
	te, ok := err.(*TypeError)
	switch {
	case !ok || len(lines) == 0:
		return 0
	case te.Index < len(lines):
		return lines[te.Index]
	}
	return lines[len(lines)-1]
}
