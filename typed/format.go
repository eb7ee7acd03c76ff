package typed

import (
	"encoding"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Format returns data's decoded arguments as Go expressions, one per
// argument: Config{Port: 80, Mode: "tcp"}, []Op{{Kind: 1, Path: "/a"}}.
// Types of the fuzz function's own package print unqualified; zero fields
// are left out; a value encoded through its marshaling methods prints as a
// call of FromText or FromBinary.
func (h *harness) Format(data []byte) (out []string) {
	defer func() {
		if r := recover(); r != nil { // a user's marshaling method panicked: see Mutate
			out = []string{fmt.Sprintf("[]byte(%q) /* not decoded: %v */", data, r)}
		}
	}()
	vals := h.decode(data)
	out = make([]string, len(vals))
	for i, v := range vals {
		p := printer{pkg: h.pkg}
		p.value(h.codecs[i], v, top)
		out[i] = p.b.String()
	}
	return out
}

// maxFormatLen bounds one formatted argument; longer ones end in "…".
const maxFormatLen = 4096

type printer struct {
	b   strings.Builder
	pkg string
}

// A context is where a value is printed: the whole argument, a struct
// field's value (its type is known: constants need no conversion) or an
// element of an array, slice or map (a composite literal's type is elided
// too).
type context uint8

const (
	top context = iota
	inField
	inElem
)

// value prints v in context x.
func (p *printer) value(c *codec, v reflect.Value, x context) {
	if p.b.Len() > maxFormatLen {
		return
	}
	switch c.kind {
	case kBool, kInt, kUint, kFloat, kComplex, kString:
		p.basic(c, v, x)
	case kBytes:
		p.nilOr(c, v, x, func() { p.typ(c.t); p.printf("(%s)", strconv.Quote(string(v.Bytes()))) })
	case kSlice:
		p.nilOr(c, v, x, func() { p.list(c, v, x) })
	case kArray:
		p.list(c, v, x)
	case kMap:
		p.nilOr(c, v, x, func() { p.mapLit(c, v, x) })
	case kPtr:
		p.nilOr(c, v, x, func() { p.pointer(c, v, x) })
	case kStruct:
		p.structLit(c, v, x)
	case kBinary, kText:
		p.marshaled(c, v)
	}
}

func (p *printer) printf(format string, args ...any) { fmt.Fprintf(&p.b, format, args...) }

// typ prints t as Go source writes it, with the fuzz function's package's
// types unqualified.
func (p *printer) typ(t reflect.Type) { p.b.WriteString(p.typeString(t)) }

func (p *printer) typeString(t reflect.Type) string {
	if t.Name() != "" {
		s := t.String()
		if t.PkgPath() != "" && t.PkgPath() == p.pkg {
			if i := strings.Index(s, "."); i >= 0 && !strings.Contains(s[:i], "[") {
				s = s[i+1:]
			}
		}
		return s
	}
	switch t.Kind() {
	case reflect.Slice:
		if t.Elem() == reflect.TypeFor[byte]() {
			return "[]byte"
		}
		return "[]" + p.typeString(t.Elem())
	case reflect.Array:
		return fmt.Sprintf("[%d]%s", t.Len(), p.typeString(t.Elem()))
	case reflect.Pointer:
		return "*" + p.typeString(t.Elem())
	case reflect.Map:
		return "map[" + p.typeString(t.Key()) + "]" + p.typeString(t.Elem())
	}
	return t.String()
}

func (p *printer) nilOr(c *codec, v reflect.Value, x context, print func()) {
	if !v.IsNil() {
		print()
		return
	}
	if x != top {
		p.b.WriteString("nil")
		return
	}
	p.b.WriteString("(")
	p.typ(c.t)
	p.b.WriteString(")(nil)")
}

// basic prints a bool, number or string; as a whole argument, a value
// whose type is not its constant's default type is converted.
func (p *printer) basic(c *codec, v reflect.Value, x context) {
	var s string
	def := false
	switch c.kind {
	case kBool:
		s, def = strconv.FormatBool(v.Bool()), c.t == reflect.TypeFor[bool]()
	case kInt:
		s, def = strconv.FormatInt(v.Int(), 10), c.t == reflect.TypeFor[int]()
	case kUint:
		s = strconv.FormatUint(v.Uint(), 10)
		if v.Uint() > 9 {
			s = "0x" + strconv.FormatUint(v.Uint(), 16)
		}
	case kFloat:
		s, def = formatFloat(v.Float(), c.size), c.t == reflect.TypeFor[float64]()
	case kComplex:
		s = fmt.Sprintf("complex(%s, %s)", formatFloat(real(v.Complex()), c.size/2), formatFloat(imag(v.Complex()), c.size/2))
		def = c.t == reflect.TypeFor[complex128]()
	case kString:
		s, def = strconv.Quote(v.String()), c.t == reflect.TypeFor[string]()
	}
	if x != top || def {
		p.b.WriteString(s)
		return
	}
	p.typ(c.t)
	p.printf("(%s)", s)
}

func formatFloat(f float64, size int) string {
	switch {
	case math.IsNaN(f):
		return "math.NaN()"
	case math.IsInf(f, 1):
		return "math.Inf(1)"
	case math.IsInf(f, -1):
		return "math.Inf(-1)"
	}
	s := strconv.FormatFloat(f, 'g', -1, size*8)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}

func (p *printer) list(c *codec, v reflect.Value, x context) {
	if x != inElem {
		p.typ(c.t)
	}
	p.b.WriteString("{")
	for i := range v.Len() {
		if i > 0 {
			p.b.WriteString(", ")
		}
		if p.b.Len() > maxFormatLen {
			p.b.WriteString("…")
			break
		}
		p.value(c.elem, v.Index(i), inElem)
	}
	p.b.WriteString("}")
}

func (p *printer) mapLit(c *codec, v reflect.Value, x context) {
	if x != inElem {
		p.typ(c.t)
	}
	type entry struct{ k, v string }
	var entries []entry
	for it := v.MapRange(); it.Next(); {
		kp, vp := printer{pkg: p.pkg}, printer{pkg: p.pkg}
		kp.value(c.key, it.Key(), inElem)
		vp.value(c.elem, it.Value(), inElem)
		entries = append(entries, entry{kp.b.String(), vp.b.String()})
	}
	slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.k, b.k) })
	p.b.WriteString("{")
	for i, e := range entries {
		if i > 0 {
			p.b.WriteString(", ")
		}
		p.printf("%s: %s", e.k, e.v)
	}
	p.b.WriteString("}")
}

// pointer prints &T{…} for a pointer to a composite value, new(x) (Go
// 1.26) for one to a bool, number or string.
func (p *printer) pointer(c *codec, v reflect.Value, x context) {
	switch c.elem.kind {
	case kStruct, kArray, kSlice, kMap:
		if x == inElem && (c.elem.kind == kStruct || c.elem.kind == kArray) {
			p.value(c.elem, v.Elem(), inElem) // []*T{{…}}: &T elided
			return
		}
		p.b.WriteString("&")
		p.value(c.elem, v.Elem(), top)
	default:
		p.b.WriteString("new(")
		p.value(c.elem, v.Elem(), top)
		p.b.WriteString(")")
	}
}

func (p *printer) structLit(c *codec, v reflect.Value, x context) {
	if x != inElem {
		p.typ(c.t)
	}
	v = addressable(v)
	p.b.WriteString("{")
	n := 0
	for _, f := range c.fields {
		fv := fieldOf(v, f)
		if fv.IsZero() {
			continue
		}
		if n > 0 {
			p.b.WriteString(", ")
		}
		n++
		p.printf("%s: ", f.name)
		p.value(f.c, fv, inField)
	}
	p.b.WriteString("}")
}

// marshaled prints a value encoded through its marshaling methods as the
// call of FromText (when it has a text form) or FromBinary that makes it.
func (p *printer) marshaled(c *codec, v reflect.Value) {
	a := addressable(v).Addr().Interface()
	if m, ok := a.(encoding.TextMarshaler); ok {
		if _, ok := a.(encoding.TextUnmarshaler); ok {
			if text, err := m.MarshalText(); err == nil {
				p.b.WriteString("typed.FromText[")
				p.typ(c.t)
				p.printf("](%s)", strconv.Quote(string(text)))
				return
			}
		}
	}
	m, ok := a.(encoding.BinaryMarshaler)
	if !ok {
		p.printf("%v{} /* MarshalText fails */", c.t)
		return
	}
	data, err := m.MarshalBinary()
	if err != nil {
		p.printf("%v{} /* %v */", c.t, err)
		return
	}
	p.b.WriteString("typed.FromBinary[")
	p.typ(c.t)
	p.printf("](%s)", strconv.Quote(string(data)))
}
