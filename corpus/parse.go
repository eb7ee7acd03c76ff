package corpus

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"strconv"
)

// Limits that keep Unmarshal linear and its memory bounded on hostile input.
// The toolchain has neither limit; it cannot pass a value larger than its
// 100 MiB shared-memory window to a fuzz worker, whose encoding takes at most
// four bytes a byte (\xNN), and no fuzz function has thousands of arguments,
// so no file the toolchain can use is refused.
const (
	// MaxFileSize is the largest file Unmarshal and ReadDir accept, in bytes:
	// 100 MiB of values written as \xNN escapes, and room for the lines
	// around them.
	MaxFileSize = 4*100<<20 + 1<<20
	// MaxValues is the largest number of values Unmarshal accepts in one file.
	MaxValues = 4096
)

// maxTokens bounds the tokens of one value line. The longest line the
// toolchain accepts, `math.Float64frombits(-0x1...,)`, has 10 (with the
// implicit semicolon), so a longer line is malformed and is never handed to
// go/parser, whose cost grows with the tree it builds.
const maxTokens = 16

// A SyntaxError reports a malformed file. Unmarshal returns it unwrapped;
// ReadDir and the command wrap it in a *FileError.
type SyntaxError struct {
	Line int    // 1-based line of the problem; 1 for a missing or wrong header
	Msg  string // what is wrong, lowercase, without the line
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Unmarshal parses a v1 file. It accepts exactly the files the toolchain
// accepts (within MaxFileSize and MaxValues) and returns the same values. A
// header followed by no value lines is accepted with no values, as the
// toolchain accepts it (CheckTypes then rejects it). Errors are *SyntaxError.
func Unmarshal(data []byte) ([]any, error) {
	vals, _, err := unmarshal(data)
	return vals, err
}

// unmarshal is Unmarshal that also returns the 1-based line of each value.
func unmarshal(data []byte) ([]any, []int, error) {
	if err := checkHeader(data); err != nil {
		return nil, nil, err
	}
	rest := data[bytes.IndexByte(data, '\n')+1:]
	var vals []any
	var lines []int
	for n := 2; ; n++ {
		line, tail, more := bytes.Cut(rest, []byte("\n"))
		rest = tail
		if line = bytes.TrimSpace(line); len(line) > 0 {
			if len(vals) == MaxValues {
				return nil, nil, &SyntaxError{n, fmt.Sprintf("more than %d values", MaxValues)}
			}
			v, err := parseLine(line)
			if err != nil {
				return nil, nil, &SyntaxError{n, fmt.Sprintf("%s: %v", quoteLine(line), err)}
			}
			vals = append(vals, v)
			lines = append(lines, n)
		}
		if !more {
			return vals, lines, nil
		}
	}
}

func checkHeader(data []byte) error {
	switch {
	case len(data) == 0:
		return &SyntaxError{1, "empty file, want header " + strconv.Quote(Version1)}
	case len(data) > MaxFileSize:
		return &SyntaxError{1, fmt.Sprintf("file larger than %d bytes", MaxFileSize)}
	}
	first, _, found := bytes.Cut(data, []byte("\n"))
	if h := bytes.TrimSuffix(first, []byte("\r")); string(h) != Version1 {
		return &SyntaxError{1, fmt.Sprintf("header is %s, want %q", quoteLine(h), Version1)}
	}
	if !found {
		return &SyntaxError{1, "header not followed by a newline"}
	}
	return nil
}

// quoteLine quotes a line for an error message, shortened if long.
func quoteLine(line []byte) string {
	const max = 60
	if len(line) > max {
		return strconv.Quote(string(line[:max])) + "..."
	}
	return strconv.Quote(string(line))
}

// parseLine parses one trimmed, non-empty value line.
func parseLine(line []byte) (any, error) {
	if typ, arg, ok := parseFast(line); ok {
		return convert(typ, arg)
	}
	typ, arg, err := parseSlow(line)
	if err != nil {
		return nil, err
	}
	return convert(typ, arg)
}

// parseSlow parses a line with go/parser, as the toolchain does, after
// checking that its token count is small.
func parseSlow(line []byte) (string, literal, error) {
	if err := scanTokens(line); err != nil {
		return "", literal{}, err
	}
	expr, err := parser.ParseExprFrom(token.NewFileSet(), "", line, 0)
	if err != nil {
		return "", literal{}, fmt.Errorf("not a Go expression: %v", stripPos(err))
	}
	call, ok := expr.(*ast.CallExpr)
	if !ok {
		return "", literal{}, fmt.Errorf("not a conversion like int(1)")
	}
	if len(call.Args) != 1 {
		return "", literal{}, fmt.Errorf("conversion has %d arguments, want 1", len(call.Args))
	}
	typ, err := typeOfFun(call.Fun)
	if err != nil {
		return "", literal{}, err
	}
	arg, err := argLiteral(call.Args[0])
	return typ, arg, err
}

// scanTokens reports a lexical error or more than maxTokens tokens.
func scanTokens(line []byte) error {
	var first error
	var s scanner.Scanner
	file := token.NewFileSet().AddFile("", -1, len(line))
	s.Init(file, line, func(_ token.Position, msg string) {
		if first == nil {
			first = fmt.Errorf("not a Go expression: %s", msg)
		}
	}, 0)
	for n := 0; first == nil; n++ {
		if _, tok, _ := s.Scan(); tok == token.EOF {
			break
		}
		if n == maxTokens {
			return fmt.Errorf("more than %d tokens, not a single value", maxTokens)
		}
	}
	return first
}

// stripPos drops the "1:5: " position prefix of a one-line parse error.
func stripPos(err error) string {
	if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
		return list[0].Msg
	}
	return err.Error()
}

// typeOfFun returns the type name a conversion's function spells:
// "[]byte", "float32-bits", "float64-bits" or an identifier.
func typeOfFun(fun ast.Expr) (string, error) {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name, nil
	case *ast.ArrayType:
		if elt, ok := f.Elt.(*ast.Ident); ok && f.Len == nil && elt.Name == "byte" {
			return "[]byte", nil
		}
		return "", fmt.Errorf("slice or array type other than []byte")
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok && x.Name == "math" {
			switch f.Sel.Name {
			case "Float32frombits":
				return "float32-bits", nil
			case "Float64frombits":
				return "float64-bits", nil
			}
		}
		return "", fmt.Errorf("selector other than math.Float32frombits or math.Float64frombits")
	}
	return "", fmt.Errorf("not a conversion to a supported type")
}

// argLiteral classifies a conversion's argument the way the toolchain does:
// a literal, a negated literal, true/false, NaN, or Inf under a unary operator.
func argLiteral(arg ast.Expr) (literal, error) {
	switch a := arg.(type) {
	case *ast.BasicLit:
		return literal{a.Kind, a.Value}, nil
	case *ast.Ident:
		switch a.Name {
		case "true", "false":
			return literal{token.IDENT, a.Name}, nil
		case "NaN":
			return literal{token.FLOAT, "NaN"}, nil
		}
		return literal{}, fmt.Errorf("identifier %s is not a value", a.Name)
	case *ast.UnaryExpr:
		switch x := a.X.(type) {
		case *ast.BasicLit:
			if a.Op != token.SUB {
				return literal{}, fmt.Errorf("operator %s on a literal", a.Op)
			}
			return literal{x.Kind, "-" + x.Value}, nil
		case *ast.Ident:
			if x.Name == "Inf" {
				// The toolchain reads any operator other than - as +.
				if a.Op == token.SUB {
					return literal{token.FLOAT, "-Inf"}, nil
				}
				return literal{token.FLOAT, "+Inf"}, nil
			}
		}
		return literal{}, fmt.Errorf("operator %s on something other than a literal or Inf", a.Op)
	}
	return literal{}, fmt.Errorf("argument is not a literal")
}
