package quota

import (
	"testing"

	"fuzzbox.dev/bench/typed/internal/consume"
)

// FuzzLimitsBytes is FuzzLimits's byte-consuming twin (for
// go-118-fuzz-build): a count of entries, each a key and a value, then the
// path.
func FuzzLimitsBytes(f *testing.F) {
	f.Add([]byte("\x02\x0a/api/users\x64\x00\x00\x00\x0c/admin/users\x05\x00\x00\x00\x0a/api/users"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := consume.New(data)
		l := Limits{}
		for range c.Count(16) {
			k := c.String()
			l[k] = int32(c.Uint32())
		}
		path := c.String()
		lim, err := New(l)
		if err != nil {
			return
		}
		if r := lim.Limit(path); r < 0 {
			t.Fatalf("negative limit %d for %q", r, path)
		}
	})
}
