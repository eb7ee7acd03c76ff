package typed_test

import (
	"bytes"
	"encoding/hex"
	"math/big"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/typed"
)

type Mode uint8

type Op struct {
	Kind Mode
	Path string
	data []byte // unexported fields are fuzzed too
}

type Config struct {
	Port    int
	Mode    string
	Tags    map[string]int
	Ops     []Op
	Next    *Config
	Addr    netip.Addr
	When    time.Time
	N       *big.Int
	ratio   float32
	Z       complex128
	Grid    [2][3]int16
	Flags   [4]byte
	Enabled bool
	_       int
}

func sample() Config {
	return Config{
		Port: 80, Mode: "tcp", Tags: map[string]int{"a": 1, "b": -2},
		Ops:  []Op{{Kind: 1, Path: "/a", data: []byte{1, 2}}, {Kind: 2}},
		Next: &Config{Port: -1, Ops: []Op{}}, Addr: netip.MustParseAddr("10.0.0.1"),
		When: time.Date(2026, 11, 26, 8, 0, 0, 0, time.UTC), N: big.NewInt(1 << 40),
		ratio: 0.5, Z: complex(1, -2), Grid: [2][3]int16{{1, 2, 3}, {4, 5, 6}}, Flags: [4]byte{'f', 'b'}, Enabled: true,
	}
}

// equalEncodings compares values by their canonical encodings (DeepEqual
// would fail on NaN and on time.Time's location pointer).
func equalEncodings(t *testing.T, a, b any) {
	t.Helper()
	ea, err := typed.Encode(a)
	if err != nil {
		t.Fatal(err)
	}
	eb, err := typed.Encode(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ea, eb) {
		t.Fatalf("values differ:\n%x\n%x", ea, eb)
	}
}

func TestRoundTrip(t *testing.T) {
	values := []any{
		sample(), Config{}, Op{}, []Op(nil), []Op{}, map[string]bool(nil), map[string]bool{},
		(*int)(nil), new(0), "", "héllo", []byte(nil), []byte{}, []byte("x"), true, int8(-128), uint64(1 << 63),
		3.5, float32(-0.25), [0]int{}, struct{}{}, []struct{}{{}, {}, {}}, map[[2]int]*Op{{1, 2}: {Path: "p"}, {0, 0}: nil},
		netip.MustParsePrefix("10.0.0.0/8"), Mode(7), uintptr(9), complex64(complex(1, 2)),
		[]Mode{1, 2}, [3]Mode{4}, []Mode(nil), // slices and arrays of a named byte type
	}
	for _, v := range values {
		data, err := typed.Encode(v)
		if err != nil {
			t.Fatalf("Encode(%#v): %v", v, err)
		}
		p := reflect.New(reflect.TypeOf(v))
		if err := typed.Decode(data, p.Interface()); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(p.Elem().Interface(), v) {
			// time.Time's location differs after MarshalBinary; compare encodings.
			equalEncodings(t, p.Elem().Interface(), v)
		}
		again, _ := typed.Encode(p.Elem().Interface())
		if !bytes.Equal(again, data) {
			t.Errorf("%T: encoding not canonical: %x then %x", v, data, again)
		}
	}
}

// TestGolden pins the encoding (docs/typed.md, version 2, which for these
// types is version 1 with its version byte): a change here is a new
// version.
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		args []any
		hex  string
	}{
		{[]any{true, int8(-2), uint16(0x1234)}, "02" + "01" + "fe" + "3412"},
		{[]any{42}, "02" + "2a00000000000000"},
		{[]any{"ab", []byte(nil), []byte{}, []byte("c")}, "02" + "026162" + "00" + "01" + "0263"},
		{[]any{(*bool)(nil), new(true)}, "02" + "00" + "0101"},
		{[]any{[]Mode{3, 4}, [2]Mode{5, 6}}, "02" + "030304" + "0506"},
		{[]any{map[string]bool{"b": true, "a": false}}, "02" + "03" + "016100" + "016201"},
		{[]any{float32(1), 2.0}, "02" + "0000803f" + "0000000000000040"},
		{[]any{Op{Kind: 1, Path: "/", data: []byte{9}}}, "02" + "01" + "012f" + "0209"},
		{[]any{netip.MustParseAddr("1.2.3.4")}, "02" + "04" + "01020304"},
		{[]any{big.NewInt(-5)}, "02" + "01" + "022d35"},
	} {
		data, err := typed.Encode(tc.args...)
		if err != nil {
			t.Fatal(err)
		}
		if got := hex.EncodeToString(data); got != tc.hex {
			t.Errorf("Encode(%#v) = %s, want %s", tc.args, got, tc.hex)
		}
	}
}

// Stats holds a standard library type with unexported state.
type Stats struct {
	mu   sync.Mutex
	Hits int
	b    strings.Builder
}

// TestStdUnexportedNotFuzzed: the unexported fields of standard library
// types are neither encoded nor decoded, so no input makes a locked
// sync.Mutex (which hung the fuzz function) or a strings.Builder that
// panics as copied; the user's own unexported fields still are.
func TestStdUnexportedNotFuzzed(t *testing.T) {
	data, err := typed.Encode(Stats{Hits: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := hex.EncodeToString(data), "02"+"0300000000000000"; got != want {
		t.Errorf("Encode(Stats{Hits: 3}) = %s, want %s (Hits alone)", got, want)
	}
	for _, in := range [][]byte{bytes.Repeat([]byte{0xff}, 64), append([]byte{2}, bytes.Repeat([]byte{1}, 63)...)} {
		var s Stats
		if err := typed.Decode(in, &s); err != nil {
			t.Fatal(err)
		}
		if !s.mu.TryLock() {
			t.Fatalf("Decode(%x): the mutex is locked", in)
		}
		s.mu.Unlock()
		s.b.WriteString("x") // panics when its self-pointer was decoded
	}
	// A seed's state there is dropped: time.UTC, which real seeds hold
	// (robfig/cron's SpecSchedule), encodes as a zero Location, also UTC.
	type sched struct{ Loc *time.Location }
	if data, err := typed.Encode(sched{time.UTC}); err != nil || hex.EncodeToString(data) != "02"+"01" {
		t.Errorf("Encode(a seed holding time.UTC) = %x, %v; want a non-nil, empty Location", data, err)
	}
	var op Op
	typed.Decode([]byte{2, 0, 0, 2, 7}, &op)
	if !bytes.Equal(op.data, []byte{7}) {
		t.Errorf("Op.data = %v: the user's own unexported fields are fuzzed", op.data)
	}
}

// Entry embeds time.Time: *Entry has time.Time's marshaling methods,
// promoted, which would write the time alone.
type Entry struct {
	time.Time
	Msg   string
	Level int
}

// Stamp embeds time.Time and marshals itself.
type Stamp struct {
	time.Time
	Note string
}

func (s Stamp) MarshalText() ([]byte, error) { return []byte(s.Note), nil }
func (s *Stamp) UnmarshalText(b []byte) error {
	s.Note = string(b)
	return nil
}

// TestPromotedMarshalers: a struct whose marshaling methods are promoted
// from an embedded field is encoded field by field (through them, its other
// fields were never fuzzed and a seed's were dropped); one that declares
// them is encoded through them.
func TestPromotedMarshalers(t *testing.T) {
	e := Entry{Time: time.Unix(5, 0).UTC(), Msg: "crash", Level: 3}
	data, err := typed.Encode(e)
	if err != nil {
		t.Fatal(err)
	}
	var back Entry
	if err := typed.Decode(data, &back); err != nil || back.Msg != "crash" || back.Level != 3 || !back.Equal(e.Time) {
		t.Errorf("Entry round trip: %+v, %v; want %+v", back, err, e)
	}
	data, err = typed.Encode(Stamp{Note: "n"})
	if err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(data); got != "02"+"016e" {
		t.Errorf("Encode(Stamp) = %s, want its own text", got)
	}
}

// fakeMessage has what a generated protocol buffer message has: a
// ProtoReflect method and internal state that holds an interface behind
// a zero-length array of funcs.
type fakeMessage struct {
	state struct {
		DoNotCompare [0]func()
		info         *struct{ GoReflectType reflect.Type }
	}
	Seconds int64
}

func (*fakeMessage) ProtoReflect() {}

// TestZeroLengthArraysAndMessages: a zero-length array holds no value, so
// its element type does not matter; a protocol buffer message is refused
// with what to fuzz instead.
func TestZeroLengthArraysAndMessages(t *testing.T) {
	type noCompare struct {
		_ [0]func() // blank: skipped anyway
		D [0]func()
		N int8
	}
	data, err := typed.Encode(noCompare{N: 5})
	if got := hex.EncodeToString(data); err != nil || got != "02"+"05" {
		t.Errorf("Encode(noCompare) = %s, %v; want N alone", got, err)
	}
	_, err = typed.Encode([]*fakeMessage{})
	if err == nil || !strings.Contains(err.Error(), "it is in typed_test.fakeMessage, a protocol buffer message") || !strings.Contains(err.Error(), "[]byte for proto.Unmarshal") {
		t.Errorf("Encode of messages: %v, want the protocol buffer hint", err)
	}
}

// Locked holds a sync.Mutex, whose state version 1 encoded.
type Locked struct {
	mu sync.Mutex
	N  int
}

// TestVersion1Decodes: data whose version byte is 1 decodes as version 1
// did (docs/typed.md), where version 2's rules differ: a reproducer written
// before keeps its values; the same bytes as version 2 decode by its rules.
func TestVersion1Decodes(t *testing.T) {
	body := []byte{1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0} // mutex state 1, sema 0, N 5
	var l Locked
	if err := typed.Decode(append([]byte{1}, body...), &l); err != nil || l.N != 5 || l.mu.TryLock() {
		t.Errorf("version 1: N = %d, mutex unlocked: want N 5 and the mutex locked, as version 1 decoded", l.N)
	}
	var l2 Locked
	if err := typed.Decode(append([]byte{2}, body...), &l2); err != nil || l2.N != 1 || !l2.mu.TryLock() {
		t.Errorf("version 2: N = %d: want 1 and the mutex unlocked", l2.N)
	}
	// An Entry as version 1 wrote it: through time.Time's MarshalBinary.
	tb, _ := time.Unix(5, 0).UTC().MarshalBinary()
	var e Entry
	if err := typed.Decode(append([]byte{1, byte(len(tb))}, tb...), &e); err != nil || !e.Equal(time.Unix(5, 0)) {
		t.Errorf("version 1 Entry: %+v, want the time 5 s after the epoch", e)
	}
}

// TestDecodeTotal: short, empty and garbage inputs decode, to zero values
// where the bytes run out.
func TestDecodeTotal(t *testing.T) {
	var c Config
	var n int
	for _, data := range [][]byte{nil, {}, {7}, {1, 0xff}, bytes.Repeat([]byte{0xff}, 64), []byte("go test fuzz v1")} {
		if err := typed.Decode(data, &c, &n); err != nil {
			t.Fatal(err)
		}
	}
	if err := typed.Decode(nil, &c, &n); err != nil || !reflect.ValueOf(c).IsZero() || n != 0 {
		t.Errorf("empty input: %+v %d, want zero values", c, n)
	}
	// A huge count in a short input is cut to what the input can hold.
	var ops []Op
	typed.Decode([]byte{1, 0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2, 3}, &ops)
	if len(ops) > 3 {
		t.Errorf("decoded %d elements from 3 bytes", len(ops))
	}
}

type Node struct {
	Val  int8
	Next *Node
}

func TestDepthLimit(t *testing.T) {
	var head *Node
	for i := range 70 {
		head = &Node{Val: int8(i), Next: head}
	}
	if _, err := typed.Encode(head); err == nil {
		t.Error("a 70-node list encoded; want the depth error")
	}
	var short *Node
	for i := range 10 {
		short = &Node{Val: int8(i), Next: short}
	}
	data, err := typed.Encode(short)
	if err != nil {
		t.Fatal(err)
	}
	var back *Node
	typed.Decode(data, &back)
	if !reflect.DeepEqual(back, short) {
		t.Error("10-node list did not round-trip")
	}
}

type withFunc struct {
	Name  string
	Rules []struct {
		Match func(string) bool
	}
}

func TestRefused(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{withFunc{}, "argument 1 (typed_test.withFunc) cannot be fuzzed: argument 1.Rules[i].Match is a func (func(string) bool)"},
		{map[string]any{}, "argument 1[k] is an interface (interface {})"},
		{[]chan int{}, "argument 1[i] is a channel (chan int)"},
	} {
		_, err := typed.Encode(tc.v)
		if err == nil || !contains(err.Error(), tc.want) {
			t.Errorf("Encode(%T) error = %v, want it to contain %q", tc.v, err, tc.want)
		}
	}
	if _, err := typed.Encode(nil); err == nil {
		t.Error("Encode(nil) succeeded")
	}
}

func contains(s, sub string) bool { return bytes.Contains([]byte(s), []byte(sub)) }

func TestFromText(t *testing.T) {
	if a := typed.FromText[netip.Addr]("10.0.0.1"); a != netip.MustParseAddr("10.0.0.1") {
		t.Error(a)
	}
	defer func() {
		if recover() == nil {
			t.Error("FromText of bad text did not panic")
		}
	}()
	typed.FromText[netip.Addr]("not an address")
}

// FuzzTyped fuzzes the package with itself: every input decodes, and the
// decoded value's encoding is a fixed point (decode, encode, decode, encode
// gives the same bytes).
func FuzzTyped(f *testing.F) {
	typed.Add(f, sample(), []Op{{Kind: 3}}, uint16(7))
	typed.Add(f, Config{}, []Op(nil), uint16(0))
	typed.Fuzz(f, func(t *testing.T, c Config, ops []Op, n uint16) {
		data, err := typed.Encode(c, ops, n)
		if err != nil {
			t.Skip(err) // a marshaling method refused a value its unmarshaling made
		}
		var c2 Config
		var ops2 []Op
		var n2 uint16
		typed.Decode(data, &c2, &ops2, &n2)
		again, err := typed.Encode(c2, ops2, n2)
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("encoding is not a fixed point: %x then %x (%v)", data, again, err)
		}
	})
}

// FuzzDecode: raw bytes, as native go test -fuzz mutates them, always
// decode.
func FuzzDecode(f *testing.F) {
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		var c Config
		var m map[[2]int]*Op
		if err := typed.Decode(data, &c, &m); err != nil {
			t.Fatal(err)
		}
	})
}

// TestGo118: a typed fuzz test builds and runs against a replacement of
// the testing package shaped like go-118-fuzz-build's (OSS-Fuzz's Go
// build), which passes its own *F and *T (testdata/go118).
func TestGo118(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on a module")
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/go118")); err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), bytes.ReplaceAll(mod, []byte("REPO"), []byte(repo)), 0o666); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test under the replacement testing package: %v\n%s", err, out)
	}
}
