// Package hzgb2312 fuzzes the HZ-GB2312 decoder of
// golang.org/x/text/encoding/simplifiedchinese, as a mail or news reader that
// decodes HZ-encoded text would.
//
// Module golang.org/x/text v0.3.2; fixed in v0.3.5 (commit c27b9fd
// "encoding/simplifiedchinese: fix incorrect transform count to avoid
// infinite loop").
// Upstream: https://github.com/golang/go/issues/35118.
// Bug: when the last byte of the input is a lone '~' escape character, the
// decoder does not count it as consumed: with nothing consumed before it,
// Transform writes a replacement character and loops forever, and
// transform.String keeps doubling its output buffer (a hang whose heap grows
// by gigabytes: engines report a hang or running out of memory); after other
// characters, it reports a stale count and transform.String slices past the
// end of its buffer ("slice bounds out of range" in transform.String).
//
// Signature: kind=(hang|oom|hung or exited)|out of memory|hzGB2312Decoder|transform\.String
package hzgb2312
