package stress

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/seed997/sluice"
)

// TestLinearCatches holds the linearizability check itself to histories
// built by hand: TestLinearizable passes on the real engine, and
// TestMutantsCaught has caught the mutants by the invariant runs and the
// held-bucket race, not by this check (it logs what caught each), so
// neither would show a check that passes everything. Two requests for one
// key at one instant, the first for the whole burst: whichever order they
// are linearized in, one of them must be denied.
func TestLinearCatches(t *testing.T) {
	now := time.Hour
	whole := linInput{Key: "k0", Now: now, Cost: linBurst}
	one := linInput{Key: "k0", Now: now, Cost: 1}
	s, wholeFirst := linModelStep(nil, whole)
	_, oneAfter := linModelStep(s, one)
	s, oneFirst := linModelStep(nil, one)
	_, wholeAfter := linModelStep(s, whole)
	if wholeFirst.Status != sluice.Allowed || oneAfter.Status != sluice.Denied ||
		oneFirst.Status != sluice.Allowed || wholeAfter.Status != sluice.Denied {
		t.Fatalf("the model: %+v then %+v, or %+v then %+v; want allowed then denied", wholeFirst, oneAfter, oneFirst, wholeAfter)
	}
	op := func(client int, in linInput, out linOutput, call, ret int64) porcupine.Operation {
		return porcupine.Operation{ClientId: client, Input: in, Output: out, Call: call, Return: ret}
	}
	for _, c := range []struct {
		name  string
		ops   []porcupine.Operation
		legal bool
	}{
		{"in turn, the second denied", []porcupine.Operation{op(0, whole, wholeFirst, 1, 2), op(1, one, oneAfter, 3, 4)}, true},
		{"in turn, both allowed", []porcupine.Operation{op(0, whole, wholeFirst, 1, 2), op(1, one, oneFirst, 3, 4)}, false},
		// The first was denied as if it had come second: the instants
		// allow one order only.
		{"in turn, the first denied", []porcupine.Operation{op(0, whole, wholeAfter, 1, 2), op(1, one, oneFirst, 3, 4)}, false},
		// Overlapping, either order may explain them.
		{"overlapping, the whole burst first", []porcupine.Operation{op(0, whole, wholeFirst, 1, 4), op(1, one, oneAfter, 2, 3)}, true},
		{"overlapping, the one token first", []porcupine.Operation{op(0, whole, wholeAfter, 1, 4), op(1, one, oneFirst, 2, 3)}, true},
		{"overlapping, both allowed", []porcupine.Operation{op(0, whole, wholeFirst, 1, 4), op(1, one, oneFirst, 2, 3)}, false},
		// Another key's requests share nothing with k0's.
		{"another key", []porcupine.Operation{op(0, whole, wholeFirst, 1, 2),
			op(1, linInput{Key: "k1", Now: now, Cost: 1}, oneFirst, 3, 4)}, true},
	} {
		cfg := DefaultLinear()
		cfg.OutDir = t.TempDir()
		res, v := judge(cfg, 7, c.ops)
		if want := map[bool]porcupine.CheckResult{true: porcupine.Ok, false: porcupine.Illegal}[c.legal]; res != want {
			t.Errorf("%s: %v, want %v", c.name, res, want)
			continue
		}
		if c.legal {
			if v != (Violation{}) {
				t.Errorf("%s: a legal history reported %v", c.name, v)
			}
			continue
		}
		// The report names the history and where it was written.
		if v.Kind != "linearizability" || v.Key != "history 7" {
			t.Errorf("%s: violation %v", c.name, v)
		}
		for _, ext := range []string{".html", ".txt"} {
			path := filepath.Join(cfg.OutDir, "sluice-linear-1-7"+ext)
			if !strings.Contains(v.Detail, path) {
				t.Errorf("%s: the violation does not name %s: %s", c.name, path, v.Detail)
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
		}
		text, err := os.ReadFile(filepath.Join(cfg.OutDir, "sluice-linear-1-7.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if lines := strings.Split(strings.TrimSpace(string(text)), "\n"); len(lines) != 2 ||
			!strings.Contains(lines[0], "client 0 key k0: take 5") || !strings.Contains(lines[1], "client 1 key k0: take 1") {
			t.Errorf("%s: the history as text, by call instant:\n%s", c.name, text)
		}
	}
}
