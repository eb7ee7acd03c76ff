package hclparse

import (
	"testing"

	"github.com/hashicorp/hcl"
)

func FuzzUnmarshal(f *testing.F) {
	f.Add([]byte("variable \"region\" {\n  default = \"us-east-1\"\n}\n"))
	f.Add([]byte("service \"web\" {\n  port    = 8080\n  tags    = [\"a\", \"b\"]\n  enabled = true\n}\n"))
	f.Add([]byte("# comment\nname  = \"demo\"\nratio = 1.5\nlist  = [1, 2, 3]\n"))
	f.Add([]byte("resource \"aws_instance\" \"web\" {\n  ami   = \"ami-123\"\n  count = 2\n  /* block */\n}\n"))
	f.Add([]byte("foo = \"bar\\\"baz\\\\n\"\nheredoc = <<EOF\nhello\nEOF\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var out interface{}
		_ = hcl.Unmarshal(data, &out)
	})
}
