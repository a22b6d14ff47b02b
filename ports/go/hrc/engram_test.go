package hrc

// The engram profile's Go traps (spec/profiles/engram.md): each test shows the naive Go
// spelling next to what the port does.

import (
	"math"
	"testing"
)

// ENGRAM-7: Go's / truncates toward zero; days from civil needs floor division for
// negative numerators.
func TestEngramFloorDivision(t *testing.T) {
	if -1/400 != 0 || floorDiv(-1, 400) != -1 {
		t.Fatalf("floorDiv(-1, 400) = %d", floorDiv(-1, 400))
	}
	if got := engramDaysFromCivil(1, 1, 1); got != -719162 {
		t.Fatalf("0001-01-01 = %d days, want -719162", got)
	}
	if got := engramDaysFromCivil(1900, 3, 1) - engramDaysFromCivil(1900, 2, 28); got != 1 {
		t.Fatalf("1900 is not a leap year: got %d days", got)
	}
}

// ENGRAM-3: the patterns are a slice in table order; a map would iterate at random.
func TestEngramPrecedenceIsMostMatchesThenTableOrder(t *testing.T) {
	for i := 0; i < 50; i++ {
		intent, matched, _ := EngramClassify("how to fix the bug before the release")
		if intent != "how" || len(matched) != 2 || matched[0] != "when" {
			t.Fatalf("got %s %v", intent, matched)
		}
		if tie, _, _ := EngramClassify("debug it before friday"); tie != "when" {
			t.Fatalf("tie got %s", tie)
		}
	}
}

// ENGRAM-2: RE2 without (?i) keeps ſ apart from s; with (?i) it folds them.
func TestEngramNoCaseFolding(t *testing.T) {
	if intent, _, _ := EngramClassify("ſteps to reproduce"); intent != "what" {
		t.Fatalf("ſteps classified %s", intent)
	}
}

// ENGRAM-9, ENGRAM-12: `-0.693 * 30 / 30` written as constants is folded exactly by the Go
// compiler; the port computes each step at run time. Go's math.Exp is not always correctly
// rounded (measured up to 1.62 ulps from the true value), which the 1e-14 tolerance absorbs.
func TestEngramExpAtOneHalfLife(t *testing.T) {
	age, half := 30.0, 30.0
	got := engramRecencyForTest(age, half)
	if math.Abs(got-0.5000735956957677) > 1e-14*0.5 {
		t.Fatalf("recency at one half-life = %v", got)
	}
	if got == 0.5 {
		t.Fatalf("0.693 is not ln 2: one half-life is not floored")
	}
}

func engramRecencyForTest(age, half float64) float64 {
	_, recs := engramBoost("q", engramOptions{nowSeconds: int64(age) * 86400, halfLifeDays: half},
		[]engramItem{{"a", map[string]string{"engram.date": "1970-01-01", "engram.kind": "episodic"}, 1}})
	return recs[0]["recency"].(float64)
}
