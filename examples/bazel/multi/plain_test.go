package multi

import "testing"

// TestReverse is a test without a fuzz test beside it, for plain_fuzz: a
// go_fuzz_test of such tests passes, as go test -fuzz does.
func TestReverse(t *testing.T) {
	if got := Reverse("abc"); got != "cba" {
		t.Errorf("Reverse(abc) = %q", got)
	}
}
