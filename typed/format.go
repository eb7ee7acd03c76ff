package typed

import (
	"encoding"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Format returns data's decoded arguments as Go expressions, one per
// argument: Config{Port: 80, Mode: "tcp"}, []Op{{Kind: 1, Path: "/a"}}.
// Types of the fuzz function's own package print unqualified; zero fields
// are left out; a value encoded through its marshaling methods prints as a
// call of FromText or FromBinary.
// An argument that prints longer than maxFormatLen is cut, which its text
// says: what reports print (the failure message, events). The values of a
// corpus file (fuzzbox corpus cat, the editor) print whole (formatAll).
func (h *harness) Format(data []byte) []string { return h.format(data, maxFormatLen) }

// formatAll is Format without a bound.
func (h *harness) formatAll(data []byte) []string { return h.format(data, 0) }

func (h *harness) format(data []byte, limit int) (out []string) {
	defer func() {
		if r := recover(); r != nil { // a user's marshaling method panicked: see Mutate
			out = []string{fmt.Sprintf("[]byte(%q) /* not decoded: %v */", data, r)}
		}
	}()
	vals := h.decode(data)
	out = make([]string, len(vals))
	for i, v := range vals {
		p := printer{pkg: h.pkg, names: h.names(), limit: limit}
		p.value(h.codecs[i], v, top)
		out[i] = p.b.String()
		if p.cut {
			out[i] += fmt.Sprintf(" /* cut: it prints longer than %d characters; fuzzbox corpus cat prints it whole */", limit)
		}
	}
	return out
}

// maxFormatLen bounds one formatted argument in reports.
const maxFormatLen = 4096

type printer struct {
	b     strings.Builder
	pkg   string
	names map[string]string // harness.names
	limit int               // of the text's length; 0 for none
	cut   bool              // something was left out at the limit
}

// full reports whether the text reached the printer's limit: the rest of
// the value is left out.
func (p *printer) full() bool { return p.limit > 0 && p.b.Len() > p.limit }

// typeNames returns the named types reachable in the codec graphs by
// import path and name, with the names reflect gives them in Go source
// (its String, which has the package's real name).
func typeNames(cs []*codec) map[string]string {
	names := map[string]string{}
	seen := map[*codec]bool{}
	var walk func(c *codec)
	walk = func(c *codec) {
		if c == nil || seen[c] {
			return
		}
		seen[c] = true
		if t := c.t; t.Name() != "" && t.PkgPath() != "" && !strings.Contains(t.Name(), "[") {
			names[t.PkgPath()+"."+t.Name()] = t.String()
		}
		walk(c.elem)
		walk(c.key)
		for _, f := range c.fields {
			walk(f.c)
		}
	}
	for _, c := range cs {
		walk(c)
	}
	return names
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
	if p.full() {
		p.cut = true
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
		p.marshaled(c, v, x)
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
		if i := strings.Index(s, "["); i >= 0 {
			s = s[:i] + p.typeArgs(s[i:])
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

// qualifiedRE matches a type qualified by its import path, as reflect
// writes a generic type's arguments: example.com/m/gen.Elem.
var qualifiedRE = regexp.MustCompile(`[A-Za-z0-9_.~+%/-]*[A-Za-z0-9_~+%-]\.[A-Za-z_][A-Za-z0-9_]*`)

// typeArgs rewrites a generic type's argument list as reflect writes it
// ("[example.com/m/gen.Elem,int]") as Go source does ("[gen.Elem, int]",
// "[Elem, int]" in the fuzz function's package). A package's name is its
// real one when the arguments hold a value of that type (names), else
// assumed from its path, as gopls assumes it for an import without a name.
func (p *printer) typeArgs(s string) string {
	s = qualifiedRE.ReplaceAllStringFunc(s, func(q string) string {
		dot := strings.LastIndex(q, ".")
		switch name, ok := p.names[q]; {
		case q[:dot] == p.pkg:
			return q[dot+1:]
		case ok:
			return name // a type the arguments hold: its package's real name
		}
		return assumedName(q[:dot]) + q[dot:]
	})
	return strings.ReplaceAll(s, ",", ", ")
}

// assumedName is the name a package of that import path most likely has:
// the last element, or the one before a major version suffix (/v2),
// without a "go-" prefix or what follows a character that cannot be in a
// name (yaml.v3, go-toml).
func assumedName(path string) string {
	base := path[strings.LastIndex(path, "/")+1:]
	if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		if dir := strings.LastIndex(path, "/"); dir > 0 {
			prev := path[:dir]
			base = prev[strings.LastIndex(prev, "/")+1:]
		}
	}
	base = strings.TrimPrefix(base, "go-")
	if i := strings.IndexFunc(base, func(r rune) bool {
		return !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r))
	}); i >= 0 {
		base = base[:i]
	}
	return base
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
	if strings.Contains(s, "math.") && !def {
		// Not a constant (NaN, ±Inf, -0): a float64 or complex128 expression,
		// converted wherever the type is another.
		x = top
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
	case f == 0 && math.Signbit(f):
		return "math.Copysign(0, -1)" // a constant has no negative zero
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
		if p.full() {
			p.b.WriteString("…")
			p.cut = true
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
		kp, vp := printer{pkg: p.pkg, names: p.names, limit: p.limit}, printer{pkg: p.pkg, names: p.names, limit: p.limit}
		kp.value(c.key, it.Key(), inElem)
		vp.value(c.elem, it.Value(), inElem)
		p.cut = p.cut || kp.cut || vp.cut
		entries = append(entries, entry{kp.b.String(), vp.b.String()})
	}
	slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.k, b.k) })
	p.b.WriteString("{")
	for i, e := range entries {
		if i > 0 {
			p.b.WriteString(", ")
		}
		if p.full() {
			p.b.WriteString("…")
			p.cut = true
			break
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
		if zero(fv) {
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

// textRoundTrips reports whether text, v's MarshalText, makes v again: the
// same encoding (its MarshalBinary's bytes for a binary type). A
// time.Time's text drops the seconds of a zone offset its binary form
// keeps; such a value prints through FromBinary.
func textRoundTrips(c *codec, v reflect.Value, text []byte) bool {
	back := reflect.New(c.t)
	if back.Interface().(encoding.TextUnmarshaler).UnmarshalText(text) != nil {
		return false
	}
	if c.kind != kBinary {
		// No other form to compare: the value itself (a version whose
		// text is normalized, "A" printed as "a", is another value).
		return reflect.DeepEqual(back.Elem().Interface(), addressable(v).Interface())
	}
	want, err1 := addressable(v).Addr().Interface().(encoding.BinaryMarshaler).MarshalBinary()
	got, err2 := back.Interface().(encoding.BinaryMarshaler).MarshalBinary()
	return err1 == nil && err2 == nil && string(got) == string(want)
}

// zero reports whether v prints as a zero value left out of a composite
// literal: reflect's IsZero, but a negative zero float is not one.
func zero(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return math.Float64bits(v.Float()) == 0
	case reflect.Complex64, reflect.Complex128:
		return math.Float64bits(real(v.Complex())) == 0 && math.Float64bits(imag(v.Complex())) == 0
	case reflect.Struct:
		for i := range v.NumField() {
			if !zero(v.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Array:
		for i := range v.Len() {
			if !zero(v.Index(i)) {
				return false
			}
		}
		return true
	}
	return v.IsZero()
}

// marshaled prints a value encoded through its marshaling methods as the
// call of FromText (when its text makes it again) or FromBinary that makes
// it, or its zero value.
func (p *printer) marshaled(c *codec, v reflect.Value, x context) {
	if zero(v) {
		// The decoded value of bytes the type's methods refused, whose
		// own text they may refuse too (a version's "").
		if c.t.Kind() == reflect.Struct {
			if x != inElem {
				p.typ(c.t)
			}
			p.b.WriteString("{}")
		} else {
			p.printf("*new(%s)", p.typeString(c.t))
		}
		return
	}
	a := addressable(v).Addr().Interface()
	if m, ok := a.(encoding.TextMarshaler); ok {
		if _, ok := a.(encoding.TextUnmarshaler); ok {
			if text, err := m.MarshalText(); err == nil {
				// A value the text does not make again prints through
				// FromBinary when it has a binary form, else with a word.
				exact := textRoundTrips(c, v, text)
				if exact || c.kind == kText {
					p.b.WriteString("typed.FromText[")
					p.typ(c.t)
					p.printf("](%s)", strconv.Quote(string(text)))
					if !exact {
						p.b.WriteString(" /* its MarshalText: the value decoded differs from what this text makes */")
					}
					return
				}
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
