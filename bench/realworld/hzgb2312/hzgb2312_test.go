package hzgb2312

import (
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/simplifiedchinese"
)

func FuzzDecode(f *testing.F) {
	f.Add([]byte("Hello, ~{<:Ky2;S{#,NpJ)l6HK!#~}. Bye."))
	f.Add([]byte("~~ is a tilde; ~{VPND~} is Chinese"))
	f.Add([]byte("plain ASCII text\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := simplifiedchinese.HZGB2312.NewDecoder().String(string(b))
		if err == nil && !utf8.ValidString(s) {
			t.Fatalf("decoded %q to invalid UTF-8 %q", b, s)
		}
	})
}
