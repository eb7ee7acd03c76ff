package typed

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// ValuesEnv names the environment variable through which a tool asks a
// typed fuzz test, run by stock go test, to print its corpus files'
// arguments as Go syntax (Format) instead of running: only a test binary
// knows the arguments' types. Its value is the path of a request file,
// a JSON ValuesRequest; the answer, a JSON []ValuesAnswer, is written to
// that path plus ".out", and the fuzz test skips. driver.TypedValues is
// the asking side (fuzzbox corpus cat, the editor's hover).
const ValuesEnv = "FUZZBOX_TYPED_VALUES"

// ValuesRequest names the fuzz test and its corpus files to format.
type ValuesRequest struct {
	Fuzz  string   `json:"fuzz"`  // the fuzz test's name: other fuzz tests run as usual
	Files []string `json:"files"` // go test fuzz v1 files of one []byte
}

// ValuesAnswer is one file's arguments, or why there are none.
type ValuesAnswer struct {
	File   string   `json:"file"`
	Values []string `json:"values,omitempty"`
	Err    string   `json:"error,omitempty"`
}

// answerValues answers a ValuesEnv request for f and reports whether there
// was one (then f has been skipped).
func answerValues(f F, h *harness) bool {
	path := os.Getenv(ValuesEnv)
	if path == "" {
		return false
	}
	var req ValuesRequest
	data, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(data, &req)
	}
	if err != nil {
		f.Fatalf("typed: reading the %s request %s: %v", ValuesEnv, path, err)
	}
	if req.Fuzz != f.Name() {
		return false
	}
	answers := make([]ValuesAnswer, len(req.Files))
	for i, file := range req.Files {
		answers[i] = ValuesAnswer{File: file}
		vals, err := h.fileValues(file)
		if err != nil {
			answers[i].Err = err.Error()
		}
		answers[i].Values = vals
	}
	out, err := json.Marshal(answers)
	if err == nil {
		err = os.WriteFile(path+".out", out, 0o666)
	}
	if err != nil {
		f.Fatalf("typed: writing the %s answer: %v", ValuesEnv, err)
	}
	f.Skipf("typed: wrote the arguments of %d corpus files for %s", len(req.Files), ValuesEnv)
	return true
}

func (h *harness) fileValues(file string) ([]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	vals, err := corpus.Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(vals) != 1 {
		return nil, fmt.Errorf("%s: %d values, but a typed fuzz test's entry is one []byte", file, len(vals))
	}
	b, ok := vals[0].([]byte)
	if !ok {
		return nil, fmt.Errorf("%s: a %T, but a typed fuzz test's entry is one []byte", file, vals[0])
	}
	return h.formatAll(b), nil
}
