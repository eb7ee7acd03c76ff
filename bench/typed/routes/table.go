// Package routes is a forwarding table: routes to netip.Prefix
// destinations through netip.Addr gateways, with longest-prefix lookup.
//
// Bug: Add finds an existing route to replace by the destination as given,
// but indexes and looks routes up by the masked destination, so a route to
// 10.1.2.3/8 after one to 10.0.0.0/8 is added as a second route to the same
// network, and a lookup of an address in it finds two equally long matches
// and panics on the inconsistent table. Each seed holds one route. It takes
// two routes whose
// destinations differ only in their host bits, in the same address family
// as their gateways, and a probe inside them. The arguments are marshaled
// types (netip.Prefix and netip.Addr encode through MarshalBinary): typed
// mutation copies a route within the slice, changes one byte of its
// destination's marshaled form and keeps only values UnmarshalBinary
// accepts; as bytes, the slice's count, a whole length-prefixed route and a
// host byte must all change together.
//
// Signature: BUG routes:
package routes

import (
	"errors"
	"fmt"
	"net/netip"
)

// Route sends traffic for Dst to the gateway Via.
type Route struct {
	Dst    netip.Prefix
	Via    netip.Addr
	Metric uint16
}

// Table is a forwarding table.
type Table struct {
	routes []Route
	byDst  map[netip.Prefix]int // masked destination → index in routes
}

// New returns an empty table.
func New() *Table { return &Table{byDst: map[netip.Prefix]int{}} }

// Add adds r, or replaces the route to the same destination.
func (t *Table) Add(r Route) error {
	if !r.Dst.IsValid() || !r.Via.IsValid() {
		return errors.New("routes: invalid destination or gateway")
	}
	if r.Dst.Addr().Is4() != r.Via.Is4() || r.Dst.Addr().Zone() != "" {
		return fmt.Errorf("routes: gateway %s cannot reach %s", r.Via, r.Dst)
	}
	if i, ok := t.byDst[r.Dst]; ok {
		t.routes[i] = r
		return nil
	}
	t.byDst[r.Dst.Masked()] = len(t.routes)
	t.routes = append(t.routes, r)
	return nil
}

// Lookup returns the route of the longest prefix containing a.
func (t *Table) Lookup(a netip.Addr) (Route, bool) {
	best := -1
	for i, r := range t.routes {
		if !r.Dst.Contains(a) {
			continue
		}
		switch {
		case best >= 0 && r.Dst.Bits() == t.routes[best].Dst.Bits():
			panic(fmt.Sprintf("BUG routes: two routes to %s (%s and %s)", r.Dst.Masked(), t.routes[best].Dst, r.Dst))
		case best < 0 || r.Dst.Bits() > t.routes[best].Dst.Bits():
			best = i
		}
	}
	if best < 0 {
		return Route{}, false
	}
	return t.routes[best], true
}
