# sluice: every target works from a fresh clone (Go fetches the modules).
GO        ?= go
FUZZTIME  ?= 30s
BENCHTIME ?= 1s
COUNT     ?= 6
OUT       ?= out

.PHONY: test vet unit race fuzz cover bench clean

# test: vet, the whole suite (allocation counts need a non-race run), then
# the whole suite again under the race detector.
test: vet unit race

vet:
	$(GO) vet ./...

unit:
	$(GO) test -count=1 ./...

race:
	$(GO) test -race -count=1 ./...

# fuzz: each fuzz target for FUZZTIME (go test -fuzz takes one target at a time).
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzStep$$'   -fuzztime $(FUZZTIME) ./atomicbucket
	$(GO) test -run '^$$' -fuzz '^FuzzOracle$$' -fuzztime $(FUZZTIME) ./atomicbucket
	$(GO) test -run '^$$' -fuzz '^FuzzReplay$$' -fuzztime $(FUZZTIME) ./cmd/sluice

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
