// Package thirdparty evaluates a user's rule expressions with a third-party
// module, github.com/Knetic/govaluate (v3.0.0, its latest release), declared
// in the WORKSPACE with go_repository as a user's dependencies are. Its
// fuzz test finds a real bug of that module's lexer: the fuzzing binary
// instruments the dependency (instrument_deps), and the failure is replayed
// by the stock test and by go test.
package thirdparty

import (
	"fmt"

	"github.com/Knetic/govaluate"
)

// Allowed evaluates rule, a boolean expression over the request's fields
// (method, path, size), such as `method == 'GET' && size < 1024`.
func Allowed(rule string, method, path string, size int) (bool, error) {
	e, err := govaluate.NewEvaluableExpression(rule)
	if err != nil {
		return false, fmt.Errorf("rule %q: %w", rule, err)
	}
	v, err := e.Evaluate(map[string]interface{}{"method": method, "path": path, "size": size})
	if err != nil {
		return false, fmt.Errorf("rule %q: %w", rule, err)
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("rule %q is %T, not a boolean", rule, v)
	}
	return b, nil
}
