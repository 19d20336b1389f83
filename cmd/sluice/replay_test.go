package main

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seed997/sluice/atomicbucket"
	"github.com/seed997/sluice/internal/oracle"
)

func replayString(t testing.TB, in string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	rc := run([]string{"replay"}, strings.NewReader(in), &out, &errb)
	return out.String(), errb.String(), rc
}

func TestReplayExample(t *testing.T) {
	in := "3\n10\n8\nrequest alice 0\nrequest alice 0\nrequest alice 0\nrequest alice 0\n" +
		"request bob 1\nrequest alice 3\nrequest alice 4\nrequest alice 7\n"
	out, errs, rc := replayString(t, in)
	want := "allow\nallow\nallow\ndeny\nallow\ndeny\nallow\nallow\n"
	if rc != 0 || out != want {
		t.Fatalf("rc %d, stderr %q, out:\n%s", rc, errs, out)
	}
}

// TestReplayConformance: random streams, including rates whose per-token
// interval is no whole number of nanoseconds, give exactly the decisions of
// the exact rational model.
func TestReplayConformance(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 300; trial++ {
		capacity := 1 + rng.Int64N(12)
		window := 1 + rng.Int64N(40)
		clients := 1 + rng.IntN(5)
		reqs := make([]modelRequest, rng.IntN(400))
		ts := rng.Int64N(5)
		for i := range reqs {
			ts += rng.Int64N(3) * rng.Int64N(3)
			reqs[i] = modelRequest{fmt.Sprintf("c%d", rng.IntN(clients)), ts}
		}
		in, want := streamText(capacity, window, reqs), model(capacity, window, reqs)
		out, errs, rc := replayString(t, in)
		if rc != 0 || out != want {
			t.Fatalf("trial %d (capacity %d window %d): rc %d stderr %q\ninput:\n%s\ngot:\n%s\nwant:\n%s",
				trial, capacity, window, rc, errs, in, out, want)
		}
	}
}

// modelRequest is a request line: a client and its timestamp.
type modelRequest struct {
	client string
	at     int64
}

// streamText writes a stream of reqs under capacity per window.
func streamText(capacity, window int64, reqs []modelRequest) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d\n%d\n%d\n", capacity, window, len(reqs))
	for _, r := range reqs {
		fmt.Fprintf(&b, "request %s %d\n", r.client, r.at)
	}
	return b.String()
}

// model returns the exact model's decisions for reqs, a line each. It counts
// a time unit as a nanosecond, which changes no decision and holds streams
// spanning up to 2^63 units.
func model(capacity, window int64, reqs []modelRequest) string {
	var out strings.Builder
	buckets := map[string]*oracle.Bucket{}
	for _, r := range reqs {
		b, ok := buckets[r.client]
		if !ok {
			b = oracle.New(capacity, time.Duration(window), capacity, time.Duration(r.at))
			buckets[r.client] = b
		}
		if b.Take(time.Duration(r.at), 1).OK {
			out.WriteString("allow\n")
		} else {
			out.WriteString("deny\n")
		}
	}
	return out.String()
}

func TestReplayMalformed(t *testing.T) {
	cases := []struct{ in, line string }{
		{"", "line 0: input ends before the capacity"},
		{"x\n", "line 1: capacity \"x\""},
		{"0\n10\n0\n", "line 1: capacity 0"},
		{"3\n0\n0\n", "line 2: window 0"},
		{"3\n-2\n0\n", "line 2: window -2"},
		{"3\n10\n", "line 2: input ends before the command count"},
		{"3\n10\n1.5\n", "line 3: command count \"1.5\""},
		{"3\n10\n-1\n", "line 3: command count -1"},
		{"3\n10\n2\nrequest a 1\n", "line 4: input ends before the command 2 of 2"},
		{"3\n10\n1\nallow a 1\n", "line 4: unknown command \"allow\""},
		{"3\n10\n1\nrequest a\n", "line 4: want"},
		{"3\n10\n1\nrequest a b c\n", "line 4: want"},
		{"3\n10\n1\nrequest a x\n", "line 4: timestamp \"x\""},
		{"3\n10\n2\nrequest a 5\nrequest a 4\n", "line 5: timestamp 4: earlier"},
		{"3\n10\n1\nrequest a 1\nrequest a 2\n", "line 5: \"request a 2\" after the 1 commands"},
		{"3\n10\n1\nrequest a 99999999999999999999\n", "line 4: timestamp 99999999999999999999: out of range"},
		{"99999999999999999999\n10\n0\n", "line 1: capacity 99999999999999999999: out of range"},
		{"3\n9223372036854775807\n0\n", "lines 1-2: capacity 3, window 9223372036854775807"},
		{"2147483647\n2305843009213693951\n0\n", "lines 1-2: capacity 2147483647, window 2305843009213693951: sluice: invalid argument: lcm(capacity, window) exceeds 2^61"},
		{"3\n10\n1\nrequest a " + strings.Repeat("1", 2<<20) + "\n", "line 4: longer than"},
	}
	if strconv.IntSize == 32 { // GOARCH=386 go test ./cmd/sluice
		cases = append(cases, struct{ in, line string }{"4294967299\n1\n0\n", "line 1: capacity 4294967299: out of range for this platform"})
	}
	for _, c := range cases {
		out, errs, rc := replayString(t, c.in)
		if rc == 0 || out != "" || !strings.Contains(errs, c.line) {
			t.Errorf("input %.40q: rc %d, out %q, stderr %q; want an error naming %q", c.in, rc, out, errs, c.line)
		}
	}
}

func TestUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if rc := run(nil, nil, &out, &errb); rc != 2 {
		t.Fatalf("no command: rc %d", rc)
	}
	if rc := run([]string{"nope"}, nil, &out, &errb); rc != 2 || !strings.Contains(errb.String(), "unknown command") {
		t.Fatalf("unknown command: rc %d %q", rc, errb.String())
	}
	errb.Reset()
	if rc := run([]string{"replay", "extra"}, strings.NewReader("1\n1\n0\n"), &out, &errb); rc != 2 ||
		!strings.Contains(errb.String(), `unexpected argument "extra"`) {
		t.Fatalf("replay with an argument: rc %d %q", rc, errb.String())
	}
	for _, h := range []string{"help", "-h", "--help"} {
		out.Reset()
		errb.Reset()
		if rc := run([]string{h}, nil, &out, &errb); rc != 0 || out.String() != usage || errb.Len() != 0 {
			t.Fatalf("%s: rc %d, stdout %q, stderr %q", h, rc, out.String(), errb.String())
		}
	}
}

// failWriter fails every write, as a closed pipe or a full disk does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestReplayWriteError: decisions that cannot be written are an error,
// exit 1 with the cause on stderr, never a silent exit 0 with the
// decisions lost; both when the failure comes at the end (the buffered
// writer's Flush, a short stream) and midway (a stream longer than its
// buffer).
func TestReplayWriteError(t *testing.T) {
	short := "3\n10\n2\nrequest alice 0\nrequest alice 1\n"
	var long strings.Builder
	fmt.Fprintf(&long, "3\n10\n%d\n", 5000)
	for i := range 5000 {
		fmt.Fprintf(&long, "request c%d %d\n", i%7, i)
	}
	for name, in := range map[string]string{"short": short, "long": long.String()} {
		var errb bytes.Buffer
		rc := run([]string{"replay"}, strings.NewReader(in), failWriter{}, &errb)
		if rc != 1 || !strings.Contains(errb.String(), "disk full") {
			t.Errorf("%s stream, failing stdout: rc %d, stderr %q", name, rc, errb.String())
		}
	}
}

// failReader yields its text, then fails, as a broken pipe or a device
// error does.
type failReader struct{ text string }

func (r *failReader) Read(p []byte) (int, error) {
	if r.text == "" {
		return 0, errors.New("read error")
	}
	n := copy(p, r.text)
	r.text = r.text[n:]
	return n, nil
}

// TestReplayReadError: input that cannot be read to its end is an error
// naming the line it stopped at, exit 1 and no decision printed, whether
// the read fails in the header, among the commands or after the last one
// announced; never a replay of the part that was read, as if it were the
// whole stream.
func TestReplayReadError(t *testing.T) {
	for _, c := range []struct{ text, line string }{
		{"3\n10\n", "line 3: read error"},
		{"3\n10\n2\nrequest alice 0\n", "line 5: read error"},
		{"3\n10\n1\nrequest alice 0\n", "line 5: read error"}, // after the last command
	} {
		var out, errb bytes.Buffer
		rc := run([]string{"replay"}, &failReader{c.text}, &out, &errb)
		if rc != 1 || !strings.Contains(errb.String(), c.line) || out.Len() != 0 {
			t.Errorf("%q then a read error: rc %d, stdout %q, stderr %q; want rc 1 and %q", c.text, rc, out.String(), errb.String(), c.line)
		}
	}
}

// FuzzReplay: no input panics; every input either replays to one decision
// per request, each the exact model's, or fails with an error naming a line
// and prints nothing.
func FuzzReplay(f *testing.F) {
	f.Add("3\n10\n8\nrequest alice 0\nrequest alice 0\nrequest alice 0\nrequest alice 0\nrequest bob 1\nrequest alice 3\nrequest alice 4\nrequest alice 7\n")
	f.Add("1\n1\n1\nrequest a -5\n")
	f.Add("7\n3\n2\n\nrequest x 9223372036\n  request x 9223372036  \n")
	f.Add("3\n10\n1\nrequest a 5 6\n")
	f.Add("7\n3\n4\nrequest a 0\nrequest a 0\nrequest b 1\nrequest a 900000000\n")
	f.Add("999983\n3600\n3\nrequest a -4611686018427387904\nrequest b 0\nrequest a 4611686018427387903\n")
	// At exactUnit, 1048583 ns a unit: the replay's idle threshold is
	// 2^61/1048583 = 2199008575585 units.
	f.Add("1048583\n1\n4\nrequest a 0\nrequest a 0\nrequest a 2199008575584\nrequest a 4398017151169\n")
	f.Fuzz(func(t *testing.T, in string) {
		s, perr := parseStream(strings.NewReader(in))
		out, errs, rc := replayString(t, in)
		if perr != nil {
			if rc != 1 || out != "" || !strings.HasPrefix(errs, "sluice replay: line") {
				t.Fatalf("parse error %v but rc %d out %q stderr %q", perr, rc, out, errs)
			}
			return
		}
		if rc != 0 || strings.Count(out, "\n") != len(s.requests) {
			t.Fatalf("rc %d, %d lines for %d requests, stderr %q", rc, strings.Count(out, "\n"), len(s.requests), errs)
		}
		if n := len(s.requests); n > 0 && s.requests[n-1].at > math.MaxInt64 {
			return // past what the model holds
		}
		reqs := make([]modelRequest, len(s.requests))
		for i, r := range s.requests {
			reqs[i] = modelRequest{s.clients[r.client], int64(r.at)}
		}
		if want := model(s.capacity, s.window, reqs); out != want {
			t.Fatalf("the exact model disagrees:\ngot:\n%s\nwant:\n%s", out, want)
		}
	})
}

// TestReplayConformanceWide: the same, at the edges of what a stream may
// hold: capacities and windows up to what the engine accepts (reduced counts
// past 2^20 at every decimal unit, lcm(capacity, window) near 2^61),
// timestamps anywhere in int64 and streams spanning centuries, and clients
// idle for far longer than the engine's exact horizon, which the replay's
// clock jumps past faster than any sweeper.
func TestReplayConformanceWide(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	capacities := []int64{1, 3, 7, 1000, 999983, 1048573, 1048583, 2 << 20, 9999991}
	if strconv.IntSize == 64 { // the facade takes the burst as an int
		capacities = append(capacities, 1<<40, 1e18)
	}
	windows := []int64{1, 3, 10, 86400, 1e6, 2e9, 1<<61 - 1}
	var accepted, finer, exact int // finer: replayed with a unit shorter than a second; exact: at none of them
	for trial := 0; trial < 300; trial++ {
		capacity := capacities[rng.IntN(len(capacities))]
		window := windows[rng.IntN(len(windows))]
		clients := 1 + rng.IntN(4)
		reqs := make([]modelRequest, 1+rng.IntN(200))
		// Anywhere in int64: past the ±292 years that one time unit of
		// a second gives a clock in nanoseconds.
		ts := math.MinInt64/2 + rng.Int64N(math.MaxInt64)
		for i := range reqs {
			// Mostly bursts at one instant, sometimes a gap of any
			// order of magnitude up to 10^16 units.
			if rng.IntN(3) == 0 {
				ts += rng.Int64N(int64(math.Pow(10, float64(rng.IntN(17)))))
			}
			reqs[i] = modelRequest{fmt.Sprintf("c%d", rng.IntN(clients)), ts}
		}
		in, want := streamText(capacity, window, reqs), model(capacity, window, reqs)
		out, errs, rc := replayString(t, in)
		if !holds(capacity, window) {
			// A limit the engine cannot hold exactly is refused, by name.
			if rc != 1 || out != "" || !strings.Contains(errs, "lines 1-2") {
				t.Fatalf("capacity %d window %d: lcm past 2^61, but replay: rc %d out %q stderr %q",
					capacity, window, rc, out, errs)
			}
			continue
		}
		accepted++
		switch decimalUnit(capacity, window) {
		case time.Second:
		case 0:
			exact++
		default:
			finer++
		}
		if rc != 0 || out != want {
			t.Fatalf("trial %d (capacity %d window %d): rc %d stderr %q\ninput:\n%s\ngot:\n%s\nwant:\n%s",
				trial, capacity, window, rc, errs, in, out, want)
		}
	}
	t.Logf("accepted %d finer %d exact %d", accepted, finer, exact)
	if accepted < 200 || finer < 10 || exact < 20 || accepted == 300 {
		t.Fatalf("%d of 300 streams had a limit the engine holds, %d of them at a unit finer than 1s "+
			"and %d at none of the decimal units", accepted, finer, exact)
	}
}

// holds reports whether some time unit holds capacity per window exactly in
// the engine's 64 bits: whether lcm(capacity, window) is within 2^61,
// computed here in math/big, apart from the replay's arithmetic.
func holds(capacity, window int64) bool {
	c, w := big.NewInt(capacity), big.NewInt(window)
	lcm := new(big.Int).Mul(c, w)
	lcm.Quo(lcm, new(big.Int).GCD(nil, nil, c, w))
	return lcm.Cmp(new(big.Int).Lsh(big.NewInt(1), 61)) <= 0
}

// decimalUnit returns the first of a second, a millisecond, a microsecond
// and a nanosecond at which the engine holds capacity per window exactly,
// or 0 for none.
func decimalUnit(capacity, window int64) time.Duration {
	for _, u := range []int64{1e9, 1e6, 1e3, 1} {
		if window <= math.MaxInt64/u {
			if _, err := atomicbucket.NewLimit(capacity, time.Duration(window*u), capacity); err == nil {
				return time.Duration(u)
			}
		}
	}
	return 0
}

// TestReplayScale: a limit the engine cannot hold exactly with a time unit
// of a second (999983 per 3600 s spans more than 2^61 of its units) is
// replayed with a finer one, and decides as the exact model does, while
// one that fits at a second keeps it; one that fits at no decimal unit is
// replayed at exactUnit. (A limit too large at every scale is refused:
// TestReplayMalformed and TestReplayConformanceWide.)
func TestReplayScale(t *testing.T) {
	if _, err := atomicbucket.NewLimit(999983, 3600*time.Second, 999983); err == nil {
		t.Fatal("999983 per hour fits at 1s: this test no longer tests the fallback")
	}
	wantUnit(t, "999983\n3600\n0\n", time.Millisecond)
	// The whole burst at one instant, one more denied, and one admitted
	// a unit later (277 tokens back).
	var in strings.Builder
	fmt.Fprintf(&in, "999983\n3600\n%d\n", 999983+2)
	for range 999983 + 1 {
		in.WriteString("request a 0\n")
	}
	in.WriteString("request a 1\n")
	out, errs, rc := replayString(t, in.String())
	if want := strings.Repeat("allow\n", 999983) + "deny\nallow\n"; rc != 0 || out != want {
		t.Fatalf("rc %d, stderr %q, out ends %q", rc, errs, out[max(len(out)-30, 0):])
	}
	wantUnit(t, "1\n3600\n0\n", time.Second)

	// 1048583, a prime, per 1 reduces to a count of 1048583 at every
	// decimal unit, past the engine's 2^20: it is replayed at 1048583 ns a
	// unit, a token a nanosecond. The whole burst, one more denied, then
	// a unit later the whole burst back.
	if _, err := atomicbucket.NewLimit(1048583, time.Nanosecond, 1048583); err == nil {
		t.Fatal("1048583 per ns fits: this test no longer tests the exact unit")
	}
	wantUnit(t, "1048583\n1\n0\n", 1048583)
	in.Reset()
	fmt.Fprintf(&in, "1048583\n1\n%d\n", 2*1048583+2)
	for range 1048583 + 1 {
		in.WriteString("request a 0\n")
	}
	for range 1048583 + 1 {
		in.WriteString("request a 1\n")
	}
	out, errs, rc = replayString(t, in.String())
	burst := strings.Repeat("allow\n", 1048583) + "deny\n"
	if rc != 0 || out != burst+burst {
		t.Fatalf("rc %d, stderr %q, out ends %q", rc, errs, out[max(len(out)-30, 0):])
	}
}

// wantUnit fails t unless the stream in parses and is replayed at unit.
func wantUnit(t *testing.T, in string, unit time.Duration) {
	t.Helper()
	s, err := parseStream(strings.NewReader(in))
	if err != nil {
		t.Fatalf("%q: %v; want a unit of %v", in, err, unit)
	}
	if s.unit != unit {
		t.Fatalf("%q: unit %v; want %v", in, s.unit, unit)
	}
}
