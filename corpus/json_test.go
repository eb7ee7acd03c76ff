package corpus

import (
	"errors"
	"io"
	"math"
	"strings"
	"testing"
)

func TestEntryJSON(t *testing.T) {
	for _, tc := range []struct {
		desc string
		e    Entry
		want string
	}{
		{"text and base64", Entry{Path: "f", Values: []any{[]byte("a\n"), "\xff"}},
			`{"file":"f","values":[{"type":"[]byte","text":"a\n"},{"type":"string","base64":"/w=="}]}`},
		{"no path", Entry{Values: []any{true, byte(10), 'x', int8(-1), uint64(math.MaxUint64)}},
			`{"values":[{"type":"bool","value":true},{"type":"byte","value":"10"},{"type":"rune","value":"120"},{"type":"int8","value":"-1"},{"type":"uint64","value":"18446744073709551615"}]}`},
		{"floats", Entry{Values: []any{float32(1.5), math.Float64frombits(0x7ff8000000000002), math.Inf(-1)}},
			`{"values":[{"type":"float32","value":"1.5","bits":"0x3fc00000"},{"type":"float64","value":"NaN","bits":"0x7ff8000000000002"},{"type":"float64","value":"-Inf","bits":"0xfff0000000000000"}]}`},
	} {
		got, err := EntryJSON(tc.e)
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: EntryJSON = %s, %v\nwant %s", tc.desc, got, err, tc.want)
		}
	}
}

// TestJSONDecoder: the JSON form's accept/reject table. want is the v1 file
// of an accepted object; err is a substring of a rejection.
func TestJSONDecoder(t *testing.T) {
	for _, tc := range []struct {
		desc   string
		in     string
		reject bool
		want   string // v1 file (accepted) or error substring (rejected)
	}{
		{desc: "text", in: `{"file":"ignored","values":[{"type":"[]byte","text":"a"},{"type":"string","text":"é"}]}`,
			want: h + "[]byte(\"a\")\nstring(\"é\")\n"},
		{desc: "base64", in: `{"values":[{"type":"string","base64":"/w=="}]}`, want: h + "string(\"\\xff\")\n"},
		{desc: "bits", in: `{"values":[{"type":"float32","bits":"0x7fc00001"},{"type":"float64","value":"ignored","bits":"0x3ff0000000000000"}]}`,
			want: h + "math.Float32frombits(0x7fc00001)\nfloat64(1)\n"},
		{desc: "readable float", in: `{"values":[{"type":"float64","value":"-0.25"},{"type":"float32","value":"Inf"}]}`,
			want: h + "float64(-0.25)\nfloat32(+Inf)\n"},
		{desc: "integers", in: `{"values":[{"type":"byte","value":"10"},{"type":"rune","value":"-1"},{"type":"uint64","value":"18446744073709551615"},{"type":"bool","value":false}]}`,
			want: h + "byte('\\n')\nint32(-1)\nuint64(18446744073709551615)\nbool(false)\n"},
		{desc: "out of range", in: `{"values":[{"type":"int8","value":"-129"}]}`, reject: true, want: `object 1: value 0 (int8): invalid int8 value "-129"`},
		{desc: "sneaky integer", in: `{"values":[{"type":"int","value":"1)\nint(2"}]}`, reject: true, want: "invalid int value"},
		{desc: "integer as number", in: `{"values":[{"type":"int","value":1}]}`, reject: true, want: `integer "value" must be a decimal string`},
		{desc: "both contents", in: `{"values":[{"type":"[]byte","text":"a","base64":"YQ=="}]}`, reject: true, want: `need exactly one of "text" and "base64"`},
		{desc: "no contents", in: `{"values":[{"type":"string"}]}`, reject: true, want: "exactly one of"},
		// encoding/json turns these into U+FFFD: other contents than written.
		{desc: "lone surrogate", in: `{"values":[{"type":"string","text":"a\udc00b"}]}`, reject: true, want: "lone surrogate escape"},
		{desc: "high surrogate alone", in: `{"values":[{"type":"string","text":"\ud83dx"}]}`, reject: true, want: "lone surrogate escape"},
		{desc: "invalid UTF-8", in: "{\"values\":[{\"type\":\"string\",\"text\":\"a\xffb\"}]}", reject: true, want: "not UTF-8"},
		{desc: "surrogate pair", in: `{"values":[{"type":"string","text":"\ud83d\ude00"}]}`, want: h + "string(\"😀\")\n"},
		{desc: "escaped backslash", in: `{"values":[{"type":"string","text":"\\udc00"}]}`, want: h + "string(\"\\\\udc00\")\n"},
		{desc: "bad base64", in: `{"values":[{"type":"string","base64":"!"}]}`, reject: true, want: "illegal base64"},
		{desc: "decimal bits", in: `{"values":[{"type":"float64","bits":"4607182418800017408"}]}`, reject: true, want: "is not 0x-prefixed hex of 64 bits"},
		{desc: "wide bits", in: `{"values":[{"type":"float32","bits":"0x100000000"}]}`, reject: true, want: "of 32 bits"},
		{desc: "float without value", in: `{"values":[{"type":"float64"}]}`, reject: true, want: `float needs "bits" or a string "value"`},
		{desc: "unsupported type", in: `{"values":[{"type":"complex64","value":"1"}]}`, reject: true, want: "value 0 (complex64): unsupported type"},
		{desc: "unknown field", in: `{"values":[],"extra":1}`, reject: true, want: `object 1: json: unknown field "extra"`},
		{desc: "no values", in: `{"values":[]}`, reject: true, want: "no values"},
		{desc: "empty input", in: "", reject: true, want: "object 1: EOF"},
		{desc: "not an object", in: `[1]`, reject: true, want: "object 1: json: cannot unmarshal"},
	} {
		data, err := NewJSONDecoder(strings.NewReader(tc.in)).Decode()
		switch {
		case tc.reject && (err == nil || err == io.EOF || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: Decode = %q, %v; want an error with %q", tc.desc, data, err, tc.want)
		case !tc.reject && (err != nil || string(data) != tc.want):
			t.Errorf("%s: Decode = %q, %v; want %q", tc.desc, data, err, tc.want)
		}
	}
}

// TestJSONDecoderStream: objects are read one after another, numbered in
// errors, and the end of a non-empty input is io.EOF itself.
func TestJSONDecoderStream(t *testing.T) {
	in := `{"values":[{"type":"bool","value":true}]}` + "\n" + `{"values":[{"type":"int","value":"2"}]}` + "\n"
	d := NewJSONDecoder(strings.NewReader(in + `{"values":[{"type":"int","value":"x"}]}`))
	for i, want := range []string{h + "bool(true)\n", h + "int(2)\n"} {
		if got, err := d.Decode(); err != nil || string(got) != want {
			t.Fatalf("object %d: %q, %v; want %q", i+1, got, err, want)
		}
		if !d.More() {
			t.Fatalf("object %d: More = false", i+1)
		}
	}
	if _, err := d.Decode(); err == nil || !strings.HasPrefix(err.Error(), "object 3: ") {
		t.Errorf("bad third object: %v, want an error naming object 3", err)
	}
	d = NewJSONDecoder(strings.NewReader(in))
	d.Decode()
	d.Decode()
	if d.More() {
		t.Error("More = true at the end of the input")
	}
	if _, err := d.Decode(); err != io.EOF {
		t.Errorf("after the last object: %v, want io.EOF", err)
	}
	if _, err := NewJSONDecoder(strings.NewReader("")).Decode(); err == io.EOF || !errors.Is(err, io.EOF) {
		t.Errorf("empty input: %v, want an error wrapping io.EOF, not io.EOF itself", err)
	}
}

// FuzzJSONRoundTrip: the JSON form is exact — any file Unmarshal accepts
// comes back from EntryJSON and a JSONDecoder as its canonical encoding
// (Marshal's), byte for byte.
func FuzzJSONRoundTrip(f *testing.F) {
	for _, tc := range parseCases {
		f.Add([]byte(tc.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		vals, err := Unmarshal(data)
		if err != nil || len(vals) == 0 {
			return
		}
		want, err := Marshal(vals...)
		if err != nil {
			t.Fatalf("Marshal of parsed values: %v", err)
		}
		js, err := EntryJSON(Entry{Path: "p", Values: vals})
		if err != nil {
			t.Fatalf("EntryJSON: %v", err)
		}
		got, err := NewJSONDecoder(strings.NewReader(string(js))).Decode()
		if err != nil || string(got) != string(want) {
			t.Fatalf("%q -> %s -> %q, %v; want %q", data, js, got, err, want)
		}
	})
}

// TestEncodeJSON: one object to w, or each object as an entry of dir.
func TestEncodeJSON(t *testing.T) {
	obj := `{"values":[{"type":"int","value":"3"}]}`
	var out strings.Builder
	if err := EncodeJSON(strings.NewReader(obj), "", &out); err != nil || out.String() != "go test fuzz v1\nint(3)\n" {
		t.Errorf("one object: %q, %v", out.String(), err)
	}
	if err := EncodeJSON(strings.NewReader(obj+obj), "", io.Discard); err == nil || err.Error() != "more than one object; use -o DIR" {
		t.Errorf("two objects without a dir: %v", err)
	}
	dir := t.TempDir()
	out.Reset()
	if err := EncodeJSON(strings.NewReader(obj+`{"values":[{"type":"bool","value":true}]}`), dir, &out); err != nil || strings.Count(out.String(), dir) != 2 {
		t.Errorf("to %s: printed %q, %v", dir, out.String(), err)
	}
	if err := EncodeJSON(strings.NewReader("{"), dir, io.Discard); err == nil {
		t.Error("malformed input: no error")
	}
}

func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{[]byte("\x00\xff"), `[]byte("\x00\xff")  (2 bytes)`},
		{"é", `string("é")  (2 bytes)`},
		{int16(-3), "int16(-3)"},
		{math.Float64frombits(0x7ff8000000000002), "math.Float64frombits(0x7ff8000000000002)"},
		{byte('a'), "byte('a')"},
		{complex(1, 2), ""},
	} {
		if got := Describe(tc.v); got != tc.want {
			t.Errorf("Describe(%#v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}
