// Package hang walks a chain of directory entries, the way TIFF readers walk
// IFDs: byte 0 is the offset of the first entry; an entry is a type byte, a
// value byte and the offset of the next entry (0 ends the chain).
//
// Bug: there is no cycle check, so an entry whose next offset points back at
// itself or at an earlier entry loops forever. Both engines can build such an
// input from the seeds by changing one byte; go test -fuzz reports it only
// after its fixed 10 s limit, as "fuzzing process hung or terminated
// unexpectedly" with no stack, and loses it if it starts in the last 10 s.
package hang

import "fmt"

// An Entry is one directory entry.
type Entry struct {
	Type, Value byte
}

// Walk returns the entries of the chain in b.
func Walk(b []byte) ([]Entry, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("hang: empty input")
	}
	var sum, n int
	for off := int(b[0]); off != 0; {
		if off+3 > len(b) {
			return nil, fmt.Errorf("hang: entry at %d out of range", off)
		}
		sum += int(b[off+1])
		n++
		off = int(b[off+2])
	}
	// Second pass collects the entries now that the count is known.
	out := make([]Entry, 0, n)
	for off := int(b[0]); off != 0; off = int(b[off+2]) {
		out = append(out, Entry{Type: b[off], Value: b[off+1]})
	}
	if sum < 0 {
		return nil, fmt.Errorf("hang: negative sum")
	}
	return out, nil
}
