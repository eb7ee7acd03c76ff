package planted

import "testing"

func FuzzParse(f *testing.F) {
	f.Add("hello")
	f.Fuzz(func(t *testing.T, s string) {
		Parse(s)
	})
}
