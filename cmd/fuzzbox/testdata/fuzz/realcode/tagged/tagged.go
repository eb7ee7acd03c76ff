// Package tagged has its fuzz test behind a build tag, as gosnmp's
// ("marshal") and udecimal's ("fuzz") are.
package tagged

// Half halves n.
func Half(n int) int { return n / 2 }
