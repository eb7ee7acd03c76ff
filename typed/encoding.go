package typed

import (
	"bytes"
	"encoding"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"
	"unsafe"
)

// Version is the encoding's version, the first byte Encode writes. Decoding
// reads a first byte of 1 as version 1, as docs/typed.md documents it, and
// every other as version 2. Version 2 differs from 1 only for types that
// hold a standard library type's unexported fields (not encoded), a struct
// whose marshaling methods are promoted from an embedded field (encoded
// field by field) or a zero-length array of a type that cannot be fuzzed
// (encoded as nothing): for every other type both are the same bytes.
const Version = 2

// A decoder reads values from an input. Reading past the end yields zero
// bytes, so every input decodes.
type decoder struct {
	b     []byte
	depth int
	// owned says b is the decoder's own copy of an input: strings, byte
	// slices and marshaled values are given parts of it (capped, so that
	// appending to one cannot reach the next) instead of a copy each.
	owned bool
}

// fixed reads an n-byte little-endian number.
func (d *decoder) fixed(n int) uint64 {
	var x uint64
	for i := 0; i < n && i < len(d.b); i++ {
		x |= uint64(d.b[i]) << (8 * i)
	}
	d.b = d.b[min(n, len(d.b)):]
	return x
}

// uvarint reads an unsigned varint of at most 10 bytes; bits beyond 64 are
// dropped and a varint cut by the end of the input ends there.
func (d *decoder) uvarint() uint64 {
	var x uint64
	for i := 0; i < 10 && len(d.b) > 0; i++ {
		c := d.b[0]
		d.b = d.b[1:]
		x |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			break
		}
	}
	return x
}

// take reads a length-prefixed byte string; the length is cut to what is
// left.
func (d *decoder) take() []byte {
	n := int(mini(d.uvarint(), uint64(len(d.b))))
	s := d.b[:n]
	d.b = d.b[n:]
	return s
}

// decode sets v, which must be addressable and zero, to the next value of
// c's type.
func (d *decoder) decode(c *codec, v reflect.Value) {
	d.decodeAt(c, v.Addr().UnsafePointer())
}

// decodeAt sets the value of c's type at p, which is zero, to the next
// value. It writes
// through p for numbers, strings, arrays, structs, byte slices, slices and
// pointers (the memory layouts the compiler gives those kinds) and goes
// through reflect only for maps and marshaled types: decoding is most of
// what a typed fuzz function adds to an execution.
func (d *decoder) decodeAt(c *codec, p unsafe.Pointer) {
	switch c.kind {
	case kBool:
		*(*bool)(p) = d.fixed(1)&1 == 1
	case kInt:
		x := signExtend(d.fixed(c.size), c.size)
		switch c.size {
		case 1:
			*(*int8)(p) = int8(x)
		case 2:
			*(*int16)(p) = int16(x)
		case 4:
			*(*int32)(p) = int32(x)
		default:
			*(*int64)(p) = x
		}
	case kUint:
		putUint(p, d.fixed(c.size), c.size)
	case kFloat:
		if c.size == 4 {
			*(*float32)(p) = float32(d.float(4))
		} else {
			*(*float64)(p) = d.float(8)
		}
	case kComplex:
		re := d.float(c.size / 2)
		if im := d.float(c.size / 2); c.size == 8 {
			*(*complex64)(p) = complex64(complex(re, im))
		} else {
			*(*complex128)(p) = complex(re, im)
		}
	case kString:
		if b := d.take(); d.owned && len(b) > 0 {
			*(*string)(p) = unsafe.String(&b[0], len(b))
		} else {
			*(*string)(p) = string(b)
		}
	case kArray:
		d.array(c, p)
	case kStruct:
		for _, f := range c.fields {
			d.decodeAt(f.c, unsafe.Add(p, f.offset))
		}
	case kBinary, kText:
		d.marshaled(c, p)
	default: // kBytes, kSlice, kMap, kPtr
		d.indirect(c, p)
	}
}

// putUint stores the size-byte unsigned x at p.
func putUint(p unsafe.Pointer, x uint64, size int) {
	switch size {
	case 1:
		*(*uint8)(p) = uint8(x)
	case 2:
		*(*uint16)(p) = uint16(x)
	case 4:
		*(*uint32)(p) = uint32(x)
	default:
		*(*uint64)(p) = x
	}
}

func (d *decoder) float(size int) float64 {
	if size == 4 {
		return float64(math.Float32frombits(uint32(d.fixed(4))))
	}
	return math.Float64frombits(d.fixed(8))
}

func (d *decoder) array(c *codec, p unsafe.Pointer) {
	n := c.t.Len()
	if c.elem.kind == kUint && c.elem.size == 1 {
		b := unsafe.Slice((*byte)(p), n)
		clear(b[copy(b, d.b):])
		d.b = d.b[min(n, len(d.b)):]
		return
	}
	size := c.elem.t.Size()
	for i := range n {
		d.decodeAt(c.elem, unsafe.Add(p, uintptr(i)*size))
	}
}

// sliceHeader is the memory layout of every slice type.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// indirect decodes a pointer, slice or map: one level of maxDepth.
func (d *decoder) indirect(c *codec, p unsafe.Pointer) {
	if d.depth >= maxDepth {
		reflect.NewAt(c.t, p).Elem().SetZero()
		return
	}
	d.depth++
	defer func() { d.depth-- }()
	switch c.kind {
	case kPtr:
		if d.fixed(1)&1 == 0 {
			*(*unsafe.Pointer)(p) = nil
			return
		}
		q := reflect.New(c.elem.t).UnsafePointer()
		d.decodeAt(c.elem, q)
		*(*unsafe.Pointer)(p) = q
	case kBytes:
		l := d.uvarint()
		if l == 0 {
			*(*sliceHeader)(p) = sliceHeader{}
			return
		}
		n := count(l-1, len(d.b), 1)
		var b []byte // a named byte type has the same layout
		if d.owned {
			b = d.b[:n:n]
		} else {
			b = make([]byte, n)
			copy(b, d.b)
		}
		d.b = d.b[n:]
		*(*[]byte)(p) = b
	case kSlice:
		l := d.uvarint()
		if l == 0 {
			*(*sliceHeader)(p) = sliceHeader{}
			return
		}
		n := count(l-1, len(d.b), c.elem.min)
		data := reflect.MakeSlice(c.t, n, n).UnsafePointer()
		size := c.elem.t.Size()
		for i := range n {
			d.decodeAt(c.elem, unsafe.Add(data, uintptr(i)*size))
		}
		*(*sliceHeader)(p) = sliceHeader{data, n, n}
	case kMap:
		d.mapAt(c, reflect.NewAt(c.t, p).Elem())
	}
}

// mapAt decodes a map into v.
func (d *decoder) mapAt(c *codec, v reflect.Value) {
	l := d.uvarint()
	if l == 0 {
		v.SetZero()
		return
	}
	n := count(l-1, len(d.b), satAdd(c.key.min, c.elem.min))
	m := reflect.MakeMapWithSize(c.t, n)
	k := reflect.New(c.key.t).Elem()
	e := reflect.New(c.elem.t).Elem()
	for range n {
		k.SetZero()
		d.decode(c.key, k)
		e.SetZero()
		d.decode(c.elem, e)
		m.SetMapIndex(k, e)
	}
	v.Set(m)
}

// marshaled decodes a value through its UnmarshalBinary or UnmarshalText
// method, called on the zero value at p; bytes the method refuses give the
// zero value.
func (d *decoder) marshaled(c *codec, p unsafe.Pointer) {
	data := d.take()
	if d.owned {
		data = data[:len(data):len(data)]
	} else {
		data = slices.Clone(data) // the method may keep it
	}
	v := reflect.NewAt(c.t, p)
	if unmarshal(c, v, data) != nil {
		v.Elem().SetZero()
	}
}

// unmarshal calls UnmarshalBinary or UnmarshalText on p, a pointer to a
// value of c's type.
func unmarshal(c *codec, p reflect.Value, data []byte) error {
	if c.kind == kBinary {
		return p.Interface().(encoding.BinaryUnmarshaler).UnmarshalBinary(data)
	}
	return p.Interface().(encoding.TextUnmarshaler).UnmarshalText(data)
}

// fieldOf returns struct v's field f, settable also when it is unexported.
// v must be addressable.
func fieldOf(v reflect.Value, f field) reflect.Value {
	fv := v.Field(f.index)
	if f.exported {
		return fv
	}
	return reflect.NewAt(fv.Type(), unsafe.Pointer(fv.UnsafeAddr())).Elem()
}

func signExtend(x uint64, size int) int64 {
	shift := 64 - 8*size
	return int64(x<<shift) >> shift
}

// An encoder writes values in the form decoder reads: the canonical one
// (minimal varints, map entries sorted by their keys' encodings).
type encoder struct {
	b     []byte
	depth int
	// spans, when not nil, records where each value outside map keys
	// and byte arrays was written (the mutations of spans.go).
	spans *spanRecorder
}

func (e *encoder) fixed(x uint64, n int) {
	for i := range n {
		e.b = append(e.b, byte(x>>(8*i)))
	}
}

func (e *encoder) bytes(s []byte) {
	e.b = binary.AppendUvarint(e.b, uint64(len(s)))
	e.b = append(e.b, s...)
}

// encode appends v, a value of c's type, which need not be addressable.
func (e *encoder) encode(c *codec, v reflect.Value) error {
	if e.spans != nil {
		return e.spans.record(e, c, v)
	}
	return e.value(c, v)
}

func (e *encoder) value(c *codec, v reflect.Value) error {
	switch c.kind {
	case kBool:
		e.fixed(boolBit(v.Bool()), 1)
	case kInt:
		e.fixed(uint64(v.Int()), c.size)
	case kUint:
		e.fixed(v.Uint(), c.size)
	case kFloat:
		e.float(v.Float(), c.size)
	case kComplex:
		e.float(real(v.Complex()), c.size/2)
		e.float(imag(v.Complex()), c.size/2)
	case kString:
		e.b = binary.AppendUvarint(e.b, uint64(v.Len()))
		e.b = append(e.b, v.String()...)
	case kArray:
		if c.elem.kind == kUint && c.elem.size == 1 && e.spans != nil {
			// A byte array is one place, as in a tree.
			sp := e.spans
			e.spans = nil
			defer func() { e.spans = sp }()
		}
		for i := range c.t.Len() {
			if err := e.encode(c.elem, v.Index(i)); err != nil {
				return err
			}
		}
	case kStruct:
		v = addressable(v)
		for _, f := range c.fields {
			if err := e.encode(f.c, fieldOf(v, f)); err != nil {
				return err
			}
		}
	case kBinary, kText:
		return e.marshaled(c, v)
	default:
		return e.indirect(c, v)
	}
	return nil
}

func boolBit(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func (e *encoder) float(f float64, size int) {
	if size == 4 {
		e.fixed(uint64(math.Float32bits(float32(f))), 4)
		return
	}
	e.fixed(math.Float64bits(f), 8)
}

func (e *encoder) indirect(c *codec, v reflect.Value) error {
	if e.depth >= maxDepth {
		if !v.IsNil() {
			return fmt.Errorf("value nests pointers, slices and maps deeper than %d levels", maxDepth)
		}
		return nil
	}
	e.depth++
	defer func() { e.depth-- }()
	if v.IsNil() {
		e.b = append(e.b, 0)
		return nil
	}
	switch c.kind {
	case kPtr:
		e.b = append(e.b, 1)
		return e.encode(c.elem, v.Elem())
	case kBytes:
		e.b = binary.AppendUvarint(e.b, uint64(v.Len())+1)
		e.b = append(e.b, v.Bytes()...)
	case kSlice:
		e.b = binary.AppendUvarint(e.b, uint64(v.Len())+1)
		for i := range v.Len() {
			if err := e.encode(c.elem, v.Index(i)); err != nil {
				return err
			}
		}
	case kMap:
		return e.mapEntries(c, v)
	}
	return nil
}

// mapEntries writes a map's entries sorted by their keys' encodings, so a
// map encodes one way.
func (e *encoder) mapEntries(c *codec, v reflect.Value) error {
	type entry struct {
		key []byte
		val reflect.Value
	}
	entries := make([]entry, 0, v.Len())
	for it := v.MapRange(); it.Next(); {
		ke := encoder{depth: e.depth}
		if err := ke.encode(c.key, it.Key()); err != nil {
			return err
		}
		entries = append(entries, entry{ke.b, it.Value()})
	}
	slices.SortFunc(entries, func(a, b entry) int { return bytes.Compare(a.key, b.key) })
	e.b = binary.AppendUvarint(e.b, uint64(len(entries))+1)
	for _, en := range entries {
		e.b = append(e.b, en.key...)
		if err := e.encode(c.elem, en.val); err != nil {
			return err
		}
	}
	return nil
}

func (e *encoder) marshaled(c *codec, v reflect.Value) error {
	p := addressable(v).Addr().Interface()
	var data []byte
	var err error
	if c.kind == kBinary {
		data, err = p.(encoding.BinaryMarshaler).MarshalBinary()
	} else {
		data, err = p.(encoding.TextMarshaler).MarshalText()
	}
	if err != nil {
		return fmt.Errorf("marshaling %v: %w", c.t, err)
	}
	e.bytes(data)
	return nil
}

// addressable returns v, or an addressable copy of it.
func addressable(v reflect.Value) reflect.Value {
	if v.CanAddr() {
		return v
	}
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}
