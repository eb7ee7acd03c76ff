package corpus

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The JSON form of entries (docs/corpus.md): "fuzzbox corpus decode" prints
// EntryJSON lines (WriteJSON) and "fuzzbox corpus encode" reads them with a JSONDecoder.
// It is exact: decoding a file and encoding the result gives back the
// canonical file byte for byte (FuzzJSONRoundTrip).

// jsonEntry is one object of the JSON form.
type jsonEntry struct {
	File   string      `json:"file,omitempty"` // decode: the file read; ignored by encode
	Values []jsonValue `json:"values"`
	Typed  []string    `json:"typed,omitempty"` // decode: a typed fuzz test's arguments as Go syntax (Entry.Typed); ignored by encode
}

// jsonValue is one value; exactly one of Text, Base64, Value, Bits carries it
// (Value may accompany Bits for floats, as a readable note).
type jsonValue struct {
	Type   string          `json:"type"`
	Text   *jsonText       `json:"text,omitempty"`   // []byte, string: valid UTF-8 contents
	Base64 *string         `json:"base64,omitempty"` // []byte, string: any contents, standard base64
	Value  json.RawMessage `json:"value,omitempty"`  // bool: true/false; integers: decimal string; floats: readable
	Bits   string          `json:"bits,omitempty"`   // floats: IEEE 754 bits as 0x-prefixed hex, exact
}

// EntryJSON returns the JSON form of e, one object without a newline: its
// Path as "file" (omitted when empty) and its Values.
func EntryJSON(e Entry) ([]byte, error) {
	obj := jsonEntry{File: e.Path, Values: make([]jsonValue, len(e.Values)), Typed: e.Typed}
	for i, v := range e.Values {
		obj.Values[i] = toJSON(v)
	}
	return json.Marshal(obj)
}

// WriteJSON writes the JSON form of e (EntryJSON) as one line of w, as
// "fuzzbox corpus decode" prints it. Its error is a *FileError.
func WriteJSON(w io.Writer, e Entry) error {
	line, err := EntryJSON(e)
	if err == nil {
		_, err = fmt.Fprintf(w, "%s\n", line)
	}
	if err != nil {
		return &FileError{Path: e.Path, Err: err}
	}
	return nil
}

// A JSONDecoder reads entries in the JSON form, one object after another,
// and returns each as a v1 file. Unknown fields are errors; "file" is
// ignored. It is not safe for concurrent use.
type JSONDecoder struct {
	dec *json.Decoder
	n   int // objects read so far
}

// NewJSONDecoder returns a decoder reading from r.
func NewJSONDecoder(r io.Reader) *JSONDecoder {
	dec := json.NewDecoder(bufio.NewReader(r))
	dec.DisallowUnknownFields()
	return &JSONDecoder{dec: dec}
}

// Decode returns the v1 file (Marshal's bytes) of the next object. At the
// end of the input it returns io.EOF itself; an input without any object
// is an error ("object 1: EOF"), as is a malformed object ("object N: ...").
func (d *JSONDecoder) Decode() ([]byte, error) {
	d.n++
	var obj jsonEntry
	if err := d.dec.Decode(&obj); err == io.EOF && d.n > 1 {
		return nil, io.EOF
	} else if err != nil {
		return nil, fmt.Errorf("object %d: %w", d.n, err)
	}
	data, err := obj.encode()
	if err != nil {
		return nil, fmt.Errorf("object %d: %w", d.n, err)
	}
	return data, nil
}

// More reports whether another object follows in the input.
func (d *JSONDecoder) More() bool { return d.dec.More() }

// EncodeJSON reads entries in the JSON form from r, as "fuzzbox corpus
// encode" does. With dir "", it writes the v1 file of the one object to w;
// more than one object is an error. Otherwise it writes each as an entry
// of dir (Write) and its path as a line of w.
func EncodeJSON(r io.Reader, dir string, w io.Writer) error {
	dec := NewJSONDecoder(r)
	for {
		data, err := dec.Decode()
		if err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		if dir == "" {
			w.Write(data)
			if !dec.More() {
				return nil
			}
			return errors.New("more than one object; use -o DIR")
		}
		p, err := Write(dir, data)
		if err != nil {
			return err
		}
		fmt.Fprintln(w, p)
	}
}

func toJSON(v any) jsonValue {
	str := func(s string) json.RawMessage { b, _ := json.Marshal(s); return b }
	switch v := v.(type) {
	case []byte:
		return bytesJSON("[]byte", string(v))
	case string:
		return bytesJSON("string", v)
	case bool:
		return jsonValue{Type: "bool", Value: json.RawMessage(strconv.FormatBool(v))}
	case float32:
		return jsonValue{Type: "float32", Value: str(strconv.FormatFloat(float64(v), 'g', -1, 32)),
			Bits: fmt.Sprintf("%#08x", math.Float32bits(v))}
	case float64:
		return jsonValue{Type: "float64", Value: str(strconv.FormatFloat(v, 'g', -1, 64)),
			Bits: fmt.Sprintf("%#016x", math.Float64bits(v))}
	case byte:
		return jsonValue{Type: "byte", Value: str(fmt.Sprint(v))}
	case rune:
		return jsonValue{Type: "rune", Value: str(fmt.Sprint(v))}
	}
	return jsonValue{Type: fmt.Sprintf("%T", v), Value: str(fmt.Sprint(v))}
}

func bytesJSON(typ, s string) jsonValue {
	if utf8.ValidString(s) {
		t := jsonText(s)
		return jsonValue{Type: typ, Text: &t}
	}
	b := base64.StdEncoding.EncodeToString([]byte(s))
	return jsonValue{Type: typ, Base64: &b}
}

func (e jsonEntry) encode() ([]byte, error) {
	vals := make([]any, len(e.Values))
	for i, jv := range e.Values {
		v, err := jv.decode()
		if err != nil {
			return nil, fmt.Errorf("value %d (%s): %w", i, jv.Type, err)
		}
		vals[i] = v
	}
	return Marshal(vals...)
}

func (jv jsonValue) decode() (any, error) {
	switch jv.Type {
	case "[]byte", "string":
		s, err := jv.contents()
		if jv.Type == "[]byte" {
			return []byte(s), err
		}
		return s, err
	case "bool":
		var b bool
		err := json.Unmarshal(jv.Value, &b)
		return b, err
	case "float32", "float64":
		return jv.float()
	}
	return jv.integer()
}

// integer decodes an integer type's decimal string "value".
func (jv jsonValue) integer() (any, error) {
	t, ok := TypeByName(jv.Type)
	if !ok {
		return nil, errors.New("unsupported type")
	}
	var s string
	if err := json.Unmarshal(jv.Value, &s); err != nil {
		return nil, errors.New(`integer "value" must be a decimal string`)
	}
	// Spell the integer as a v1 line and let the parser size it.
	vals, err := Unmarshal([]byte(Version1 + "\n" + t.String() + "(" + s + ")\n"))
	if err != nil || len(vals) != 1 || strings.ContainsAny(s, "()\n") {
		return nil, fmt.Errorf("invalid %s value %q", jv.Type, s)
	}
	return vals[0], nil
}

func (jv jsonValue) contents() (string, error) {
	switch {
	case jv.Text != nil && jv.Base64 == nil:
		return string(*jv.Text), nil
	case jv.Base64 != nil && jv.Text == nil:
		b, err := base64.StdEncoding.DecodeString(*jv.Base64)
		return string(b), err
	}
	return "", errors.New(`need exactly one of "text" and "base64"`)
}

func (jv jsonValue) float() (any, error) {
	size := 64
	if jv.Type == "float32" {
		size = 32
	}
	if jv.Bits == "" {
		var s string
		if err := json.Unmarshal(jv.Value, &s); err != nil {
			return nil, errors.New(`float needs "bits" or a string "value"`)
		}
		f, err := strconv.ParseFloat(s, size)
		if size == 32 {
			return float32(f), err
		}
		return f, err
	}
	bits, err := strconv.ParseUint(jv.Bits, 0, size)
	if err != nil || !strings.HasPrefix(jv.Bits, "0x") {
		return nil, fmt.Errorf(`"bits" %q is not 0x-prefixed hex of %d bits`, jv.Bits, size)
	}
	if size == 32 {
		return math.Float32frombits(uint32(bits)), nil
	}
	return math.Float64frombits(bits), nil
}

// jsonText is a "text" field: UTF-8 that is valid, which encoding/json
// would otherwise take with invalid bytes or a lone surrogate escape
// ("\udc00") turned into U+FFFD, other contents than written. Those need
// "base64".
type jsonText string

func (t *jsonText) UnmarshalJSON(raw []byte) error {
	if !utf8.Valid(raw) {
		return errors.New(`"text" holds bytes that are not UTF-8: give them as "base64"`)
	}
	if loneSurrogate(raw) {
		return errors.New(`"text" holds a lone surrogate escape, which is no character: give the bytes as "base64"`)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return err
	}
	*t = jsonText(s)
	return nil
}

// loneSurrogate reports whether a JSON string has a \uD800–\uDFFF escape
// that is not half of a pair.
func loneSurrogate(raw []byte) bool {
	for i := 0; i+6 <= len(raw); i++ {
		if raw[i] == '\\' && raw[i+1] == '\\' {
			i++ // an escaped backslash
			continue
		}
		if raw[i] != '\\' || raw[i+1] != 'u' {
			continue
		}
		r, err := strconv.ParseUint(string(raw[i+2:i+6]), 16, 16)
		switch {
		case err != nil || r < 0xd800 || r > 0xdfff:
		case r < 0xdc00 && i+12 <= len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u':
			lo, err := strconv.ParseUint(string(raw[i+8:i+12]), 16, 16)
			if err != nil || lo < 0xdc00 || lo > 0xdfff {
				return true
			}
			i += 11
		default:
			return true
		}
	}
	return false
}
