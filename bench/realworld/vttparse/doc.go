// Package vttparse fuzzes the WebVTT subtitle reader of
// github.com/asticode/go-astisub (astisub.ReadFromWebVTT: the header, cues
// with their timings and settings, NOTE, STYLE and REGION blocks), as a
// video platform reading uploaded captions does. WebVTT is permissive text:
// after the header, every line is a cue's text, a timing line or a block
// keyword, and a cue's text is free.
//
// Module github.com/asticode/go-astisub v0.39.0; fixed in v0.40.0.
// Upstream: https://github.com/asticode/go-astisub/pull/142 (2026). Bug: a
// timing line is split on "-->" and the end time read as the first field
// after it, without checking that there is one: a cue whose timing line
// has a valid start time and nothing after the arrow ("00:01.000 -->")
// panics with "index out of range [0] with length 0" in ReadFromWebVTT.
// The same bug in the SRT reader (PR #144) is not reached: the fuzz test
// reads WebVTT only.
//
// Signature: index out of range \[0\] with length 0(?s:.*)astisub\.ReadFromWebVTT
package vttparse
