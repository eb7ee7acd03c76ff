// Package leak resolves a batch of "name=port" lookups concurrently, the way
// a request handler fans one request out to several backends: one goroutine
// per lookup, each sending its answer on a channel of its own that the
// handler reads in request order, so the response keeps the order of the
// request.
//
// Bug: the handler returns on the first failed lookup without reading the
// answers after it, and the channels are unbuffered: every lookup after the
// failed one stays blocked on its send for ever, a goroutine leaked per bad
// request (a server dies of it after days). Nothing panics and the fuzz test
// passes, so go test -fuzz (with or without -race) reports nothing; fuzzbox
// reports a leak failure once a bad lookup comes before another one ("a=x;b=1").
package leak

import (
	"fmt"
	"strconv"
	"strings"
)

// An Answer is one resolved lookup.
type Answer struct {
	Name string
	Port uint16
}

// Resolve resolves the lookups of req, separated by ';', in order.
func Resolve(req string) ([]Answer, error) {
	lookups := strings.Split(req, ";")
	if len(lookups) > 16 {
		return nil, fmt.Errorf("leak: %d lookups, at most 16", len(lookups))
	}
	type result struct {
		a   Answer
		err error
	}
	chans := make([]chan result, len(lookups))
	for i, l := range lookups {
		chans[i] = make(chan result) // the bug: unbuffered, and not drained on error
		go func() {
			a, err := lookup(l)
			chans[i] <- result{a, err}
		}()
	}
	out := make([]Answer, 0, len(lookups))
	for _, c := range chans {
		r := <-c
		if r.err != nil {
			return nil, r.err
		}
		out = append(out, r.a)
	}
	return out, nil
}

// lookup resolves one "name=port".
func lookup(l string) (Answer, error) {
	name, port, ok := strings.Cut(l, "=")
	if !ok || name == "" {
		return Answer{}, fmt.Errorf("leak: lookup %q is not name=port", l)
	}
	p, err := strconv.ParseUint(port, 10, 16)
	if err != nil {
		return Answer{}, fmt.Errorf("leak: lookup %q: %w", l, err)
	}
	return Answer{Name: name, Port: uint16(p)}, nil
}
