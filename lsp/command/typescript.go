package command

import (
	"fmt"
	"reflect"
	"strings"
)

// wireTypes are the argument and answer types the TypeScript copy declares.
var wireTypes = []any{FuzzArgs{}, EntryArgs{}, FolderArgs{}, GeneratedArgs{}, InitOptions{}, TestList{}, TestInfo{}, EntryInfo{}, GeneratedCorpus{},
	RunEvent{}, Failure{}, Frame{}, CoverageReport{}, FileCoverage{}, Block{}, Gap{}, DebugInfo{}}

// TypeScript returns the TypeScript module that mirrors this package for the
// VS Code extension (editors/vscode/src/commands.ts).
func TypeScript() string {
	var b strings.Builder
	b.WriteString("// Code generated from lsp/command by `go test ./lsp/command -update`. DO NOT EDIT.\n\n")
	b.WriteString("export const commands = {\n")
	for _, c := range All {
		fmt.Fprintf(&b, "  %s: { name: %q, title: %q },\n", tsKey(c.Name), c.Name, c.Title)
	}
	b.WriteString("} as const;\n\n// Client commands: the extension registers them.\nexport const clientCommands = {\n")
	for _, c := range ClientCommands {
		fmt.Fprintf(&b, "  %s: { name: %q, title: %q },\n", tsKey(c.Name), c.Name, c.Title)
	}
	b.WriteString("} as const;\n\n")
	fmt.Fprintf(&b, "export const runNotification = %q;\n", RunNotification)
	fmt.Fprintf(&b, "export const testsChangedNotification = %q;\n\n", TestsChanged)
	b.WriteString("export const runKinds = { fuzz: \"" + KindFuzz + "\", seeds: \"" + KindSeeds + "\", entry: \"" + KindEntry + "\" } as const;\n")
	fmt.Fprintf(&b, "export const runStates = { started: %q, progress: %q, passed: %q, failed: %q, stopped: %q, errored: %q } as const;\n",
		StateStarted, StateProgress, StatePassed, StateFailed, StateStopped, StateErrored)
	for _, t := range wireTypes {
		rt := reflect.TypeOf(t)
		fmt.Fprintf(&b, "\nexport interface %s {\n", rt.Name())
		for i := 0; i < rt.NumField(); i++ {
			f := rt.Field(i)
			fmt.Fprintf(&b, "  %s: %s;\n", strings.Split(f.Tag.Get("json"), ",")[0], tsType(f.Type))
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// tsType is the TypeScript type of a Go field type of the wire types.
func tsType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Int, reflect.Int64, reflect.Float64:
		return "number"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice:
		return tsType(t.Elem()) + "[]"
	case reflect.Pointer:
		return tsType(t.Elem()) + " | null"
	case reflect.Struct:
		return t.Name()
	}
	panic("command: no TypeScript type for " + t.String())
}

// tsKey turns "fuzzbox.runSeeds" into "runSeeds".
func tsKey(name string) string { return strings.TrimPrefix(name, "fuzzbox.") }
