module github.com/seed997/sluice/bench

go 1.26.0

replace github.com/seed997/sluice => ../

require (
	github.com/juju/ratelimit v1.0.2
	github.com/puzpuzpuz/xsync/v3 v3.5.1
	github.com/seed997/sluice v0.0.0-00010101000000-000000000000
	github.com/sethvargo/go-limiter v0.7.1
	github.com/throttled/throttled/v2 v2.15.0
	github.com/ulule/limiter/v3 v3.11.2
	go.uber.org/ratelimit v0.3.1
	golang.org/x/time v0.16.0
)

require (
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	github.com/benbjohnson/clock v1.3.0 // indirect
	github.com/hashicorp/golang-lru v0.5.4 // indirect
	github.com/kr/text v0.2.0 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da // indirect
	golang.org/x/sys v0.50.0 // indirect
)

tool golang.org/x/perf/cmd/benchstat
