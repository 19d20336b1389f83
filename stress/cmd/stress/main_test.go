package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
)

func TestParseErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-duration", "0s"}, {"-duration", "x"}, {"-segment", "1ms"}, {"-workers", "0"},
		{"-histories", "-1"}, {"-clocks", "real,sundial"}, {"extra"},
	} {
		if _, err := parse(args, io.Discard); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
	o, err := parse([]string{"-duration", "2s", "-clocks", "manual"}, io.Discard)
	if err != nil || o.duration != 2*time.Second || len(o.clocks) != 1 {
		t.Fatalf("%+v %v", o, err)
	}
}

// A short run prints progress and a summary, and finds nothing.
func TestRun(t *testing.T) {
	o, err := parse([]string{"-duration", "1500ms", "-segment", "1500ms", "-histories", "5", "-clocks", "real", "-seed", "3"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	bad, err := run(o, &out)
	if err != nil || bad {
		t.Fatalf("bad=%v err=%v\n%s", bad, err, out.String())
	}
	for _, want := range []string{"decisions/s", "summary after", "histories checked      5", "held-bucket races      1 played", "violations             0"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// FuzzArgs: any command line is parsed or refused with an error; none panics.
func FuzzArgs(f *testing.F) {
	f.Add("-duration 10s -workers 4")
	f.Add("-clocks real,,manual")
	f.Add("-segment -1s")
	f.Fuzz(func(t *testing.T, line string) {
		o, err := parse(strings.Fields(line), io.Discard)
		if err == nil && (o.duration <= 0 || o.workers < 1 || len(o.clocks) == 0) {
			t.Fatalf("%q accepted as %+v", line, o)
		}
	})
}
