// Package testing stands in for go-118-fuzz-build's replacement of the
// testing package (github.com/AdamKorcz/go-118-fuzz-build/testing): its F
// has the methods package typed uses, and its Fuzz calls the fuzz function
// with its own *T and the input, through reflect, as go-118-fuzz-build's
// does (there, from a libFuzzer input).
package testing

import (
	"fmt"
	"reflect"
)

type T struct{ Failed bool }

func (t *T) Fatalf(format string, args ...any) { t.Failed = true; panic(fmt.Sprintf(format, args...)) }

type F struct {
	T    *T
	Data []byte
}

func (f *F) Helper()                           {}
func (f *F) Name() string                      { return "libFuzzer" }
func (f *F) Add(args ...any)                   {}
func (f *F) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }
func (f *F) Skipf(format string, args ...any)  { panic("skip") }

func (f *F) Fuzz(ff any) {
	fn := reflect.ValueOf(ff)
	if fn.Type().NumIn() != 2 || fn.Type().In(1) != reflect.TypeFor[[]byte]() {
		panic(fmt.Sprintf("unsupported fuzz function %v", fn.Type()))
	}
	fn.Call([]reflect.Value{reflect.ValueOf(f.T), reflect.ValueOf(f.Data)})
}
