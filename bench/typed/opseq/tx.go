// Package opseq is a key-value store with transactions and named
// savepoints, driven by a sequence of operations.
//
// Bug: Release drops a savepoint from the stack but leaves it in the index
// by name, so RollbackTo of a released savepoint finds a stale stack
// position and panics. Reaching it takes four operations of the right kinds
// in order, with the same savepoint id (not 0, which is refused) in the last
// three: Begin, Savepoint(id), Release(id), RollbackTo(id); the seeds hold
// no savepoint operation. As bytes, each operation is a kind byte, a
// length-prefixed key and a four-byte id; go test -fuzz has to grow the
// sequence's count and write whole operations at the right offsets. A
// typed engine inserts copies of existing operations changed at one place.
//
// Signature: BUG opseq:
package opseq

import (
	"errors"
	"fmt"
)

// OpKind is what an operation does.
type OpKind uint8

const (
	OpBegin OpKind = iota + 1
	OpPut
	OpDelete
	OpSavepoint
	OpRelease
	OpRollbackTo
	OpCommit
	OpRollback
)

// Op is one operation: Key and Value for OpPut and OpDelete, ID for the
// savepoint operations.
type Op struct {
	Kind  OpKind
	Key   string
	Value int32
	ID    uint32
}

type undo struct {
	key     string
	old     int32
	existed bool
}

type savepoint struct {
	id   uint32
	mark int // len(undo) when it was set
}

// Store is the key-value store.
type Store struct {
	data   map[string]int32
	active bool
	undo   []undo
	saves  []savepoint
	byID   map[uint32]int // savepoint id → index in saves
}

// New returns an empty store.
func New() *Store { return &Store{data: map[string]int32{}, byID: map[uint32]int{}} }

// Apply performs op.
func (s *Store) Apply(op Op) error {
	switch op.Kind {
	case OpBegin:
		if s.active {
			return errors.New("opseq: nested transaction")
		}
		s.active = true
		return nil
	case OpPut, OpDelete:
		return s.write(op)
	case OpSavepoint, OpRelease, OpRollbackTo:
		return s.savepoint(op)
	case OpCommit, OpRollback:
		if !s.active {
			return errors.New("opseq: no transaction")
		}
		if op.Kind == OpRollback {
			s.rollbackTo(0)
		}
		s.active, s.undo, s.saves = false, nil, nil
		clear(s.byID)
		return nil
	}
	return fmt.Errorf("opseq: unknown operation %d", op.Kind)
}

func (s *Store) write(op Op) error {
	if op.Key == "" {
		return errors.New("opseq: empty key")
	}
	if s.active {
		old, ok := s.data[op.Key]
		s.undo = append(s.undo, undo{op.Key, old, ok})
	}
	if op.Kind == OpDelete {
		delete(s.data, op.Key)
	} else {
		s.data[op.Key] = op.Value
	}
	return nil
}

func (s *Store) savepoint(op Op) error {
	if !s.active {
		return errors.New("opseq: savepoint outside a transaction")
	}
	if op.ID == 0 {
		return errors.New("opseq: savepoint id 0 is reserved")
	}
	i, ok := s.byID[op.ID]
	switch op.Kind {
	case OpSavepoint:
		if ok {
			return fmt.Errorf("opseq: savepoint %d exists", op.ID)
		}
		s.byID[op.ID] = len(s.saves)
		s.saves = append(s.saves, savepoint{op.ID, len(s.undo)})
	case OpRelease:
		if !ok {
			return fmt.Errorf("opseq: no savepoint %d", op.ID)
		}
		s.saves = s.saves[:i] // keeps its changes; byID still names it
	case OpRollbackTo:
		if !ok {
			return fmt.Errorf("opseq: no savepoint %d", op.ID)
		}
		if i >= len(s.saves) {
			panic(fmt.Sprintf("BUG opseq: rollback to released savepoint %d (stack position %d of %d)", op.ID, i, len(s.saves)))
		}
		s.rollbackTo(s.saves[i].mark)
		s.saves = s.saves[:i+1]
	}
	return nil
}

// rollbackTo undoes the writes after the first mark ones.
func (s *Store) rollbackTo(mark int) {
	for j := len(s.undo) - 1; j >= mark; j-- {
		u := s.undo[j]
		if u.existed {
			s.data[u.key] = u.old
		} else {
			delete(s.data, u.key)
		}
	}
	s.undo = s.undo[:mark]
}
