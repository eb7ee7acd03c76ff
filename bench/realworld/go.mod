module fuzzbox.dev/bench/realworld

go 1.26

require (
	github.com/VictoriaMetrics/metricsql v0.77.0
	github.com/antchfx/xpath v1.3.7
	github.com/asticode/go-astisub v0.39.0
	github.com/buger/jsonparser v1.1.0
	github.com/dlclark/regexp2 v1.3.0
	github.com/expr-lang/expr v1.17.6
	github.com/flosch/pongo2/v6 v6.0.0
	github.com/gobwas/glob v0.2.3
	github.com/grafov/m3u8 v0.12.1
	github.com/graph-gophers/graphql-go v1.3.0
	github.com/hashicorp/hcl v1.0.0
	github.com/itchyny/gojq v0.12.14
	github.com/miekg/dns v1.1.15
	github.com/open-policy-agent/opa v0.23.2
	github.com/robfig/cron/v3 v3.0.1
	github.com/tdewolff/parse/v2 v2.6.8
	github.com/tidwall/gjson v1.6.3
	golang.org/x/image v0.0.0-20210216034530-4410531fe030
	golang.org/x/text v0.3.2
	gopkg.in/ini.v1 v1.44.0
	howett.net/plist v1.0.0
	mvdan.cc/sh/v3 v3.8.0
)

require (
	github.com/OneOfOne/xxhash v1.2.7 // indirect
	github.com/VictoriaMetrics/metrics v1.34.0 // indirect
	github.com/asticode/go-astikit v0.20.0 // indirect
	github.com/asticode/go-astits v1.8.0 // indirect
	github.com/ghodss/yaml v0.0.0-20180820084758-c7ce16629ff4 // indirect
	github.com/itchyny/timefmt-go v0.1.5 // indirect
	github.com/opentracing/opentracing-go v1.1.0 // indirect
	github.com/pkg/errors v0.0.0-20181023235946-059132a15dd0 // indirect
	github.com/rcrowley/go-metrics v0.0.0-20181016184325-3113b8401b8a // indirect
	github.com/smartystreets/goconvey v1.8.1 // indirect
	github.com/tidwall/match v1.0.1 // indirect
	github.com/tidwall/pretty v1.0.2 // indirect
	github.com/valyala/fastrand v1.1.0 // indirect
	github.com/valyala/histogram v1.2.0 // indirect
	golang.org/x/crypto v0.0.0-20200622213623-75b288015ac9 // indirect
	golang.org/x/net v0.0.0-20200904194848-62affa334b73 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.21.0 // indirect
	gopkg.in/yaml.v2 v2.2.2 // indirect
)

// OPA v0.23.2 (regoparse) is a go 1.12 module: its requirement on x/tools
// brings x/tools into the graph, at mvdan.cc/sh's v0.17.0, whose own
// requirements would raise x/text, x/net and x/crypto past the versions the
// other targets' bugs need. No target builds x/tools; its 2019 go.mod keeps
// them where they are.
replace golang.org/x/tools => golang.org/x/tools v0.0.0-20190920225731-5eefd052ad72
