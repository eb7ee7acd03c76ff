// Package metricsqlparse fuzzes MetricsQL query parsing in
// github.com/VictoriaMetrics/metricsql (metricsql.Parse, then the parsed
// query written back out with AppendString), as VictoriaMetrics' query
// engine and vmalert do with a user's query. MetricsQL is a superset of
// Prometheus' PromQL with WITH templates: with (f(x) = rate(x[5m])) f(m).
//
// Module github.com/VictoriaMetrics/metricsql v0.77.0; fixed in v0.78.0
// (commit 07bd0d9 "parser.go: avoid panic when parsing invalid WITH templates
// like `with(f(__name__) = {__name__)) f({a="b" or c="d"})`", 2024-08-15,
// https://github.com/VictoriaMetrics/metricsql/commit/07bd0d917b98547cf4545560fc8605e6c4e032cf).
// Bug: inside braces a label name alone ({x}, without = and a value) is kept
// as a reference to a WITH template, a label filter with a nil value. When
// that name is __name__ and no template expands it, writing the query out
// reads the metric name from the nil value: "invalid memory address or nil
// pointer dereference" in getMetricNameFromLabelFilterss. Parse writes the
// query out itself, for the error that names the missing template ("cannot
// find WITH template for ... inside ..."), so the shortest input is
// {__name__} (found so by fuzzbox; this comment first said the input needed
// a WITH clause, as the fix's example has); the fix's example, a function
// template with a __name__ argument and {__name__} as its body, called with
// an argument that does not expand into a label filter, reaches the same
// place.
//
// Signature: nil pointer dereference(?s:.*)metricsql\.getMetricNameFromLabelFilterss
package metricsqlparse
