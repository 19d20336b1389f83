package sluice_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"time"

	"github.com/seed997/sluice"
	"github.com/seed997/sluice/clock"
)

func Example() {
	lim, err := sluice.New(sluice.Per(10, time.Second), 3)
	if err != nil {
		panic(err)
	}
	defer lim.Close()

	for i := 0; i < 4; i++ {
		fmt.Println(lim.Allow("alice"))
	}
	// Output:
	// true
	// true
	// true
	// false
}

// A manual clock and AllowN show every field of a decision at fixed times.
// Seven per second is not a whole number of nanoseconds per token, and the
// limiter keeps it exact.
func ExampleLimiter_AllowN() {
	clk := clock.NewManual(0)
	lim, _ := sluice.New(sluice.Per(7, time.Second), 2, sluice.WithClock(clk))
	defer lim.Close()

	show := func() {
		d, err := lim.AllowN("api-key-1", 1)
		if err != nil {
			panic(err)
		}
		fmt.Printf("t=%v %v remaining=%d retry=%v reset=%v\n",
			clk.Now(), d.Status, d.Remaining, d.RetryAfter, d.ResetAfter)
	}
	show()
	show()
	show()
	clk.Set(142857143) // 1s/7 = 142857142.857ns
	show()
	d, _ := lim.AllowN("api-key-1", 3)
	fmt.Println("cost 3 with burst 2:", d.Status)
	// Output:
	// t=0s allowed remaining=1 retry=0s reset=142.857143ms
	// t=0s allowed remaining=0 retry=0s reset=285.714286ms
	// t=0s denied remaining=0 retry=142.857143ms reset=285.714286ms
	// t=142.857143ms allowed remaining=0 retry=0s reset=285.714286ms
	// cost 3 with burst 2: too-large
}

// Wait blocks until the tokens are there, or fails at once when they never
// can be.
func ExampleLimiter_Wait() {
	lim, _ := sluice.New(sluice.Per(1, time.Hour), 1)
	defer lim.Close()
	fmt.Println(lim.Wait(context.Background(), "bob", 2))
	// Output:
	// sluice: cost exceeds the burst and can never be admitted: cost 2, burst 1
}

// At the key cap a new key is refused (OverCapacity, and Allow reports
// false) while the keys held are decided as usual; Stats counts the
// refusals. Only a key idle for the TTL is ever evicted to make room, and
// on a clock that does not move none is.
func ExampleWithMaxKeys() {
	clk := clock.NewManual(0)
	lim, _ := sluice.New(sluice.Per(1, time.Second), 5, sluice.WithMaxKeys(2), sluice.WithClock(clk))
	defer lim.Close()

	fmt.Println(lim.Allow("alice"), lim.Allow("bob"))
	d, _ := lim.AllowN("mallory", 1)
	fmt.Println("mallory:", d.Status)
	fmt.Println("alice again:", lim.Allow("alice"))
	s := lim.Stats()
	fmt.Printf("keys=%d allowed=%d refused=%d\n", s.Keys, s.Allowed, s.Refused)
	// Output:
	// true true
	// mallory: over-capacity
	// alice again: true
	// keys=2 allowed=3 refused=1
}

// A limiter whose caller exports no decision counts can leave them out:
// the decisions are the same, a little cheaper, and Stats says that
// Allowed and Denied are not kept rather than reading them as zero
// decisions made.
func ExampleWithoutDecisionCounts() {
	lim, _ := sluice.New(sluice.Per(1, time.Second), 2, sluice.WithoutDecisionCounts(), sluice.WithClock(clock.NewManual(0)))
	defer lim.Close()

	fmt.Println(lim.Allow("alice"), lim.Allow("alice"), lim.Allow("alice"))
	s := lim.Stats()
	fmt.Printf("counted=%v keys=%d allowed=%d denied=%d\n", s.Counted, s.Keys, s.Allowed, s.Denied)
	// Output:
	// true true false
	// counted=false keys=1 allowed=0 denied=0
}

// AllowAt decides at an explicit time, a reading of the limiter's clock:
// one reading for a batch of keys, say, or times replayed from a log. At
// three per ten seconds a token comes every 3333333333⅓ ns, and the limiter
// counts the third of a nanosecond: one nanosecond short, the request is
// denied.
func ExampleLimiter_AllowAt() {
	clk := clock.NewManual(0)
	lim, _ := sluice.New(sluice.Per(3, 10*time.Second), 3, sluice.WithClock(clk))
	defer lim.Close()

	now := lim.Now()
	for _, key := range []string{"a", "a", "a", "a", "b"} {
		d, _ := lim.AllowAt(key, 1, now)
		fmt.Println(key, d.Status, d.RetryAfter)
	}
	for _, at := range []time.Duration{3333333333, 3333333334} {
		d, _ := lim.AllowAt("a", 1, now+at)
		fmt.Println("a at", at, d.Status, d.RetryAfter)
	}
	// Output:
	// a allowed 0s
	// a allowed 0s
	// a allowed 0s
	// a denied 3.333333334s
	// b allowed 0s
	// a at 3.333333333s denied 1ns
	// a at 3.333333334s allowed 0s
}

// A coarse clock serves a reading cached by one goroutine, for the hottest
// paths (see clock.Coarse). The limiter does not own the clock it is
// given: stop the clock after closing the limiter.
func ExampleWithClock() {
	coarse := clock.NewCoarse(time.Millisecond)
	defer coarse.Stop()
	lim, err := sluice.New(sluice.Per(100, time.Second), 10, sluice.WithClock(coarse))
	if err != nil {
		panic(err)
	}
	defer lim.Close() // deferred last, so it runs before coarse.Stop

	fmt.Println(lim.Allow("carol"))
	// Output:
	// true
}

// In an HTTP handler, AllowN's decision fills the response: the tokens
// left, and on a denial when to retry. Retry-After takes whole seconds, so
// the wait is rounded up: a client that retries at the second named finds
// its token there. A new key refused at the key cap is the server's
// limit, not the client's: 503, and no promise of when; nor for a cost
// over the burst, which no wait admits.
func Example_httpHandler() {
	clk := clock.NewManual(0)
	lim, err := sluice.New(sluice.Per(1, 2*time.Second), 2, sluice.WithClock(clk))
	if err != nil {
		panic(err)
	}
	defer lim.Close()

	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, err := lim.AllowN(r.Header.Get("X-API-Key"), 1)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("RateLimit-Remaining", strconv.FormatInt(d.Remaining, 10))
		switch d.Status {
		case sluice.Allowed:
			fmt.Fprintln(w, "hello")
		case sluice.Denied:
			secs := (d.RetryAfter + time.Second - 1) / time.Second
			w.Header().Set("Retry-After", strconv.FormatInt(int64(secs), 10))
			http.Error(w, "slow down", http.StatusTooManyRequests)
		case sluice.OverCapacity:
			http.Error(w, "busy", http.StatusServiceUnavailable)
		default: // TooLarge, a cost over the burst: no wait ever helps
			http.Error(w, "request exceeds the limit", http.StatusTooManyRequests)
		}
	})

	get := func() {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Header.Set("X-API-Key", "k_live_1")
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		fmt.Printf("t=%v %d remaining=%s retry-after=%q\n", clk.Now(), rec.Code,
			rec.Header().Get("RateLimit-Remaining"), rec.Header().Get("Retry-After"))
	}
	get()
	get()
	get()
	clk.Advance(1500 * time.Millisecond)
	get() // 0.5 s short of the next token: Retry-After rounds it up to 1
	clk.Advance(500 * time.Millisecond)
	get()
	// Output:
	// t=0s 200 remaining=1 retry-after=""
	// t=0s 200 remaining=0 retry-after=""
	// t=0s 429 remaining=0 retry-after="2"
	// t=1.5s 429 remaining=0 retry-after="1"
	// t=2s 200 remaining=0 retry-after=""
}

// Stats sums the stripes' counters, for export to a metrics system: each
// is exact, read one after another. A denied request and a refused new key
// are counted apart, one in Denied and one in Refused.
func ExampleLimiter_Stats() {
	lim, _ := sluice.New(sluice.Per(1, time.Minute), 1, sluice.WithMaxKeys(2), sluice.WithClock(clock.NewManual(0)))
	defer lim.Close()

	for _, key := range []string{"alice", "alice", "bob", "carol"} {
		lim.Allow(key)
	}
	s := lim.Stats()
	fmt.Printf("allowed=%d denied=%d refused=%d keys=%d evictions=%d\n",
		s.Allowed, s.Denied, s.Refused, s.Keys, s.Evictions)
	// Output:
	// allowed=2 denied=1 refused=1 keys=2 evictions=0
}

// The sweeper evicts a key once its bucket has been full for the idle
// TTL, and the key's next request meets a new bucket, full, which decides
// as the old one would have. The sweeper walks the stripes in real time,
// each within half a TTL, but reads the limiter's clock, here a manual
// one moved by hand.
func ExampleWithIdleTTL() {
	clk := clock.NewManual(0)
	lim, _ := sluice.New(sluice.Per(1, time.Second), 2,
		sluice.WithIdleTTL(100*time.Millisecond), sluice.WithClock(clk))
	defer lim.Close()

	fmt.Println(lim.Allow("dave"), lim.Allow("dave"), lim.Allow("dave"))
	clk.Set(2100 * time.Millisecond) // full since 2s, idle for the TTL since
	for give := time.Now().Add(10 * time.Second); lim.Len() > 0 && time.Now().Before(give); {
		time.Sleep(time.Millisecond) // the sweeper's walk: about 50ms here
	}
	s := lim.Stats()
	fmt.Printf("keys=%d evictions=%d\n", s.Keys, s.Evictions)
	fmt.Println(lim.Allow("dave"), lim.Allow("dave"), lim.Allow("dave"))
	// Output:
	// true true false
	// keys=0 evictions=1
	// true true false
}

// A service whose keys mostly come new (one per session, say) and that
// creates them on many cores at once can give the limiter more stripes
// than the default, so that creations meet less often on a stripe's lock.
// The count must be a power of two; any other is refused with an error
// that names it.
func ExampleWithStripes() {
	n := 16
	for n < 16*runtime.GOMAXPROCS(0) {
		n *= 2
	}
	lim, err := sluice.New(sluice.Per(10, time.Second), 10, sluice.WithStripes(n))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer lim.Close()
	fmt.Println(lim.Allow("session:7f3a"))

	_, err = sluice.New(sluice.Per(10, time.Second), 10, sluice.WithStripes(100))
	fmt.Println(errors.Is(err, sluice.ErrInvalid))
	fmt.Println(err)
	// Output:
	// true
	// true
	// sluice: invalid argument: stripes: stripe count 100: must be a power of two between 1 and 65536
}
