package fuzzutil

import (
	"go/types"
	"reflect"
	"testing"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// TestSupportedAgreesWithCorpus checks the type table against the corpus
// package, which mirrors the testing package's list.
func TestSupportedAgreesWithCorpus(t *testing.T) {
	named := types.NewNamed(types.NewTypeName(0, nil, "ID", nil), types.Typ[types.Uint32], nil)
	cases := []struct {
		typ  types.Type
		want reflect.Type // nil: unsupported
	}{
		{types.NewSlice(types.Typ[types.Byte]), reflect.TypeFor[[]byte]()},
		{types.Typ[types.Rune], reflect.TypeFor[int32]()},
		{types.Typ[types.Uintptr], nil},
		{types.Typ[types.Complex64], nil},
		{types.NewSlice(types.Typ[types.Int]), nil},
		{named, nil},
	}
	for k := types.Bool; k <= types.String; k++ {
		if k == types.Uintptr || k == types.Complex64 || k == types.Complex128 {
			continue
		}
		cases = append(cases, struct {
			typ  types.Type
			want reflect.Type
		}{types.Typ[k], ReflectType(types.Typ[k])})
	}
	for _, c := range cases {
		got := ReflectType(c.typ)
		if got != c.want {
			t.Errorf("ReflectType(%v) = %v, want %v", c.typ, got, c.want)
		}
		if got != nil && !corpus.Supported(got) {
			t.Errorf("%v is supported here but not by the corpus package", c.typ)
		}
		if (got != nil) != Supported(c.typ) {
			t.Errorf("Supported(%v) disagrees with ReflectType", c.typ)
		}
	}
	n := 0
	for k := types.Bool; k <= types.String; k++ {
		if Supported(types.Typ[k]) {
			n++
		}
	}
	if n != 14 { // 14 basic types plus []byte, as in testing.supportedTypes
		t.Errorf("%d basic types supported, want 14", n)
	}
}
