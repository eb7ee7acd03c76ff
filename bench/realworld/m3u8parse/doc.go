// Package m3u8parse fuzzes the HLS playlist decoder of
// github.com/grafov/m3u8 (m3u8.Decode, strict and not: media and master
// playlists, their #EXT tags and attribute lists), as a video player or a
// stream proxy reading playlists from the network does. A playlist is a
// permissive, line-based text format: every line is a tag, a comment or a
// URI, and unknown tags are kept as they are, so nearly every input decodes
// and coverage grows from the first mutants on, as in a markup parser.
//
// Module github.com/grafov/m3u8 v0.12.1, the last release (2024); not fixed
// in any release. Upstream: https://github.com/grafov/m3u8/issues/166 and
// PR #178 (open since 2021). Bug: an #EXT-X-MAP tag applies to the next
// segment, and decodeLineOfMediaPlaylist attaches it when a URI line comes,
// to the last segment, without checking that there is one: a map tag
// followed by a URI before any #EXTINF ("#EXT-X-MAP:\nx") dereferences a nil
// segment. The input is short but needs the exact tag, one of about forty
// the decoder compares each line with.
//
// Signature: nil pointer dereference(?s:.*)m3u8\.decodeLineOfMediaPlaylist
package m3u8parse
