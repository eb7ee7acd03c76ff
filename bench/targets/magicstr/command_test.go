package magicstr

import "testing"

func FuzzExec(f *testing.F) {
	f.Add("get a")
	f.Add("set a 1")
	f.Add("del a")
	f.Add("potatos x")
	f.Fuzz(func(t *testing.T, line string) {
		s := Store{"a": "1"}
		if _, err := s.Exec(line); err == nil && len(s) > 2 {
			t.Fatalf("one command added %d keys", len(s)-1)
		}
	})
}
