package sluice_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/seed997/sluice"
	"github.com/seed997/sluice/clock"
)

// FuzzLimiter feeds the public API every kind of input it accepts: rates,
// periods, bursts, TTLs, caps, stripe counts, costs, times and keys of any
// length and bytes. Nothing may panic; a refused configuration or cost is
// an ErrInvalid whose message starts with the package name; every decision
// has a status that fits its input.
func FuzzLimiter(f *testing.F) {
	f.Add(int64(7), int64(time.Second), int64(3), int64(0), int64(0), int64(0), int64(1), int64(0), "alice")
	f.Add(int64(3), int64(10*time.Second), int64(1), int64(time.Millisecond), int64(1), int64(1), int64(2), int64(-1), "")
	f.Add(int64(1<<40), int64(1), int64(1<<62), int64(-1), int64(-5), int64(3), int64(0), int64(1<<62), "\x00\xff")
	f.Fuzz(func(t *testing.T, n, per, burst, ttl, maxKeys, stripes, cost, now int64, key string) {
		opts := []sluice.Option{sluice.WithClock(clock.NewManual(time.Duration(now)))}
		if ttl != 0 {
			opts = append(opts, sluice.WithIdleTTL(time.Duration(ttl)))
		}
		if maxKeys != 0 {
			opts = append(opts, sluice.WithMaxKeys(int(maxKeys)))
		}
		if stripes != 0 {
			opts = append(opts, sluice.WithStripes(int(stripes)))
		}
		// An odd now also leaves the decision counts out, which must
		// change no status below.
		counted := now&1 == 0
		if !counted {
			opts = append(opts, sluice.WithoutDecisionCounts())
		}
		l, err := sluice.New(sluice.Per(int(n), time.Duration(per)), int(burst), opts...)
		if err != nil {
			invalid(t, err)
			return
		}
		defer l.Close()
		check := func(d sluice.Decision, err error) {
			if cost < 1 {
				invalid(t, err)
				return
			}
			if err != nil {
				t.Fatalf("cost %d: %v", cost, err)
			}
			switch {
			case cost > burst && d.Status != sluice.TooLarge:
				t.Fatalf("cost %d over burst %d: %v", cost, burst, d.Status)
			case cost <= burst && d.Status != sluice.Allowed && d.Status != sluice.Denied && d.Status != sluice.OverCapacity:
				t.Fatalf("cost %d: status %v", cost, d.Status)
			case d.Remaining < 0 || d.RetryAfter < 0 || d.ResetAfter < 0:
				t.Fatalf("negative field: %+v", d)
			}
		}
		check(l.AllowN(key, int(cost)))
		check(l.AllowAt(key, int(cost), time.Duration(now)-time.Duration(ttl)))
		l.Allow(key)
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // Wait must return at once, with a decision or an error
		if err := l.Wait(ctx, key, int(cost)); cost < 1 {
			invalid(t, err)
		} else if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, sluice.ErrNever) &&
			!errors.Is(err, sluice.ErrOverCapacity) && !errors.Is(err, sluice.ErrDeadline) {
			t.Fatalf("Wait: %v", err)
		}
		if s := l.Stats(); s.Counted != counted || !counted && (s.Allowed != 0 || s.Denied != 0) {
			t.Fatalf("counting %v: Stats %+v", counted, s)
		}
	})
}

func invalid(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, sluice.ErrInvalid) || !strings.HasPrefix(err.Error(), "sluice: ") {
		t.Fatalf("want an ErrInvalid that names the problem, got %v", err)
	}
}
