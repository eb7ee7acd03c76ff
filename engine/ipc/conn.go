package ipc

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
)

// Conn sends and receives newline-delimited JSON messages over a pair of
// pipes. It is not safe for concurrent use: each side has one goroutine that
// sends calls (or responses) and reads the answers in order.
type Conn struct {
	r   *bufio.Reader
	dec *json.Decoder
	enc *json.Encoder
}

// NewConn returns a Conn reading from r and writing to w.
func NewConn(r io.Reader, w io.Writer) *Conn {
	br := bufio.NewReader(r)
	return &Conn{r: br, dec: json.NewDecoder(br), enc: json.NewEncoder(w)}
}

// Send writes one message.
func (c *Conn) Send(v any) error {
	if err := c.enc.Encode(v); err != nil {
		return fmt.Errorf("ipc: send: %w", err)
	}
	return nil
}

// Recv reads one message into v. It returns io.EOF unwrapped when the
// other side closed its end before a new message began.
func (c *Conn) Recv(v any) error {
	err := c.dec.Decode(v)
	if err == io.EOF {
		return err
	}
	if err != nil {
		return fmt.Errorf("ipc: receive: %w", err)
	}
	return nil
}
