package race

import "testing"

func FuzzCollect(f *testing.F) {
	f.Add("cpu=0.5;mem=12")
	f.Add("lat=0.003")
	f.Fuzz(func(t *testing.T, batch string) {
		b, err := Collect(batch)
		if err == nil && b.Samples == 0 {
			t.Fatalf("Collect(%q) read no samples and returned no error", batch)
		}
	})
}
