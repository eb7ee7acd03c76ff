package record

import (
	"bytes"
	"reflect"
	"testing"
)

func TestDecode(t *testing.T) {
	tests := []struct {
		desc    string
		in      string
		want    []Record
		wantErr bool
	}{
		{desc: "empty", in: ""},
		{desc: "one pair", in: "KV\x03a=b", want: []Record{{Key: "a", Value: "b"}}},
		{desc: "comment skipped", in: "#!\x02hiKV\x02a=", want: []Record{{Key: "a"}}},
		{desc: "extension", in: "Xa\x04\x00\x01!?", want: []Record{{Ext: 'a', Payload: []byte("!")}}},
		{desc: "compressed extension", in: "Xz\x0a\x00\x03dbc\x00\x00\x00\x00\x00",
			want: []Record{{Ext: 'z', Payload: []byte("dbc")}}},
		{desc: "stored extension", in: "Xz\x0a\x00\x02sb\x00\x00\x00\x00\x00\x00",
			want: []Record{{Ext: 'z', Payload: []byte("sb")}}},
		{desc: "unknown compression", in: "Xz\x0a\x00\x03xbc\x00\x00\x00\x00\x00", wantErr: true},
		{desc: "compressed length too long", in: "Xz\x0a\x00\x09dbc\x00\x00\x00\x00\x00", wantErr: true},
		{desc: "truncated header", in: "KV", wantErr: true},
		{desc: "truncated value", in: "KV\x05a=b", wantErr: true},
		{desc: "no equals", in: "KV\x02ab", wantErr: true},
		{desc: "empty key", in: "KV\x02=b", wantErr: true},
		{desc: "unknown tag", in: "KW\x00", wantErr: true},
		{desc: "extension length too long", in: "Xa\x03\x00\x05x", wantErr: true},
		{desc: "reserved extension type", in: "X\x00\x02\x00\x00", wantErr: true},
		{desc: "compressed empty", in: "Xz\x02\x00\x00", wantErr: true},
		{desc: "compressed no method", in: "Xz\x0a\x00\x00sbc\x00\x00\x00\x00\x00", wantErr: true},
		{desc: "compressed unpadded", in: "Xz\x03\x00\x01x", wantErr: true},
	}
	for _, tt := range tests {
		got, err := Decode([]byte(tt.in))
		if (err != nil) != tt.wantErr {
			t.Errorf("%s: Decode(%q) error = %v, want error %v", tt.desc, tt.in, err, tt.wantErr)
			continue
		}
		if !tt.wantErr && !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Decode(%q) = %+v, want %+v", tt.desc, tt.in, got, tt.want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, recs := range [][]Record{
		{{Key: "name", Value: "fuzzbox"}, {Key: "lang", Value: "go"}},
		{{Ext: 'a', Payload: []byte("attr")}, {Key: "k", Value: ""}},
		{{Ext: 'z', Payload: []byte("deflated")}}, // 'd': deflate
	} {
		b, err := Encode(nil, recs)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("#c\x07commentKV\x03a=b"))
	f.Fuzz(func(t *testing.T, b []byte) {
		recs, err := Decode(b)
		if err != nil {
			return
		}
		// What decodes must encode back to the same records.
		enc, err := Encode(nil, recs)
		if err != nil {
			t.Fatalf("Encode of decoded records: %v", err)
		}
		again, err := Decode(enc)
		if err != nil {
			t.Fatalf("Decode(Encode(%+v)): %v", recs, err)
		}
		if !reflect.DeepEqual(normalize(again), normalize(recs)) {
			t.Fatalf("round trip changed records:\n%+v\n%+v", recs, again)
		}
	})
}

// normalize makes nil and empty payloads compare equal.
func normalize(recs []Record) []Record {
	out := append([]Record(nil), recs...)
	for i := range out {
		if out[i].Ext != 0 && len(out[i].Payload) == 0 {
			out[i].Payload = []byte{}
		}
	}
	return out
}

func TestEncodeHighExtensionType(t *testing.T) {
	recs := []Record{{Ext: 0xc3, Payload: []byte("p")}}
	b, err := Encode(nil, recs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(b)
	if err != nil || !reflect.DeepEqual(got, recs) {
		t.Fatalf("Decode(Encode(%+v)) = %+v, %v", recs, got, err)
	}
}

func TestEncodeRejectsLongValues(t *testing.T) {
	if _, err := Encode(nil, []Record{{Key: "k", Value: string(bytes.Repeat([]byte("v"), 300))}}); err == nil {
		t.Fatal("Encode accepted a 302-byte value")
	}
}
