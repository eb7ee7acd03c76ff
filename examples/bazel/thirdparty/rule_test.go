package thirdparty

import "testing"

func TestAllowed(t *testing.T) {
	for _, tt := range []struct {
		rule string
		want bool
	}{
		{"method == 'GET' && size < 1024", true},
		{"path =~ '^/admin' || size > 10", false},
	} {
		got, err := Allowed(tt.rule, "GET", "/index", 3)
		if err != nil || got != tt.want {
			t.Errorf("Allowed(%q) = %v, %v; want %v", tt.rule, got, err, tt.want)
		}
	}
}

// FuzzAllowed: no rule, however malformed, may crash the evaluator (an
// error is fine). govaluate v3.0.0's lexer reads past the end of some.
func FuzzAllowed(f *testing.F) {
	f.Add("method == 'GET' && size < 1024")
	f.Add("path =~ '^/api/' && !(size >= 10)")
	f.Fuzz(func(t *testing.T, rule string) {
		Allowed(rule, "POST", "/api/x", 7)
	})
}
