package xpathquery

import (
	"encoding/xml"
	"io"
	"strings"

	"github.com/antchfx/xpath"
)

// Node is one node of a small XML tree.
type Node struct {
	typ      xpath.NodeType
	name     string
	value    string
	attrs    []*Node
	parent   *Node
	children []*Node
}

// Parse reads an XML document into a tree under a root node.
func Parse(s string) (*Node, error) {
	root := &Node{typ: xpath.RootNode}
	cur := root
	d := xml.NewDecoder(strings.NewReader(s))
	for {
		tok, err := d.Token()
		if err != nil {
			if err == io.EOF {
				return root, nil
			}
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &Node{typ: xpath.ElementNode, name: t.Name.Local, parent: cur}
			for _, a := range t.Attr {
				n.attrs = append(n.attrs, &Node{typ: xpath.AttributeNode, name: a.Name.Local, value: a.Value, parent: n})
			}
			cur.children = append(cur.children, n)
			cur = n
		case xml.EndElement:
			cur = cur.parent
		case xml.CharData:
			cur.children = append(cur.children, &Node{typ: xpath.TextNode, value: string(t), parent: cur})
		case xml.Comment:
			cur.children = append(cur.children, &Node{typ: xpath.CommentNode, value: string(t), parent: cur})
		}
	}
}

func (n *Node) text() string {
	switch n.typ {
	case xpath.TextNode, xpath.CommentNode, xpath.AttributeNode:
		return n.value
	}
	var b strings.Builder
	for _, c := range n.children {
		if c.typ != xpath.CommentNode {
			b.WriteString(c.text())
		}
	}
	return b.String()
}

// Navigator is an xpath.NodeNavigator over a tree.
type Navigator struct {
	root, cur *Node
	attr      int
}

// NewNavigator returns a navigator at root.
func NewNavigator(root *Node) *Navigator { return &Navigator{root: root, cur: root, attr: -1} }

func (n *Navigator) NodeType() xpath.NodeType {
	if n.attr >= 0 {
		return xpath.AttributeNode
	}
	return n.cur.typ
}
func (n *Navigator) LocalName() string {
	if n.attr >= 0 {
		return n.cur.attrs[n.attr].name
	}
	return n.cur.name
}
func (n *Navigator) Prefix() string       { return "" }
func (n *Navigator) NamespaceURL() string { return "" }
func (n *Navigator) Value() string {
	if n.attr >= 0 {
		return n.cur.attrs[n.attr].value
	}
	return n.cur.text()
}
func (n *Navigator) Copy() xpath.NodeNavigator { c := *n; return &c }
func (n *Navigator) MoveToRoot()               { n.cur, n.attr = n.root, -1 }
func (n *Navigator) MoveToParent() bool {
	if n.attr >= 0 {
		n.attr = -1
		return true
	}
	if n.cur.parent == nil {
		return false
	}
	n.cur = n.cur.parent
	return true
}
func (n *Navigator) MoveToNextAttribute() bool {
	if n.attr+1 >= len(n.cur.attrs) {
		return false
	}
	n.attr++
	return true
}
func (n *Navigator) MoveToChild() bool {
	if n.attr >= 0 || len(n.cur.children) == 0 {
		return false
	}
	n.cur = n.cur.children[0]
	return true
}
func (n *Navigator) siblings() ([]*Node, int) {
	if n.attr >= 0 || n.cur.parent == nil {
		return nil, -1
	}
	s := n.cur.parent.children
	for i, c := range s {
		if c == n.cur {
			return s, i
		}
	}
	return nil, -1
}
func (n *Navigator) MoveToFirst() bool {
	s, i := n.siblings()
	if i <= 0 {
		return false
	}
	n.cur = s[0]
	return true
}
func (n *Navigator) MoveToNext() bool {
	s, i := n.siblings()
	if i < 0 || i+1 >= len(s) {
		return false
	}
	n.cur = s[i+1]
	return true
}
func (n *Navigator) MoveToPrevious() bool {
	s, i := n.siblings()
	if i <= 0 {
		return false
	}
	n.cur = s[i-1]
	return true
}
func (n *Navigator) MoveTo(other xpath.NodeNavigator) bool {
	o, ok := other.(*Navigator)
	if !ok || o.root != n.root {
		return false
	}
	n.cur, n.attr = o.cur, o.attr
	return true
}
