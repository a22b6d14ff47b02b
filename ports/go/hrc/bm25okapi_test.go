package hrc

import (
	"math"
	"testing"
)

// OKAPI-5: the pinned ln, not math.Log.
func TestOkapiLnIsNotMathLog(t *testing.T) {
	if got := OkapiLn(3.3333333333333335); got != 1.203972804325936 {
		t.Fatalf("OkapiLn = %v", got)
	}
	if math.Log(3.3333333333333335) != 1.2039728043259361 {
		t.Fatalf("math.Log changed: %v", math.Log(3.3333333333333335))
	}
	if OkapiLn(2) != 0.6931471805599453 || OkapiLn(1) != 0 {
		t.Fatal("OkapiLn(2) or OkapiLn(1)")
	}
}

// OKAPI-10: with explicit float64() conversions the results hold on every GOAMD64 level.
func TestOkapiUnfused(t *testing.T) {
	if got := OkapiIDF(12, 1); got != 2.159484249353372 {
		t.Fatalf("OkapiIDF(12, 1) = %v", got)
	}
	w := OkapiTermWeight(OkapiIDF(3, 3), 1, 3, 10.0/3.0, OkapiParams{1.5, 0.75})
	if w != 0.13982344777436917 {
		t.Fatalf("weight = %v", w)
	}
}

// OKAPI-8, OKAPI-9: the chapter's worked example.
func TestOkapiWorkedExample(t *testing.T) {
	c := NewOkapiCollection([]Candidate{
		{ID: "a", Path: "notes/a.md", Content: "Tea, tea and a cup."},
		{ID: "b", Path: "notes/b.md", Content: "Coffee mug"},
		{ID: "c", Path: "notes/c.md", Content: ""},
		{ID: "d", Path: "notes/d.md", Content: "green tea leaves"},
	})
	terms := c.statistics("tea cup")
	s, ok := c.score(c.docs[0], terms, OkapiParams{1.5, 0.75})
	if !ok || s != 1.5796743752569702 {
		t.Fatalf("score(a) = %v %v", s, ok)
	}
	if _, ok := c.score(c.docs[1], terms, OkapiParams{1.5, 0.75}); ok {
		t.Fatal("b has no query term")
	}
}
