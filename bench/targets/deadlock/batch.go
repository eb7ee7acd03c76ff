// Package deadlock applies a batch of commands through a worker goroutine,
// the way a storage engine applies a write batch on its own goroutine: the
// caller streams the commands to the worker on a channel and, at the end,
// reads one acknowledgement per "sync" command from another.
//
// Bug: a sync command in the middle of a batch makes the worker acknowledge
// at once, on an unbuffered channel the caller reads only after it has sent
// every command. The worker waits for the caller to read, the caller for
// the worker to take the next command: both goroutines are blocked for ever
// and Apply never returns. A program would stop with "all goroutines are
// asleep - deadlock!" only if nothing else ran; in a server, or in a fuzzing
// worker, it just hangs. go test -fuzz (with or without -race) says
// "fuzzing process hung or terminated unexpectedly" after its 10 s limit,
// with no stack; fuzzbox reports a hang that is a deadlock, with both
// goroutines' stacks: "the fuzz function's goroutine was blocked (chan
// send), not running". A batch needs the header, a valid command count and
// a sync command before the last one.
package deadlock

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// A Command is one operation of a batch.
type Command struct {
	Op  byte // 'P' put, 'D' delete, 'S' sync
	Key string
}

// Apply decodes a batch and applies its commands in order to db, returning
// the number of syncs acknowledged. A batch is "WB1", a 2-byte big-endian
// command count, then per command an op byte, a key length byte and the key.
func Apply(db map[string]int, batch []byte) (int, error) {
	cmds, err := decode(batch)
	if err != nil {
		return 0, err
	}
	in := make(chan Command)
	acks := make(chan string)
	done := make(chan int)
	go worker(db, in, acks, done)
	syncs := 0
	for _, c := range cmds {
		in <- c
		if c.Op == 'S' {
			syncs++
		}
	}
	close(in)
	acked := 0
	for range syncs {
		<-acks
		acked++
	}
	<-done
	return acked, nil
}

// worker applies the commands it receives. A sync is acknowledged at once:
// the caller is expected to be reading acks only once it has sent the
// batch, so only a sync that ends the batch may do that.
func worker(db map[string]int, in <-chan Command, acks chan<- string, done chan<- int) {
	n := 0
	for c := range in {
		switch c.Op {
		case 'P':
			db[c.Key]++
		case 'D':
			delete(db, c.Key)
		case 'S':
			acks <- c.Key // blocks until the caller reads: after the batch
		}
		n++
	}
	done <- n
}

func decode(b []byte) ([]Command, error) {
	if len(b) < 5 || string(b[:3]) != "WB1" {
		return nil, errors.New("deadlock: not a batch")
	}
	n := int(binary.BigEndian.Uint16(b[3:5]))
	b = b[5:]
	cmds := make([]Command, 0, min(n, 64))
	for i := range n {
		if len(b) < 2 {
			return nil, fmt.Errorf("deadlock: command %d truncated", i)
		}
		op, klen := b[0], int(b[1])
		if op != 'P' && op != 'D' && op != 'S' {
			return nil, fmt.Errorf("deadlock: command %d: bad op %q", i, op)
		}
		if len(b) < 2+klen {
			return nil, fmt.Errorf("deadlock: command %d: key truncated", i)
		}
		cmds = append(cmds, Command{Op: op, Key: string(b[2 : 2+klen])})
		b = b[2+klen:]
	}
	return cmds, nil
}
