// Package plistdecode fuzzes property list decoding in howett.net/plist
// (plist.Unmarshal into an interface{}), as a program reading an Xcode
// project, an Info.plist or a GNUstep defaults file does. Unmarshal takes
// the binary, XML, OpenStep and GNUstep formats; the target's seeds are the
// text formats, OpenStep ({ key = value; }, ( a, b ), <hex data>) and
// GNUstep's extended values (<*I12>, <*BY>, <*R1.5>, <*D2011-...>).
//
// Module howett.net/plist v1.0.0 (github.com/DHowett/go-plist); fixed in
// v1.0.1 (commit 5afcd13 "text: address out-of-bounds panic in
// parseGNUStepValue", pull request https://github.com/DHowett/go-plist/pull/79,
// 2023, found by fuzzing Decode). Bug: a GNUstep extended value may be quoted
// (<*I"12">, supported since 2020); the parser checks that an unquoted value
// is not empty but not a quoted one, so an integer or boolean value whose
// quotes are empty (<*B"">, <*I"">) reads v[0] of an empty string: "index out
// of range [0] with length 0" in (*textPlistParser).parseGNUStepValue, which
// the parser's and the decoder's recovers pass on, as they do every runtime
// error.
//
// Signature: index out of range(?s:.*)\(\*textPlistParser\)\.parseGNUStepValue
package plistdecode
