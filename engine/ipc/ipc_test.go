package ipc

import (
	"bytes"
	"errors"
	"io"
	"os"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestMem(t *testing.T) {
	m, err := CreateMem(16, 5)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if m.ValueCap() != 16 || len(m.Coverage()) != 5 || len(m.Value()) != 0 || m.Execs() != 0 {
		t.Fatalf("new region: cap %d, coverage %d, value %q, execs %d", m.ValueCap(), len(m.Coverage()), m.Value(), m.Execs())
	}
	if !m.SetValue([]byte("hello")) {
		t.Fatal("SetValue of 5 bytes into 16 refused")
	}
	copy(m.Coverage(), []byte{1, 2, 3, 4, 5})
	m.AddExec()
	m.AddExec()

	// A second mapping of the same file, as a worker gets it.
	fd, err := syscall.Dup(int(m.File().Fd()))
	if err != nil {
		t.Fatal(err)
	}
	w, err := OpenMem(os.NewFile(uintptr(fd), "dup"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if string(w.Value()) != "hello" || !bytes.Equal(w.Coverage(), []byte{1, 2, 3, 4, 5}) || w.Execs() != 2 || w.ValueCap() != 16 {
		t.Fatalf("opened region: value %q, coverage %v, execs %d, cap %d", w.Value(), w.Coverage(), w.Execs(), w.ValueCap())
	}
	// Writes through either mapping are seen by the other.
	w.SetValue([]byte("x"))
	w.Coverage()[4] = 9
	w.AddExec()
	if string(m.Value()) != "x" || m.Coverage()[4] != 9 || m.Execs() != 3 {
		t.Fatalf("creator sees value %q, coverage %v, execs %d", m.Value(), m.Coverage(), m.Execs())
	}
	// The coordinator's word that the input held the memory limit
	// elsewhere reaches the worker; the other flags stay as they were.
	if w.Held() {
		t.Fatal("a new region says held")
	}
	m.SetHeld()
	if !w.Held() || w.Ready() || w.Settling() {
		t.Fatalf("after SetHeld: held %v, ready %v, settling %v", w.Held(), w.Ready(), w.Settling())
	}
	// Exactly the capacity fits; one more byte does not and changes nothing.
	full := bytes.Repeat([]byte("f"), 16)
	if !m.SetValue(full) || !bytes.Equal(w.Value(), full) {
		t.Fatalf("a value of exactly the capacity: %q", w.Value())
	}
	if m.SetValue(bytes.Repeat([]byte("g"), 17)) {
		t.Fatal("SetValue accepted a value larger than the capacity")
	}
	if !bytes.Equal(m.Value(), full) {
		t.Fatalf("a refused SetValue changed the value to %q", m.Value())
	}
	if !m.SetValue(nil) || len(w.Value()) != 0 {
		t.Fatalf("empty value: %q", w.Value())
	}
}

func TestMemZeroCoverage(t *testing.T) {
	m, err := CreateMem(8, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if len(m.Coverage()) != 0 || !m.SetValue([]byte("12345678")) {
		t.Fatalf("coverage %d", len(m.Coverage()))
	}
}

func TestOpenMemBadFile(t *testing.T) {
	for _, size := range []int64{0, 10, 100} {
		f, err := os.CreateTemp(t.TempDir(), "mem")
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
		// The header claims nothing (zeros), so only a 64-byte file is
		// consistent; 100 bytes is not.
		m, err := OpenMem(f)
		if err == nil {
			m.Close()
			t.Errorf("OpenMem of a %d-byte file without a valid header succeeded", size)
		}
	}
}

func TestConn(t *testing.T) {
	// Two pipes, as between the coordinator and a worker.
	callR, callW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	coord := NewConn(respR, callW)
	worker := NewConn(callR, respW)

	calls := []Call{
		{Fuzz: &FuzzArgs{Limit: 10, Duration: 200 * time.Millisecond, Seed: 1<<64 - 1, Trace: true, MaxLen: 7, Stall: 3,
			Splice: [][]byte{{0, 1, 0xff}}, Dict: [][]byte{[]byte("tok"), {}}}},
		{Run: &RunArgs{Trace: true}},
		{Minimize: &MinimizeArgs{Limit: 3, Duration: time.Second, Kind: "panic", Key: "k", Refuse: []int64{2}}},
	}
	done := make(chan error, 1)
	go func() {
		for range calls {
			var c Call
			if err := worker.Recv(&c); err != nil {
				done <- err
				return
			}
			if err := worker.Send(FuzzResponse{Execs: 5, Err: "boom\n\xff", Tokens: [][]byte{{9}}}); err != nil {
				done <- err
				return
			}
			if err := worker.Send(c); err != nil { // echo
				done <- err
				return
			}
		}
		respW.Close()
		done <- nil
	}()
	for _, c := range calls {
		if err := coord.Send(c); err != nil {
			t.Fatal(err)
		}
		var r FuzzResponse
		if err := coord.Recv(&r); err != nil {
			t.Fatal(err)
		}
		if r.Execs != 5 || r.Err != "boom\n\ufffd" || !reflect.DeepEqual(r.Tokens, [][]byte{{9}}) {
			t.Errorf("response = %+v", r)
		}
		var echo Call
		if err := coord.Recv(&echo); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(echo, c) {
			t.Errorf("call changed on the wire:\n got %+v\nwant %+v", echo, c)
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The worker closed its end: EOF, unwrapped.
	var r FuzzResponse
	if err := coord.Recv(&r); err != io.EOF {
		t.Errorf("Recv after the other side closed = %v, want io.EOF", err)
	}
	// The coordinator closes the call pipe: the worker sees EOF too.
	callW.Close()
	var c Call
	if err := worker.Recv(&c); err != io.EOF {
		t.Errorf("worker Recv after close = %v, want io.EOF", err)
	}
}

func TestConnTruncatedMessage(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString(`{"Run":{"Trace":tr`)
	w.Close()
	var c Call
	err = NewConn(r, io.Discard).Recv(&c)
	if err == nil || err == io.EOF || !strings.HasPrefix(err.Error(), "ipc: receive") {
		t.Errorf("Recv of a truncated message = %v, want a wrapped ipc: receive error", err)
	}
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("error %v does not wrap io.ErrUnexpectedEOF", err)
	}
}

func TestConnSendClosed(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	err = NewConn(strings.NewReader(""), w).Send(Call{Run: &RunArgs{}})
	if err == nil || !strings.HasPrefix(err.Error(), "ipc: send") {
		t.Errorf("Send to a closed pipe = %v, want an ipc: send error", err)
	}
}
