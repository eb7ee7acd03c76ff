package driver

import "testing"

// TestRunSelects: which top-level tests go test's -run and -skip patterns
// select, as the testing package splits them.
func TestRunSelects(t *testing.T) {
	for _, tc := range []struct {
		run, skip string
		name      string
		want      bool
	}{
		{"", "", "FuzzA", true},
		{"^$", "", "FuzzA", false},
		{"FuzzA", "", "FuzzA", true},
		{"FuzzA/seed#0", "", "FuzzA", true}, // its subtests run: FuzzA runs
		{"TestX|FuzzA", "", "FuzzA", true},
		{"TestX|FuzzB", "", "FuzzA", false},
		{"Fuzz(A|B)/x", "", "FuzzA", true}, // "|" inside parentheses
		{"Fuzz[/]A", "", "FuzzA", false},   // "/" inside brackets: no split, no match
		{`Fuzz\/A`, "", "FuzzA", false},
		{"", "FuzzA", "FuzzA", false},
		{"", "FuzzA/seed#0", "FuzzA", true}, // only a subtest is skipped
		{"", "TestX|^FuzzA$", "FuzzA", false},
	} {
		got := runSelects(tc.run, tc.name) && !(tc.skip != "" && skipSelects(tc.skip, tc.name))
		if got != tc.want {
			t.Errorf("-run=%q -skip=%q selects %s: %v, want %v", tc.run, tc.skip, tc.name, got, tc.want)
		}
	}
}
