package build

import (
	"slices"
	"testing"
)

// TestGoEnvEnviron: go env's own flags leave GOFLAGS, quoted words stay
// whole (a -w inside a quoted -ldflags is the linker's), and an
// environment without them is returned as it is.
func TestGoEnvEnviron(t *testing.T) {
	for _, c := range []struct{ goflags, want string }{
		{"-ldflags=-s -w", "-ldflags=-s"},
		{"-mod=mod --changed -w=true -u", "-mod=mod"},
		{`'-ldflags=-X a=b -w' -w -tags=x`, `'-ldflags=-X a=b -w' -tags=x`},
		{`"-gcflags=-l 'x'" -w`, `"-gcflags=-l 'x'"`},
		{"-mod=mod -wx", "-mod=mod -wx"}, // not go env's
		{"", ""},
	} {
		env := []string{"HOME=/h", "GOFLAGS=-u", "GOFLAGS=" + c.goflags}
		got := GoEnvEnviron(env)
		if want := []string{"HOME=/h", "GOFLAGS=-u", "GOFLAGS=" + c.want}; !slices.Equal(got, want) {
			t.Errorf("GOFLAGS=%s: %q, want %q", c.goflags, got, want)
		}
		if env[2] != "GOFLAGS="+c.goflags {
			t.Errorf("GOFLAGS=%s: the environment given was changed", c.goflags)
		}
	}
	if env := []string{"PATH=/bin"}; !slices.Equal(GoEnvEnviron(env), env) {
		t.Errorf("without GOFLAGS: %q", GoEnvEnviron(env))
	}
}
