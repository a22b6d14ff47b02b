package hrc

// Profile scoped-fusion (spec/profiles/scoped-fusion.md, SCOPE-*): nexusAI's getFusedEpisodes as
// scoped-fusion.search, the filter operation and seed 002's dense list.

import (
	"sort"
	"strconv"
)

// ScopedFusionVersion is the profile version this port implements (PROFILE-2).
const ScopedFusionVersion = "3.0.0"

const (
	scopeOutOfScope = "out_of_scope"
	scopeExcluded   = "excluded"
)

// ScopedOptions holds the validated scope, exclusion and headroom members (SCOPE-17).
type ScopedOptions struct {
	Scopes     map[string]bool // nil: no restriction (SCOPE-4)
	ExcludeIDs map[string]bool
	Headroom   int64
	MaxWeight  float64
}

// scopeRemoval is one hit the filter removed (SCOPE-12).
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

// ParseScopedOptions validates the members (SCOPE-17); defaults headroom 2, maxWeight 5.
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

// scopeReason is SCOPE-3..5: "" when the hit is kept, else why it is removed (scope first).
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

// scopeFilter is SCOPE-12: the kept hits in order and the removed ones in order.
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

// SCOPE-17..27: nexusAI's getFusedEpisodes as scoped-fusion.search.
const sfRRFK = 60 // SCOPE-24

var sfFields = map[string]bool{
	"query": true, "documents": true, "legs": true, "semanticLimit": true, "semanticWeight": true,
	"keywordWeight": true, "scopes": true, "excludeIds": true, "headroom": true, "maxWeight": true,
}

// sfWeight is SCOPE-19: a finite number in 0..maxWeight; absent or null: the default.
func sfWeight(in map[string]any, key string, def float64, o ScopedOptions) (float64, error) {
	v, ok := present(in, key)
	if !ok {
		return def, nil
	}
	f, isNum := asFloat(v)
	if !isNum || f < 0 {
		return 0, invalid("%s must be a finite number >= 0", key)
	}
	if f > o.MaxWeight {
		return 0, invalid("%s: %s is above the maxWeight %s", key,
			strconv.FormatFloat(f, 'g', -1, 64), strconv.FormatFloat(o.MaxWeight, 'g', -1, 64))
	}
	return f, nil
}

// sfRunLeg is SCOPE-20 and SCOPE-21: scope inside the search, its limit, then the exclusion.
func sfRunLeg(ranked []string, limit int64, docs map[string]Candidate, o ScopedOptions) ([]string, map[string]any) {
	var scoped []string
	for _, id := range ranked {
		if o.Scopes != nil {
			s, ok := docs[id].Metadata["scope"]
			if !ok || !o.Scopes[s] {
				continue
			}
		}
		scoped = append(scoped, id)
	}
	returned := scoped
	if int64(len(returned)) > limit {
		returned = returned[:limit]
	}
	kept := []string{}
	for _, id := range returned {
		if !o.ExcludeIDs[id] {
			kept = append(kept, id)
		}
	}
	row := map[string]any{
		"ran": true, "limit": limit, "outOfScope": len(ranked) - len(scoped), "returned": len(returned),
		"excluded": len(returned) - len(kept), "kept": len(kept),
	}
	return kept, row
}

type sfFused struct {
	id    string
	score float64
}

// sfFuse is SCOPE-24 and SCOPE-25: fuseEpisodeResults before its cut (a Map, a stable sort).
func sfFuse(semantic, keyword []string, sw, kw float64) []sfFused {
	var out []sfFused
	at := map[string]int{}
	for i, id := range semantic {
		at[id] = len(out)
		out = append(out, sfFused{id, sw / float64(sfRRFK+i+1)})
	}
	for i, id := range keyword {
		c := kw / float64(sfRRFK+i+1)
		if j, ok := at[id]; ok {
			out[j].score = out[j].score + c
		} else if c > 0 {
			at[id] = len(out)
			out = append(out, sfFused{id, c})
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].score > out[b].score })
	return out
}

func opScopedSearch(in map[string]any) (map[string]any, error) {
	for _, k := range sortedKeys(in) {
		if !sfFields[k] {
			return nil, invalid("scoped-fusion.search: unknown member %s", k)
		}
	}
	if _, err := reqString(in, "query"); err != nil {
		return nil, err
	}
	dv, ok := present(in, "documents")
	if !ok {
		return nil, invalid("documents is required")
	}
	list, err := parseCandidates(dv, "documents", false)
	if err != nil {
		return nil, err
	}
	docs := map[string]Candidate{}
	for _, d := range list {
		if _, dup := docs[d.ID]; dup {
			return nil, invalid("documents: duplicate id %q", d.ID)
		}
		docs[d.ID] = d
	}
	o, err := ParseScopedOptions(map[string]any{
		"scopes": in["scopes"], "excludeIds": in["excludeIds"], "headroom": in["headroom"], "maxWeight": in["maxWeight"],
	}, "input")
	if err != nil {
		return nil, err
	}
	sw, err := sfWeight(in, "semanticWeight", 1, o)
	if err != nil {
		return nil, err
	}
	kw, err := sfWeight(in, "keywordWeight", 0, o)
	if err != nil {
		return nil, err
	}
	lv, ok := present(in, "semanticLimit")
	if !ok {
		return nil, invalid("semanticLimit is required")
	}
	limit, err := asInt(lv, "semanticLimit", 1)
	if err != nil {
		return nil, err
	}
	legsRaw, ok := present(in, "legs")
	legs, isObj := legsRaw.(map[string]any)
	if !ok || !isObj {
		return nil, invalid("legs must be an object {semantic: [...], keyword?: [...]}")
	}
	for _, k := range sortedKeys(legs) {
		if k != "semantic" && k != "keyword" {
			return nil, invalid("legs: unknown leg %s", k)
		}
	}
	sv, ok := present(legs, "semantic")
	if !ok {
		return nil, invalid("legs.semantic is required")
	}
	semanticRanked, err := rankedIDs(sv, "legs.semantic", docs)
	if err != nil {
		return nil, err
	}
	kv, keywordGiven := present(legs, "keyword")
	var keywordRanked []string
	if keywordGiven {
		if keywordRanked, err = rankedIDs(kv, "legs.keyword", docs); err != nil {
			return nil, err
		}
	}
	keywordRuns := kw != 0 // SCOPE-23
	if keywordRuns && !keywordGiven {
		return nil, invalid("legs.keyword is required when keywordWeight is above 0")
	}
	semantic, semanticRow := sfRunLeg(semanticRanked, limit, docs, o)
	keyword := []string{}
	keywordRow := map[string]any{"ran": false}
	if keywordRuns {
		kl := int64(maxInt) // SCOPE-22: semanticLimit × headroom, at most 2^31 − 1
		if o.Headroom <= maxInt/limit {
			kl = limit * o.Headroom
		}
		keyword, keywordRow = sfRunLeg(keywordRanked, kl, docs, o)
	}
	fused := sfFuse(semantic, keyword, sw, kw)
	results := []any{}
	for i, f := range fused {
		if int64(i) >= limit { // SCOPE-26
			break
		}
		results = append(results, map[string]any{"id": f.id, "path": docs[f.id].Path, "score": f.score})
	}
	return map[string]any{
		"results": results,
		"trace": map[string]any{
			"semantic": semanticRow, "keyword": keywordRow,
			"fusion": map[string]any{"k": sfRRFK, "semanticWeight": sw, "keywordWeight": kw, "fused": len(fused)},
		},
	}, nil
}

func init() {
	RegisterProfile(&Profile{
		Name:    "scoped-fusion",
		Version: ScopedFusionVersion,
		Operations: map[string]handler{
			"scoped-fusion.search":     opScopedSearch,
			"scoped-fusion.filter":     opScopedFilter,
			"scoped-fusion.dense_hits": opDenseHits,
		},
	})
}
