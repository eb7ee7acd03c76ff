package xpathquery

import (
	"testing"

	"github.com/antchfx/xpath"
)

// catalog is the document every query runs over.
const catalog = `<?xml version="1.0"?>
<catalog>
  <book id="bk101" lang="en">
    <author>Gambardella, Matthew</author>
    <title>XML Developer's Guide</title>
    <price>44.95</price>
  </book>
  <book id="bk102">
    <author>Ralls, Kim</author>
    <title>Midnight Rain</title>
    <price>5.95</price>
    <!-- out of print -->
  </book>
</catalog>`

func FuzzQuery(f *testing.F) {
	f.Add("//book[price>35]/title")
	f.Add("count(//book[@lang='en'])")
	f.Add("/catalog/book[last()]/author/text()")
	f.Add("sum(//price) div count(//price)")
	f.Add("//book[contains(title, 'Rain') or starts-with(@id, 'bk1')]/@id")
	f.Add("concat(//book[1]/author, ' - ', normalize-space(//book[1]/title))")
	root, err := Parse(catalog)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, query string) {
		expr, err := xpath.Compile(query)
		if err != nil {
			return
		}
		v := expr.Evaluate(NewNavigator(root))
		if it, ok := v.(*xpath.NodeIterator); ok {
			for it.MoveNext() {
				_ = it.Current().Value()
			}
		}
	})
}
