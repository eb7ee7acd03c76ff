package corpus

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// argsSource declares fuzz tests whose argument types are read from source
// in each supported way (f.Fuzz in the test, or in a function it calls),
// and ones that cannot be.
const argsSource = `package pair

import "testing"

func FuzzPair(f *testing.F) {
	f.Add("key", 7, []byte("value"))
	f.Fuzz(func(t *testing.T, s string, n int, b []byte) {})
}

func FuzzNamed(f *testing.F) { f.Fuzz(check) }

func check(t *testing.T, a, b uint16, ok bool, r rune, f float64) {}

func FuzzHelper(f *testing.F) { fuzzWith(f) }

func fuzzWith(f *testing.F) {}

func FuzzViaHelper(f *testing.F) { f.Add("x", uint8(1)); fuzzIt(f) }

func fuzzIt(f *testing.F) { fuzzWith(f); f.Fuzz(func(t *testing.T, s string, n uint8) {}) }

func FuzzLoop(f *testing.F) { loopA(f) }

func loopA(f *testing.F) { loopB(f) }

func loopB(f *testing.F) { loopA(f) }

func FuzzMap(f *testing.F) { f.Fuzz(func(t *testing.T, s string, m map[string]int) {}) }

func FuzzArray(f *testing.F) { f.Fuzz(func(t *testing.T, a [4]byte) {}) }
`

func TestFuzzArgTypes(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "pair_test.go"), []byte(argsSource), 0o666); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "pair.go"), []byte("package pair\n\nfunc FuzzNotATest() {}\n"), 0o666)
	// typed.Fuzz(f, fn) fuzzes one []byte, under any import name; another
	// package's two-argument Fuzz is no such call.
	os.WriteFile(filepath.Join(dir, "typed_test.go"), []byte(`package pair

import (
	"testing"

	ty "github.com/fuzzbox/fuzzbox/typed"
	"example.com/other"
)

type cfg struct{ N int }

func FuzzTyped(f *testing.F) {
	ty.Add(f, cfg{})
	ty.Fuzz(f, func(t *testing.T, c cfg, s string) {})
}

func FuzzOther(f *testing.F) {
	other.Fuzz(f, func(t *testing.T, c cfg) {})
}
`), 0o666)
	for _, tc := range []struct {
		name string
		want []reflect.Type
		err  string // substring of the error, if one is wanted
	}{
		{name: "FuzzPair", want: []reflect.Type{reflect.TypeFor[string](), reflect.TypeFor[int](), reflect.TypeFor[[]byte]()}},
		{name: "FuzzNamed", want: []reflect.Type{reflect.TypeFor[uint16](), reflect.TypeFor[uint16](), reflect.TypeFor[bool](), reflect.TypeFor[rune](), reflect.TypeFor[float64]()}},
		{name: "FuzzHelper", err: "f.Fuzz is not called with a function); give -types"},
		{name: "FuzzViaHelper", want: []reflect.Type{reflect.TypeFor[string](), reflect.TypeFor[uint8]()}},
		{name: "FuzzLoop", err: "f.Fuzz is not called with a function); give -types"},
		{name: "FuzzMap", err: "FuzzMap: argument type map[string]int is not one fuzzbox reads from source; give -types"},
		{name: "FuzzArray", err: "argument type [4]byte is not one"},
		{name: "FuzzMissing", err: "no fuzz test FuzzMissing in the test files of " + dir},
		{name: "FuzzNotATest", err: "no fuzz test FuzzNotATest"},
		{name: "FuzzTyped", want: []reflect.Type{reflect.TypeFor[[]byte]()}},
		{name: "FuzzOther", err: "f.Fuzz is not called with a function); give -types"},
	} {
		got, err := FuzzArgTypes(dir, tc.name)
		switch {
		case tc.err == "" && (err != nil || !reflect.DeepEqual(got, tc.want)):
			t.Errorf("%s: %v, %v; want %v", tc.name, got, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: %v, %v; want an error with %q", tc.name, got, err, tc.err)
		}
	}
}

// TestArgTypes: a -types list wins; without one the types come from source.
func TestArgTypes(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "pair_test.go"), []byte(argsSource), 0o666); err != nil {
		t.Fatal(err)
	}
	pair := []reflect.Type{reflect.TypeFor[string](), reflect.TypeFor[int](), reflect.TypeFor[[]byte]()}
	if got, err := ArgTypes("", dir, "FuzzPair"); err != nil || !reflect.DeepEqual(got, pair) {
		t.Errorf("from source: %v, %v; want %v", got, err, pair)
	}
	if got, err := ArgTypes("bool", dir, "FuzzPair"); err != nil || !reflect.DeepEqual(got, []reflect.Type{reflect.TypeFor[bool]()}) {
		t.Errorf("from the list: %v, %v; want [bool]", got, err)
	}
	if _, err := ArgTypes("chan", dir, "FuzzPair"); err == nil {
		t.Error("a bad list: no error")
	}
}

func TestFuzzArgTypesParseError(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bad_test.go"), []byte("package p\nfunc ("), 0o666)
	if _, err := FuzzArgTypes(dir, "FuzzX"); err == nil || !strings.Contains(err.Error(), "reading the argument types of FuzzX: ") {
		t.Errorf("FuzzArgTypes on a bad file: %v", err)
	}
}
