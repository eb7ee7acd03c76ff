package typed

import (
	"bytes"
	"reflect"
	"slices"
)

// A tree is a decoded input with an index of its places: every value
// inside the arguments (struct fields, elements, map keys and values,
// pointed-to values) in a fixed pre-order, so the same input gives the
// same numbering, which the minimizer relies on.
type tree struct {
	h       *harness
	args    []reflect.Value
	nodes   []node
	entries []mapEntry
	// unordered indexes map entries in iteration order, which costs no
	// sorting but numbers them differently each time: for mutation, not
	// for the minimizer.
	unordered bool
}

// A node is one place in a tree. Its value is settable: map keys and values,
// which are not, are indexed through settable copies that commit writes
// back.
type node struct {
	c     *codec
	v     reflect.Value
	entry int // the innermost map entry holding the node, or -1
	depth int // pointers, slices and maps above it
}

type mapEntry struct {
	m        reflect.Value // the map
	orig     reflect.Value // the entry's key in m
	key, val reflect.Value // settable copies
}

// maxNodes bounds the places a tree indexes (the first ones in pre-order).
const maxNodes = 1 << 12

func (h *harness) tree(data []byte) *tree {
	t := &tree{h: h, args: h.decode(data), nodes: make([]node, 0, 32)}
	t.index()
	return t
}

// unorderedTree is tree with map entries in iteration order (Mutate).
func (h *harness) unorderedTree(data []byte) *tree {
	t := &tree{h: h, args: h.decode(data), nodes: make([]node, 0, 32), unordered: true}
	t.index()
	return t
}

// index (re)builds the node list from the arguments.
func (t *tree) index() {
	t.nodes, t.entries = t.nodes[:0], t.entries[:0]
	for i, v := range t.args {
		t.walk(t.h.codecs[i], v, -1, 0)
	}
}

func (t *tree) walk(c *codec, v reflect.Value, entry, depth int) {
	if len(t.nodes) >= maxNodes {
		return
	}
	t.nodes = append(t.nodes, node{c: c, v: v, entry: entry, depth: depth})
	switch c.kind {
	case kStruct:
		for _, f := range c.fields {
			t.walk(f.c, fieldOf(v, f), entry, depth)
		}
	case kArray:
		if c.elem.kind != kUint || c.elem.size != 1 {
			for i := range v.Len() {
				t.walk(c.elem, v.Index(i), entry, depth)
			}
		}
	case kSlice:
		for i := range v.Len() {
			t.walk(c.elem, v.Index(i), entry, depth+1)
		}
	case kPtr:
		if !v.IsNil() {
			t.walk(c.elem, v.Elem(), entry, depth+1)
		}
	case kMap:
		t.walkMap(c, v, depth+1)
	}
}

// walkMap indexes a map's entries in the order of their keys' encodings.
func (t *tree) walkMap(c *codec, m reflect.Value, depth int) {
	keys := m.MapKeys
	if !t.unordered {
		keys = func() []reflect.Value { return sortedKeys(c, m) }
	}
	for _, k := range keys() {
		e := mapEntry{m: m, orig: k, key: reflect.New(c.key.t).Elem(), val: reflect.New(c.elem.t).Elem()}
		e.key.Set(k)
		e.val.Set(m.MapIndex(k))
		t.entries = append(t.entries, e)
		i := len(t.entries) - 1
		t.walk(c.key, e.key, i, depth)
		t.walk(c.elem, e.val, i, depth)
	}
}

// sortedKeys returns map m's keys in the order of their encodings.
func sortedKeys(c *codec, m reflect.Value) []reflect.Value {
	type kv struct {
		enc []byte
		k   reflect.Value
	}
	keys := make([]kv, 0, m.Len())
	for it := m.MapRange(); it.Next(); {
		e := encoder{}
		_ = e.encode(c.key, it.Key())
		keys = append(keys, kv{e.b, it.Key()})
	}
	slices.SortFunc(keys, func(a, b kv) int { return bytes.Compare(a.enc, b.enc) })
	out := make([]reflect.Value, len(keys))
	for i, k := range keys {
		out[i] = k.k
	}
	return out
}

// commit writes a change to node n back into the map entry holding it.
func (t *tree) commit(n node) {
	if n.entry < 0 {
		return
	}
	e := t.entries[n.entry]
	e.m.SetMapIndex(e.orig, reflect.Value{})
	e.m.SetMapIndex(e.key, e.val)
}

// encode returns the tree's arguments encoded, or nil, into a buffer sized
// for an input about n bytes long.
func (t *tree) encode(n int) []byte {
	e := encoder{b: make([]byte, 0, n+16)}
	if e.values(t.h.codecs, t.args) != nil {
		return nil
	}
	return e.b
}
