// Package planted is the editor tests' fuzz target: Parse has a planted bug
// that a magic prefix reaches.
package planted

// Parse returns the length of a record, and panics on the magic prefix.
func Parse(s string) int {
	if len(s) >= 4 && s[:4] == "FUZZ" {
		var table []int
		return table[len(s)] // planted bug: index out of range
	}
	return len(s)
}
