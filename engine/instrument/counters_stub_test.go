//go:build !fuzzbox

package instrument

import "testing"

func TestCountersWithoutInstrumentation(t *testing.T) {
	if n := len(Counters()); n != 0 {
		t.Errorf("Counters() has %d bytes in a binary built without the fuzzbox tag", n)
	}
	Reset() // must not crash on an empty region
}
