package a

import (
	"math/big"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/fuzzbox/fuzzbox/typed"
)

type Mode int

type Config struct {
	Port uint16
	Mode Mode
	Host string
	At   time.Time
	_    func() // blank fields are skipped
}

type OpKind uint8

type Op struct {
	Kind OpKind
	Path string
	Data []byte
	Addr netip.Addr
	N    *big.Int
	meta map[string][3]complex64
}

// Node is recursive.
type Node struct {
	Next *Node
	Kids []Node
	Val  float32
}

// Opaque is encoded through its text methods; its func field is not looked at.
type Opaque struct{ fn func() }

func (o Opaque) MarshalText() ([]byte, error) { return nil, nil }
func (o *Opaque) UnmarshalText([]byte) error  { return nil }

// Stamped embeds time.Time, whose methods it promotes: typed encodes it
// field by field, so its func field cannot be fuzzed.
type Stamped struct {
	time.Time
	hook func()
}

// Logged embeds time.Time and has fields of its own, all fuzzed.
type Logged struct {
	time.Time
	Msg string
}

// Cache holds standard library types whose unexported fields typed does
// not fuzz (atomic.Pointer's is an unsafe.Pointer).
type Cache struct {
	mu   sync.Mutex
	last atomic.Pointer[string]
	N    int
}

type Hooks struct {
	Name    string
	OnClose func()
}

type Rule struct {
	Pattern string
	Match   any
}

type Rules []Rule

type Ops []Op

type Deep struct{ Inner struct{ C chan int } }

// Message is shaped as a generated protocol buffer message.
type Message struct {
	state struct {
		DoNotCompare [0]func() // holds no value
		info         *struct{ T any }
	}
	Seconds int64
}

func (*Message) ProtoReflect() {}

// NoCompare has a zero-length array of funcs, which holds no value.
type NoCompare struct {
	D [0]func()
	N int
}

func FuzzGood(f *testing.F) {
	typed.Add(f, Config{Port: 80, Mode: 1, Host: "h"}, []Op{{Kind: 1, Path: "/a"}}, uintptr(0), 1i, &Node{}, Opaque{}, Logged{})
	typed.Add(f, Config{}, []Op(nil), uintptr(1), complex128(2), (*Node)(nil), Opaque{}, Logged{})
	typed.Fuzz(f, func(t *testing.T, c Config, ops []Op, p uintptr, z complex128, n *Node, o Opaque, l Logged) {})
}

func FuzzStdUnexported(f *testing.F) {
	typed.Fuzz(f, func(t *testing.T, c Cache, n NoCompare) {})
}

func FuzzUnfuzzable(f *testing.F) {
	typed.Fuzz(f, func(t *testing.T,
		h Hooks, // want `typed.Fuzz: parameter h of type Hooks cannot be fuzzed: field Hooks.OnClose is a func`
		rs []Rule, // want `typed.Fuzz: parameter rs of type \[\]Rule cannot be fuzzed: element of \[\]Rule: field Rule.Match is an interface \(any\)`
		named Rules, // want `typed.Fuzz: parameter named of type Rules cannot be fuzzed: element of Rules: field Rule.Match is an interface \(any\)`
		m map[string]chan int, // want `typed.Fuzz: parameter m of type map\[string\]chan int cannot be fuzzed: map value of map\[string\]chan int is a chan`
		k map[any]int, // want `typed.Fuzz: parameter k of type map\[any\]int cannot be fuzzed: map key of map\[any\]int is an interface \(any\)`
		e error, // want `typed.Fuzz: parameter e of type error cannot be fuzzed: it is an interface \(error\)`
		p *unsafe.Pointer, // want `typed.Fuzz: parameter p of type \*unsafe.Pointer cannot be fuzzed: it is unsafe.Pointer`
		d [2]*Deep, // want `typed.Fuzz: parameter d of type \[2\]\*Deep cannot be fuzzed: element of \[2\]\*Deep: field Deep.Inner: field C is a chan`
		a, b func(), // want `typed.Fuzz: parameter a of type func\(\) cannot be fuzzed: it is a func` `typed.Fuzz: parameter b of type func\(\) cannot be fuzzed: it is a func`
		s Stamped, // want `typed.Fuzz: parameter s of type Stamped cannot be fuzzed: field Stamped.hook is a func`
		msg *Message, // want `typed.Fuzz: parameter msg of type \*Message cannot be fuzzed: field Message.state: field info: field T is an interface \(any\) \(Message is a protocol buffer message: fuzz its wire form, a \[\]byte for proto.Unmarshal, or its fields' values\)`
	) {
	})
}

func FuzzShape(f *testing.F) {
	typed.Fuzz(f, 5)                                                 // want `typed.Fuzz: the fuzz function must be a func\(\*testing.T, ...\) with fuzzed parameters, not int`
	typed.Fuzz(f, func() {})                                         // want `typed.Fuzz: the fuzz function must take a \*testing.T and at least one fuzzed parameter`
	typed.Fuzz(f, func(t *testing.T) {})                             // want `typed.Fuzz: the fuzz function must take at least one fuzzed parameter after \*testing.T`
	typed.Fuzz(f, func(s string, n int) {})                          // want `typed.Fuzz: the first parameter of the fuzz function must be \*testing.T, not string`
	typed.Fuzz(f, func(t *testing.T, s string) error { return nil }) // want `typed.Fuzz: the fuzz function must not return a value`
	typed.Fuzz(f, func(t *testing.T, xs ...int) {})                  // want `typed.Fuzz: the fuzz function must not be variadic`
	typed.Fuzz(f, declared)                                          // want `typed.Fuzz: parameter h of type Hooks cannot be fuzzed: field Hooks.OnClose is a func`
	var dynamic any = func(t *testing.T, s string) {}
	typed.Fuzz(f, dynamic) // checked at run time
}

func declared(t *testing.T, h Hooks) {}

func FuzzAddCount(f *testing.F) {
	typed.Add(f)                      // want `typed.Add has 0 values, but the typed.Fuzz function takes 2 fuzzed arguments \(Config, \[\]Op\)`
	typed.Add(f, Config{}, []Op{}, 3) // want `typed.Add has 3 values, but the typed.Fuzz function takes 2 fuzzed arguments`
	typed.Add(f, Config{}, []Op{})
	typed.Fuzz(f, func(t *testing.T, c Config, ops []Op) {})
}

const seven = 7

func FuzzAddTypes(f *testing.F) {
	var n int64 = 3
	var v any = Config{}
	typed.Add(f, 5, Mode(1), "s", 1.5, true)                 // want `untyped constant 5 in typed.Add has default type int, but parameter u is uint8` `untyped constant 1.5 in typed.Add has default type float64, but parameter x is float32`
	typed.Add(f, uint8(5), 2, "s", float32(1), true)         // want `untyped constant 2 in typed.Add has default type int, but parameter m is Mode`
	typed.Add(f, seven, Mode(2), "s", float32(1), true)      // want `untyped constant seven in typed.Add has default type int, but parameter u is uint8`
	typed.Add(f, n, Mode(2), 's', float32(1), true)          // want `typed.Add value n has type int64, but parameter u is uint8` `typed.Add value 's' has type rune, but parameter s is string`
	typed.Add(f, 300, Mode(2), "s", float32(1), v)           // want `typed.Add value 300 has type int, but parameter u is uint8`
	typed.Add(f, uint8(1), OpKind(2), "s", float32(1), true) // want `typed.Add value OpKind\(2\) has type OpKind, but parameter m is Mode`
	typed.Fuzz(f, func(t *testing.T, u uint8, m Mode, s string, x float32, ok bool) {})
}

func FuzzAddComposite(f *testing.F) {
	typed.Add(f, Config{}, []Op{}, map[string]int{}, [2]int{})
	typed.Add(f, &Config{}, Op{}, map[string]int64{}, [3]int{}) // want `typed.Add value &Config\{\} has type \*Config, but parameter c is Config` `typed.Add value Op\{\} has type Op, but parameter ops is \[\]Op` `typed.Add value map\[string\]int64\{\} has type map\[string\]int64, but parameter m is map\[string\]int` `typed.Add value \[3\]int\{\} has type \[3\]int, but parameter a is \[2\]int`
	typed.Fuzz(f, func(t *testing.T, c Config, ops []Op, m map[string]int, a [2]int) {})
}

func FuzzAddNil(f *testing.F) {
	typed.Add(f, nil, nil, nil, nil) // want `untyped nil in typed.Add has no type to encode: use a typed nil such as \(\*Node\)\(nil\) for parameter n of type \*Node` `untyped nil in typed.Add has no type to encode: use a typed nil such as \(\[\]Op\)\(nil\) for parameter ops of type \[\]Op` `untyped nil in typed.Add has no type to encode: use a typed nil such as Ops\(nil\) for parameter os of type Ops` `untyped nil in typed.Add has no type to encode, but parameter i is int`
	typed.Add(f, (*Node)(nil), []Op(nil), Ops(nil), 0)
	typed.Fuzz(f, func(t *testing.T, n *Node, ops []Op, os Ops, i int) {})
}

func FuzzAddUnknown(f *testing.F) {
	typed.Add(f, Hooks{}, "ok", nil) // want `typed.Add value Hooks\{\} has type Hooks, which cannot be fuzzed: field Hooks.OnClose is a func` `untyped nil in typed.Add has no type to encode: use a typed nil such as \(\*T\)\(nil\)`
	var fn any
	typed.Fuzz(f, fn)
}

func FuzzAddSpread(f *testing.F) {
	seeds := []any{"a", 1} // want `untyped constant 1 in typed.Add has default type int, but parameter m is Mode`
	typed.Add(f, seeds...)
	typed.Add(f, []any{"b", Mode(2)}...)
	typed.Add(f, []any{"c"}...)                                 // want `this seed passed to typed.Add has 1 values, but the typed.Fuzz function takes 2 fuzzed arguments`
	for _, s := range [][]any{{"d", Mode(3)}, {"e", int8(1)}} { // want `typed.Add value int8\(1\) has type int8, but parameter m is Mode`
		typed.Add(f, s...)
	}
	typed.Fuzz(f, func(t *testing.T, s string, m Mode) {})
}

func addSeeds(f *testing.F) {
	typed.Add(f, 5) // want `untyped constant 5 in typed.Add has default type int, but parameter k is OpKind`
	moreSeeds(f)
}

func moreSeeds(f *testing.F) {
	typed.Add(f, "x") // want `typed.Add value "x" has type string, but parameter k is OpKind`
}

func FuzzHelper(f *testing.F) {
	addSeeds(f)
	typed.Fuzz(f, func(t *testing.T, k OpKind) {})
}

func FuzzHelperToo(f *testing.F) { // the helpers' diagnostics are reported once
	addSeeds(f)
	typed.Fuzz(f, func(t *testing.T, k OpKind) {})
}

func FuzzMixedAdd(f *testing.F) {
	f.Add([]byte("raw")) // want `use typed.Add: typed.Fuzz fuzzes one \[\]byte that encodes the arguments`
	typed.Add(f, Config{})
	typed.Fuzz(f, func(t *testing.T, c Config) {})
}

func FuzzMixedFuzz(f *testing.F) {
	typed.Fuzz(f, func(t *testing.T, c Config) {})
	f.Fuzz(func(t *testing.T, b []byte) {}) // want `f.Fuzz and typed.Fuzz on the same \*testing.F: typed.Fuzz calls f.Fuzz, which can be called only once`
}

func FuzzRaw(f *testing.F) { // raw fuzz tests are not this analyzer's business
	f.Add("x")
	f.Fuzz(func(t *testing.T, s string) {})
}

func FuzzOtherPackage(f *testing.F) {
	typed.Add(f, "1.2.3.4", time.Second) // want `typed.Add value "1.2.3.4" has type string, but parameter a is netip.Addr`
	typed.Add(f, netip.Addr{}, 5)        // want `untyped constant 5 in typed.Add has default type int, but parameter d is time.Duration`
	typed.Fuzz(f, func(t *testing.T, a netip.Addr, d time.Duration) {})
}
