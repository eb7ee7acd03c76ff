package typed

import (
	"encoding"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/fuzzbox/fuzzbox/internal/typedhook"
)

// Add adds a seed: args, one per argument of the function Fuzz is given,
// each of exactly that argument's type, encoded into one []byte entry of
// f's seed corpus. It fails f when an argument's type cannot be fuzzed or a
// value does not encode (a marshaling method's error, nesting deeper than 64
// pointers, slices and maps); Fuzz fails f when the seed's types are not its
// function's.
func Add(f F, args ...any) {
	f.Helper()
	types := make([]reflect.Type, len(args))
	for i, a := range args {
		if a == nil {
			f.Fatalf("typed.Add: argument %d is nil: write a typed nil such as (*T)(nil) or []T(nil)", i+1)
		}
		types[i] = reflect.TypeOf(a)
	}
	cs, err := codecsFor(types)
	if err != nil {
		f.Fatalf("typed.Add: %v", err)
	}
	vals := make([]reflect.Value, len(args))
	for i, a := range args {
		vals[i] = reflect.ValueOf(a)
	}
	data, err := encodeValues(cs, vals)
	if err != nil {
		f.Fatalf("typed.Add: %v", err)
	}
	seeds.add(f, types)
	f.Add(data)
}

// Fuzz runs fn, a func(*testing.T, A1, ..., An) with n ≥ 1, as f's fuzz
// function: it calls f.Fuzz with a function of one []byte argument that
// decodes the bytes into A1, ..., An and calls fn with them. Every byte
// string decodes to some arguments, so stock go test, native go test -fuzz
// and libFuzzer builds fuzz and replay it like any []byte fuzz test; under
// fuzzbox the engine mutates the arguments by their structure. It fails f
// when fn is not such a function, an argument type cannot be fuzzed
// (interfaces, channels, funcs and unsafe.Pointer, anywhere inside it) or a
// seed given to Add does not match fn's arguments.
func Fuzz(f F, fn any) {
	f.Helper()
	h, err := newHarness(fn)
	if err != nil {
		f.Fatalf("typed.Fuzz: %v", err)
	}
	for i, types := range seeds.take(f) {
		if err := h.match(types); err != nil {
			f.Fatalf("typed.Fuzz: seed %d (typed.Add): %v", i+1, err)
		}
	}
	if answerValues(f, h) {
		return
	}
	typedhook.Set(h)
	defer typedhook.Set(nil)
	f.Fuzz(h.fuzzFunc())
}

// F is what Add and Fuzz use of a fuzz test's *testing.F. OSS-Fuzz's
// go-118-fuzz-build compiles fuzz test files against a testing package of
// its own, whose *F has these methods too and whose Fuzz passes its own
// *T: a typed fuzz test builds there as well.
type F interface {
	Helper()
	Name() string
	Fatalf(format string, args ...any)
	Skipf(format string, args ...any)
	Add(args ...any)
	Fuzz(ff any)
}

// fuzzFunc returns the function of one []byte to give f.Fuzz: its first
// parameter has the type of fn's (*testing.T, or a testing replacement's
// *T), it decodes the bytes and calls fn.
func (h *harness) fuzzFunc() any {
	if h.fn.Type().In(0) == tType {
		return func(t *testing.T, data []byte) {
			h.call(reflect.ValueOf(t), data)
		}
	}
	ft := reflect.FuncOf([]reflect.Type{h.fn.Type().In(0), reflect.TypeFor[[]byte]()}, nil, false)
	return reflect.MakeFunc(ft, func(args []reflect.Value) []reflect.Value {
		h.call(args[0], args[1].Bytes())
		return nil
	}).Interface()
}

// call decodes data and calls the fuzz function with t and the arguments.
func (h *harness) call(t reflect.Value, data []byte) {
	in := make([]reflect.Value, 1+len(h.codecs))
	in[0] = t
	decodeInto(in[1:], h.codecs, data)
	h.fn.Call(in)
}

// Encode returns the encoding of args as Fuzz decodes them: a []byte entry
// of a fuzz test whose function takes args' types, for a corpus file
// written by hand or by a tool.
func Encode(args ...any) ([]byte, error) {
	types := make([]reflect.Type, len(args))
	vals := make([]reflect.Value, len(args))
	for i, a := range args {
		if a == nil {
			return nil, fmt.Errorf("argument %d is nil: write a typed nil such as (*T)(nil)", i+1)
		}
		types[i], vals[i] = reflect.TypeOf(a), reflect.ValueOf(a)
	}
	cs, err := codecsFor(types)
	if err != nil {
		return nil, err
	}
	return encodeValues(cs, vals)
}

// Decode decodes data into the values ptrs point to, as Fuzz decodes an
// entry for a function whose arguments have those types. Every data decodes.
func Decode(data []byte, ptrs ...any) error {
	types := make([]reflect.Type, len(ptrs))
	for i, p := range ptrs {
		t := reflect.TypeOf(p)
		if t == nil || t.Kind() != reflect.Pointer || reflect.ValueOf(p).IsNil() {
			return fmt.Errorf("argument %d is %T, not a non-nil pointer", i+1, p)
		}
		types[i] = t.Elem()
	}
	cs, err := codecsFor(types)
	if err != nil {
		return err
	}
	for i, v := range decodeValues(cs, data) {
		reflect.ValueOf(ptrs[i]).Elem().Set(v)
	}
	return nil
}

func codecsFor(types []reflect.Type) ([]*codec, error) {
	cs := make([]*codec, len(types))
	for i, t := range types {
		c, err := codecFor(t, fmt.Sprintf("argument %d", i+1))
		if err != nil {
			return nil, err
		}
		cs[i] = c
	}
	return cs, nil
}

func encodeValues(cs []*codec, vals []reflect.Value) ([]byte, error) {
	var e encoder
	if err := e.values(cs, vals); err != nil {
		return nil, err
	}
	return e.b, nil
}

// values appends the encoding of an argument list: the version, then each
// value (Add, Encode, a mutant, a layout).
func (e *encoder) values(cs []*codec, vals []reflect.Value) error {
	e.b = append(e.b, Version)
	for i, c := range cs {
		if err := e.encode(c, vals[i]); err != nil {
			return fmt.Errorf("argument %d (%v): %w", i+1, c.t, err)
		}
	}
	return nil
}

func decodeValues(cs []*codec, data []byte) []reflect.Value {
	vals := make([]reflect.Value, len(cs))
	decodeInto(vals, cs, data)
	return vals
}

// decodeInto decodes data into new values of the codecs' types, in vals.
func decodeInto(vals []reflect.Value, cs []*codec, data []byte) {
	d := decoder{b: data}
	for _, c := range cs {
		if c.shares && !d.owned {
			d.b, d.owned = slices.Clone(data), true
		}
	}
	v1 := d.fixed(1) == 1 // the version
	for i, c := range cs {
		if v1 && c.v1 != nil {
			c = c.v1
		}
		p := reflect.New(c.t)
		d.decodeAt(c, p.UnsafePointer())
		vals[i] = p.Elem()
	}
}

// seeds remembers the argument types of each fuzz test's typed.Add seeds
// until its typed.Fuzz checks them.
var seeds seedTypes

type seedTypes struct {
	mu sync.Mutex
	m  map[F][][]reflect.Type
}

func (s *seedTypes) add(f F, types []reflect.Type) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[F][][]reflect.Type{}
	}
	s.m[f] = append(s.m[f], types)
}

func (s *seedTypes) take(f F) [][]reflect.Type {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.m[f]
	delete(s.m, f)
	return t
}

// harness is a typed fuzz test: its function and its arguments' codecs.
// It implements typedhook.Harness for fuzzbox's engine.
type harness struct {
	fn      reflect.Value
	codecs  []*codec
	pkg     string // the fuzz function's package path: its types print unqualified
	layouts layoutCache
	// names maps the named types of the arguments' graphs, by import path
	// and name (example.com/api/core/v1.Phase), to how Go source names them
	// (v1.Phase): how a generic type's arguments print (Format).
	names func() map[string]string
}

var tType = reflect.TypeFor[*testing.T]()

// isT reports whether t is *testing.T, or the *T of a testing package's
// replacement (go-118-fuzz-build's).
func isT(t reflect.Type) bool {
	return t == tType || t.Kind() == reflect.Pointer && t.Elem().Name() == "T" && t.Elem().Kind() == reflect.Struct &&
		strings.HasSuffix(t.Elem().PkgPath(), "testing")
}

func newHarness(fn any) (*harness, error) {
	v := reflect.ValueOf(fn)
	t := reflect.TypeOf(fn)
	if t == nil || t.Kind() != reflect.Func {
		return nil, fmt.Errorf("the fuzz function is %T, not a func(*testing.T, ...)", fn)
	}
	if v.IsNil() {
		return nil, fmt.Errorf("the fuzz function is a nil %v", t)
	}
	if t.NumIn() < 2 || !isT(t.In(0)) || t.NumOut() != 0 || t.IsVariadic() {
		return nil, fmt.Errorf("the fuzz function is %v: it must be a func(*testing.T, A1, ..., An) with n ≥ 1 and no results", t)
	}
	types := make([]reflect.Type, t.NumIn()-1)
	for i := range types {
		types[i] = t.In(i + 1)
	}
	cs, err := codecsFor(types)
	if err != nil {
		return nil, err
	}
	return &harness{fn: v, codecs: cs, pkg: funcPackage(v), names: sync.OnceValue(func() map[string]string { return typeNames(cs) })}, nil
}

// plural is "1 argument" or "2 arguments".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// match reports whether a seed of these types fits the fuzz function.
func (h *harness) match(types []reflect.Type) error {
	if len(types) != len(h.codecs) {
		return fmt.Errorf("%s, but the fuzz function takes %d", plural(len(types), "argument"), len(h.codecs))
	}
	for i, t := range types {
		if t != h.codecs[i].t {
			return fmt.Errorf("argument %d is of type %v, but the fuzz function's argument %d is of type %v", i+1, t, i+1, h.codecs[i].t)
		}
	}
	return nil
}

func (h *harness) decode(data []byte) []reflect.Value { return decodeValues(h.codecs, data) }

// funcPackage returns the import path of fn's package ("" if unknown), from
// its symbol name "path/to/pkg.FuzzX.func1".
func funcPackage(fn reflect.Value) string {
	f := runtime.FuncForPC(fn.Pointer())
	if f == nil {
		return ""
	}
	return symbolPackage(f.Name())
}

// symbolPackage returns the import path of a function's symbol name, whose
// last path element has its dots (and other bytes) escaped as %xx by the
// linker: example.com/conf%2ev2.FuzzX.func1 is example.com/conf.v2's.
func symbolPackage(name string) string {
	slash := strings.LastIndex(name, "/")
	dot := strings.Index(name[slash+1:], ".")
	if dot < 0 {
		return ""
	}
	path := name[:slash+1+dot]
	if !strings.Contains(path, "%") {
		return path
	}
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		if path[i] == '%' && i+2 < len(path) {
			if n, err := strconv.ParseUint(path[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(n))
				i += 2
				continue
			}
		}
		b.WriteByte(path[i])
	}
	return b.String()
}

var _ typedhook.Harness = (*harness)(nil)

// FromText returns the T whose UnmarshalText method accepts text, and
// panics when it does not. Format prints values of such types as calls of
// it: typed.FromText[netip.Addr]("10.0.0.1").
func FromText[T any, P interface {
	*T
	encoding.TextUnmarshaler
}](text string) T {
	var v T
	if err := P(&v).UnmarshalText([]byte(text)); err != nil {
		panic(fmt.Sprintf("typed.FromText[%T](%q): %v", v, text, err))
	}
	return v
}

// FromBinary returns the T whose UnmarshalBinary method accepts data, and
// panics when it does not. Format prints values of types without a text
// form as calls of it.
func FromBinary[T any, P interface {
	*T
	encoding.BinaryUnmarshaler
}](data string) T {
	var v T
	if err := P(&v).UnmarshalBinary([]byte(data)); err != nil {
		panic(fmt.Sprintf("typed.FromBinary[%T](%q): %v", v, data, err))
	}
	return v
}
