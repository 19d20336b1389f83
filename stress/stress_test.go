package stress

import (
	"testing"
	"time"
)

// duration is a run's length: under -short, as make test runs it, the four
// clocks' runs take about 15s together on 2 cores (under -race).
func duration() time.Duration {
	if testing.Short() {
		return 12 * time.Second
	}
	return 30 * time.Second
}

func TestInvariants(t *testing.T) {
	for _, c := range []ClockKind{Real, Coarse, Manual, ManualBackwards} {
		t.Run(c.String(), func(t *testing.T) {
			t.Parallel()
			cfg := Default(c)
			cfg.Duration = duration()
			rep, err := Run(cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Log(rep)
			if !rep.OK() {
				t.Fatalf("violations:\n%v", rep)
			}
			// A run that checked nothing proves nothing.
			if rep.Admitted == 0 || rep.WindowsChecked == 0 || rep.QuietChecked == 0 {
				t.Fatalf("the run checked too little:\n%v", rep)
			}
			if rep.Evictions == 0 || rep.Refused == 0 {
				t.Fatalf("the sweeper or the key cap never acted:\n%v", rep)
			}
			if c.monotone() && c != Manual && rep.LowerChecked == 0 {
				t.Fatalf("no hot key was shown saturated, so the lower bound went unchecked:\n%v", rep)
			}
		})
	}
}

func TestLinearizable(t *testing.T) {
	cfg := DefaultLinear()
	cfg.OutDir = t.TempDir()
	if !testing.Short() {
		cfg.Histories = 1000
	}
	rep, err := CheckLinear(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d histories, %d operations, %d evictions between halves, %d undecided",
		rep.Histories, rep.Operations, rep.Evictions, rep.Unknown)
	for _, v := range rep.Violations {
		t.Error(v)
	}
	if rep.Unknown > 0 {
		t.Errorf("%d histories undecided: the check did not finish", rep.Unknown)
	}
	if rep.Evictions == 0 {
		t.Error("no key was evicted between halves: the eviction half checked nothing")
	}
}

// TestHeldBucket plays the eviction race on the real engine: the request
// held across the eviction is denied by the new bucket.
func TestHeldBucket(t *testing.T) {
	vs, err := HeldBucket()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		t.Error(v)
	}
}

// TestUpperCatchesOverAdmission feeds the checker a hand-made record: a
// burst of 5 and one more token inside a window too short to refill it.
func TestUpperCatchesOverAdmission(t *testing.T) {
	const n, d, burst = 1, 100, 5 // a token per 100ns
	var evs []event
	for i := 0; i < 5; i++ {
		evs = append(evs, event{cost: 1, b: int64(i), a: int64(i) + 1})
	}
	if _, v := upper(append([]event(nil), evs...), n, d, burst); v != "" {
		t.Fatalf("exactly the burst flagged: %s", v)
	}
	evs = append(evs, event{cost: 1, b: 50, a: 60}) // 60ns in: no token refilled yet
	if _, v := upper(evs, n, d, burst); v == "" {
		t.Fatal("burst+1 tokens in 60ns passed")
	}
	evs[5] = event{cost: 1, b: 95, a: 100} // 100ns in: one token refilled
	if _, v := upper(evs, n, d, burst); v != "" {
		t.Fatalf("a refilled token flagged: %s", v)
	}
}

func TestValidate(t *testing.T) {
	for _, cfg := range []Config{
		{Workers: -1},
		{Burst: 2},
		{Clock: 9},
		{Hot: -1},
		{N: 1 << 30, Per: time.Second}, // a count too large to check windows exactly; an int on every platform
	} {
		if err := cfg.Validate(); err == nil {
			t.Errorf("%+v: no error", cfg)
		} else {
			t.Logf("%+v: %v", cfg, err)
		}
	}
	if err := Default(Real).Validate(); err != nil {
		t.Fatal(err)
	}
}

// TestLowerEpochs feeds the lower-bound check a hand-made record of one hot
// key over two epochs: a token per 100ns, slots of 25ns, a quick call in
// every slot. Epoch 0 holds a call stalled for five tokens, so neither its
// window nor the one across both epochs can be shown saturated; epoch 1's
// window is checked all the same, and fails when one token too few was
// admitted in it.
func TestLowerEpochs(t *testing.T) {
	const n, d, slot, t0, nslots = 1, 100, 25, 0, 2 * epochSlots
	hs := newHotStats(nslots)
	for s := int64(0); s < nslots; s++ {
		hs.quickBeg[s], hs.maxEnd[s] = s*slot+1, s*slot+5
	}
	hs.maxEnd[10] = 10*slot + 500 // the stall, in epoch 0
	hs.den[0] = denials{d1b: 5*slot + 1, d1a: 5*slot + 5, d2b: 30*slot + 1, d2a: 30*slot + 5}
	hs.den[1] = denials{d1b: 36*slot + 1, d1a: 36*slot + 5, d2b: 60*slot + 1, d2a: 60*slot + 5}
	m := mergeHot(0, []*worker{{hot: []hotStats{hs}}}, nslots)
	// Owed in epoch 1: floor((D2.b - D1.a)/100) = floor(596/100) = 5.
	admitted := func(k int) []event {
		var evs []event
		for i := 0; i < k; i++ {
			b := int64(40+4*i) * slot
			evs = append(evs, event{cost: 1, b: b, a: b + 4})
		}
		return evs
	}
	if res, _, _ := lower(m, 0, 0, admitted(5), n, d, slot, t0, nslots); res != lowerNotShown {
		t.Errorf("epoch 0, with a stall: %v, want not shown saturated", res)
	}
	if res, ratio, v := lower(m, 1, 1, admitted(5), n, d, slot, t0, nslots); res != lowerHeld || ratio != 1 {
		t.Errorf("epoch 1, 5 of 5 admitted: %v %v %q, want held at 1", res, ratio, v)
	}
	if res, _, v := lower(m, 1, 1, admitted(4), n, d, slot, t0, nslots); res != lowerViolated || v == "" {
		t.Errorf("epoch 1, 4 of 5 admitted: %v, want a violation", res)
	}
	// The window across both epochs holds the stall.
	if res, _, _ := lower(m, 0, 1, admitted(5), n, d, slot, t0, nslots); res != lowerNotShown {
		t.Errorf("epochs 0 to 1, across the stall: %v, want not shown saturated", res)
	}
	var rep Report
	rep.MinSaturation = -1
	lowerSpans(&rep, "hot", m, admitted(4), n, d, slot, t0, nslots)
	if rep.LowerChecked != 1 || rep.LowerSkipped != 2 || len(rep.Violations) != 1 {
		t.Errorf("report: %d checked, %d skipped, %d violations; want 1, 2, 1", rep.LowerChecked, rep.LowerSkipped, len(rep.Violations))
	}
}
