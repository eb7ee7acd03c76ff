// Package verify holds, behind the verify build tag, one test per target that
// proves the target's bug exists at the pinned version (go test -tags=verify
// ./verify).
package verify
