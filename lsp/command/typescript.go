package command

import (
	"fmt"
	"reflect"
	"strings"
)

// TypeScript returns the TypeScript module that mirrors this package for the
// VS Code extension (editors/vscode/src/commands.ts).
func TypeScript() string {
	var b strings.Builder
	b.WriteString("// Code generated from lsp/command by `go test ./lsp/command -update`. DO NOT EDIT.\n\n")
	b.WriteString("export const commands = {\n")
	for _, c := range All {
		fmt.Fprintf(&b, "  %s: { name: %q, title: %q },\n", tsKey(c.Name), c.Name, c.Title)
	}
	b.WriteString("} as const;\n")
	for _, t := range []any{FuzzArgs{}, EntryArgs{}} {
		rt := reflect.TypeOf(t)
		fmt.Fprintf(&b, "\nexport interface %s {\n", rt.Name())
		for i := 0; i < rt.NumField(); i++ {
			f := rt.Field(i)
			fmt.Fprintf(&b, "  %s: string;\n", strings.Split(f.Tag.Get("json"), ",")[0])
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// tsKey turns "fuzzbox.runSeeds" into "runSeeds".
func tsKey(name string) string { return strings.TrimPrefix(name, "fuzzbox.") }
