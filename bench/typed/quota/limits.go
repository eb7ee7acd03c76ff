// Package quota builds per-route rate limiters from a table of limits:
// route pattern to requests per second.
//
// Bug: the reload endpoint gets four times its rate as burst, computed in
// int32: a limit whose four-fold wraps below -65536 (2^29 to 2^30-2^14, or
// 3·2^29 to 2^31-2^14; not MaxInt32, whose four-fold is -4) makes a negative
// burst, and the bucket's slot ring is allocated with a negative length. It
// needs one map entry whose key is exactly "/admin/reload" (a string
// compared in a loop over the map) and such a value: as bytes, a 13-byte key at
// a length-prefixed offset and a four-byte value after it. Typed mutation
// adds entries and puts the compared string in a key; a random value or a
// flipped high bit is in range a quarter of the time.
//
// Signature: (?s)makeslice: len out of range.*quota\.newBucket
package quota

import (
	"fmt"
	"strings"
)

// reloadRoute may burst: config reloads come in waves from every replica.
const reloadRoute = "/admin/reload"

// slotWidth is how many tokens one slot of a bucket's ring holds.
const slotWidth = 1 << 16

// Limits maps a route pattern ("/api/users", "/static/*") to its limit in
// requests per second; 0 means no limit.
type Limits map[string]int32

// Limiter holds one token bucket per limited route.
type Limiter struct {
	exact  map[string]*bucket
	prefix map[string]*bucket // patterns ending in "/*", without the star
}

type bucket struct {
	rate, burst int32
	slots       []int64 // a ring of refill times, one per slotWidth tokens
}

// New checks l and builds its limiter.
func New(l Limits) (*Limiter, error) {
	lim := &Limiter{exact: map[string]*bucket{}, prefix: map[string]*bucket{}}
	for route, rps := range l {
		if !strings.HasPrefix(route, "/") || strings.Contains(route, "//") {
			return nil, fmt.Errorf("quota: bad route %q", route)
		}
		if rps < 0 {
			return nil, fmt.Errorf("quota: negative limit %d for %q", rps, route)
		}
		if rps == 0 {
			continue
		}
		burst := rps
		if route == reloadRoute {
			burst = rps * 4
		}
		b := newBucket(rps, burst)
		if p, ok := strings.CutSuffix(route, "*"); ok {
			lim.prefix[p] = b
		} else {
			lim.exact[route] = b
		}
	}
	return lim, nil
}

func newBucket(rate, burst int32) *bucket {
	return &bucket{rate: rate, burst: burst, slots: make([]int64, burst/slotWidth+1)}
}

// Limit returns the rate limiting path, 0 if none.
func (l *Limiter) Limit(path string) int32 {
	if b, ok := l.exact[path]; ok {
		return b.rate
	}
	best, rate := -1, int32(0)
	for p, b := range l.prefix {
		if strings.HasPrefix(path, p) && len(p) > best {
			best, rate = len(p), b.rate
		}
	}
	return rate
}
