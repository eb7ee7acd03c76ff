package engine

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// Dictionaries use the AFL/libFuzzer format (corpus.ParseDict).

// loadDicts reads the -dict file (required to exist when named) and the
// target's conventional dictionary <corpusDir>.dict (optional).
func loadDicts(file, corpusDir string) ([][]byte, error) {
	var out [][]byte
	if file != "" {
		toks, err := readDict(file)
		if err != nil {
			return nil, err
		}
		out = append(out, toks...)
	}
	if corpusDir == "" {
		return out, nil // no seed directory, so nothing beside it (not ".dict" in the working directory)
	}
	toks, err := readDict(dictBeside(corpusDir))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return append(out, toks...), nil
}

func readDict(path string) ([][]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("engine: dictionary: %w", err)
	}
	toks, err := corpus.ParseDict(data)
	if err != nil {
		return nil, fmt.Errorf("engine: dictionary %s: %w", path, err)
	}
	return toks, nil
}

// dictBeside names the dictionary kept beside a corpus directory:
// testdata/fuzz/FuzzX.dict for the seeds, <cachedir>/FuzzX.dict for the
// automatic dictionary. Stock go test ignores both.
func dictBeside(dir string) string {
	return strings.TrimRight(dir, string(filepath.Separator)) + ".dict"
}

// writeDictFile writes toks in the dictionary format to path atomically
// (temporary file in the same directory, then rename).
func writeDictFile(path string, toks [][]byte) error {
	var b bytes.Buffer
	b.WriteString("# fuzzbox automatic dictionary: operands of traced comparisons\n")
	for _, t := range toks {
		b.WriteString(corpus.QuoteToken(t))
		b.WriteByte('\n')
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".dict-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b.Bytes()); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name()) // else every failed save leaves a .dict-* file behind
		return err
	}
	return nil
}
