package hrc

import (
	"reflect"
	"testing"
)

// PIPE-12: the request's query first, then the profiles' variants; repeats after TEXT-1..4
// are dropped and an empty variant is invalid input.
func TestVariantListDropsRepeatsAndRejectsEmpty(t *testing.T) {
	runWith := func(vs ...string) *profileRun {
		hooks := &PipelineHooks{QueryVariants: func(c *ProfileCall, q string) []string { return vs }}
		return &profileRun{calls: []profileEntry{{hooks, &ProfileCall{Name: "x", Trace: map[string]any{}}}}}
	}
	got, err := variantList("acme", runWith("Beta  widgets", "Beta widgets", " acme\u200b"))
	if err != nil || !reflect.DeepEqual(got, []string{"acme", "Beta  widgets"}) {
		t.Fatalf("variantList = %q, %v", got, err)
	}
	if _, err := variantList("acme", runWith("beta", " \u200b ")); err == nil {
		t.Fatal("an empty variant must be invalid input")
	}
}
