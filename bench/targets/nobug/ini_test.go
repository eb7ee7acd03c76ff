package nobug

import "testing"

func FuzzParse(f *testing.F) {
	f.Add("[server]\nport = 8080\nname = \"fuzz box\"\n; comment\n")
	f.Add("a=1\n[b]\nc = 2")
	f.Fuzz(func(t *testing.T, src string) {
		c, err := Parse(src)
		if err != nil {
			return
		}
		for k := range c {
			_ = c.Int(k, 0)
		}
	})
}
