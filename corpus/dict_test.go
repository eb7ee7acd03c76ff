package corpus

import (
	"bytes"
	"strings"
	"testing"
)

func TestParseDict(t *testing.T) {
	tests := []struct {
		desc, in string
		want     []string
		reject   string // substring of the error; "" means accept
	}{
		{desc: "plain", in: "\"GET\"\n", want: []string{"GET"}},
		{desc: "named with level, comments, blanks", in: "# c\n\nkw1=\"POST\"\nkw2@3=\"PUT\"\n", want: []string{"POST", "PUT"}},
		{desc: "escapes", in: `"\x41\\\"\x00"`, want: []string{"A\\\"\x00"}},
		{desc: "unquoted", in: "\"ok\"\nGET\n", reject: "line 2"},
		{desc: "unknown escape", in: `"\q"`, reject: "line 1: unknown escape"},
		{desc: "truncated hex", in: `"\x4"`, reject: "line 1"},
		{desc: "bad hex", in: `"\xzz"`, reject: "bad \\x escape"},
		{desc: "trailing backslash", in: `"a\"`, reject: "line 1"},
	}
	for _, tt := range tests {
		got, err := ParseDict([]byte(tt.in))
		if tt.reject != "" {
			if err == nil || !strings.Contains(err.Error(), tt.reject) {
				t.Errorf("%s: err = %v, want one containing %q", tt.desc, err, tt.reject)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.desc, err)
			continue
		}
		if len(got) != len(tt.want) {
			t.Errorf("%s: got %q, want %q", tt.desc, got, tt.want)
			continue
		}
		for i := range got {
			if string(got[i]) != tt.want[i] {
				t.Errorf("%s: token %d = %q, want %q", tt.desc, i, got[i], tt.want[i])
			}
		}
	}
}

func FuzzDictRoundTrip(f *testing.F) {
	f.Add([]byte("proto="))
	f.Add([]byte("\x00\"\\\xff"))
	f.Fuzz(func(t *testing.T, tok []byte) {
		if len(tok) == 0 {
			return
		}
		got, err := ParseDict([]byte(QuoteToken(tok) + "\n"))
		if err != nil {
			t.Fatalf("ParseDict(QuoteToken(%q)): %v", tok, err)
		}
		if len(got) != 1 || !bytes.Equal(got[0], tok) {
			t.Fatalf("round trip of %q gave %q", tok, got)
		}
	})
}
