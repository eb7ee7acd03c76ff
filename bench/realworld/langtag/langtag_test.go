package langtag

import (
	"testing"

	"golang.org/x/text/language"
)

func FuzzParse(f *testing.F) {
	f.Add("en-US")
	f.Add("zh-Hant-TW")
	f.Add("de-CH-1996")
	f.Add("en-u-ca-buddhist-nu-thai")
	f.Add("sr-Latn-x-private")
	f.Fuzz(func(t *testing.T, s string) {
		tag, err := language.Parse(s)
		if err != nil {
			return
		}
		base, conf := tag.Base()
		if conf == language.No && base.String() != "und" {
			t.Fatalf("Parse(%q): base %v with no confidence", s, base)
		}
	})
}
