package leak

import "testing"

func FuzzResolve(f *testing.F) {
	f.Add("db=5432;cache=6379")
	f.Add("web=80")
	f.Fuzz(func(t *testing.T, req string) {
		as, err := Resolve(req)
		if err == nil && len(as) == 0 {
			t.Fatalf("Resolve(%q) returned no answers and no error", req)
		}
	})
}
