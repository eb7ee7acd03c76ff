// Package goflags is a fixture of TestFuzzGoTestCommandLine: its fuzz test
// fails only when built with -ldflags=-X setting Mode and run with its own
// -update flag, both given on fuzzbox fuzz's command line as to go test,
// with GOFLAGS=-modcacherw in the environment (which the test binary must
// see unchanged, as under go test).
package goflags

// Mode is set with -ldflags=-X.
var Mode = "off"
