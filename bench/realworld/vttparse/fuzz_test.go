package vttparse

import (
	"bytes"
	"testing"

	"github.com/asticode/go-astisub"
)

func FuzzReadWebVTT(f *testing.F) {
	f.Add([]byte("WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nHello, world.\n\n00:00:05.000 --> 00:00:08.500 align:start position:10%\n<v Roger>How are you?</v>\n"))
	f.Add([]byte("WEBVTT - Kind: captions\n\nNOTE a comment\nthat spans two lines\n\n1\n00:01.000 --> 00:02.000\n- Ready?\n- <i>Go!</i>\n"))
	f.Add([]byte("WEBVTT\n\nSTYLE\n::cue {\n  color: yellow;\n}\n\nREGION\nid:fred width:40% lines:3 regionanchor:0%,100% viewportanchor:10%,90% scroll:up\n\n00:00:00.000 --> 00:00:20.000 region:fred align:left\n<c.yellow>Hi</c>\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = astisub.ReadFromWebVTT(bytes.NewReader(data))
	})
}
