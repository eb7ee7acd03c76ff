// Package iniload fuzzes INI file loading in gopkg.in/ini.v1 (ini.Load) and
// reads every key's value, as a program reading its configuration file does.
//
// Module gopkg.in/ini.v1 v1.44.0 (github.com/go-ini/ini); fixed in v1.49.0
// (commit 2e33564 "key: fix panic when recursive value has missing target").
// Upstream: https://github.com/go-ini/ini/issues/191.
// Bug: a value that refers to another key with the %(name)s syntax, where no
// key of that name exists in the key's section or the default section, makes
// Key.transformValue, which Key.String applies, dereference the nil key it
// did not find: "invalid memory address or nil pointer dereference" in
// ini.(*Key).transformValue. The input needs a key, "=", and a value with a
// balanced "%(" ... ")s" naming a key that is not there.
//
// Signature: \(\*Key\)\.transformValue
package iniload
