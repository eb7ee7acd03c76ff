package m3u8parse

import (
	"bytes"
	"testing"

	"github.com/grafov/m3u8"
)

func FuzzDecode(f *testing.F) {
	f.Add([]byte("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:9.009,\nsegment0.ts\n#EXTINF:9.009,\nsegment1.ts\n#EXT-X-ENDLIST\n"))
	f.Add([]byte("#EXTM3U\n#EXT-X-STREAM-INF:PROGRAM-ID=1,BANDWIDTH=1280000,RESOLUTION=1280x720,CODECS=\"avc1.4d401f,mp4a.40.2\"\nhigh/index.m3u8\n#EXT-X-STREAM-INF:PROGRAM-ID=1,BANDWIDTH=256000\nlow/index.m3u8\n"))
	f.Add([]byte("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=AES-128,URI=\"https://example.com/key\",IV=0x1234\n#EXTINF:6,\nseg1.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg2.ts\n"))
	f.Add([]byte("#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n#EXT-X-BYTERANGE:75232@0\nvideo.ts\n#EXTINF:10,\n#EXT-X-BYTERANGE:82112@752321\nvideo.ts\n"))
	f.Add([]byte("#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",DEFAULT=YES,URI=\"en.m3u8\"\n#EXT-X-STREAM-INF:BANDWIDTH=800000,AUDIO=\"aac\"\nvideo.m3u8\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, strict := range []bool{false, true} {
			_, _, _ = m3u8.Decode(*bytes.NewBuffer(data), strict)
		}
	})
}
