package fuzztyped

import (
	"go/token"
	"go/types"
	"strings"

	"github.com/fuzzbox/fuzzbox/internal/stdlib"
)

// The type rules of the typed package (keep in sync with its run-time check).

// marshalers are the method pairs through which typed encodes a type without
// looking into it: encoding.BinaryMarshaler and BinaryUnmarshaler, or
// encoding.TextMarshaler and TextUnmarshaler.
var marshalers = []*types.Interface{
	methods("MarshalBinary", "UnmarshalBinary"),
	methods("MarshalText", "UnmarshalText"),
}

// methods returns interface{ marshal() ([]byte, error); unmarshal([]byte) error }.
func methods(marshal, unmarshal string) *types.Interface {
	bytes := types.NewVar(token.NoPos, nil, "", types.NewSlice(types.Typ[types.Byte]))
	err := types.NewVar(token.NoPos, nil, "", types.Universe.Lookup("error").Type())
	m := types.NewFunc(token.NoPos, nil, marshal, types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(bytes, err), false))
	u := types.NewFunc(token.NoPos, nil, unmarshal, types.NewSignatureType(nil, nil, nil, types.NewTuple(bytes), types.NewTuple(err), false))
	return types.NewInterfaceType([]*types.Func{m, u}, nil).Complete()
}

// isMarshaler reports whether t or *t has one of the marshaler method pairs,
// not both promoted from an embedded field (typed encodes a struct that
// embeds time.Time field by field: time.Time's methods would write the
// time alone).
func isMarshaler(t types.Type) bool {
	for _, m := range marshalers {
		if (types.Implements(t, m) || types.Implements(types.NewPointer(t), m)) && ownMethods(t, m) {
			return true
		}
	}
	return false
}

// ownMethods reports whether t or *t declares one of iface's methods
// itself: a method of a type that is not a struct always is its own.
func ownMethods(t types.Type, iface *types.Interface) bool {
	if _, ok := t.Underlying().(*types.Struct); !ok {
		return true
	}
	ms := types.NewMethodSet(types.NewPointer(t))
	for m := range iface.Methods() {
		if sel := ms.Lookup(nil, m.Name()); sel != nil && len(sel.Index()) == 1 {
			return true
		}
	}
	return false
}

// A typeWalker looks for the first part of a type that cannot be fuzzed.
type typeWalker struct {
	qf   types.Qualifier
	seen map[*types.Named]bool // named types entered: a recursive type is checked once
}

// unfuzzable returns why t cannot be fuzzed, as the path from t to the first
// offending type in field and element order ("element of []Rule: field
// Rule.Match is an interface (any)"), or "" if t can be fuzzed or is not
// known (a type parameter, an invalid type).
func unfuzzable(t types.Type, qf types.Qualifier) string {
	w := &typeWalker{qf: qf, seen: map[*types.Named]bool{}}
	return w.walk(t, "")
}

// walk checks t, reached through path ("" for the root).
func (w *typeWalker) walk(t types.Type, path string) string {
	t = types.Unalias(t)
	if n, ok := t.(*types.Named); ok {
		if w.seen[n] {
			return ""
		}
		w.seen[n] = true
	}
	if _, ok := t.Underlying().(*types.Interface); ok {
		return is(path, "an interface ("+types.TypeString(t, w.qf)+")")
	}
	if isMarshaler(t) {
		return ""
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Kind() == types.UnsafePointer {
			return is(path, "unsafe.Pointer")
		}
	case *types.Chan:
		return is(path, "a chan")
	case *types.Signature:
		return is(path, "a func")
	case *types.Pointer:
		return w.walk(u.Elem(), path)
	case *types.Slice:
		return w.walk(u.Elem(), step(path, "element of "+w.str(t)))
	case *types.Array:
		if u.Len() == 0 {
			return "" // holds no value, whatever its element (protobuf's DoNotCompare)
		}
		return w.walk(u.Elem(), step(path, "element of "+w.str(t)))
	case *types.Map:
		if why := w.walk(u.Key(), step(path, "map key of "+w.str(t))); why != "" {
			return why
		}
		return w.walk(u.Elem(), step(path, "map value of "+w.str(t)))
	case *types.Struct:
		return w.fields(t, u, path)
	}
	return "" // the other basic types; type parameters are not known
}

// fields checks the fields of struct type t (u is its underlying struct).
func (w *typeWalker) fields(t types.Type, u *types.Struct, path string) string {
	owner := ""
	if _, named := t.(*types.Named); named {
		owner = w.str(t) + "."
	}
	for f := range u.Fields() {
		if f.Name() == "_" || !f.Exported() && f.Pkg() != nil && stdlib.Contains(f.Pkg().Path()) {
			continue
		}
		if why := w.walk(f.Type(), step(path, "field "+owner+f.Name())); why != "" {
			if isProtoMessage(t) && !strings.Contains(why, protoHint) {
				why += " (" + w.str(t) + protoHint + ")"
			}
			return why
		}
	}
	return ""
}

// protoHint follows a protocol buffer message's name in a refusal: its
// generated struct's internal state holds interfaces.
const protoHint = " is a protocol buffer message: fuzz its wire form, a []byte for proto.Unmarshal, or its fields' values"

// isProtoMessage reports whether t is a generated protocol buffer message:
// *t has a ProtoReflect method.
func isProtoMessage(t types.Type) bool {
	sel := types.NewMethodSet(types.NewPointer(t)).Lookup(nil, "ProtoReflect")
	return sel != nil
}

func (w *typeWalker) str(t types.Type) string { return types.TypeString(t, w.qf) }

// step appends a step to a path.
func step(path, s string) string {
	if path == "" {
		return s
	}
	return path + ": " + s
}

// is says what the type at path is; at the root it is "it".
func is(path, what string) string {
	if path == "" {
		path = "it"
	}
	return path + " is " + what
}
