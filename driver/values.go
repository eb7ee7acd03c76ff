package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// typedValuesEnv and the request and answer below are package typed's
// ValuesEnv protocol (typed/values.go), which the driver, never linked
// with typed, speaks by the same names.
const typedValuesEnv = "FUZZBOX_TYPED_VALUES"

type valuesRequest struct {
	Fuzz  string   `json:"fuzz"`
	Files []string `json:"files"`
}

type valuesAnswer struct {
	File   string   `json:"file"`
	Values []string `json:"values,omitempty"`
	Err    string   `json:"error,omitempty"`
}

// TypedValues returns the arguments of corpus files of t, a typed fuzz test
// (package typed), as Go expressions, keyed by file as given: only the
// test binary knows the arguments' types, so it builds the package's test
// with stock go test (cfg's Tags) and asks the fuzz test. A file that does
// not hold one []byte has no entry. It returns an error when the package
// does not build or t is not a typed fuzz test. fuzzbox corpus cat and the
// editor's hover use it.
func TypedValues(ctx context.Context, cfg Config, t Target, files []string) (map[string][]string, error) {
	dir, err := filepath.Abs(t.Dir)
	if err != nil {
		return nil, fmt.Errorf("driver: typed values: %w", err)
	}
	abs := make([]string, len(files))
	for i, f := range files {
		if abs[i], err = filepath.Abs(f); err != nil {
			return nil, fmt.Errorf("driver: typed values: %w", err)
		}
	}
	tmp, err := os.MkdirTemp("", "fuzzbox-values-")
	if err != nil {
		return nil, fmt.Errorf("driver: typed values: %w", err)
	}
	defer os.RemoveAll(tmp)
	req := filepath.Join(tmp, "request.json")
	data, err := json.Marshal(valuesRequest{Fuzz: t.Name, Files: abs})
	if err == nil {
		err = os.WriteFile(req, data, 0o666)
	}
	if err != nil {
		return nil, fmt.Errorf("driver: typed values: %w", err)
	}
	out, _, built, err := goTest(ctx, cfg, dir, "^"+t.Name+"$", typedValuesEnv+"="+req)
	switch {
	case err != nil:
		return nil, err
	case !built:
		return nil, fmt.Errorf("driver: typed values: build failed:\n%s", strings.TrimSpace(out))
	}
	data, err = os.ReadFile(req + ".out")
	if err != nil {
		return nil, fmt.Errorf("driver: typed values: %s is not a typed fuzz test (no answer from typed.Fuzz):\n%s", t.Name, strings.TrimSpace(out))
	}
	var answers []valuesAnswer
	if err := json.Unmarshal(data, &answers); err != nil {
		return nil, fmt.Errorf("driver: typed values: reading the answer: %w", err)
	}
	vals := map[string][]string{}
	for i, a := range answers {
		if a.Err == "" && i < len(files) {
			vals[files[i]] = a.Values
		}
	}
	return vals, nil
}
