# sluice: every target works from a fresh clone (Go fetches the modules).
GO        ?= go
FUZZTIME  ?= 30s
BENCHTIME ?= 1s
COUNT     ?= 6
OUT       ?= out

STRESSTIME ?= 10m

.PHONY: test vet unit race stress-short mutants stress fuzz cover bench clean

# test: vet, the engine's suite (allocation counts need a non-race run),
# the engine's suite under the race detector, the stress harness in its
# short mode under the race detector, and the mutation checks.
test: vet unit race stress-short mutants

vet:
	$(GO) vet ./... ./stress/...

unit:
	$(GO) test -count=1 ./...

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
# time). Seed corpora are in each package's testdata/fuzz.
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzLimiter$$' -fuzztime $(FUZZTIME) .
	$(GO) test -run '^$$' -fuzz '^FuzzStep$$'    -fuzztime $(FUZZTIME) ./atomicbucket
	$(GO) test -run '^$$' -fuzz '^FuzzOracle$$'  -fuzztime $(FUZZTIME) ./atomicbucket
	$(GO) test -run '^$$' -fuzz '^FuzzReplay$$'  -fuzztime $(FUZZTIME) ./cmd/sluice
	cd stress/cmd/stress && $(GO) test -run '^$$' -fuzz '^FuzzArgs$$' -fuzztime $(FUZZTIME) .

cover:
	@mkdir -p $(OUT)
	$(GO) test -count=1 -coverprofile=$(OUT)/coverage.out ./...
	$(GO) tool cover -func=$(OUT)/coverage.out | tail -1

# bench: the engine's own benchmarks (hot key beside the map+clock+CAS
# floor, CAS beside the mutex baseline, 1k/1M keys, heap per key), raw
# output in $(OUT)/bench.txt. The comparison with other Go limiters is the
# benchmark-suite issue's.
bench:
	@mkdir -p $(OUT)
	$(GO) test -run '^$$' -bench . -benchtime $(BENCHTIME) -count $(COUNT) . ./atomicbucket | tee $(OUT)/bench.txt

clean:
	rm -rf $(OUT)
