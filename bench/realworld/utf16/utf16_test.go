package utf16

import (
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/unicode"
)

func FuzzDecode(f *testing.F) {
	f.Add([]byte("\xff\xfeh\x00i\x00"))
	f.Add([]byte("\xfe\xff\x00h\x00i"))
	f.Add([]byte("h\x00e\x00l\x00l\x00o\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		dec := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewDecoder()
		s, err := dec.String(string(b))
		if err == nil && !utf8.ValidString(s) {
			t.Fatalf("decoded %q to invalid UTF-8 %q", b, s)
		}
	})
}
