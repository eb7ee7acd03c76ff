// Package coupled applies operations ("get:", "put:VALUE", "del:",
// "rotate:VALUE") to the numbered slots of a key journal. In a strict journal
// (the on-disk format) every record is padded with spaces to its slot's fixed
// record width, 13 bytes plus the slot's padding class (slot mod 97), and a
// record of another length is refused.
//
// Bug: rotating the journal's own seed slot (0x5eed) in a strict journal
// panics. All three arguments are coupled: strict must be true, the slot must
// be 0x5eed, the record's length must be the width computed from that slot
// (64 bytes, a number that appears nowhere in the source), and the record
// must start with "rotate:". The width check comes first, so every step
// towards the bug breaks another condition: writing "rotate" over "put"
// makes the record 3 bytes longer, and moving the slot to 0x5eed (the
// constant the seed-slot test compares against) changes the width the record
// must have. go test -fuzz moves integers by at most ±100 and never reaches
// the slot; an engine whose comparison guidance only writes operands where
// they came from gets the slot and the verb but must then guess the exact
// length at the same time. Guidance that treats the traced len(record) !=
// width comparison as a request to resize the record gets it in two steps.
package coupled

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

const (
	maxSlot  = 1 << 16
	seedSlot = 0x5eed // holds the seed every other key is derived from
	header   = 13     // fixed part of a strict record
)

var errSlot = errors.New("coupled: slot out of range")

// recordWidth is the length of every record for slot in a strict journal.
func recordWidth(slot int) int { return header + slot%97 }

// A Journal holds the keys of its slots and how often each was rotated.
type Journal struct {
	keys map[int]string
	gen  map[int]int
}

// NewJournal returns an empty journal.
func NewJournal() *Journal { return &Journal{keys: map[int]string{}, gen: map[int]int{}} }

// Apply runs one record against slot and returns the reply.
func (j *Journal) Apply(record string, slot int, strict bool) (string, error) {
	if slot < 0 || slot >= maxSlot {
		return "", errSlot
	}
	if strict {
		if w := recordWidth(slot); len(record) != w {
			return "", fmt.Errorf("coupled: strict record for slot %d is %d bytes, want %d", slot, len(record), w)
		}
		record = strings.TrimRight(record, " ")
	}
	verb, arg, ok := strings.Cut(record, ":")
	if !ok {
		return "", fmt.Errorf("coupled: record %q has no verb", record)
	}
	switch verb {
	case "get":
		return j.keys[slot], nil
	case "put":
		j.keys[slot] = arg
		return "OK", nil
	case "del":
		delete(j.keys, slot)
		return "OK", nil
	case "rotate":
		return j.rotate(slot, arg, strict)
	}
	return "", fmt.Errorf("coupled: unknown verb %q", verb)
}

func (j *Journal) rotate(slot int, arg string, strict bool) (string, error) {
	if arg == "" {
		return "", errors.New("coupled: rotate needs a new key")
	}
	j.gen[slot]++
	if slot == seedSlot {
		if strict {
			// A strict journal re-derives every key from the new seed
			// while its record is still being read.
			panic("BUG coupled: rotated the seed slot of a strict journal")
		}
		for s := range j.keys {
			j.keys[s] = arg + "/" + strconv.Itoa(s)
		}
	}
	j.keys[slot] = arg + "#" + strconv.Itoa(j.gen[slot])
	return "OK", nil
}
