package cronparse

import (
	"testing"
	"time"

	"github.com/robfig/cron/v3"
)

func FuzzParseStandard(f *testing.F) {
	f.Add("*/5 * * * *")
	f.Add("0 9 * * MON-FRI")
	f.Add("15 2 1,15 * *")
	f.Add("@every 1h30m")
	f.Add("@daily")
	f.Fuzz(func(t *testing.T, spec string) {
		s, err := cron.ParseStandard(spec)
		if err != nil {
			return
		}
		_ = s.Next(time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC))
	})
}
