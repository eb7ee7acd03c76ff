package planted

import "testing"

// FuzzLength has no bug: fuzzing it runs until stopped. Each prefix length
// takes its own branch, so fuzzing grows its generated corpus at once.
func FuzzLength(f *testing.F) {
	f.Add("a")
	f.Fuzz(func(t *testing.T, s string) {
		p := s[:min(len(s), 3)]
		want := 3
		switch len(p) {
		case 0:
			want = 0
		case 1:
			want = 1
		case 2:
			want = 2
		}
		if Parse(p) != want {
			t.Fatalf("Parse(%q) = %d, want %d", p, Parse(p), want)
		}
	})
}
