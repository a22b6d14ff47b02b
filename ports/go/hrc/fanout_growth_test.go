package hrc

import "testing"

// The fanout plan is linear in connector words (issue 39, item 7): two sizes compared as a
// ratio (growth_test.go), never an absolute time.
func TestFanoutPhraseProbesLinearInConnectors(t *testing.T) {
	for _, unit := range []string{"x and y or z plus ", "and 1 or 2 plus 3 with 4 ", "green and tea or pasta "} {
		t.Run(unit, func(t *testing.T) {
			assertLinear(t, repeatInput(func(s string) { PlanTexts(s, s) }, unit), 60, 4, unit)
		})
	}
}
