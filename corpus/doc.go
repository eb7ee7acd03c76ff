// Package corpus reads and writes the "go test fuzz v1" corpus format of Go's
// native fuzzing: the seed files under testdata/fuzz/<FuzzName>/ and the
// generated corpus under $GOCACHE/fuzz/<pkg>/<FuzzName>/.
//
// It is the one place in fuzzbox that knows the format. The engine uses it to
// load seeds and to write crashers (Write) and new corpus entries (Batch), fuzzvet uses it to
// report malformed files at their line, the LSP sidecar uses it to show
// entries, and the "fuzzbox corpus" command is a shell over it: the exact
// JSON form of entries (EntryJSON, WriteJSON, JSONDecoder; json.go), their
// readable form (Entry.Text, Describe), reading and checking the files and
// directories a user names (Files, ExpandDirs, Check; files.go), converting
// raw and libFuzzer inputs (ImportRaw, Export, ExportRaw, ImportLibFuzzer,
// ExportLibFuzzer; convert.go, over the LibFuzzerEncoding of libfuzzer.go),
// merging corpora (Merge; merge.go) and reading a fuzz test's argument types
// from its source (FuzzArgTypes; fuzzargs.go). It imports only the standard
// library (deps_test.go checks that): the engine links it into every fuzz
// target, so it stays free of the rest of fuzzbox.
//
// # Compatibility
//
// Marshal writes exactly the bytes the Go toolchain writes
// (internal/fuzz.marshalCorpusFile) for the same values, and Unmarshal accepts
// exactly the files the toolchain accepts, with the same values, for files up
// to MaxFileSize bytes and MaxValues values. Like the toolchain, Unmarshal
// parses each value line with go/parser; a fast path handles the canonical
// spellings Marshal produces (checked against the go/parser path by
// FuzzFastPath), so large files are parsed in linear time.
//
// # Errors
//
// A malformed file yields a *SyntaxError carrying the 1-based line. Reading
// a directory reports every bad file in one *MalformedError whose entries are
// *FileError values (path, line, reason). A value of the wrong type or a wrong
// value count yields a *TypeError carrying the index of the offending value.
package corpus
