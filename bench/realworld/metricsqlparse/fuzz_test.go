package metricsqlparse

import (
	"testing"

	"github.com/VictoriaMetrics/metricsql"
)

func FuzzParse(f *testing.F) {
	f.Add(`sum(rate(http_requests_total{job="api", code=~"5.."}[5m])) by (instance)`)
	f.Add(`histogram_quantile(0.99, sum(rate(request_duration_seconds_bucket[5m])) by (le)) > 0.5`)
	f.Add(`with (commonFilters = {env="prod", region!="eu"}) node_cpu_seconds_total{commonFilters, mode="idle"} offset 1h`)
	f.Add(`with (f(m, w) = rate(m[w]) * 100) f(errors_total{app="web"}, 10m) / ignoring(code) group_left f(requests_total, 10m)`)
	f.Add(`topk_max(3, avg_over_time(process_resident_memory_bytes[1h:5m])) or on() vector(0)`)
	f.Add(`label_replace(up{instance=~"host-.*"}, "host", "$1", "instance", "(.*):.*") @ end()`)
	f.Fuzz(func(t *testing.T, query string) {
		expr, err := metricsql.Parse(query)
		if err != nil {
			return
		}
		_ = expr.AppendString(nil)
	})
}
