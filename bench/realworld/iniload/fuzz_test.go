package iniload

import (
	"testing"

	"gopkg.in/ini.v1"
)

func FuzzLoad(f *testing.F) {
	f.Add([]byte("; app config\nname = demo\n\n[server]\nhost = localhost\nport = 8080\n"))
	f.Add([]byte("[database]\nuser = \"admin\"\npassword = `p#ss;word`\nenabled = true\n"))
	f.Add([]byte("[paths]\nhome = /home/user\n[paths.sub]\nlogs = /var/log\n"))
	f.Add([]byte("key1: value1\nkey2 = multi \\\n  line\n[empty]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ini.Load(data)
		if err != nil {
			return
		}
		for _, sec := range cfg.Sections() {
			for _, key := range sec.Keys() {
				_ = key.String()
			}
		}
	})
}
