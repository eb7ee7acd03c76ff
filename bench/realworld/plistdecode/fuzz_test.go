package plistdecode

import (
	"testing"

	"howett.net/plist"
)

func FuzzUnmarshal(f *testing.F) {
	f.Add([]byte("{\n\tCFBundleName = Demo;\n\tCFBundleVersion = \"1.0\";\n\tLSRequiresIPhoneOS = YES;\n}\n"))
	f.Add([]byte("// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjects = {\n\t\t13B07F961A680F5B00A75B9A = {isa = PBXBuildFile; fileRef = 13B07FB01A68108700A75B9A /* AppDelegate.m */; };\n\t};\n\trootObject = 83CBB9F71A601CBA00E9B192;\n}\n"))
	f.Add([]byte("(\n\t\"first item\",\n\tsecond,\n\t<0fbd7789 00ff>,\n\t( nested, \"a\\nb\" )\n)\n"))
	f.Add([]byte("{ count = <*I42>; ratio = <*R1.5>; enabled = <*BY>; when = <*D2011-10-05 12:30:00 +0000>; }"))
	f.Add([]byte("{ name = \"x\\U00e9\\t\\\"q\\\"\"; empty = \"\"; list = (); dict = {}; neg = <*I-7>; }"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var v interface{}
		_, _ = plist.Unmarshal(data, &v)
	})
}
