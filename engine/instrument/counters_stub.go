//go:build !fuzzbox

package instrument

// counterRegion is empty without the fuzzbox tag: such a binary is not a
// fuzzing binary (see counters_fuzzbox.go).
func counterRegion() []byte { return nil }
