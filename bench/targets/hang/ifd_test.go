package hang

import "testing"

func FuzzWalk(f *testing.F) {
	f.Add([]byte{1, 'a', 10, 4, 'b', 20, 0})
	f.Add([]byte{4, 0, 0, 0, 'x', 1, 0})
	f.Add([]byte{0})
	f.Fuzz(func(t *testing.T, b []byte) {
		es, err := Walk(b)
		if err == nil && b[0] == 0 && len(es) != 0 {
			t.Fatalf("empty chain returned %d entries", len(es))
		}
	})
}
