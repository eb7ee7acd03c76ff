package main

import (
	"io"
	"os"

	"github.com/fuzzbox/fuzzbox/driver/build"
)

func init() {
	register(&command{name: "toolexec", hidden: true,
		short: "run a go tool on behalf of go test -toolexec (used by fuzzbox fuzz)",
		run:   runToolexec})
}

// runToolexec is run by the go command, as -toolexec="fuzzbox toolexec",
// with the tool's path and arguments; see build.Toolexec. The tool reads the
// process's real standard input.
func runToolexec(args []string, stdout, stderr io.Writer) int {
	return build.Toolexec(args, os.Stdin, stdout, stderr)
}
