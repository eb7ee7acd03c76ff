// Package verify holds, behind the verify build tag, one test per target of
// the typed benchmark set that triggers its planted bug (verify_test.go).
package verify
