package suite

import "testing"

func TestParse(t *testing.T) {
	if got := Parse("a=1\nb")["a"]; got != "1" {
		t.Errorf("a = %q, want 1", got)
	}
}
