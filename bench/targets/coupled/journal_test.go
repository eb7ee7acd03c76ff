package coupled

import "testing"

func FuzzApply(f *testing.F) {
	f.Add("get:", 3, false)
	f.Add("rotate:k1", 40, false)
	f.Add("put:alpha           ", 7, true) // padded to slot 7's width, 20
	f.Fuzz(func(t *testing.T, record string, slot int, strict bool) {
		if reply, err := NewJournal().Apply(record, slot, strict); err != nil && reply != "" {
			t.Fatalf("reply %q with error %v", reply, err)
		}
	})
}
