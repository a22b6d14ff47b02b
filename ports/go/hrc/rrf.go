package hrc

// Reciprocal Rank Fusion (RRF-1..RRF-11).

import (
	"math/big"
	"sort"
)

// Candidate is a candidate or chunk (spec/operations.md).
type Candidate struct {
	ID, Path, Title, Summary, Content string
	Metadata                          map[string]string
}

// RankedList is one RRF input list.
type RankedList struct {
	Name   string
	Weight float64
	Items  []Candidate
}

// Fused is a fused result: the merged candidate, its float score and exact score.
type Fused struct {
	Candidate
	Score float64
	Exact *big.Rat
}

// RRF fuses the lists (RRF-2..RRF-14): every occurrence adds w/(k+r+1) (RRF-4), the first
// sighting seeds title, summary, content and metadata and later ones fill blanks (RRF-10,
// RRF-14), the path is the best-ranked non-empty one (RRF-13), and the order is the emitted
// float descending, then path, then id (RRF-6, RRF-8, RRF-12). Exact is the emitted float's
// exact value, which later stages order by (INTENT-9).
func RRF(lists []RankedList, k int64) []*Fused {
	type acc struct {
		contribs  []float64
		texts     [3]string // title, summary, content
		meta      map[string]string
		path      string
		pathRank  int
		pathFound bool
	}
	accs := map[string]*acc{}
	var order []string
	for _, l := range lists {
		if l.Weight == 0 {
			continue
		}
		for r, it := range l.Items {
			a := accs[it.ID]
			vals := [3]string{it.Title, it.Summary, it.Content}
			if a == nil {
				a = &acc{texts: vals, meta: map[string]string{}}
				for mk, mv := range it.Metadata {
					a.meta[mk] = mv
				}
				accs[it.ID] = a
				order = append(order, it.ID)
			} else {
				for i, v := range vals {
					if a.texts[i] == "" {
						a.texts[i] = v
					}
				}
				for mk, mv := range it.Metadata {
					if cur, ok := a.meta[mk]; !ok || cur == "" {
						a.meta[mk] = mv
					}
				}
			}
			if it.Path != "" && (!a.pathFound || r < a.pathRank || (r == a.pathRank && it.Path < a.path)) {
				a.path, a.pathRank, a.pathFound = it.Path, r, true
			}
			a.contribs = append(a.contribs, l.Weight/float64(k+int64(r)+1))
		}
	}
	out := make([]*Fused, 0, len(order))
	for _, id := range order {
		a := accs[id]
		cs := append([]float64{}, a.contribs...)
		sort.Sort(sort.Reverse(sort.Float64Slice(cs)))
		sum := 0.0
		for _, c := range cs {
			sum += c
		}
		f := &Fused{Score: sum, Exact: new(big.Rat).SetFloat64(sum)}
		f.ID = id
		f.Path = a.path
		f.Title, f.Summary, f.Content = a.texts[0], a.texts[1], a.texts[2]
		f.Metadata = a.meta
		out = append(out, f)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].ID < out[j].ID
	})
	return out
}
