package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/seed997/sluice"
	"github.com/seed997/sluice/atomicbucket"
	"github.com/seed997/sluice/clock"
)

// units are the lengths one time unit of a stream stands for by choice: a
// second, unless the stream's limit needs more than the engine's 64 bits to
// stay exact at that scale (burst·period past 2^61 of its units, such as
// 999983 per 3600 s), and then the first finer one that fits. Where none
// fits (a count that reduces past 2^20 at each, such as 1048583 per 1),
// scale falls back on exactUnit. A token bucket's decisions depend on times
// only as counted in units, the window's among them, so the scale changes
// none.
var units = []time.Duration{time.Second, time.Millisecond, time.Microsecond, time.Nanosecond}

// exactUnit is the time unit, in nanoseconds, at which capacity tokens per
// window units reduce to one token per window/g nanoseconds, g =
// gcd(capacity, window): capacity/g ns. The engine's time unit is then the
// nanosecond, and its full bucket holds lcm(capacity, window) of them. At
// any unit u the full bucket holds lcm(capacity, window·u) units of the
// engine, a multiple of that, so this unit holds every limit that any unit
// holds: exactly those whose lcm(capacity, window) is within 2^61
// (atomicbucket.MaxTolerance).
func exactUnit(capacity, window int64) time.Duration {
	g, b := capacity, window
	for b != 0 {
		g, b = b, g%b
	}
	return time.Duration(capacity / g)
}

// maxLine bounds one line of input; a longer one is an error, not a hang.
const maxLine = 1 << 20

// parseInt parses a decimal field of line, and says which of the two is
// wrong with a bad one: not a number, or a number past 64 bits.
func parseInt(line int, what, t string) (int64, error) {
	v, err := strconv.ParseInt(t, 10, 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("line %d: %s %s: out of range", line, what, t)
	case err != nil:
		return 0, fmt.Errorf("line %d: %s %q: not an integer", line, what, t)
	}
	return v, nil
}

// request is one request line. at is its time in units since the first
// request, exact for any two int64 timestamps; the replay's clock reads it
// modulo 2^64 ns. The engine reads only differences of readings, modulo
// 2^63 of its units (see atomicbucket), so any timestamps fit, though past
// ±292 years of seconds no time.Duration holds them.
type request struct {
	client int // index into stream.clients
	at     uint64
}

// stream is a parsed, validated command stream.
type stream struct {
	capacity int64
	window   int64
	unit     time.Duration // what one time unit stands for (units)
	clients  []string      // each client's name, in order of first request
	requests []request
}

// clock returns r's reading of the replay's clock.
func (s *stream) clock(r request) time.Duration { return time.Duration(r.at * uint64(s.unit)) }

// scale returns the first of units, or else exactUnit, at which the engine
// holds the stream's limit (capacity tokens per window, burst capacity)
// exactly, and the limit; or an error for a limit no unit holds.
func (s *stream) scale() (time.Duration, atomicbucket.Limit, error) {
	for _, u := range append(slices.Clip(units), exactUnit(s.capacity, s.window)) {
		if s.window > math.MaxInt64/int64(u) {
			continue
		}
		if l, err := atomicbucket.NewLimit(s.capacity, time.Duration(s.window)*u, s.capacity); err == nil {
			return u, l, nil
		}
	}
	return 0, atomicbucket.Limit{}, fmt.Errorf("%w: lcm(capacity, window) exceeds 2^61, "+
		"so no time unit holds this limit exactly in 64 bits", atomicbucket.ErrInvalid)
}

// parseStream reads and validates a whole stream before anything is
// decided, so malformed input yields an error naming its line and no
// decisions at all. Blank lines are skipped.
func parseStream(r io.Reader) (*stream, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	line := 0
	next := func() (string, bool) {
		for sc.Scan() {
			line++
			if t := strings.TrimSpace(sc.Text()); t != "" {
				return t, true
			}
		}
		return "", false
	}
	header := func(what string, min int64) (int64, error) {
		t, ok := next()
		if !ok {
			return 0, missing(sc, line, what)
		}
		v, err := parseInt(line, what, t)
		if err != nil {
			return 0, err
		}
		if v < min {
			return 0, fmt.Errorf("line %d: %s %d: must be at least %d", line, what, v, min)
		}
		return v, nil
	}

	s := &stream{}
	var err error
	if s.capacity, err = header("capacity", 1); err != nil {
		return nil, err
	}
	if int64(int(s.capacity)) != s.capacity {
		// The facade takes counts as int: 32 bits on some platforms.
		return nil, fmt.Errorf("line %d: capacity %d: out of range for this platform's int", line, s.capacity)
	}
	if s.window, err = header("window", 1); err != nil {
		return nil, err
	}
	if s.unit, _, err = s.scale(); err != nil {
		return nil, fmt.Errorf("lines 1-%d: capacity %d, window %d: %w", line, s.capacity, s.window, err)
	}
	count, err := header("command count", 0)
	if err != nil {
		return nil, err
	}
	s.requests = make([]request, 0, min(count, 1<<16))
	ids := map[string]int{}
	var first, last int64 // the first and the previous timestamp
	for i := int64(0); i < count; i++ {
		t, ok := next()
		if !ok {
			return nil, missing(sc, line, fmt.Sprintf("command %d of %d", i+1, count))
		}
		f := strings.Fields(t)
		if f[0] != "request" {
			return nil, fmt.Errorf("line %d: unknown command %q", line, f[0])
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("line %d: want \"request <client> <timestamp>\", got %d fields", line, len(f))
		}
		ts, err := parseInt(line, "timestamp", f[2])
		if err != nil {
			return nil, err
		}
		if i == 0 {
			first = ts
		} else if ts < last {
			return nil, fmt.Errorf("line %d: timestamp %d: earlier than the previous %d", line, ts, last)
		}
		last = ts
		id, ok := ids[f[1]]
		if !ok {
			// A copy, so that the line it came from is not kept.
			id = len(s.clients)
			s.clients = append(s.clients, strings.Clone(f[1]))
			ids[s.clients[id]] = id
		}
		// In uint64, ts - first is exact even where int64 overflows.
		s.requests = append(s.requests, request{client: id, at: uint64(ts) - uint64(first)})
	}
	if t, ok := next(); ok {
		return nil, fmt.Errorf("line %d: %q after the %d commands announced", line, t, count)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	return s, nil
}

func missing(sc *bufio.Scanner, line int, what string) error {
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("line %d: longer than %d bytes", line+1, maxLine)
		}
		return fmt.Errorf("line %d: %w", line+1, err)
	}
	return fmt.Errorf("line %d: input ends before the %s", line, what)
}

// client is what the replay remembers of one client: when it last asked,
// and the engine key it asks under.
type client struct {
	seen bool
	last uint64
	key  string
	gen  int
}

// replay decides every request on the engine, with a manual clock set to
// each request's time (see request), and writes allow or deny for each.
//
// The engine reads a key exactly while it has been idle for less than its
// horizon (atomicbucket.Limit.Horizon: 2^62/n' ns, 73 minutes for the
// largest reduced counts); in a running process the sweeper evicts a full
// key within half of it. A stream's clock jumps past any horizon between
// two lines, faster than the sweeper can run, so the replay evicts for it:
// a client idle for half the horizon has had a full bucket for a while (the
// burst·period spans at most half the horizon), which is the state of a
// client never seen, and it asks again under a new engine key. The engine
// itself refills every shorter gap.
func (s *stream) replay(w io.Writer) error {
	_, limit, err := s.scale()
	if err != nil {
		return err
	}
	clk := clock.NewManual(0)
	lim, err := sluice.New(sluice.Per(int(s.capacity), time.Duration(s.window)*s.unit), int(s.capacity),
		sluice.WithClock(clk))
	if err != nil {
		return err
	}
	defer lim.Close()
	idle := uint64(limit.Horizon() / 2 / s.unit) // whole units: at least the window
	clients := make([]client, len(s.clients))
	for i, name := range s.clients {
		clients[i].key = name
	}
	for _, r := range s.requests {
		c := &clients[r.client]
		if c.seen && r.at-c.last >= idle {
			// No client name holds a newline, so no key collides.
			c.gen++
			c.key = s.clients[r.client] + "\n" + strconv.Itoa(c.gen)
		}
		c.seen = true
		c.last = r.at
		clk.Set(s.clock(r))
		out := "deny\n"
		if lim.Allow(c.key) {
			out = "allow\n"
		}
		if _, err := io.WriteString(w, out); err != nil {
			return err
		}
	}
	return nil
}
