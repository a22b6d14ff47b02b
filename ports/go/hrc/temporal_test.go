package hrc

// Profile temporal (spec/profiles/temporal.md): the day-number calendar against package time,
// and TEMPORAL-12's roll-over against time.AddDate (which, in UTC, normalises the same way).

import (
	"math/rand"
	"testing"
	"time"
)

func dayOf(t time.Time) int { return int(t.Unix() / 86400) }

func TestTemporalCivilAgreesWithPackageTime(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	lo, hi := daysFromCivil(1, 1, 1), daysFromCivil(9999, 12, 31)
	for i := 0; i < 50000; i++ {
		n := lo + rng.Intn(hi-lo+1)
		tm := time.Unix(int64(n)*86400, 0).UTC()
		y, m, d := civilFromDays(n)
		if y != tm.Year() || m != int(tm.Month()) || d != tm.Day() {
			t.Fatalf("civilFromDays(%d) = %d-%d-%d, time says %s", n, y, m, d, tm)
		}
		if daysFromCivil(y, m, d) != n {
			t.Fatalf("round trip of %d", n)
		}
		if weekdayOf(n) != int(tm.Weekday()) { // TEMPORAL-10: floored, also before 1970
			t.Fatalf("weekday of %s: %d", tm, weekdayOf(n))
		}
	}
}

func TestTemporalMonthsBackIsAddDate(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < 20000; i++ {
		y, m := 1100+rng.Intn(8800), 1+rng.Intn(12)
		d := 1 + rng.Intn(daysInMonth(y, m))
		n := rng.Intn(1300)
		anchor := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
		got, ok := monthsBack(daysFromCivil(y, m, d), n)
		want := dayOf(anchor.AddDate(0, -n, 0))
		if !ok || got != want {
			t.Fatalf("%s minus %d months: %s, AddDate says %s", anchor.Format("2006-01-02"), n,
				slashDate(got), anchor.AddDate(0, -n, 0).Format("2006-01-02"))
		}
	}
}

func TestTemporalCountDoesNotOverflow(t *testing.T) {
	if _, ok := temporalCount("99999999999999999999"); ok {
		t.Fatal("a twenty-digit count must be out of range (TEMPORAL-11), not parsed")
	}
	if n, ok := temporalCount("0000007"); !ok || n != 7 {
		t.Fatal("leading zeros")
	}
}
