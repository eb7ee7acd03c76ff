package prefixkw

import "testing"

func FuzzParse(f *testing.F) {
	f.Add("Host: example.com\r\nContent-Length: 3\r\n")
	f.Add("Accept: */*\nX-Forwarded-For: 10.0.0.1\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, block string) {
		h, err := Parse(block)
		if err == nil && h == nil {
			t.Fatal("Parse returned neither a map nor an error")
		}
	})
}
