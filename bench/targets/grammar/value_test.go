package grammar

import "testing"

func FuzzParse(f *testing.F) {
	f.Add(`{"name": "svc", "ports": [80, 443], "tls": {"on": true}}`)
	f.Add(`[1, [2, [3, {"x": null}]], "s", -4]`)
	f.Add(`{}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := Parse(s); err != nil && len(err.Error()) == 0 {
			t.Fatal("empty error message")
		}
	})
}
