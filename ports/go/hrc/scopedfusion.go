package hrc

// Profile scoped-fusion (spec/profiles/scoped-fusion.md, SCOPE-*): the weight range, scoping of
// every leg by metadata.scope, the excludeIds exclusion before fusion, the BM25 headroom.

import (
	"math/big"
	"sort"
	"strconv"
)

// ScopedFusionVersion is the profile version this port implements (PROFILE-2).
const ScopedFusionVersion = "2.0.0"

const (
	scopeOutOfScope = "out_of_scope"
	scopeExcluded   = "excluded"
)

// ScopedOptions is a validated request.profiles.scoped-fusion member (SCOPE-1).
type ScopedOptions struct {
	Scopes     map[string]bool // nil: no restriction (SCOPE-4)
	ExcludeIDs map[string]bool
	Headroom   int64
	MaxWeight  float64
}

// scopeRemoval is one hit the filter removed (SCOPE-6).
type scopeRemoval struct{ ID, Reason string }

func idSet(v any, what string) (map[string]bool, error) {
	l, err := asList(v, what)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(l))
	for i, x := range l {
		s, ok := x.(string)
		if !ok || s == "" {
			return nil, invalid("%s[%d] must be a non-empty string", what, i)
		}
		out[s] = true
	}
	return out, nil
}

// ParseScopedOptions validates the member (SCOPE-1); defaults headroom 2, maxWeight 5.
func ParseScopedOptions(v any, where string) (ScopedOptions, error) {
	o := ScopedOptions{ExcludeIDs: map[string]bool{}, Headroom: 2, MaxWeight: 5}
	m, err := asObject(v, where)
	if err != nil {
		return o, err
	}
	var unknown []string
	for k := range m {
		switch k {
		case "scopes", "excludeIds", "headroom", "maxWeight":
		default:
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return o, invalid("%s has unknown field(s): %v", where, unknown)
	}
	if x, ok := present(m, "scopes"); ok {
		if o.Scopes, err = idSet(x, where+".scopes"); err != nil {
			return o, err
		}
	}
	if x, ok := present(m, "excludeIds"); ok {
		if o.ExcludeIDs, err = idSet(x, where+".excludeIds"); err != nil {
			return o, err
		}
	}
	if x, ok := present(m, "headroom"); ok {
		if o.Headroom, err = asInt(x, where+".headroom", 1); err != nil {
			return o, err
		}
	}
	if x, ok := present(m, "maxWeight"); ok {
		f, isNum := asFloat(x)
		if !isNum || f < 1 {
			return o, invalid("%s.maxWeight must be a finite number >= 1", where)
		}
		o.MaxWeight = f
	}
	return o, nil
}

// scopeReason is SCOPE-3..6: "" when the hit is kept, else why it is removed (scope first).
func scopeReason(c Candidate, o ScopedOptions) string {
	if o.Scopes != nil {
		s, ok := c.Metadata["scope"]
		if !ok || !o.Scopes[s] {
			return scopeOutOfScope
		}
	}
	if o.ExcludeIDs[c.ID] {
		return scopeExcluded
	}
	return ""
}

// scopeFilter is SCOPE-6: the kept hits in order and the removed ones in order.
func scopeFilter(hits []Candidate, o ScopedOptions) ([]Candidate, []scopeRemoval) {
	kept := []Candidate{}
	removed := []scopeRemoval{}
	for _, h := range hits {
		if r := scopeReason(h, o); r != "" {
			removed = append(removed, scopeRemoval{h.ID, r})
		} else {
			kept = append(kept, h)
		}
	}
	return kept, removed
}

// scopedBM25Limit is SCOPE-7: candidateK × headroom, at most 2^31 − 1.
func scopedBM25Limit(candidateK int64, o ScopedOptions) int64 {
	if o.Headroom > maxInt/candidateK {
		return maxInt
	}
	return candidateK * o.Headroom
}

// scopedCheckWeights is SCOPE-2: every weight at most maxWeight.
func scopedCheckWeights(weights map[string]float64, o ScopedOptions) error {
	names := make([]string, 0, len(weights))
	for k := range weights {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if weights[k] > o.MaxWeight {
			return invalid("request.weights.%s: %s is above the scoped-fusion maxWeight %s", k,
				strconv.FormatFloat(weights[k], 'g', -1, 64), strconv.FormatFloat(o.MaxWeight, 'g', -1, 64))
		}
	}
	return nil
}

// opScopedFilter is SCOPE-12: the operation scoped-fusion.filter.
func opScopedFilter(in map[string]any) (map[string]any, error) {
	hv, _ := present(in, "hits")
	hits, err := parseCandidates(hv, "hits", false)
	if err != nil {
		return nil, err
	}
	o, err := ParseScopedOptions(map[string]any{"scopes": in["scopes"], "excludeIds": in["excludeIds"]}, "input")
	if err != nil {
		return nil, err
	}
	kept, removed := scopeFilter(hits, o)
	if lv, ok := present(in, "limit"); ok {
		limit, err := asInt(lv, "limit", 1)
		if err != nil {
			return nil, err
		}
		if int64(len(kept)) > limit {
			kept = kept[:limit]
		}
	}
	ids := make([]any, len(kept))
	for i, c := range kept {
		ids[i] = c.ID
	}
	rem := make([]any, len(removed))
	for i, r := range removed {
		rem[i] = map[string]any{"id": r.ID, "reason": r.Reason}
	}
	return map[string]any{"kept": ids, "removed": rem}, nil
}

// scopedRow is SCOPE-11: the leg's trace row, created on the leg's first backend call.
func scopedRow(c *ProfileCall, leg string) map[string]any {
	legs, ok := c.Trace["legs"].(map[string]any)
	if !ok {
		legs = map[string]any{}
		c.Trace["legs"] = legs
	}
	row, ok := legs[leg].(map[string]any)
	if !ok {
		row = map[string]any{"limit": int64(0), "searches": int64(0), "returned": int64(0),
			"outOfScope": int64(0), "excluded": int64(0)}
		legs[leg] = row
	}
	return row
}

func scopedAdd(row map[string]any, key string, n int) {
	row[key] = row[key].(int64) + int64(n)
}

func init() {
	RegisterProfile(&Profile{
		Name:    "scoped-fusion",
		Version: ScopedFusionVersion,
		Operations: map[string]handler{
			"scoped-fusion.filter":     opScopedFilter,
			"scoped-fusion.dense_hits": opDenseHits,
		},
		Pipeline: &PipelineHooks{
			ParseRequest: func(options map[string]any) (any, error) {
				return ParseScopedOptions(options, "request.profiles.scoped-fusion")
			},
			// SCOPE-2: every weight at most maxWeight; the trace's legs start here (SCOPE-11).
			CheckWeights: func(c *ProfileCall, w Weights) error {
				if _, ok := c.Trace["legs"]; !ok {
					c.Trace["legs"] = map[string]any{}
				}
				c.State["vectorWeight"] = w.Vector
				return scopedCheckWeights(map[string]float64{"bm25": w.BM25, "vector": w.Vector, "graph": w.Graph},
					c.Options.(ScopedOptions))
			},
			// SCOPE-7: BM25 asks candidateK × headroom, the other legs candidateK.
			LegLimit: func(c *ProfileCall, leg string, n int64) int64 {
				limit := n
				if leg == "bm25" {
					limit = scopedBM25Limit(n, c.Options.(ScopedOptions))
				}
				scopedRow(c, leg)["limit"] = limit
				if leg == "vector" {
					c.State["vectorK"] = n
				}
				return limit
			},
			// SCOPE-16: the seed short-circuits only the keyword call; its semantic search always runs.
			RunsAtZeroWeight: func(c *ProfileCall, leg string) bool { return leg == "vector" },
			// SCOPE-6, SCOPE-8, SCOPE-11: one backend answer's filter, counted in the leg's row.
			FilterLeg: func(c *ProfileCall, leg string, hits []Candidate) []Candidate {
				kept, removed := scopeFilter(hits, c.Options.(ScopedOptions))
				row := scopedRow(c, leg)
				scopedAdd(row, "searches", 1)
				scopedAdd(row, "returned", len(hits))
				for _, r := range removed {
					if r.Reason == scopeOutOfScope {
						scopedAdd(row, "outOfScope", 1)
					} else {
						scopedAdd(row, "excluded", 1)
					}
				}
				if leg == "vector" { // SCOPE-16: the kept semantic list, for a weight of 0
					c.State["vector"] = firstN(kept, c.State["vectorK"].(int64))
				}
				return kept
			},
			AfterFusion: scopedSemanticAtZero,
		},
	})
}

// scopedSemanticAtZero is SCOPE-16: with a vector weight of 0, the semantic-only hits follow
// the fused list at score 0, in the semantic order.
func scopedSemanticAtZero(c *ProfileCall, query string, items []FusedItem) []FusedItem {
	hits, ok := c.State["vector"].([]Candidate)
	if w, _ := c.State["vectorWeight"].(float64); w != 0 || !ok {
		return items
	}
	seen := map[string]bool{}
	for _, it := range items {
		seen[it.Candidate.ID] = true
	}
	for _, h := range hits {
		if !seen[h.ID] {
			seen[h.ID] = true
			items = append(items, FusedItem{Candidate: h, Score: 0, Exact: new(big.Rat), Mult: 1})
		}
	}
	return items
}
