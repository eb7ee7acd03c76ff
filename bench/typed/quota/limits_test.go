package quota

import (
	"testing"

	"github.com/fuzzbox/fuzzbox/typed"
)

func FuzzLimits(f *testing.F) {
	typed.Add(f, Limits{"/api/users": 100, "/static/*": 0, "/admin/users": 5}, "/api/users")
	typed.Fuzz(f, func(t *testing.T, l Limits, path string) {
		lim, err := New(l)
		if err != nil {
			return
		}
		if r := lim.Limit(path); r < 0 {
			t.Fatalf("negative limit %d for %q", r, path)
		}
	})
}
