package typed

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"net/netip"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/internal/typedhook"
)

type mode uint8

type op struct {
	Kind mode
	Path string
}

type config struct {
	Port  int
	Mode  string
	Ops   []op
	Rules map[string]int
	Next  *config
	Addr  netip.Addr
}

func mustHarness(t *testing.T, fn any) *harness {
	t.Helper()
	h, err := newHarness(fn)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func enc(t *testing.T, args ...any) []byte {
	t.Helper()
	b, err := Encode(args...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestNewHarnessRefuses(t *testing.T) {
	for _, tc := range []struct {
		fn   any
		want string
	}{
		{nil, "not a func(*testing.T, ...)"},
		{(func(*testing.T, int))(nil), "the fuzz function is a nil func(*testing.T, int)"},
		{func(t *testing.T) {}, "n ≥ 1"},
		{func(s string) {}, "it must be a func(*testing.T"},
		{func(t *testing.T, s string) int { return 0 }, "no results"},
		{func(t *testing.T, c config, e error) {}, "argument 2 (error) cannot be fuzzed: argument 2 is an interface (error)"},
	} {
		_, err := newHarness(tc.fn)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("newHarness(%T) = %v, want an error containing %q", tc.fn, err, tc.want)
		}
	}
	h := mustHarness(t, func(t *testing.T, c config, n uint8) {})
	if err := h.match(typesOf(config{}, 5)); err == nil || !strings.Contains(err.Error(), "argument 2 is of type int, but the fuzz function's argument 2 is of type uint8") {
		t.Errorf("match: %v", err)
	}
	if err := h.match(typesOf(config{})); err == nil {
		t.Error("match accepted one argument of two")
	}
}

func TestFormat(t *testing.T) {
	h := mustHarness(t, func(t *testing.T, c config, ops []*op, n uint8, p *int, b []byte) {})
	c := config{Port: 80, Mode: "tcp", Ops: []op{{Kind: 1, Path: "/a"}}, Rules: map[string]int{"b": 2, "a": 1},
		Next: &config{Port: -1}, Addr: netip.MustParseAddr("10.0.0.1")}
	got := h.Format(enc(t, c, []*op{{Kind: 0x5e}, nil}, uint8(200), new(7), []byte("x\x00")))
	want := []string{
		`config{Port: 80, Mode: "tcp", Ops: []op{{Kind: 1, Path: "/a"}}, Rules: map[string]int{"a": 1, "b": 2}, Next: &config{Port: -1}, Addr: typed.FromText[netip.Addr]("10.0.0.1")}`,
		`[]*op{{Kind: 0x5e}, nil}`,
		`uint8(0xc8)`,
		`new(7)`,
		`[]byte("x\x00")`,
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("argument %d:\n got %s\nwant %s", i+1, got[i], want[i])
		}
	}
}

func typesOf(args ...any) []reflectType {
	out := make([]reflectType, len(args))
	for i, a := range args {
		out[i] = reflectTypeOf(a)
	}
	return out
}

// TestMutate: mutants decode, differ from the input, and reach every kind
// of change over many calls.
func TestMutate(t *testing.T) {
	h := mustHarness(t, func(t *testing.T, c config) {})
	base := enc(t, config{Port: 1, Ops: []op{{Kind: 1}}, Rules: map[string]int{"x": 1}})
	r := rand.New(rand.NewPCG(1, 2))
	seen := map[string]bool{}
	for range 2000 {
		m := h.Mutate(base, r, nil, nil)
		if m == nil {
			continue
		}
		if bytes.Equal(m, base) {
			t.Fatal("Mutate returned its input")
		}
		var c config
		Decode(m, &c)
		switch {
		case len(c.Ops) != 1:
			seen["ops length"] = true
		case c.Port != 1:
			seen["port"] = true
		case c.Next != nil:
			seen["pointer"] = true
		case len(c.Rules) != 1:
			seen["map"] = true
		case c.Mode != "":
			seen["string"] = true
		}
	}
	for _, k := range []string{"ops length", "port", "pointer", "map", "string"} {
		if !seen[k] {
			t.Errorf("2000 mutations never changed the %s", k)
		}
	}
}

// TestMutateHints: a compared operand lands in the place that held the
// other one.
func TestMutateHints(t *testing.T) {
	h := mustHarness(t, func(t *testing.T, c config) {})
	base := enc(t, config{Port: 3, Mode: "user", Ops: []op{{}, {}}})
	hints := &typedhook.Hints{
		Ints: []typedhook.IntCmp{{A: 3, B: 0x5eed, Size: 8}, {A: 2, B: 5, Size: 8}},
		Strs: [][2]string{{"user", "admin"}},
	}
	r := rand.New(rand.NewPCG(3, 4))
	var port, mode, length bool
	for range 500 {
		m := h.Mutate(base, r, nil, hints)
		var c config
		Decode(m, &c)
		port = port || c.Port == 0x5eed
		mode = mode || c.Mode == "admin"
		length = length || len(c.Ops) == 5
	}
	if !port || !mode || !length {
		t.Errorf("hints applied: int field %v, string field %v, slice length %v; want all", port, mode, length)
	}
}

func TestMutateSplice(t *testing.T) {
	h := mustHarness(t, func(t *testing.T, c config) {})
	base := enc(t, config{})
	other := enc(t, config{Ops: []op{{Path: "/spliced"}}})
	r := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		var c config
		Decode(h.Mutate(base, r, [][]byte{other}, nil), &c)
		for _, o := range c.Ops {
			if o.Path == "/spliced" {
				return
			}
		}
	}
	t.Error("500 mutations with a splice entry never took its sub-value")
}

// TestShrink: the failure needs Port > 1000 and an op of kind 3 with a
// path starting with "/x"; the minimized value keeps exactly that.
func TestShrink(t *testing.T) {
	h := mustHarness(t, func(t *testing.T, c config) {})
	fails := func(data []byte) bool {
		var c config
		Decode(data, &c)
		if c.Port <= 1000 {
			return false
		}
		for _, o := range c.Ops {
			if o.Kind == 3 && strings.HasPrefix(o.Path, "/x") {
				return true
			}
		}
		return false
	}
	big := config{Port: 123456, Mode: "verbose", Rules: map[string]int{"a": 1, "b": 2}, Next: &config{Port: 9},
		Ops: []op{{Kind: 1, Path: "/one"}, {Kind: 3, Path: "/xyz/long/path"}, {Kind: 2, Path: "/two"}}}
	data := enc(t, big)
	if !fails(data) {
		t.Fatal("the start value does not fail")
	}
	got, smaller := h.Shrink(data, fails, func() bool { return false })
	var c config
	Decode(got, &c)
	if !smaller || !fails(got) {
		t.Fatalf("Shrink: smaller %v, fails %v", smaller, fails(got))
	}
	want := `config{Port: 1001, Ops: []op{{Kind: 3, Path: "/x"}}}`
	if f := h.Format(got)[0]; f != want {
		t.Errorf("Shrink gave %s, want %s", f, want)
	}
}

type reflectType = reflect.Type

var reflectTypeOf = reflect.TypeOf

// TestMutateNamedBytes: slices and arrays of a named byte type decode,
// mutate and shrink (reflect.Copy refuses their element type).
func TestMutateNamedBytes(t *testing.T) {
	type rec struct {
		S []mode
		A [4]mode
	}
	h := mustHarness(t, func(t *testing.T, r rec) {})
	base := enc(t, rec{S: []mode{1, 2, 3}, A: [4]mode{9}})
	r := rand.New(rand.NewPCG(7, 8))
	hints := &typedhook.Hints{Strs: [][2]string{{"\x01\x02", "ab"}}}
	for range 300 {
		if m := h.Mutate(base, r, nil, hints); m != nil {
			var v rec
			Decode(m, &v)
		}
	}
	got, _ := h.Shrink(base, func(b []byte) bool {
		var v rec
		Decode(b, &v)
		return len(v.S) > 0 && v.A[0] != 0
	}, func() bool { return false })
	// Byte slices and arrays are shrunk as a whole (length, zero), not byte by byte.
	if f := h.Format(got)[0]; f != `rec{S: []mode("\x01"), A: [4]mode{9, 0, 0, 0}}` {
		t.Errorf("Shrink gave %s", f)
	}
}

// panicky's UnmarshalText panics on "boom": the code's bug, which the fuzz
// function meets; the harness's own decoding must survive it.
type panicky struct{ s string }

func (p panicky) MarshalText() ([]byte, error) { return []byte(p.s), nil }
func (p *panicky) UnmarshalText(b []byte) error {
	if string(b) == "boom" {
		panic("boom")
	}
	p.s = string(b)
	return nil
}

func TestHarnessSurvivesPanickyMethods(t *testing.T) {
	h := mustHarness(t, func(t *testing.T, p panicky) {})
	boom := []byte("\x01\x04boom")
	if m := h.Mutate(boom, rand.New(rand.NewPCG(1, 1)), nil, nil); m != nil {
		t.Errorf("Mutate of an input whose decoding panics = %q, want nil", m)
	}
	if got, smaller := h.Shrink(boom, func([]byte) bool { return true }, func() bool { return false }); string(got) != string(boom) || smaller {
		t.Errorf("Shrink = %q, %v", got, smaller)
	}
	if f := h.Format(boom); len(f) != 1 || !strings.Contains(f[0], "not decoded: boom") {
		t.Errorf("Format = %q", f)
	}
}

// keeper keeps the bytes UnmarshalBinary gets and appends to them.
type keeper struct{ b []byte }

func (k *keeper) UnmarshalBinary(b []byte) error {
	k.b = append(b, 'X')
	return nil
}

func (k keeper) MarshalBinary() ([]byte, error) { return k.b, nil }

// TestDecodedBytesDoNotOverlap: decoding gives strings, byte slices and
// marshaled values parts of one copy of the input, and appending to one
// (a marshaled value that keeps its bytes, a []byte) changes neither the
// next values nor the input.
func TestDecodedBytesDoNotOverlap(t *testing.T) {
	h := mustHarness(t, func(t *testing.T, a keeper, n uint8, bs []byte, s string, b keeper) {})
	in := []byte{Version, 2, 'a', 'b', 7, 3, 'x', 'y', 2, 's', 't', 2, 'c', 'd'}
	orig := bytes.Clone(in)
	vals := h.decode(in)
	a, n, b := vals[0].Interface().(keeper), vals[1].Interface().(uint8), vals[4].Interface().(keeper)
	bs := vals[2].Interface().([]byte)
	_ = append(bs, 'Y', 'Y')
	str := vals[3].Interface().(string)
	if string(a.b) != "abX" || n != 7 || string(bs) != "xy" || str != "st" || string(b.b) != "cdX" || !bytes.Equal(in, orig) {
		t.Errorf("decoded %q, %d, %q, %q and %q from %x (input now %x), want \"abX\", 7, \"xy\", \"st\" and \"cdX\"", a.b, n, bs, str, b.b, orig, in)
	}
}

type celsius float64

type reading struct {
	F32  float32
	C64  complex64
	Temp celsius
	Zero float64
}

type pair[K comparable, V any] struct {
	Key K
	Val V
}

// version is a marshaled type whose zero value's text its UnmarshalText
// refuses, as hashicorp/go-version's Version.
type version struct{ s string }

func (v version) MarshalText() ([]byte, error) { return []byte(v.s), nil }
func (v *version) UnmarshalText(b []byte) error {
	if len(b) == 0 || b[0] == ' ' {
		return errBadVersion
	}
	v.s = string(b)
	return nil
}

var errBadVersion = errors.New("bad version")

// TestFormatBuilds: what Format prints is Go that builds where the fuzz
// test is and makes the decoded value: NaN, infinities and a negative zero
// in float32, complex64 and named float types converted (a constant has no
// negative zero, and a zero-looking -0 field was left out), a generic type's
// arguments with their package's name (reflect writes the import path), a
// time.Time whose zone offset has seconds (its RFC 3339 text drops them)
// through FromBinary, and a marshaled value its own methods refuse to read
// back (the zero value of refused bytes) as its zero value.
func TestFormatBuilds(t *testing.T) {
	h := mustHarness(t, func(t *testing.T, r reading, z reading, p pair[op, netip.Addr], q pair[netip.Prefix, int], tm time.Time, v version) {
	})
	odd := time.Date(2020, 1, 2, 3, 3, 35, 0, time.FixedZone("", 30))
	args := []any{
		reading{F32: float32(math.NaN()), C64: complex(float32(math.Inf(1)), 1), Temp: celsius(math.Inf(-1))},
		reading{Zero: math.Copysign(0, -1)},
		pair[op, netip.Addr]{Key: op{Kind: 1}},
		pair[netip.Prefix, int]{Val: 2},
		odd,
	}
	// The version's bytes: length 1, then " ", which UnmarshalText refuses.
	got := h.Format(append(enc(t, args...), 1, ' '))
	want := []string{
		`reading{F32: float32(math.NaN()), C64: complex64(complex(math.Inf(1), 1.0)), Temp: celsius(math.Inf(-1))}`,
		`reading{Zero: math.Copysign(0, -1)}`,
		`pair[op, netip.Addr]{Key: op{Kind: 1}}`,
		`pair[netip.Prefix, int]{Val: 2}`,
		``, // below
		`version{}`,
	}
	for i := range want {
		if i < len(got) && want[i] != "" && got[i] != want[i] {
			t.Errorf("argument %d:\n got %s\nwant %s", i+1, got[i], want[i])
		}
	}
	quoted, ok := strings.CutPrefix(got[4], "typed.FromBinary[time.Time](")
	data, err := strconv.Unquote(strings.TrimSuffix(quoted, ")"))
	var back time.Time
	if !ok || err != nil || back.UnmarshalBinary([]byte(data)) != nil || !back.Equal(odd) || zoneOffset(back) != 30 {
		t.Errorf("argument 5: %s does not make %v", got[4], odd)
	}
}

func TestSymbolPackage(t *testing.T) {
	for name, want := range map[string]string{
		"example.com/conf%2ev2.FuzzConf.func1": "example.com/conf.v2",
		"gopkg.in/yaml%2ev3.(*parser).parse":   "gopkg.in/yaml.v3",
		"example.com/m/gen.FuzzPair.func1":     "example.com/m/gen",
		"main.main":                            "main",
		"nodot":                                "",
	} {
		if got := symbolPackage(name); got != want {
			t.Errorf("symbolPackage(%q) = %q, want %q", name, got, want)
		}
	}
}

func zoneOffset(t time.Time) int {
	_, off := t.Zone()
	return off
}

// TestTypeArgNames: a generic type's arguments print with their package's
// real name when the arguments hold a value of that type (k8s.io/api/core/v1
// is package v1, not core), else with the name assumed from the path.
func TestTypeArgNames(t *testing.T) {
	h := mustHarness(t, func(t *testing.T, p pair[op, netip.Addr]) {})
	if got := h.names()["net/netip.Addr"]; got != "netip.Addr" {
		t.Errorf("names[net/netip.Addr] = %q", got)
	}
	p := printer{pkg: "example.com/m", names: map[string]string{"example.com/api/core/v1.Phase": "v1.Phase"}}
	for in, want := range map[string]string{
		"[example.com/api/core/v1.Phase,int]":         "[v1.Phase, int]",
		"[example.com/go-units.Size,example.com/m.T]": "[units.Size, T]",
		"[map[string]example.com/x/v2.T]":             "[map[string]x.T]",
	} {
		if got := p.typeArgs(in); got != want {
			t.Errorf("typeArgs(%s) = %s, want %s", in, got, want)
		}
	}
}

// TestFormatLong: a report's argument longer than maxFormatLen is cut and
// says so; a corpus file's values (formatAll) print whole, as Go.
func TestFormatLong(t *testing.T) {
	h := mustHarness(t, func(t *testing.T, ops []op, m map[string]int) {})
	ops := make([]op, 1000)
	for i := range ops {
		ops[i] = op{Kind: 1, Path: "/long/path"}
	}
	m := map[string]int{}
	for i := range 1000 {
		m[strconv.Itoa(i)] = i
	}
	data := enc(t, ops, m)
	short, whole := h.Format(data), h.formatAll(data)
	for i := range short {
		if !strings.HasSuffix(short[i], "/* cut: it prints longer than 4096 characters; fuzzbox corpus cat prints it whole */") || len(short[i]) > 4096+200 {
			t.Errorf("argument %d in a report: %d characters, ending %q; want it cut and saying so", i+1, len(short[i]), short[i][max(0, len(short[i])-120):])
		}
		if strings.Contains(whole[i], "…") || strings.Contains(whole[i], "cut:") || len(whole[i]) < 10000 {
			t.Errorf("argument %d in full: %d characters, want all of it", i+1, len(whole[i]))
		}
	}
	if got := h.Format(enc(t, []op{{Path: strings.Repeat("x", 5000)}}, map[string]int(nil))); strings.Contains(got[0], "cut:") {
		t.Errorf("one long string, nothing left out, said cut: …%s", got[0][len(got[0])-100:])
	}
}

// lower is a text-marshaled type whose MarshalText normalizes, as
// hashicorp/go-version's Version keeps the text it was given.
type lower struct{ orig string }

func (l lower) MarshalText() ([]byte, error) { return []byte(strings.ToLower(l.orig)), nil }
func (l *lower) UnmarshalText(b []byte) error {
	l.orig = string(b)
	return nil
}

// TestFormatLossyText: a text-marshaled value whose MarshalText does not
// make it again says so, rather than print another value as this one.
func TestFormatLossyText(t *testing.T) {
	h := mustHarness(t, func(t *testing.T, a, b lower) {})
	got := h.Format([]byte{2, 1, 'A', 1, 'b'}) // as an input holds them: "A" and "b"
	if got[0] != `typed.FromText[lower]("a") /* its MarshalText: the value decoded differs from what this text makes */` || got[1] != `typed.FromText[lower]("b")` {
		t.Errorf("Format = %q", got)
	}
}
