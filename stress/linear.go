package stress

import (
	"cmp"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/seed997/sluice"
	"github.com/seed997/sluice/clock"
)

// LinearConfig describes a linearizability run: many short histories, each
// on a fresh limiter with a manual clock. Within a history every worker
// moves the clock forward a little, reads it, and calls AllowAt with that
// reading as now. Half-way the workers stop, the clock jumps three TTLs,
// the sweeper evicts every key, and the workers go on: the second half
// checks that an evicted key is indistinguishable from a full one.
type LinearConfig struct {
	Histories int
	Workers   int
	Ops       int // per worker and half
	Keys      int
	Seed      uint64
	Timeout   time.Duration // porcupine's budget per history
	OutDir    string        // where failing histories' visualizations go (default: os.TempDir())
}

// DefaultLinear is a run of 100 histories of 4 workers × 2 × 20 operations
// on 3 keys.
func DefaultLinear() LinearConfig {
	return LinearConfig{Histories: 100, Workers: 4, Ops: 20, Keys: 3, Seed: 1, Timeout: 10 * time.Second}
}

// The limit of linearizability runs: a token every 142.857…ns, burst 5.
const (
	linN     = 7
	linPer   = time.Microsecond
	linBurst = 5
	linStep  = 60 * time.Nanosecond // the most one operation moves the clock
)

// LinearReport is what a linearizability run checked.
type LinearReport struct {
	Histories  int
	Operations int
	Evictions  int64
	Unknown    int // histories porcupine could not decide in time
	Violations []Violation
}

type linInput struct {
	Key  string
	Now  time.Duration
	Cost int
}

type linOutput struct {
	Status     sluice.Status
	Remaining  int64
	RetryAfter time.Duration
	ResetAfter time.Duration
}

// linState is a key's theoretical arrival time in exact rational
// nanoseconds; nil is a key never seen (or evicted), which is full.
type linState = *big.Rat

var (
	linT   = big.NewRat(int64(linPer), linN) // ns per token
	linTau = new(big.Rat).Mul(big.NewRat(linBurst, 1), linT)
)

// linModelStep is the sequential specification: GCRA in exact rationals,
// written apart from the engine's integer units.
func linModelStep(s linState, in linInput) (linState, linOutput) {
	now := new(big.Rat).SetInt64(int64(in.Now))
	tat := now
	if s != nil && s.Cmp(now) > 0 {
		tat = s
	}
	base := new(big.Rat).Sub(tat, now) // max(TAT − now, 0)
	need := new(big.Rat).Add(base, new(big.Rat).Mul(big.NewRat(int64(in.Cost), 1), linT))
	if in.Cost > linBurst {
		return s, linOutput{Status: sluice.TooLarge}
	}
	if need.Cmp(linTau) <= 0 {
		return new(big.Rat).Add(now, need), linOutput{
			Status:     sluice.Allowed,
			Remaining:  floorRat(new(big.Rat).Quo(new(big.Rat).Sub(linTau, need), linT)),
			ResetAfter: ceilNs(need),
		}
	}
	left := new(big.Rat).Sub(linTau, base)
	if left.Sign() < 0 {
		left.SetInt64(0)
	}
	return s, linOutput{
		Status:     sluice.Denied,
		Remaining:  floorRat(left.Quo(left, linT)),
		RetryAfter: ceilNs(new(big.Rat).Sub(need, linTau)),
		ResetAfter: ceilNs(base),
	}
}

func floorRat(x *big.Rat) int64 { return new(big.Int).Quo(x.Num(), x.Denom()).Int64() }

func ceilNs(x *big.Rat) time.Duration {
	q, m := new(big.Int).QuoRem(x.Num(), x.Denom(), new(big.Int))
	if m.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return time.Duration(q.Int64())
}

var linModel = porcupine.Model{
	Partition: func(h []porcupine.Operation) [][]porcupine.Operation {
		byKey := map[string][]porcupine.Operation{}
		var order []string
		for _, op := range h {
			k := op.Input.(linInput).Key
			if _, ok := byKey[k]; !ok {
				order = append(order, k)
			}
			byKey[k] = append(byKey[k], op)
		}
		parts := make([][]porcupine.Operation, 0, len(order))
		for _, k := range order {
			parts = append(parts, byKey[k])
		}
		return parts
	},
	Init: func() interface{} { return linState(nil) },
	Step: func(state, input, output interface{}) (bool, interface{}) {
		next, out := linModelStep(state.(linState), input.(linInput))
		return out == output.(linOutput), next
	},
	Equal: func(a, b interface{}) bool {
		x, y := a.(linState), b.(linState)
		if x == nil || y == nil {
			return x == y
		}
		return x.Cmp(y) == 0
	},
	DescribeOperation: func(input, output interface{}) string {
		in, out := input.(linInput), output.(linOutput)
		return fmt.Sprintf("take %d @%v -> %v rem=%d retry=%v reset=%v",
			in.Cost, in.Now, out.Status, out.Remaining, out.RetryAfter, out.ResetAfter)
	},
	DescribeState: func(state interface{}) string {
		if s := state.(linState); s != nil {
			return "TAT=" + s.FloatString(3)
		}
		return "full (no bucket)"
	},
}

// CheckLinear runs cfg.Histories histories and checks each with porcupine.
func CheckLinear(cfg LinearConfig) (LinearReport, error) {
	d := DefaultLinear()
	if cfg.Histories == 0 {
		cfg.Histories = d.Histories
	}
	if cfg.Workers == 0 {
		cfg.Workers = d.Workers
	}
	if cfg.Ops == 0 {
		cfg.Ops = d.Ops
	}
	if cfg.Keys == 0 {
		cfg.Keys = d.Keys
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = d.Timeout
	}
	if cfg.OutDir == "" {
		cfg.OutDir = os.TempDir()
	}
	if cfg.Histories < 0 || cfg.Workers < 1 || cfg.Ops < 1 || cfg.Keys < 1 {
		return LinearReport{}, errors.New("stress: linear: histories, workers, ops and keys must be positive")
	}
	var rep LinearReport
	for h := 0; h < cfg.Histories; h++ {
		ops, evicted, err := history(cfg, cfg.Seed*100000+uint64(h))
		if err != nil {
			return rep, err
		}
		rep.Histories++
		rep.Operations += len(ops)
		rep.Evictions += evicted
		switch res, v := judge(cfg, h, ops); res {
		case porcupine.Unknown:
			rep.Unknown++
		case porcupine.Illegal:
			rep.Violations = append(rep.Violations, v)
		}
	}
	return rep, nil
}

// judge checks history h with porcupine against the sequential model. An
// illegal history is returned as a violation, and written to cfg.OutDir as
// porcupine's visualization and as text (dump).
func judge(cfg LinearConfig, h int, ops []porcupine.Operation) (porcupine.CheckResult, Violation) {
	res, info := porcupine.CheckOperationsVerbose(linModel, ops, cfg.Timeout)
	if res != porcupine.Illegal {
		return res, Violation{}
	}
	path := filepath.Join(cfg.OutDir, fmt.Sprintf("sluice-linear-%d-%d.html", cfg.Seed, h))
	detail := "not linearizable; visualization: " + path
	if err := porcupine.VisualizePath(linModel, info, path); err != nil {
		detail = fmt.Sprintf("not linearizable; writing the visualization failed: %v", err)
	}
	// The same history as text, for a reader without a browser.
	txt := strings.TrimSuffix(path, ".html") + ".txt"
	if err := os.WriteFile(txt, []byte(dump(ops)), 0o644); err == nil {
		detail += ", history: " + txt
	}
	return res, Violation{Kind: "linearizability", Key: fmt.Sprintf("history %d", h), Detail: detail}
}

// dump lists a history's operations by call instant, one a line.
func dump(ops []porcupine.Operation) string {
	ops = slices.Clone(ops)
	slices.SortFunc(ops, func(a, b porcupine.Operation) int { return cmp.Compare(a.Call, b.Call) })
	var b strings.Builder
	for _, op := range ops {
		fmt.Fprintf(&b, "[%4d,%4d] client %d key %s: %s\n", op.Call, op.Return, op.ClientId,
			op.Input.(linInput).Key, linModel.DescribeOperation(op.Input, op.Output))
	}
	return b.String()
}

// history records one concurrent history. Call and return instants come
// from one atomic counter, so they order the operations exactly as they
// happened.
func history(cfg LinearConfig, seed uint64) ([]porcupine.Operation, int64, error) {
	const ttl = 40 * time.Microsecond // longer than a half's clock travel
	if time.Duration(cfg.Workers*cfg.Ops)*linStep >= ttl {
		return nil, 0, fmt.Errorf("stress: linear: %d workers × %d ops move the clock past the TTL %v; use fewer", cfg.Workers, cfg.Ops, ttl)
	}
	clk := clock.NewManual(time.Hour)
	l, err := sluice.New(sluice.Per(linN, linPer), linBurst,
		sluice.WithClock(clk), sluice.WithIdleTTL(ttl), sluice.WithStripes(1))
	if err != nil {
		return nil, 0, err
	}
	defer l.Close()
	var seq atomic.Int64
	ops := make([][]porcupine.Operation, cfg.Workers)
	half := func(phase int) {
		var wg sync.WaitGroup
		for w := 0; w < cfg.Workers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(seed, uint64(w*2+phase)))
				for i := 0; i < cfg.Ops; i++ {
					in := linInput{Key: fmt.Sprintf("k%d", rng.IntN(cfg.Keys)), Cost: 1 + rng.IntN(2)}
					in.Now = clk.Advance(time.Duration(rng.Int64N(int64(linStep) + 1)))
					call := seq.Add(1)
					d, err := l.AllowAt(in.Key, in.Cost, in.Now)
					ret := seq.Add(1)
					if err != nil {
						panic(err) // costs are valid: an error is a harness bug
					}
					ops[w] = append(ops[w], porcupine.Operation{ClientId: w, Input: in, Call: call, Return: ret,
						Output: linOutput{d.Status, d.Remaining, d.RetryAfter, d.ResetAfter}})
				}
			}(w)
		}
		wg.Wait()
	}
	half(0)
	clk.Advance(3 * ttl)
	// Every key is now full for three TTLs; wait for the sweeper to take
	// them all (it walks the one stripe every millisecond).
	for deadline := time.Now().Add(2 * time.Second); l.Len() > 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	evicted := l.Stats().Evictions
	half(1)
	var all []porcupine.Operation
	for _, o := range ops {
		all = append(all, o...)
	}
	return all, evicted, nil
}
