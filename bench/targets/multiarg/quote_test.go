package multiarg

import "testing"

func FuzzQuote(f *testing.F) {
	f.Add(3, "US", false, 0.0)
	f.Add(120, "DE", true, 0.1)
	f.Add(40, "AU", true, 0.0)
	f.Fuzz(func(t *testing.T, qty int, country string, express bool, discount float64) {
		p, err := Quote(qty, country, express, discount)
		if err == nil && p == 0 {
			t.Fatalf("free order: %d %q %v %v", qty, country, express, discount)
		}
	})
}
