// Package nilptr resolves the owners of nodes in a file tree whose nodes
// point to their parents and carry optional metadata.
//
// Bug: a mount point's owner is its parent directory's owner, read as
// n.Parent.Meta.Owner.Name with only n.Parent checked: a mount whose parent
// has no metadata (or metadata without an owner) dereferences nil. The seeds
// hold files and directories but no mount: the kind must become "mount" (a
// string from a switch), the node must get a parent (a pointer made non-nil)
// and that parent's Meta or Owner must be nil while the mount's own Meta is
// set and not inheriting. Typed mutation makes pointers nil and non-nil and
// puts compared strings into string fields; as bytes, a pointer is a flag
// byte before a nested encoding and "mount" five exact bytes.
//
// Signature: (?s)nil pointer dereference.*nilptr\.ownerOf
package nilptr

import (
	"errors"
	"fmt"
)

// Node is one entry of the tree.
type Node struct {
	Name   string
	Kind   string // "file", "dir", "link" or "mount"
	Meta   *Meta
	Parent *Node
}

// Meta is a node's metadata.
type Meta struct {
	Mode    uint16
	Owner   *Owner
	Inherit bool // take the owner from the parent
}

// Owner is a user.
type Owner struct {
	UID  uint32
	Name string
}

// Owner returns the name of n's owner.
func OwnerOf(n *Node) (string, error) { return ownerOf(n, 0) }

func ownerOf(n *Node, depth int) (string, error) {
	if n == nil {
		return "", errors.New("nilptr: no node")
	}
	if depth > 32 {
		return "", errors.New("nilptr: tree too deep")
	}
	switch n.Kind {
	case "file", "dir", "link":
		if n.Meta == nil {
			return "", fmt.Errorf("nilptr: %s has no metadata", n.Name)
		}
		if n.Meta.Inherit {
			return ownerOf(n.Parent, depth+1)
		}
		if n.Meta.Owner == nil {
			return "", fmt.Errorf("nilptr: %s has no owner", n.Name)
		}
		return n.Meta.Owner.Name, nil
	case "mount":
		if n.Meta == nil || n.Meta.Inherit {
			return ownerOf(n.Parent, depth+1)
		}
		if n.Parent == nil {
			return "", errors.New("nilptr: mount point without a parent")
		}
		return n.Parent.Meta.Owner.Name, nil // a mount belongs to its directory's owner
	}
	return "", fmt.Errorf("nilptr: %s has unknown kind %q", n.Name, n.Kind)
}
