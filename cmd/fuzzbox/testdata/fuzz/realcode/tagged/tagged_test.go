package tagged

import "testing"

func TestHalf(t *testing.T) {
	if Half(4) != 2 {
		t.Fatal("Half(4)")
	}
}
