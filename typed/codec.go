package typed

import (
	"encoding"
	"fmt"
	"reflect"
	"runtime"
	"sync"

	"github.com/fuzzbox/fuzzbox/internal/stdlib"
)

// A codec encodes and decodes the values of one type (docs/typed.md, "The
// encoding"). Codecs are built once per type and form a graph that follows
// the type's structure; a recursive type's graph has a cycle through a
// pointer, slice or map codec.
type codec struct {
	t      reflect.Type
	kind   kind
	size   int    // bytes of a bool or number
	elem   *codec // array, slice and map elements, pointed-to value
	key    *codec // map keys
	fields []field
	min    int // least number of bytes the encoder writes for a value
	// shares is set on a root codec (codecFor's) whose values hold
	// strings, byte slices or marshaled values: decoding gives them bytes
	// of one copy of the input instead of a copy each.
	shares bool
	// v1 is a root codec's graph under version 1's rules, for data whose
	// version byte is 1, where they differ from version 2's (nil: the same
	// graph, or one version 1 could not encode).
	v1 *codec
}

type field struct {
	index    int
	offset   uintptr // in the struct, for decodeAt
	name     string
	exported bool
	c        *codec
}

type kind uint8

const (
	kBool kind = iota
	kInt
	kUint
	kFloat
	kComplex
	kString
	kBytes // a slice of plain uint8
	kSlice
	kArray
	kMap
	kPtr
	kStruct
	kBinary // through encoding.BinaryMarshaler and BinaryUnmarshaler
	kText   // through encoding.TextMarshaler and TextUnmarshaler
)

// maxDepth bounds how many pointers, slices and maps a value nests: deeper
// ones decode as nil without reading, and encoding a deeper non-nil value
// is an error. It bounds recursive types (a list longer than maxDepth).
const maxDepth = 64

// maxZeroSizeElems bounds the element count of a slice or map whose
// elements encode to no bytes (struct{}): the count is otherwise bounded by
// the bytes left to read.
const maxZeroSizeElems = 1 << 10

var (
	binaryMarshaler   = reflect.TypeFor[encoding.BinaryMarshaler]()
	binaryUnmarshaler = reflect.TypeFor[encoding.BinaryUnmarshaler]()
	textMarshaler     = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshaler   = reflect.TypeFor[encoding.TextUnmarshaler]()
)

var codecs sync.Map // reflect.Type → *codec

// codecFor returns the codec of t, or an error saying where in t a value
// that cannot be fuzzed sits (an interface, channel, func or
// unsafe.Pointer). arg names the value in the error ("argument 2").
func codecFor(t reflect.Type, arg string) (*codec, error) {
	if c, ok := codecs.Load(t); ok {
		return c.(*codec), nil
	}
	b := builder{built: map[reflect.Type]*codec{}, arg: arg, root: t}
	c, err := b.root1()
	if err != nil {
		return nil, err
	}
	if b.differs {
		v1 := builder{built: map[reflect.Type]*codec{}, arg: arg, root: t, v1: true}
		c.v1, _ = v1.root1() // nil when version 1 could not encode t: data decodes as version 2
	}
	codecs.Store(t, c)
	return c, nil
}

// root1 builds the codec graph of b.root.
func (b *builder) root1() (*codec, error) {
	c, err := b.build(b.root, "")
	if err != nil {
		return nil, err
	}
	setMin(c, map[*codec]bool{})
	for _, x := range b.built {
		switch x.kind {
		case kString, kBytes, kBinary, kText:
			c.shares = true
		}
	}
	return c, nil
}

// A TypeError says why a type cannot be fuzzed.
type TypeError struct {
	Arg  string       // the argument: "argument 2"
	Type reflect.Type // its type
	Path string       // where in it the value that cannot be fuzzed sits: ".Rules[i].Match"
	Bad  reflect.Type // that value's type
	// Message is the innermost protocol buffer message that holds it, if
	// any: its generated struct's internal state cannot be fuzzed.
	Message reflect.Type
}

func (e *TypeError) Error() string {
	what := map[reflect.Kind]string{
		reflect.Interface: "an interface", reflect.Chan: "a channel", reflect.Func: "a func",
		reflect.UnsafePointer: "an unsafe.Pointer",
	}[e.Bad.Kind()]
	msg := fmt.Sprintf("%s (%v) cannot be fuzzed: %s%s is %s (%v); interfaces, channels, funcs and unsafe.Pointer cannot be fuzzed",
		e.Arg, e.Type, e.Arg, e.Path, what, e.Bad)
	if e.Message != nil {
		msg += fmt.Sprintf("; it is in %v, a protocol buffer message, whose internal state holds them: fuzz its wire form (a []byte for proto.Unmarshal) or the values of its fields", e.Message)
	}
	return msg
}

// isProtoMessage reports whether t is a generated protocol buffer
// message: *t has a ProtoReflect method.
func isProtoMessage(t reflect.Type) bool {
	_, ok := reflect.PointerTo(t).MethodByName("ProtoReflect")
	return ok
}

type builder struct {
	built  map[reflect.Type]*codec
	arg    string
	root   reflect.Type
	protos []reflect.Type // the protocol buffer messages being built, outermost first
	// v1 builds by version 1's rules: the standard library types'
	// unexported fields encoded, marshaling methods promoted from an
	// embedded field used, a zero-length array's element checked.
	v1 bool
	// differs is set when a rule of version 2 made the graph differ from
	// version 1's.
	differs bool
}

func (b *builder) build(t reflect.Type, path string) (*codec, error) {
	if c := b.built[t]; c != nil {
		return c, nil
	}
	c := &codec{t: t}
	b.built[t] = c
	k, k1 := marshalKind(t)
	if k != k1 {
		b.differs = true
	}
	if b.v1 {
		k = k1
	}
	if k != 0 {
		c.kind = k
		return c, nil
	}
	switch t.Kind() {
	case reflect.Bool:
		c.kind, c.size = kBool, 1
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		c.kind, c.size = kInt, intSize(t)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		c.kind, c.size = kUint, intSize(t)
	case reflect.Float32, reflect.Float64:
		c.kind, c.size = kFloat, t.Bits()/8
	case reflect.Complex64, reflect.Complex128:
		c.kind, c.size = kComplex, t.Bits()/8
	case reflect.String:
		c.kind = kString
	case reflect.Array:
		if t.Len() == 0 && !b.v1 {
			b.differs = true
			// Holds no value, whatever its element (protobuf's
			// DoNotCompare is a [0]func()): nothing to encode, as a
			// struct without fields.
			c.kind = kStruct
			return c, nil
		}
		fallthrough
	case reflect.Slice, reflect.Pointer:
		c.kind = map[reflect.Kind]kind{reflect.Slice: kSlice, reflect.Array: kArray, reflect.Pointer: kPtr}[t.Kind()]
		sub := path + "[i]"
		if t.Kind() == reflect.Pointer {
			sub = path // as Go writes it: x.Next.Val through the pointer Next
		}
		var err error
		if c.elem, err = b.build(t.Elem(), sub); err != nil {
			return nil, err
		}
		if c.kind == kSlice && c.elem.kind == kUint && c.elem.size == 1 {
			c.kind = kBytes
		}
	case reflect.Map:
		c.kind = kMap
		var err error
		if c.key, err = b.build(t.Key(), path+"[key]"); err != nil {
			return nil, err
		}
		if c.elem, err = b.build(t.Elem(), path+"[k]"); err != nil {
			return nil, err
		}
	case reflect.Struct:
		c.kind = kStruct
		if isProtoMessage(t) {
			b.protos = append(b.protos, t)
			defer func() { b.protos = b.protos[:len(b.protos)-1] }()
		}
		for i := range t.NumField() {
			sf := t.Field(i)
			if sf.Name == "_" {
				continue
			}
			if !sf.IsExported() && stdlib.Contains(sf.PkgPath) && !b.v1 {
				// Not encoded: the standard library's unexported fields
				// hold state only their package sets (a sync.Mutex's
				// lock, a bytes.Buffer's read offset, a strings.Builder's
				// self-pointer); a fuzzed locked mutex hung the fuzz
				// function, a failure of fuzzing's own making. A seed's
				// state there is dropped (time.UTC in a seed encodes as a
				// zero Location, which is UTC).
				b.differs = true
				continue
			}
			fc, err := b.build(sf.Type, path+"."+sf.Name)
			if err != nil {
				return nil, err
			}
			c.fields = append(c.fields, field{index: i, offset: sf.Offset, name: sf.Name, exported: sf.IsExported(), c: fc})
		}
	default:
		err := &TypeError{Arg: b.arg, Type: b.root, Path: path, Bad: t}
		if len(b.protos) > 0 {
			err.Message = b.protos[len(b.protos)-1]
		}
		return nil, err
	}
	return c, nil
}

// marshalKind returns kBinary or kText when t is encoded through its
// marshaling methods (the methods of *T count), or 0: binary ones first,
// and only those t declares itself, not both promoted from an embedded
// field (ownMethods). v1 is version 1's choice, which took promoted ones.
func marshalKind(t reflect.Type) (k, v1 kind) {
	if t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface {
		return 0, 0
	}
	p := reflect.PointerTo(t)
	binary := p.Implements(binaryMarshaler) && p.Implements(binaryUnmarshaler)
	text := p.Implements(textMarshaler) && p.Implements(textUnmarshaler)
	switch {
	case binary:
		v1 = kBinary
	case text:
		v1 = kText
	}
	switch {
	case binary && ownMethods(t, "MarshalBinary", "UnmarshalBinary"):
		k = kBinary
	case text && ownMethods(t, "MarshalText", "UnmarshalText"):
		k = kText
	}
	return k, v1
}

// ownMethods reports whether t (or *t) declares one of the named methods
// itself, rather than having both promoted from an embedded field: a
// struct that embeds time.Time has its MarshalBinary, which writes the time
// alone, and encoding through it left every other field unfuzzed (as
// encoding/json does). The compiler's wrappers of promoted methods are
// "<autogenerated>"; so are *t's wrappers of t's methods, hence both are
// looked at.
func ownMethods(t reflect.Type, names ...string) bool {
	if t.Kind() != reflect.Struct {
		return true // only a struct has embedded fields
	}
	for _, n := range names {
		for _, tt := range []reflect.Type{t, reflect.PointerTo(t)} {
			if m, ok := tt.MethodByName(n); ok && declared(m.Func) {
				return true
			}
		}
	}
	return false
}

// declared reports whether method is the compiled code of a declaration,
// not a wrapper the compiler generated.
func declared(method reflect.Value) bool {
	f := runtime.FuncForPC(method.Pointer())
	if f == nil {
		return true
	}
	file, _ := f.FileLine(f.Entry())
	return file != "<autogenerated>"
}

// intSize is the encoded size of an integer type: int, uint and uintptr
// always take 8 bytes, whatever the platform.
func intSize(t reflect.Type) int {
	switch t.Kind() {
	case reflect.Int, reflect.Uint, reflect.Uintptr:
		return 8
	}
	return t.Bits() / 8
}

// setMin computes the least encoded size of every codec in c's graph. A
// pointer, slice, map, string or marshaled value takes at least one byte
// whatever its element, so the recursion stops there and terminates (a type
// cannot contain itself except through those).
func setMin(c *codec, done map[*codec]bool) int {
	if done[c] {
		return c.min
	}
	done[c] = true
	for _, sub := range []*codec{c.elem, c.key} {
		if sub != nil {
			setMin(sub, done)
		}
	}
	switch c.kind {
	case kBool, kInt, kUint, kFloat:
		c.min = c.size
	case kComplex:
		c.min = c.size
	case kArray:
		c.min = satMul(c.t.Len(), c.elem.min)
	case kStruct:
		for _, f := range c.fields {
			c.min = satAdd(c.min, setMin(f.c, done))
		}
	default:
		c.min = 1
	}
	return c.min
}

const maxInt = int(^uint(0) >> 1)

func satMul(a, b int) int {
	if a != 0 && b > maxInt/a {
		return maxInt
	}
	return a * b
}

func satAdd(a, b int) int {
	if a > maxInt-b {
		return maxInt
	}
	return a + b
}

// count bounds an element count read from the input: n elements of at
// least min bytes each must fit in the rem bytes left (the encoder wrote
// them), so a short input cannot ask for a huge allocation.
func count(n uint64, rem, min int) int {
	limit := uint64(maxZeroSizeElems)
	if min > 0 {
		limit = uint64(rem / min)
	}
	return int(mini(n, limit))
}

func mini(a, b uint64) uint64 {
	if a < b {
		return a
	}
	return b
}
