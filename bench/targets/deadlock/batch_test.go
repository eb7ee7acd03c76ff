package deadlock

import "testing"

func FuzzApply(f *testing.F) {
	f.Add([]byte("WB1\x00\x02P\x03fooD\x03foo"))
	f.Add([]byte("WB1\x00\x03P\x01aP\x01bS\x01x"))
	f.Fuzz(func(t *testing.T, batch []byte) {
		db := map[string]int{}
		if _, err := Apply(db, batch); err != nil {
			return
		}
	})
}
