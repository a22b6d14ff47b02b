package hrc

// engram.search (spec/profiles/engram.md ENGRAM-16..26): engram's own pipeline over scripted
// ranked lists, in engram's order.

import (
	"fmt"
	"sort"
	"strings"
)

var engramLegs = []string{"vector", "bm25", "graph", "hopfield"}

// engramHopfieldWeight is ENGRAM-18: raya-ac/engram engram/retrieval.py:150 (a7527a1, MIT),
// weights.get("hopfield", 0.6).
const engramHopfieldWeight = 0.6

var engramSearchInput = map[string]bool{"query": true, "documents": true, "legs": true, "now": true,
	"halfLifeDays": true, "rrfK": true, "topK": true, "rerankCandidates": true, "crossEncoder": true,
	"noise": true, "minConfidence": true}

type engramScored struct {
	id    string
	score float64
}

// engramFuse is ENGRAM-17: acc[id] = acc[id] + w*(1/(k+r+1)), lists in engramLegs order;
// then by score descending, ties in order of first appearance.
func engramFuse(lists map[string][]string, weights map[string]float64, k int64) []engramScored {
	acc := map[string]float64{}
	order := []string{}
	for _, name := range engramLegs {
		w := weights[name]
		for rank, id := range lists[name] {
			if _, ok := acc[id]; !ok {
				order = append(order, id)
			}
			// float64(...) around the quotient keeps Go from fusing into an FMA.
			acc[id] = acc[id] + float64(w*float64(1.0/float64(k+int64(rank)+1)))
		}
	}
	out := make([]engramScored, len(order))
	for i, id := range order {
		out[i] = engramScored{id, acc[id]}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].score > out[b].score })
	return out
}

func engramIntOption(in map[string]any, name string, def, min int64) (int64, error) {
	v, ok := present(in, name)
	if !ok {
		return def, nil
	}
	return asInt(v, name, min)
}

func engramScoresByID(in map[string]any, name string) (map[string]float64, bool, error) {
	v, ok := present(in, name)
	if !ok {
		return nil, false, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false, invalid("%s must be an object of numbers by id", name)
	}
	out := map[string]float64{}
	for _, id := range sortedKeys(m) {
		f, ok := asFloat(m[id])
		if !ok {
			return nil, false, invalid("%s of %q must be a finite number", name, id)
		}
		out[id] = f
	}
	return out, true, nil
}

func engramSearchLegs(in map[string]any, docs map[string]Candidate) (map[string][]string, error) {
	out := map[string][]string{}
	for _, name := range engramLegs {
		out[name] = []string{}
	}
	raw, ok := present(in, "legs")
	if !ok {
		return out, nil
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, invalid("legs must be an object")
	}
	for _, name := range sortedKeys(m) {
		known := false
		for _, l := range engramLegs {
			known = known || l == name
		}
		if !known {
			return nil, invalid("legs.%s: unknown leg", name)
		}
	}
	for _, name := range engramLegs {
		v, ok := present(m, name)
		if !ok {
			continue
		}
		// ENGRAM-18: a failed Hopfield channel is no list; no other leg has an error rule.
		if obj, isObj := v.(map[string]any); isObj && name == "hopfield" {
			if _, isStr := obj["error"].(string); isStr {
				continue
			}
		}
		l, ok := v.([]any)
		if !ok {
			return nil, invalid("legs.%s must be a list of hits", name)
		}
		seen := map[string]bool{}
		for _, x := range l {
			hit, ok := x.(map[string]any)
			id, isStr := hit["id"].(string)
			if !ok || !isStr {
				return nil, invalid("legs.%s: each hit is an object with a string id", name)
			}
			if sv, has := present(hit, "score"); has {
				if _, ok := asFloat(sv); !ok {
					return nil, invalid("legs.%s: score of %q must be a finite number", name, id)
				}
			}
			if _, ok := docs[id]; !ok {
				return nil, invalid("legs.%s: %q is not in documents", name, id)
			}
			if seen[id] {
				return nil, invalid("legs.%s: repeated id %q", name, id)
			}
			seen[id] = true
			out[name] = append(out[name], id)
		}
	}
	return out, nil
}

// engramPySpace is Python's str.split() whitespace (ENGRAM-16).
func engramPySpace(r rune) bool {
	switch {
	case r >= 0x09 && r <= 0x0d, r >= 0x1c && r <= 0x20, r == 0x85, r == 0xa0, r == 0x1680,
		r >= 0x2000 && r <= 0x200a, r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000:
		return true
	}
	return false
}

func opEngramSearch(in map[string]any) (map[string]any, error) {
	for _, k := range sortedKeys(in) {
		if !engramSearchInput[k] {
			return nil, invalid("input.%s: unknown field", k)
		}
	}
	query, err := reqString(in, "query")
	if err != nil {
		return nil, err
	}
	sub := map[string]any{}
	for _, k := range []string{"now", "halfLifeDays"} {
		if v, ok := in[k]; ok {
			sub[k] = v
		}
	}
	opts, err := parseEngramOptions(sub, "input", []string{"now", "halfLifeDays"})
	if err != nil {
		return nil, err
	}
	rrfK, err := engramIntOption(in, "rrfK", 60, 0)
	if err != nil {
		return nil, err
	}
	topK, err := engramIntOption(in, "topK", 10, 1)
	if err != nil {
		return nil, err
	}
	headN, err := engramIntOption(in, "rerankCandidates", 20, 1)
	if err != nil {
		return nil, err
	}
	minConf := 0.60
	if v, ok := present(in, "minConfidence"); ok {
		f, ok := asFloat(v)
		if !ok {
			return nil, invalid("minConfidence must be a finite number")
		}
		minConf = f
	}
	dv, ok := present(in, "documents")
	if !ok {
		return nil, invalid("documents is required")
	}
	dl, err := asList(dv, "documents")
	if err != nil {
		return nil, err
	}
	docs := map[string]Candidate{}
	for i, x := range dl {
		c, err := parseCandidate(x, fmt.Sprintf("documents[%d]", i), false)
		if err != nil {
			return nil, err
		}
		if _, dup := docs[c.ID]; dup {
			return nil, invalid("documents: repeated id %q", c.ID)
		}
		docs[c.ID] = c
	}
	lists, err := engramSearchLegs(in, docs)
	if err != nil {
		return nil, err
	}
	noise, _, err := engramScoresByID(in, "noise")
	if err != nil {
		return nil, err
	}
	ce, hasCE, err := engramScoresByID(in, "crossEncoder")
	if err != nil {
		return nil, err
	}

	normalized := strings.Join(strings.FieldsFunc(query, engramPySpace), " ")
	intent, matched, cw := EngramClassify(normalized)
	weights := map[string]float64{"vector": cw["vector"], "bm25": cw["bm25"], "graph": cw["graph"],
		"hopfield": engramHopfieldWeight}
	fused := engramFuse(lists, weights, rrfK)
	head := fused
	if int64(len(head)) > headN {
		head = head[:headN] // ENGRAM-19: before the boost; the rest goes
	}
	items := make([]engramItem, len(head))
	headIDs := make([]any, len(head))
	for i, h := range head {
		items[i] = engramItem{h.id, docs[h.id].Metadata, h.score}
		headIDs[i] = h.id
	}
	wanted, boosts := engramBoost(normalized, opts, items)
	ranked := make([]engramScored, len(boosts))
	for i, b := range boosts {
		id := b["id"].(string)
		if hasCE {
			s, ok := ce[id]
			if !ok {
				return nil, invalid("crossEncoder: no score for head candidate %q", id)
			}
			ranked[i] = engramScored{id, s}
		} else {
			ranked[i] = engramScored{id, b["score"].(float64)}
		}
	}
	if hasCE {
		sort.SliceStable(ranked, func(a, b int) bool { return ranked[a].score > ranked[b].score })
	}
	if int64(len(ranked)) > topK {
		ranked = ranked[:topK]
	}
	// ENGRAM-23: score + deviate, clamped at 0, then a stable re-sort.
	for i := range ranked {
		x := ranked[i].score + noise[ranked[i].id]
		if !(x > 0) {
			x = 0.0
		}
		ranked[i].score = x
	}
	sort.SliceStable(ranked, func(a, b int) bool { return ranked[a].score > ranked[b].score })
	// ENGRAM-24: only after the cross-encoder, only when minConfidence > 0; equal is kept.
	applied := hasCE && len(ranked) > 0 && minConf > 0
	removed := []any{}
	results := []any{}
	for _, r := range ranked {
		if applied && r.score < minConf {
			removed = append(removed, r.id)
			continue
		}
		results = append(results, map[string]any{"id": r.id, "path": docs[r.id].Path, "score": r.score})
	}
	fusedOut := make([]any, len(fused))
	for i, f := range fused {
		fusedOut[i] = map[string]any{"id": f.id, "score": f.score}
	}
	return map[string]any{
		"results": results,
		"trace": map[string]any{
			"intent": intent, "matched": matched,
			"weights": map[string]any{"vector": weights["vector"], "bm25": weights["bm25"],
				"graph": weights["graph"], "hopfield": weights["hopfield"]},
			"fused": fusedOut, "head": headIDs, "querySignal": wanted, "boosts": boosts,
			"crossEncoder": hasCE,
			"threshold":    map[string]any{"minConfidence": minConf, "applied": applied, "removed": removed},
		},
	}, nil
}
