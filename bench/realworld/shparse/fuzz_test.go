package shparse

import (
	"bytes"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

func FuzzParse(f *testing.F) {
	f.Add([]byte("echo foo | grep -v bar > out.txt\n"))
	f.Add([]byte("for i in 1 2 3; do\n\techo \"$i\"\ndone\n"))
	f.Add([]byte("if [ -f \"$HOME/.profile\" ]; then . \"$HOME/.profile\"; fi\n"))
	f.Add([]byte("name=${1:-world}\nprintf 'hello %s\\n' \"$name\"\n"))
	f.Add([]byte("today=`date +%F`\ncat <<EOF\n$today\nEOF\n"))
	f.Add([]byte("f() { local x=$(( $1 * 2 )); echo \"${x}\" 2>&1; }\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		_, _ = syntax.NewParser().Parse(bytes.NewReader(src), "")
	})
}
