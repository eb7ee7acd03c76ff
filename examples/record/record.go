package record

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
)

// A Record is one decoded record. Exactly one of Key or Ext is set.
type Record struct {
	Key, Value string // a "KV" record
	Ext        byte   // type of an extension record, 0 for "KV"
	Payload    []byte // payload of an extension record; aliases the input
}

var errTruncated = errors.New("record: truncated record")

// Decode parses every record in b. Comments are skipped.
func Decode(b []byte) ([]Record, error) {
	var recs []Record
	for len(b) > 0 {
		if len(b) < 3 {
			return nil, errTruncated
		}
		tag, n := b[:2], int(b[2])
		if len(b) < 3+n {
			return nil, fmt.Errorf("record: %q record says %d bytes, %d left: %w", tag, n, len(b)-3, errTruncated)
		}
		value := b[3 : 3+n]
		b = b[3+n:]
		r, ok, err := decodeOne(tag, value)
		if err != nil {
			return nil, err
		}
		if ok {
			recs = append(recs, r)
		}
	}
	return recs, nil
}

// decodeOne decodes one record; ok is false for a comment.
func decodeOne(tag, value []byte) (r Record, ok bool, err error) {
	switch tag[0] {
	case '#':
		return Record{}, false, nil
	case 'K':
		if tag[1] != 'V' {
			break
		}
		k, v, found := strings.Cut(string(value), "=")
		if !found || k == "" {
			return Record{}, false, fmt.Errorf("record: KV value %q is not key=value", value)
		}
		return Record{Key: k, Value: v}, true, nil
	case 'X':
		if tag[1] == 0 {
			return Record{}, false, fmt.Errorf("record: extension type 0 is reserved")
		}
		p, err := extension(tag[1], value)
		return Record{Ext: tag[1], Payload: p}, err == nil, err
	}
	return Record{}, false, fmt.Errorf("record: unknown tag %q", tag)
}

// extension returns the payload of an extension record's value.
func extension(typ byte, value []byte) ([]byte, error) {
	if len(value) < 2 {
		return nil, fmt.Errorf("record: extension %q shorter than its length field", typ)
	}
	n := int(binary.BigEndian.Uint16(value))
	if typ == 'z' {
		// A compressed payload starts with its method byte and is padded
		// to 8 bytes.
		if len(value) < 10 || (len(value)-2)%8 != 0 {
			return nil, fmt.Errorf("record: compressed extension not padded to a multiple of 8 bytes")
		}
		if n == 0 {
			return nil, fmt.Errorf("record: compressed extension has no method byte")
		}
		switch value[2] {
		case 's':
			// Stored (uncompressed) payloads skip the length check
			// below: this is the planted bug, a slice out of range.
			return value[2 : 2+n], nil
		case 'd':
		default:
			return nil, fmt.Errorf("record: unknown compression method %q", value[2])
		}
	}
	if n > len(value)-2 {
		return nil, fmt.Errorf("record: extension %q payload of %d bytes, %d left", typ, n, len(value)-2)
	}
	return value[2 : 2+n], nil
}

// Encode appends the records to dst in the wire format; values longer than
// 255 bytes are an error. It is the inverse of Decode for records it accepts.
func Encode(dst []byte, recs []Record) ([]byte, error) {
	for _, r := range recs {
		var tag, value []byte
		if r.Ext != 0 {
			tag = []byte{'X', r.Ext}
			value = binary.BigEndian.AppendUint16(nil, uint16(len(r.Payload)))
			value = append(value, r.Payload...)
			if r.Ext == 'z' {
				value = append(value, make([]byte, (8-len(r.Payload)%8)%8)...)
			}
		} else {
			tag, value = []byte("KV"), []byte(r.Key+"="+r.Value)
		}
		if len(value) > 255 {
			return nil, fmt.Errorf("record: %s record of %d bytes is longer than 255", tag, len(value))
		}
		dst = append(dst, tag...)
		dst = append(dst, byte(len(value)))
		dst = append(dst, value...)
	}
	return dst, nil
}
