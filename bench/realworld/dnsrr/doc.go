// Package dnsrr fuzzes dns.NewRR, the zone-file (RFC 1035 master file) parser
// of github.com/miekg/dns, as a DNS server that reads records from an API or
// an operator's input would.
//
// Module github.com/miekg/dns v1.1.15; fixed in v1.1.21 (commit 76b57d0
// "Limit $GENERATE range to 65535 steps").
// Upstream: https://github.com/miekg/dns/issues/1019 (found by fuzzing
// NewRR, with https://github.com/miekg/dns/pull/1016).
// Bug: the $GENERATE directive takes any start-stop range; its reader
// expands the template once per step, so a range of billions of steps whose
// template yields no record keeps NewRR looping through every step: a hang
// (no allocation). (v1.1.15 also has the comment-length panic fixed by
// https://github.com/miekg/dns/pull/1018 in the same release; it does not
// match the signature and is reported as another failure.)
//
// Signature: kind=(hang|hung or exited)|generateReader
package dnsrr
