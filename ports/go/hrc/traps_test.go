package hrc

// Unit tests for the Go traps the spec predicts (spec/portability.md, spec/intent.md INTENT-3,
// INTENT-7, spec/rrf.md RRF-6, spec/adapter-protocol.md PROTO-2). Each test shows the trap
// (what the naive Go spelling does) next to what the port does.

import (
	"encoding/json"
	"math"
	"math/big"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	dir, err := FindDataDir()
	if err == nil {
		err = LoadData(dir)
	}
	if err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

func TestLowerIsFullLowercasing(t *testing.T) { // TEXT-5
	if got := Lower("İ"); got != "i\u0307" {
		t.Fatalf("Lower(İ) = %q", got)
	}
	if strings.ToLower("İ") == "i\u0307" {
		t.Fatalf("strings.ToLower now does full lowercasing of İ: update FINDINGS.md")
	}
	if got := Lower("ΟΔΟΣ"); got != "οδος" {
		t.Fatalf("Lower(ΟΔΟΣ) = %q", got)
	}
	if strings.ToLower("ΟΔΟΣ") != "οδοσ" {
		t.Fatalf("strings.ToLower now applies Final_Sigma: update FINDINGS.md")
	}
	if got := Lower("ΣΑ"); got != "σα" {
		t.Fatalf("initial sigma: %q", got)
	}
}

func TestLengthsAreCodePoints(t *testing.T) { // TEXT-8
	if CPLen("𝐜𝐚𝐭") != 3 || len("𝐜𝐚𝐭") != 12 {
		t.Fatal("code point length")
	}
}

func TestSortStringsIsCodePointOrder(t *testing.T) { // TEXT-9: Go compares bytes, which is code point order
	got := SortStrings([]string{"\U00010000", "\uE000", "a", ""})
	want := []string{"", "a", "\uE000", "\U00010000"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%q", got)
		}
	}
}

func TestStringsFieldsIsTextWhitespace(t *testing.T) { // TEXT-4: unicode.IsSpace is White_Space
	for r := rune(0); r < 0x3100; r++ {
		s := "a" + string(r) + "b"
		if (len(strings.Fields(s)) == 2) != (len(splitWhite(s)) == 2) {
			t.Fatalf("U+%04X: strings.Fields and TEXT-4 differ", r)
		}
	}
	re := regexp.MustCompile(`\s`)
	if re.MatchString("\u00a0") || re.MatchString("\u0085") {
		t.Fatal("RE2 \\s now matches U+00A0 or U+0085: update INTENT-3's note")
	}
}

func TestRE2Readings(t *testing.T) { // INTENT-3
	folded := regexp.MustCompile(`(?i)\bsuggest\b`)
	if !folded.MatchString("sugge\u017ft") {
		t.Fatal("RE2 (?i) no longer folds ſ onto s")
	}
	p := pattern{Source: `\bsuggest\b`, Flags: "i"}
	if err := compilePattern(&p); err != nil {
		t.Fatal(err)
	}
	if p.re.MatchString("sugge\u017ft") {
		t.Fatal("the port's reading folds ſ")
	}
	b := regexp.MustCompile(`\btips?\b`)
	if !b.MatchString("tips\u00e9") || !b.MatchString("ideas tips\u0663") {
		t.Fatal("RE2 \\b is not ASCII")
	}
}

func TestNoConstantFolding(t *testing.T) { // INTENT-7, TEXT-11
	const folded = 2.2 * 0.45 // an untyped constant expression: exact, then rounded once
	if float64(folded) != 0.99 {
		t.Fatalf("constant folding: %v", float64(folded))
	}
	a, b := 2.2, 0.45
	if a*b != 0.9900000000000001 {
		t.Fatalf("run-time product: %v", a*b)
	}
	tab := intentTables["anchor"]
	items := []Candidate{{ID: "r", Path: "memory/user-fact-x.md", Content: "a recap"}}
	adj := tab.Reweight(tab.Detect("how many"), items, []float64{1.0}, []*big.Rat{new(big.Rat).SetInt64(1)})
	if adj[0].Mult != 0.9900000000000001 || len(adj[0].Rules) != 2 {
		t.Fatalf("multiplier %v rules %v", adj[0].Mult, adj[0].Rules)
	}
}

func TestRRFExactTie(t *testing.T) { // RRF-6 worked example: exact 1/24 tie, floats differ, larger float first
	mk := func(pos map[int]string) []Candidate {
		var out []Candidate
		for r := 0; r < 28; r++ {
			id := "f" + strconv.Itoa(r)
			if x, ok := pos[r]; ok {
				id = x
			}
			out = append(out, Candidate{ID: id, Path: id + ".md"})
		}
		return out
	}
	l1 := mk(map[int]string{11: "a", 5: "b"})
	l2 := mk(map[int]string{11: "a", 5: "b"})
	l3 := mk(map[int]string{11: "a", 27: "b"})
	for i := range l2 {
		if l2[i].ID[0] == 'f' {
			l2[i].ID, l2[i].Path = "g"+l2[i].ID, "g"+l2[i].Path
		}
		if l3[i].ID[0] == 'f' {
			l3[i].ID, l3[i].Path = "h"+l3[i].ID, "h"+l3[i].Path
		}
	}
	fused := RRF([]RankedList{{"1", 1, l1}, {"2", 1, l2}, {"3", 1, l3}}, 60)
	var a, b *Fused
	ia, ib := -1, -1
	for i, f := range fused {
		switch f.ID {
		case "a":
			a, ia = f, i
		case "b":
			b, ib = f, i
		}
	}
	if a.Score == b.Score || !(b.Score > a.Score) || ib > ia {
		t.Fatalf("a %v (%d) b %v (%d)", a.Score, ia, b.Score, ib)
	}
}

func TestFloatFormatting(t *testing.T) { // TEXT-12
	for _, f := range []float64{1e-7, 1e21, 0.0474478480153437, -1e-6, 5e-324, math.MaxFloat64} {
		g := strconv.FormatFloat(f, 'g', -1, 64)
		if !json.Valid([]byte(g)) {
			t.Fatalf("'g' form %s is not JSON", g)
		}
		b, err := Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		back, _ := strconv.ParseFloat(string(b), 64)
		if back != f {
			t.Fatalf("%s does not round-trip", b)
		}
	}
	if _, err := Marshal(math.NaN()); err == nil {
		t.Fatal("NaN must not be written")
	}
	if b, _ := Marshal("<&>"); string(b) != `"<&>"` {
		t.Fatalf("HTML escaping: %s", b)
	}
}

func TestStrictJSON(t *testing.T) { // PROTO-2
	for _, bad := range []string{`{"a":1,"a":2}`, `{"a":"\ud800"}`, `{"a":"\udc00x"}`, `{"a":1e400}`, `[1]`, `{"a":NaN}`} {
		if _, err := DecodeStrict([]byte(bad)); err == nil {
			t.Fatalf("accepted %s", bad)
		}
	}
	for _, good := range []string{`{"a":"\ud83d\ude00"}`, `{"a":"\\ud800"}`, `{"n":1e300}`} {
		if _, err := DecodeStrict([]byte(good)); err != nil {
			t.Fatalf("rejected %s: %v", good, err)
		}
	}
	m, _ := DecodeStrict([]byte(`{"k":60.0}`))
	if k, err := asInt(m["k"], "k", 1); err != nil || k != 60 {
		t.Fatal("60.0 is the integer 60 (OP-4)")
	}
	if _, err := asInt(json.Number("1e300"), "k", 1); err == nil {
		t.Fatal("1e300 is above 2^31-1 (OP-4)")
	}
}

func TestVectorExactTie(t *testing.T) { // BACKEND-28 worked example
	hits := VectorSearch([]int64{1, 0}, []VChunk{
		{Candidate{ID: "b", Path: "b.md"}, []int64{3, 3}},
		{Candidate{ID: "a", Path: "a.md"}, []int64{1, 1}},
	}, 10)
	if hits[0].Cand.ID != "a" || !(hits[1].Similarity > hits[0].Similarity) {
		t.Fatalf("%+v", hits)
	}
}

func TestFNV(t *testing.T) { // BACKEND-22
	if FNV1a32([]byte("a")) != 3826002220 || FNV1a32([]byte("$ca"))%256 != 67 {
		t.Fatal("fnv1a32")
	}
}

func TestSQLiteFTS5Tokenizer(t *testing.T) { // BACKEND-1, BACKEND-2 on modernc.org/sqlite
	idx, err := NewFTSIndex([]Candidate{{ID: "z", Path: "z.md", Content: "Zürich café"}})
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	for _, q := range []string{`"zurich"`, `"cafe"`} {
		hits, err := idx.Search(q, 10)
		if err != nil || len(hits) != 1 {
			t.Fatalf("%s: %v %v", q, hits, err)
		}
	}
	if _, err := idx.Search(`"a" AND NOT "b"`, 10); err == nil {
		t.Fatal("AND NOT must be an FTS5 syntax error (DSL-17)")
	}
}

func TestRRFRepeatsFillAndPath(t *testing.T) { // RRF-4, RRF-10, RRF-13
	l := []Candidate{{ID: "x", Path: "x.md"}, {ID: "x", Path: "x.md", Title: "Later"}, {ID: "y", Path: "y.md"}}
	fused := RRF([]RankedList{{"", 1, l}}, 60)
	one := 1.0 // run-time binary64 arithmetic, not an exact constant (TEXT-11)
	if fused[0].ID != "x" || fused[0].Score != one/61+one/62 || fused[0].Title != "Later" || fused[1].Score != 1.0/63 {
		t.Fatalf("repeats: %+v %+v", fused[0], fused[1])
	}
	p1 := []Candidate{{ID: "m", Path: "m.md"}, {ID: "c", Path: "z-old.md", Title: "First"}}
	p2 := []Candidate{{ID: "c", Path: "a-new.md", Title: "Second"}}
	for _, order := range [][]RankedList{{{"", 1, p1}, {"", 1, p2}}, {{"", 1, p2}, {"", 1, p1}}} {
		if got := RRF(order, 60)[0]; got.Path != "a-new.md" {
			t.Fatalf("path %q", got.Path)
		}
	}
	if got := RRF([]RankedList{{"", 1, p1}, {"", 1, p2}}, 60)[0].Title; got != "First" {
		t.Fatalf("one-way fill: %q", got)
	}
}

func TestUnanimityPositional(t *testing.T) { // UNAN-2..UNAN-5
	cases := []struct {
		a, b  []string
		n     int
		fired bool
	}{
		{[]string{"A", "B", "C"}, []string{"B", "A", "C"}, 1, false},
		{[]string{"A", "B", "C"}, []string{"A", "B", "X"}, 2, true},
		{[]string{"A", "B"}, []string{"A", "B", "C"}, 0, false},
		{[]string{"A", "A", "B"}, []string{"A", "A", "C"}, 2, true},
	}
	for _, c := range cases {
		if n, f := Unanimity(c.a, c.b); n != c.n || f != c.fired {
			t.Fatalf("%v %v: %d %v", c.a, c.b, n, f)
		}
	}
}
