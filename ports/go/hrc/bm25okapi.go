package hrc

// Profile bm25-okapi (spec/profiles/bm25-okapi.md, OKAPI-*): Okapi BM25 with stated k1 and b.
// Every float operation runs in the chapter's order. Go may fuse x*y + z into one fused
// multiply-add (the Go specification allows it; the compiler does on arm64, ppc64le, s390x and
// amd64 with GOAMD64=v3), so every product that is followed by an addition is wrapped in an
// explicit float64() conversion, which forces rounding (OKAPI-10).

import (
	"sort"
)

const (
	okapiName    = "bm25-okapi"
	okapiVersion = "2.0.0"
	okapiDefK1   = 1.5
	okapiDefB    = 0.75
	okapiMaxK1   = 1000.0
	okapiSqrt2   = 1.4142135623730951
	okapiLn2     = 0.6931471805599453
	okapiLnTerms = 12
)

// okapiC are the binary64 quotients 1/(2j+1) (OKAPI-5).
var okapiC = func() [okapiLnTerms]float64 {
	var c [okapiLnTerms]float64
	for j := range c {
		c[j] = 1 / float64(2*j+1)
	}
	return c
}()

// OkapiParams are k1 and b (OKAPI-3).
type OkapiParams struct{ K1, B float64 }

func okapiParam(m map[string]any, key string, def, top float64) (float64, error) {
	v, ok := present(m, key)
	if !ok {
		return def, nil
	}
	f, ok := asFloat(v)
	if !ok || f < 0 || f > top {
		return 0, invalid("%s must be a number in [0, %g]", key, top)
	}
	return f, nil
}

func okapiCheckParams(m map[string]any) (OkapiParams, error) {
	k1, err := okapiParam(m, "k1", okapiDefK1, okapiMaxK1)
	if err != nil {
		return OkapiParams{}, err
	}
	b, err := okapiParam(m, "b", okapiDefB, 1)
	if err != nil {
		return OkapiParams{}, err
	}
	return OkapiParams{k1, b}, nil
}

// OkapiLn is OKAPI-5's ln for a finite x >= 1: + − × ÷ only, each rounded once, never fused.
func OkapiLn(x float64) float64 {
	m := x
	e := 0
	for m >= 2 {
		m = m / 2
		e = e + 1
	}
	if m > okapiSqrt2 {
		m = m / 2
		e = e + 1
	}
	u := (m - 1) / (m + 1)
	v := u * u
	p := okapiC[okapiLnTerms-1]
	for j := okapiLnTerms - 2; j >= 0; j-- {
		p = float64(p*v) + okapiC[j]
	}
	t := u * p
	return float64(float64(e)*okapiLn2) + (t + t)
}

// OkapiIDF is OKAPI-4: ln(1 + (N − n + 0.5) / (n + 0.5)).
func OkapiIDF(n, df int) float64 {
	a := float64(n-df) + 0.5
	c := float64(df) + 0.5
	return OkapiLn(1 + a/c)
}

// OkapiTermWeight is OKAPI-7: the seed's formula read left to right.
func OkapiTermWeight(idf float64, tf, dl int, avgdl float64, p OkapiParams) float64 {
	ftf := float64(tf)
	scaled := (p.B * float64(dl)) / avgdl
	base := (1 - p.B) + scaled
	damp := float64(p.K1 * base)
	den := ftf + damp
	num := ftf * (p.K1 + 1)
	return float64(idf*num) / den
}

// okapiQueryTerms is OKAPI-2: distinct words in code point order (UTF-8 byte order).
func okapiQueryTerms(q string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range Words(q) {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}

type okapiDoc struct {
	id, path string
	bag      map[string]int
	dl       int
}

type okapiTerm struct {
	term string
	df   int
	idf  float64
	has  bool
}

// OkapiCollection is a collection of documents (OKAPI-1) with its statistics.
type OkapiCollection struct {
	docs   []okapiDoc
	byID   map[string]int
	avgdl  float64
	hasAvg bool
}

// NewOkapiCollection tokenises the documents once (OKAPI-2, OKAPI-6).
func NewOkapiCollection(docs []Candidate) *OkapiCollection {
	c := &OkapiCollection{byID: map[string]int{}}
	total := 0
	for i, d := range docs {
		bag := map[string]int{}
		dl := 0
		for _, w := range Words(d.Content) {
			bag[w]++
			dl++
		}
		total += dl
		c.docs = append(c.docs, okapiDoc{d.ID, d.Path, bag, dl})
		c.byID[d.ID] = i
	}
	if len(docs) > 0 {
		c.avgdl = float64(total) / float64(len(docs))
		c.hasAvg = true
	}
	return c
}

func (c *OkapiCollection) statistics(q string) []okapiTerm {
	var out []okapiTerm
	for _, t := range okapiQueryTerms(q) {
		df := 0
		for _, d := range c.docs {
			if d.bag[t] > 0 {
				df++
			}
		}
		ot := okapiTerm{term: t, df: df}
		if df > 0 {
			ot.idf, ot.has = OkapiIDF(len(c.docs), df), true
		}
		out = append(out, ot)
	}
	return out
}

// score is OKAPI-8 for one document; ok false when it holds no query term.
func (c *OkapiCollection) score(d okapiDoc, terms []okapiTerm, p OkapiParams) (float64, bool) {
	if !c.hasAvg {
		return 0, false
	}
	total, any := 0.0, false
	for _, t := range terms {
		tf := d.bag[t.term]
		if t.has && tf > 0 {
			total = total + OkapiTermWeight(t.idf, tf, d.dl, c.avgdl, p)
			any = true
		}
	}
	return total, any
}

type okapiScored struct {
	id, path string
	score    float64
}

// okapiLess is OKAPI-9: score descending, then path, then id (byte order = code points).
func okapiLess(a, b okapiScored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if a.path != b.path {
		return a.path < b.path
	}
	return a.id < b.id
}

func opOkapiScore(in map[string]any) (map[string]any, error) {
	rawDocs, ok := present(in, "documents")
	if !ok {
		return nil, invalid("documents is required")
	}
	docs, err := okapiDocuments(rawDocs, "documents")
	if err != nil {
		return nil, err
	}
	q, err := reqString(in, "query")
	if err != nil {
		return nil, err
	}
	p, err := okapiCheckParams(in)
	if err != nil {
		return nil, err
	}
	c := NewOkapiCollection(docs)
	terms := c.statistics(q)
	var scored []okapiScored
	for _, d := range c.docs {
		if s, ok := c.score(d, terms, p); ok {
			scored = append(scored, okapiScored{d.id, d.path, s})
		}
	}
	sort.SliceStable(scored, func(i, j int) bool { return okapiLess(scored[i], scored[j]) })
	termsJSON := []any{}
	for _, t := range terms {
		var idf any
		if t.has {
			idf = t.idf
		}
		termsJSON = append(termsJSON, map[string]any{"term": t.term, "df": t.df, "idf": idf})
	}
	results := []any{}
	for _, s := range scored {
		results = append(results, map[string]any{"id": s.id, "path": s.path, "score": s.score})
	}
	var avg any
	if c.hasAvg {
		avg = c.avgdl
	}
	return map[string]any{
		"documentCount": len(docs), "averageLength": avg, "terms": termsJSON, "results": results,
	}, nil
}

// okapiDocuments is OKAPI-12: {id, path, content} objects with unique ids.
func okapiDocuments(v any, what string) ([]Candidate, error) {
	docs, err := parseCandidates(v, what, true)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, d := range docs {
		if seen[d.ID] {
			return nil, invalid("%s: duplicate id %q", what, d.ID)
		}
		seen[d.ID] = true
	}
	return docs, nil
}

func init() {
	RegisterProfile(&Profile{
		Name:    okapiName,
		Version: okapiVersion,
		Operations: map[string]handler{
			okapiName + ".score":  opOkapiScore,
			okapiName + ".search": opGenieSearch,
		},
	})
}
