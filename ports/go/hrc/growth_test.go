package hrc

// Growth checks (issue 29, item 1): the pattern-driven parsers stay near-linear in their
// input. Each test times two input sizes and compares the ratio, never an absolute time: a
// linear step costs about factor times more on factor times the input, a quadratic one
// factor squared; the bound is 2 x factor. Each size keeps the fastest of a few repetitions,
// each repetition long enough (5 ms of CPU for the small size) to be above the clock's noise.

import (
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// fastest runs with the collector off and a collection before each repetition: collector
// pauses and its background work on a loaded machine otherwise dwarf the time measured.
func fastest(run func(), reps int) time.Duration {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	best := time.Duration(math.MaxInt64)
	for r := 0; r < reps; r++ {
		runtime.GC()
		start := cpuTime()
		run()
		best = min(best, cpuTime()-start)
	}
	return best
}

// repeated runs a step k times: a step of a few microseconds is below the clock's noise, so
// both sizes are timed over the k that makes the small one last at least 5 ms.
func repeated(run func(), k int) func() {
	return func() {
		for i := 0; i < k; i++ {
			run()
		}
	}
}

func assertLinear(t *testing.T, make func(n int) func(), small, factor int, what string) {
	t.Helper()
	smallRun, largeRun := make(small), make(factor*small)
	k := 1
	for k < 1<<20 && fastest(repeated(smallRun, k), 1) < 5*time.Millisecond {
		k *= 4
	}
	little := max(fastest(repeated(smallRun, k), 3), time.Microsecond)
	large := fastest(repeated(largeRun, k), 3)
	ratio := float64(large) / float64(little)
	if ratio >= float64(2*factor) {
		t.Errorf("%s: %dx the input took %.1fx the time", what, factor, ratio)
	}
}

func repeatInput(fn func(string), unit string) func(int) func() {
	return func(n int) func() {
		text := strings.Repeat(unit, n)
		return func() { fn(text) }
	}
}

func TestLinkExtractionIsLinearInLinksPerLine(t *testing.T) { // GBRAIN-8
	// One line, so every link shares a sentence window: re-tokenising it per link was quadratic.
	for _, unit := range []string{"[[a]] ", "[x](a) ", "[[a]]. founded ", "[a](b) worked at [[c|d]] "} {
		extract := func(s string) { GbrainExtract("p.md", s) }
		assertLinear(t, repeatInput(extract, unit), 40000/len(unit), 4, unit)
	}
}

func TestCodeStrippingIsLinearInBackticksCutByLineEnds(t *testing.T) { // GBRAIN-4
	// Each backtick whose next one lies past a line end stays; no rescan of the text per backtick.
	make := func(n int) func() {
		text := "[a] " + strings.Repeat("`\n", n/2)
		return func() { gbrainStripCode(text) }
	}
	assertLinear(t, make, 20000, 16, "backticks cut by line ends")
}

func TestQueryParsersAreLinearInQueryLength(t *testing.T) {
	date := "2026-03-01"
	parsers := map[string]func(string){
		"intent":         func(s string) { intentTables["anchor"].Detect(s) },
		"intent hrc-1.0": func(s string) { intentTables["hrc-1.0"].Detect(s) },
		"temporal":       func(s string) { ExpandTemporal(s, &date) },
		"engram classes": func(s string) { EngramClassify(s) },
		"engram dates":   func(s string) { engramQuerySignal(s) },
		"gbrain routing": func(s string) { gbrainClassify(s) },
	}
	for name, fn := range parsers {
		for _, unit := range []string{"3 days ago ", "last monday ", "2026-01-01 ", "did i bought ", "1 ", "  "} {
			assertLinear(t, repeatInput(fn, unit), 20000/len(unit), 4, fmt.Sprintf("%s on %q", name, unit))
		}
	}
}
