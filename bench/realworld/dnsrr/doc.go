// Package dnsrr fuzzes dns.NewRR, the zone-file (RFC 1035 master file) parser
// of github.com/miekg/dns, as a DNS server that reads records from an API or
// an operator's input would.
//
// Module github.com/miekg/dns v1.1.15; fixed in v1.1.21 (commit 5578703
// "[scan] fix crashers when parsing comment").
// Upstream: https://github.com/miekg/dns/pull/1018 (found by fuzzing NewRR).
// Bug: inside parentheses, a comment that continues after a newline makes
// the lexer add a space and a ';' to its 2048-byte comment buffer with one
// bounds check for two bytes: a comment of exactly the wrong length
// overflows it, "index out of range [2048] with length 2048" in
// (*zlexer).Next.
//
// v1.1.15 has another bug fixed in the same release: a $GENERATE range of
// billions of steps with an empty template makes NewRR loop through every
// step (https://github.com/miekg/dns/issues/1019). It does not match the
// signature and is reported as another failure. (This target first named
// that hang as its bug; in the first two runs of the benchmark fuzzbox found
// the comment overflow within 8 s and no engine found the hang, so the target
// names the bug fuzzing actually reaches.)
//
// Signature: (?s)index out of range \[2048\] with length 2048.*\(\*zlexer\)\.Next
package dnsrr
