# sluice: every target works from a fresh clone (Go fetches the modules).
# bash with pipefail, so that a benchmark that fails is not hidden by tee.
SHELL       := /bin/bash
.SHELLFLAGS := -o pipefail -c

GO        ?= go
FUZZTIME  ?= 30s
FUZZMINIMIZE ?= 10s
BENCHTIME ?= 200ms
COUNT     ?= 3
CPUS      ?= 1,2
BENCH_CPU ?=
OUT       ?= out

STRESSTIME ?= 10m

# staticcheck, pinned; go install checks its modules against the checksum
# database (GOSUMDB, on unless a machine turns it off), as for any module.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: test vet lint cross unit race stress-short mutants counts stress fuzz cover bench bench-full scaling benchstat profile grind bench-engine clean FORCE

# test: vet (also as 386, arm64 and 32-bit arm builds), gofmt and go mod tidy,
# staticcheck, the engine's suite (allocation counts need a non-race run),
# the engine's suite under the race detector, the stress harness in its
# short mode under the race detector, the mutation checks, and the
# documents' counts over the kept benchmark output.
test: vet lint unit race stress-short mutants counts

# counts: README.md and bench/BENCHMARKS.md quote counts over the raw
# output in bench/runs (rounds, runs, medians, quartiles) and over the
# table of every full run; check that each is what bench/runs/counts.py
# computes from the files now, and that the table's figures from the
# twenty-fifth run on, and those runs' sections (their tables; from the
# fifty-third on the handoffs and BenchmarkMachine their openings give,
# and the Go and date where the raw file names them; from the
# fifty-sixth on their running counts of the 1,000-key rounds; the
# 1M-key rounds' count inside 1.85-2.31x wherever they give it; each
# figure in ns in their prose, which must be a value the run's files
# or a raw file the section cites hold, or one listed as taken from
# elsewhere; each ratio of the floor
# reference's 1,000 keys and a denied hot key on two cores, which must
# be one of the run's rounds'; each "serial -> two cores" pair of ns,
# which must be one round's; each ratio given as another run's, "the
# nineteenth's 3.53x", which must be that run's), are what the report
# prints on each raw file and what the files hold, that make profile's
# kept runs' tables are their bench.txt's and the shares, times and ns
# the documents read off those runs their pprof -top summaries',
# bench.txt's and contention.txt's, that each row of the benchstat
# tables is go tool benchstat's on the rounds it names (medians,
# changes, p and every interval of 10% or more) and the figures of the
# prose around them values those rounds hold, and that each in-page link
# of the two documents names a heading. It needs python3: where there is
# none it is skipped, except in CI, which installs it.
counts:
	@if command -v python3 >/dev/null 2>&1; then GO=$(GO) python3 bench/runs/counts.py --check; \
	elif [ -n "$$CI" ]; then echo "counts: python3 not found"; exit 1; \
	else echo "counts: skipped, python3 not found (apt-get install python3)"; fi

vet:
	$(GO) vet ./... ./stress/... ./bench/...
	GOARCH=386 $(GO) vet ./... ./stress/... ./bench/...
	GOARCH=arm64 $(GO) vet ./... ./stress/... ./bench/...
	GOARCH=arm $(GO) vet ./... ./stress/... ./bench/...
	@unformatted=$$(gofmt -l .); if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	@for m in . bench stress; do (cd $$m && $(GO) mod tidy -diff) || { echo "go mod tidy needed in $$m"; exit 1; }; done

# cross: the engine's tests, and the stress harness in its short mode,
# built for arm64 (x/sys/cpu's 128-byte lines), 32-bit arm (32-byte
# lines, 4-byte words) and s390x (256-byte lines, big-endian), run under
# qemu's user-mode emulation (Debian's qemu-user-static, which .ci/run
# installs; about three minutes on 2 cores). It checks what the code
# computes there: the pads, the word sizes, the byte order, the clock and
# the prefetch of other platforms. Not their memory ordering: the
# emulator runs on this machine's.
cross:
	@for a in arm64 arm s390x; do \
	  q=qemu-$$a-static; [ $$a = arm64 ] && q=qemu-aarch64-static; \
	  command -v $$q >/dev/null || { echo "cross: $$q not found: apt-get install qemu-user-static"; exit 1; }; \
	  echo "GOARCH=$$a $(GO) test -exec $$q ./..."; \
	  GOARCH=$$a $(GO) test -count=1 -exec $$q ./... || exit 1; \
	  GOARCH=$$a $(GO) test -count=1 -short -exec $$q ./stress/... || exit 1; \
	done

# lint: staticcheck with every check it has, its default set and the
# style checks it leaves off by default, over the three modules, for the
# platforms vet builds for and with the mutation switches compiled in. The
# tool is built once for this machine; GOARCH then only picks the files it
# reads. About a minute and a half on 2 cores from a cold build cache,
# seconds from a warm one.
lint:
	@mkdir -p $(OUT)/bin
	GOBIN=$(abspath $(OUT)/bin) GOARCH= $(GO) install $(STATICCHECK)
	$(OUT)/bin/staticcheck -checks all ./... ./stress/... ./bench/...
	@for a in 386 arm64 arm; do \
	  echo "GOARCH=$$a staticcheck -checks all"; \
	  GOARCH=$$a $(OUT)/bin/staticcheck -checks all ./... ./stress/... ./bench/... || exit 1; \
	done
	$(OUT)/bin/staticcheck -tags sluice_mutants -checks all ./... ./stress/...

# unit: the suites, and BenchmarkHotPaired once (its setups checked, a pair
# of blocks each), so that a broken pairing fails here rather than in make
# bench.
unit:
	$(GO) test -count=1 ./... ./bench/...
	$(GO) test -count=1 -run '^$$' -bench HotPaired -benchtime 1x ./bench

race:
	$(GO) test -race -count=1 ./...

# stress-short: invariant runs on all four clocks, linearizability, the
# stress command, under -race (about a minute on 2 cores).
stress-short:
	$(GO) test -race -short -count=1 ./stress/...

# mutants: the harness must catch each deliberately broken engine; the
# switches exist only in builds with this tag.
mutants:
	@mkdir -p $(OUT)
	$(GO) test -tags sluice_mutants -count=1 -run Mutant -v ./stress > $(OUT)/mutants.txt 2>&1; \
	  rc=$$?; grep -E '^(---|ok|FAIL|PASS)|caught|passed|panic' $(OUT)/mutants.txt; exit $$rc

# stress: the long mode, the command for STRESSTIME.
stress:
	$(GO) run ./stress/cmd/stress -duration $(STRESSTIME)

# fuzz: each fuzz target for FUZZTIME (go test -fuzz takes one target at a
# time), a duration or a count of inputs (20000x; CI uses a count, see
# .ci/run). Seed corpora are in each package's testdata/fuzz. FuzzHash
# runs under -race, whose checkptr fails a read past the key's end.
# FUZZMINIMIZE caps the time a worker spends making a new input smaller
# (-fuzzminimizetime), Go's default a minute: the progress line counts no
# input meanwhile, and one of FuzzHash's long keys under -race can use
# all of it, longer than the default run (GODEBUG=fuzzdebug=1 shows each
# "queueing input for minimization" and its "input minimized"). A
# failing input is still reported and kept, if less small.
# internal/fuzzrun runs the targets: every one, whatever the ones before
# it did, and it tells a failing input apart from Go 1.26's fuzzer failing
# a target at its own time limit with nothing found (golang/go#75804),
# which it reports and counts as passed. It exits 1 after the last
# target if any failed otherwise.
fuzz:
	$(GO) run ./internal/fuzzrun -go $(GO) -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZE) \
	  .:FuzzLimiter atomicbucket:FuzzStep atomicbucket:FuzzOracle cmd/sluice:FuzzReplay \
	  stripes:FuzzHash:race stripes:FuzzStripe stress/cmd/stress:FuzzArgs bench/cmd/report:FuzzParse

# cover: statements of every package covered by the tests of any (the
# facade's tests drive the sweeper, for one; per package they would count
# only its own tests).
cover:
	@mkdir -p $(OUT)
	$(GO) test -count=1 -coverpkg=./... -coverprofile=$(OUT)/coverage.out ./...
	$(GO) tool cover -func=$(OUT)/coverage.out | tail -1

# bench: the main job. The suite in bench/ (sluice, its mutex twin, the
# floor and the peers, six scenarios, serial and parallel, heap per key,
# the time of one dependent cache miss, the report's unit for 1M keys, and
# the machine's own two-core figures, beside which the two-core targets
# are read), in each round bench's BenchmarkHotPaired, the hot key's
# targets again with sluice and each per-key peer in paired blocks (a
# check on the serial runs, which a slow phase of the machine can meet on
# one side only), and the root package's BenchmarkAllowPaired, the core
# engine's hot key against its floor in paired blocks (the measure its
# target is held to; the suite's own floor, through its interface,
# compresses the ratio), in
# quick mode (about 6 minutes on 2 cores; each line is printed as it lands),
# then the table and the chart: out/bench.txt, out/bench.svg.
#
# COUNT is the number of rounds: each round is one process that runs every
# benchmark once. This machine's speed drifts over seconds (a shared VM), so
# COUNT runs of one benchmark in a row (go test -count) would hand one
# drift to one implementation and another to the next; in rounds, every
# implementation is measured in every phase, and the medians compare.
BENCH_BIN = $(OUT)/bench.test
ENGINE_BIN = $(OUT)/engine.test

$(BENCH_BIN): FORCE
	@mkdir -p $(OUT)
	$(GO) test -c -o $(BENCH_BIN) ./bench

$(ENGINE_BIN): FORCE
	@mkdir -p $(OUT)
	$(GO) test -c -o $(ENGINE_BIN) .

# The raw output of bench, benchstat, scaling and profile opens with
# what it was run on (RAN_ON), as benchfmt configuration lines
# (benchstat and the report read past them): the Go version, the date it
# started, the processor's vendor, family, model and stepping where
# /proc/cpuinfo gives them (under KVM the "cpu:" line that go test
# prints can read only "AMD EPYC" on processors of different
# generations, whose figures differ), the kernel's clocksource (the
# default clock reads the TSC itself only where it is "tsc", and
# elsewhere is the runtime's monotonic clock, whose cost differs from
# host to host: clock.Default), and the commit where the tree is a git
# checkout ("-dirty" where a tracked file differs from it).
CPU_ID = awk -F': *' '/^vendor_id/ { v = $$2 } /^cpu family/ { f = $$2 } /^model[ \t]*:/ { m = $$2 } \
  /^stepping/ { s = $$2 } /^$$/ { exit } END { if (f != "") printf "cpu-id: %s family %s model %s stepping %s\n", v, f, m, s }' \
  /proc/cpuinfo 2>/dev/null
CLOCKSOURCE = /sys/devices/system/clocksource/clocksource0/current_clocksource
RAN_ON = { echo "go: $$($(GO) env GOVERSION)"; echo "date: $$(date -u +%Y-%m-%dT%H:%M:%SZ)"; $(CPU_ID); \
  if [ -r $(CLOCKSOURCE) ]; then echo "clocksource: $$(cat $(CLOCKSOURCE))"; fi; \
  if c=$$(git rev-parse --short=7 HEAD 2>/dev/null); then \
    git diff --quiet HEAD -- 2>/dev/null || c=$$c-dirty; echo "commit: $$c"; fi; }

bench: $(BENCH_BIN) $(ENGINE_BIN)
	@$(RAN_ON) > $(OUT)/bench.txt
	@for r in $$(seq 1 $(COUNT)); do \
	  echo "# round $$r of $(COUNT)"; \
	  $(BENCH_BIN) -test.run '^$$' -test.bench 'Limiters|Machine|Miss' -test.benchtime $(BENCHTIME) -test.count 1 $(BENCH_CPU) \
	    -test.timeout 3h | tee -a $(OUT)/bench.txt || exit 1; \
	  $(BENCH_BIN) -test.run '^$$' -test.bench 'HotPaired' -test.benchtime $(BENCHTIME) -test.count 1 \
	    | tee -a $(OUT)/bench.txt || exit 1; \
	  $(ENGINE_BIN) -test.run '^$$' -test.bench 'AllowPaired' -test.benchtime $(BENCHTIME) -test.count 1 \
	    | tee -a $(OUT)/bench.txt || exit 1; \
	done
	$(BENCH_BIN) -test.run '^$$' -test.bench Memory -test.benchtime 1x -test.count 1 | tee -a $(OUT)/bench.txt
	$(GO) run ./bench/cmd/report -svg $(OUT)/bench.svg $(OUT)/bench.txt

# bench-full: more counts, longer runs, and GOMAXPROCS 1 and 2 (CPUS).
bench-full:
	$(MAKE) bench BENCHTIME=300ms COUNT=4 BENCH_CPU='-test.cpu $(CPUS)'

# scaling: the parallel half of the suite at GOMAXPROCS 1, 2, 4, ... up to
# the machine's cores (SCALE_CPUS), in three rounds, then the report's
# sweep. At GOMAXPROCS 1 RunParallel runs one goroutine, the serial figure.
SCALE_CPUS ?= $(shell n=$$(nproc); c=1; s=1; while [ $$((c*2)) -le $$n ]; do c=$$((c*2)); s=$$s,$$c; done; echo $$s)

scaling: $(BENCH_BIN)
	@$(RAN_ON) > $(OUT)/scaling.txt
	@for r in 1 2 3; do \
	  echo "# round $$r of 3, GOMAXPROCS $(SCALE_CPUS)"; \
	  $(BENCH_BIN) -test.run '^$$' -test.bench 'Limiters/.*/.*/mode=parallel$$' -test.benchtime $(BENCHTIME) \
	    -test.cpu $(SCALE_CPUS) -test.count 1 -test.timeout 3h | tee -a $(OUT)/scaling.txt || exit 1; \
	done
	$(GO) run ./bench/cmd/report $(OUT)/scaling.txt

# benchstat: the CAS engine beside its mutex twin, ten rounds (processes)
# of one run each, compared by benchstat (pinned as a tool of the bench
# module).
benchstat: $(BENCH_BIN)
	@$(RAN_ON) > $(OUT)/benchstat.txt
	@for r in $$(seq 1 10); do \
	  echo "# round $$r of 10"; \
	  $(BENCH_BIN) -test.run '^$$' -test.bench 'Limiters/scenario=(hot-allow|hot-deny|keys-1k|keys-1M)/impl=sluice(-mutex)?$$/' \
	    -test.benchtime 300ms -test.count 1 | tee -a $(OUT)/benchstat.txt || exit 1; \
	done
	cd bench && $(GO) tool benchstat -col /impl $(abspath $(OUT))/benchstat.txt | tee $(abspath $(OUT))/benchstat-cmp.txt

# profile: CPU, mutex and block profiles of one hot key under RunParallel,
# for the CAS engine and its mutex twin, each with a pprof -top summary.
# Two runs of each: the first with the CPU profiler alone, whose lines (ns
# a decision, the handoff around it) go to out/profile/bench.txt after
# what it ran on (RAN_ON), since a profile's shares differ with the
# processor and the handoff it ran at; the second with the mutex and block
# profilers, whose lines go to contention.txt. They are apart because the
# mutex profiler records every contended lock, a stack walk inside the
# twin's Unlock, and in the kvm-clock host's slow mode it slowed the twin
# alone (bench/runs/9fa6129-family26-kvm-clock-profile): those lines do
# not time the two alike. A benchmark or a summary that fails stops it
# (pipefail alone would leave the loop going).
profile: $(BENCH_BIN)
	@mkdir -p $(OUT)/profile
	@$(RAN_ON) > $(OUT)/profile/bench.txt
	@$(RAN_ON) > $(OUT)/profile/contention.txt
	for impl in sluice sluice-mutex; do \
	  bench="Limiters/scenario=hot-allow/impl=$$impl\$$/mode=parallel"; \
	  $(BENCH_BIN) -test.run '^$$' -test.bench "$$bench" -test.benchtime 3s \
	    -test.cpuprofile $(OUT)/profile/$$impl.cpu.pprof \
	    | grep Benchmark | tee -a $(OUT)/profile/bench.txt || exit 1; \
	  $(BENCH_BIN) -test.run '^$$' -test.bench "$$bench" -test.benchtime 3s \
	    -test.mutexprofile $(OUT)/profile/$$impl.mutex.pprof -test.blockprofile $(OUT)/profile/$$impl.block.pprof \
	    | grep Benchmark | tee -a $(OUT)/profile/contention.txt || exit 1; \
	  for kind in cpu mutex block; do \
	    $(GO) tool pprof -top -nodecount 25 $(BENCH_BIN) $(OUT)/profile/$$impl.$$kind.pprof \
	      > $(OUT)/profile/$$impl.$$kind.txt 2>&1 || exit 1; \
	  done; \
	done
	@echo "summaries: $(OUT)/profile/*.txt"

# grind: what one serial decision costs each implementation in every
# scenario, counted under valgrind's callgrind rather than timed: the
# instructions it executes, its data accesses, and its misses in simulated
# caches of the family-25 development VM's sizes (bench/cmd/grind).
# sluice's hot-key counts repeat to 0.1 instruction whatever else the
# machine is doing;
# see bench/cmd/grind for those that move. Needs
# valgrind (apt-get install valgrind) and amd64; about 25 minutes on 2
# cores, most of it the 1M-key setups.
# GRIND_FLAGS narrows it: -scenarios hot-allow,keys-1k -impls 'sluice|floor'.
GRIND_N     ?= 100000
GRIND_FLAGS ?=

grind: $(BENCH_BIN)
	$(GO) run ./bench/cmd/grind -bin $(BENCH_BIN) -out $(OUT)/grind -n $(GRIND_N) $(GRIND_FLAGS) | tee $(OUT)/grind.txt

# bench-engine: the engine's own micro-benchmarks (hot key beside the
# floor, CAS beside the mutex bucket, heap per key) in the root module, in
# six rounds, as bench does.
bench-engine:
	@mkdir -p $(OUT)
	@: > $(OUT)/bench-engine.txt
	@for r in $$(seq 1 6); do \
	  echo "# round $$r of 6"; \
	  $(GO) test -run '^$$' -bench . -benchtime 1s -count 1 . ./atomicbucket | tee -a $(OUT)/bench-engine.txt || exit 1; \
	done

FORCE:

clean:
	rm -rf $(OUT)
