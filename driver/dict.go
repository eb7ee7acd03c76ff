package driver

import (
	"bytes"
	"fmt"
	"os"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// writeDict writes the user's dictionary file (if any) followed by toks,
// in the AFL/libFuzzer format, to path.
func writeDict(path, userDict string, toks [][]byte) error {
	var b bytes.Buffer
	if userDict != "" {
		data, err := os.ReadFile(userDict)
		if err != nil {
			return fmt.Errorf("-dict: %w", err)
		}
		b.Write(data)
		b.WriteString("\n")
	}
	b.WriteString("# fuzzbox: literals of the package under test\n")
	for _, t := range toks {
		b.WriteString(corpus.QuoteToken(t))
		b.WriteByte('\n')
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
