package hrc

// Tail-preserving rerank (RERANK-1..RERANK-12).

import (
	"math"
	"sort"
)

// RerankEntry is one reranker answer entry.
type RerankEntry struct {
	ID    string
	Score float64
}

// RerankReport is the report of RERANK-12 / TRACE-13.
type RerankReport struct {
	Outcome, Provider                   string
	HasProvider                         bool
	Sent, Missing, Invented, Duplicates []string
	Err                                 string
	HasErr                              bool
}

func (r RerankReport) JSON() map[string]any {
	var prov, errv any
	if r.HasProvider {
		prov = r.Provider
	}
	if r.HasErr {
		errv = map[string]any{"kind": "reranker_error", "message": r.Err}
	}
	nz := func(l []string) []string {
		if l == nil {
			return []string{}
		}
		return l
	}
	return map[string]any{"outcome": r.Outcome, "provider": prov, "sent": nz(r.Sent),
		"missing": nz(r.Missing), "invented": nz(r.Invented), "duplicates": nz(r.Duplicates), "error": errv}
}

// Reranked is the new order: indexes into the input and scores (nil = null).
type Reranked struct {
	Index int
	Score *float64
}

func unchanged(n int) []Reranked {
	out := make([]Reranked, n)
	for i := range out {
		out[i] = Reranked{Index: i}
	}
	return out
}

// Rerank applies a reranker response (RERANK-2..RERANK-9); failErr non-empty means the
// reranker failed with that message.
func Rerank(ids []string, topN int64, provider string, entries []RerankEntry, failed bool, failErr string) ([]Reranked, RerankReport) {
	rep := RerankReport{Provider: provider, HasProvider: true}
	n := len(ids)
	if n == 0 {
		rep.Outcome = "empty"
		return []Reranked{}, rep
	}
	h := n
	if int64(h) > topN {
		h = int(topN)
	}
	rep.Sent = append([]string{}, ids[:h]...)
	if !failed {
		for _, e := range entries {
			if math.IsNaN(e.Score) || math.IsInf(e.Score, 0) {
				failed, failErr = true, "non-finite score"
				break
			}
		}
	}
	if failed {
		rep.Outcome, rep.Err, rep.HasErr = "failed", failErr, true
		return unchanged(n), rep
	}
	rep.Outcome = "reranked"
	pos := map[string]int{}
	for i := 0; i < h; i++ {
		pos[ids[i]] = i
	}
	type acc struct {
		idx   int
		score float64
	}
	var accepted []acc
	taken := map[string]bool{}
	for _, e := range entries {
		p, ok := pos[e.ID]
		if !ok {
			rep.Invented = append(rep.Invented, e.ID)
			continue
		}
		if taken[e.ID] {
			rep.Duplicates = append(rep.Duplicates, e.ID)
			continue
		}
		taken[e.ID] = true
		accepted = append(accepted, acc{p, e.Score})
	}
	sort.SliceStable(accepted, func(a, b int) bool {
		if accepted[a].score != accepted[b].score {
			return accepted[a].score > accepted[b].score
		}
		return accepted[a].idx < accepted[b].idx
	})
	out := make([]Reranked, 0, n)
	for _, a := range accepted {
		s := a.score
		out = append(out, Reranked{Index: a.idx, Score: &s})
	}
	for i := 0; i < h; i++ {
		if !taken[ids[i]] {
			rep.Missing = append(rep.Missing, ids[i])
			out = append(out, Reranked{Index: i})
		}
	}
	for i := h; i < n; i++ {
		out = append(out, Reranked{Index: i})
	}
	return out, rep
}
