//go:build !race

package engine

// raceEnabled: the race detector's build, where allocation counts differ.
const raceEnabled = false
