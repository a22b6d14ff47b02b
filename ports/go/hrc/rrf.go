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

type occ struct {
	rank int
	val  string
}

// better reports whether an occurrence beats the current one under RRF-10.
func better(rank int, val string, cur *occ) bool {
	if val == "" {
		return false
	}
	if cur == nil {
		return true
	}
	return rank < cur.rank || (rank == cur.rank && val < cur.val)
}

// RRF fuses the lists (RRF-2..RRF-10).
func RRF(lists []RankedList, k int64) []*Fused {
	type acc struct {
		contribs []float64
		exact    *big.Rat
		fields   [4]*occ
		meta     map[string]*occ
		seen     bool
	}
	accs := map[string]*acc{}
	var order []string
	for _, l := range lists {
		if l.Weight == 0 {
			continue
		}
		wExact := new(big.Rat).SetFloat64(l.Weight)
		seen := map[string]bool{}
		for r, it := range l.Items {
			if seen[it.ID] {
				continue
			}
			seen[it.ID] = true
			a := accs[it.ID]
			if a == nil {
				a = &acc{exact: new(big.Rat), meta: map[string]*occ{}}
				accs[it.ID] = a
				order = append(order, it.ID)
			}
			den := k + int64(r) + 1
			a.contribs = append(a.contribs, l.Weight/float64(den))
			a.exact.Add(a.exact, new(big.Rat).Mul(wExact, new(big.Rat).SetFrac64(1, den)))
			for i, v := range []string{it.Path, it.Title, it.Summary, it.Content} {
				if better(r, v, a.fields[i]) {
					a.fields[i] = &occ{r, v}
				}
			}
			for mk, mv := range it.Metadata {
				cur, ok := a.meta[mk]
				if !ok {
					a.meta[mk] = &occ{r, mv}
				} else if mv != "" && (cur.val == "" || r < cur.rank || (r == cur.rank && mv < cur.val)) {
					a.meta[mk] = &occ{r, mv}
				}
			}
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
		f := &Fused{Score: sum, Exact: a.exact}
		f.ID = id
		vals := [4]string{}
		for i, o := range a.fields {
			if o != nil {
				vals[i] = o.val
			}
		}
		f.Path, f.Title, f.Summary, f.Content = vals[0], vals[1], vals[2], vals[3]
		f.Metadata = map[string]string{}
		for mk, o := range a.meta {
			f.Metadata[mk] = o.val
		}
		out = append(out, f)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if c := out[i].Exact.Cmp(out[j].Exact); c != 0 {
			return c > 0
		}
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].ID < out[j].ID
	})
	return out
}
