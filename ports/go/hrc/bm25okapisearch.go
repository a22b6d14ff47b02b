package hrc

// bm25-okapi.search (spec/profiles/bm25-okapi.md OKAPI-18..27): GenieHelper's retrieval,
// HyDE -> dense + BM25 -> RRF -> top 8, with none of the core pipeline's stages.

import (
	"encoding/json"
	"sort"
)

const (
	genieRRFK         = 60 // OKAPI-24
	genieDefaultLimit = 8  // OKAPI-26
)

var genieFields = map[string]bool{
	"query": true, "documents": true, "legs": true, "k1": true, "b": true,
	"hypotheticalDocument": true, "limit": true,
}

// rankedIDs reads a leg given as a ranked list [{id, score?}] (OKAPI-21, SCOPE-18): distinct
// non-empty ids, each one of the known documents; a score, when given, is a number.
func rankedIDs(v any, where string, known map[string]Candidate) ([]string, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, invalid("%s must be a list of {id, score?} objects", where)
	}
	out := make([]string, 0, len(l))
	seen := map[string]bool{}
	for i, item := range l {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, invalid("%s[%d] must be an object", where, i)
		}
		for _, k := range sortedKeys(m) {
			if k != "id" && k != "score" {
				return nil, invalid("%s[%d]: unknown member %s", where, i, k)
			}
		}
		id, ok := m["id"].(string)
		if !ok || id == "" {
			return nil, invalid("%s[%d].id must be a non-empty string", where, i)
		}
		if s, has := present(m, "score"); has {
			if _, isNum := s.(json.Number); !isNum {
				return nil, invalid("%s[%d].score must be a number", where, i)
			}
		}
		if _, ok := known[id]; !ok {
			return nil, invalid("%s[%d]: id %q is not one of the documents", where, i, id)
		}
		if seen[id] {
			return nil, invalid("%s[%d]: duplicate id %q", where, i, id)
		}
		seen[id] = true
		out = append(out, id)
	}
	return out, nil
}

type genieFused struct {
	id    string
	score float64
}

// genieFuse is OKAPI-24 and OKAPI-25: the seed's rrf_score, dense then sparse, stable sort.
func genieFuse(dense, sparse []string) []genieFused {
	var out []genieFused
	at := map[string]int{}
	for _, list := range [][]string{dense, sparse} {
		for i, id := range list {
			c := 1 / float64(genieRRFK+i+1)
			if j, ok := at[id]; ok {
				out[j].score = out[j].score + c
			} else {
				at[id] = len(out)
				out = append(out, genieFused{id, 0 + c})
			}
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].score > out[b].score })
	return out
}

func opGenieSearch(in map[string]any) (map[string]any, error) {
	for _, k := range sortedKeys(in) {
		if !genieFields[k] {
			return nil, invalid("bm25-okapi.search: unknown member %s", k)
		}
	}
	q, err := reqString(in, "query")
	if err != nil {
		return nil, err
	}
	rawDocs, ok := present(in, "documents")
	if !ok {
		return nil, invalid("documents is required")
	}
	docs, err := okapiDocuments(rawDocs, "documents")
	if err != nil {
		return nil, err
	}
	byID := map[string]Candidate{}
	for _, d := range docs {
		byID[d.ID] = d
	}
	p, err := okapiCheckParams(in)
	if err != nil {
		return nil, err
	}
	var hyde any // OKAPI-20
	if raw, ok := present(in, "hypotheticalDocument"); ok {
		s, isStr := raw.(string)
		if !isStr || Normalise(s) == "" {
			return nil, invalid("hypotheticalDocument must be a string, not empty after normalisation")
		}
		hyde = Normalise(s)
	}
	limit, err := optInt(in, "limit", genieDefaultLimit, 1)
	if err != nil {
		return nil, err
	}
	legsRaw, ok := present(in, "legs")
	legs, isObj := legsRaw.(map[string]any)
	if !ok || !isObj {
		return nil, invalid("legs must be an object {dense: [...]}")
	}
	for _, k := range sortedKeys(legs) {
		if k != "dense" {
			return nil, invalid("legs: unknown leg %s (bm25-okapi gives only dense)", k)
		}
	}
	denseRaw, ok := present(legs, "dense")
	if !ok {
		return nil, invalid("legs.dense is required")
	}
	dense, err := rankedIDs(denseRaw, "legs.dense", byID)
	if err != nil {
		return nil, err
	}
	// OKAPI-22, OKAPI-23: Okapi BM25 of the raw query over every document, uncut.
	c := NewOkapiCollection(docs)
	terms := c.statistics(q)
	var scored []okapiScored
	for _, d := range c.docs {
		if s, ok := c.score(d, terms, p); ok {
			scored = append(scored, okapiScored{d.id, d.path, s})
		}
	}
	sort.SliceStable(scored, func(i, j int) bool { return okapiLess(scored[i], scored[j]) })
	sparse := make([]string, len(scored))
	hits := []any{}
	for i, s := range scored {
		sparse[i] = s.id
		hits = append(hits, map[string]any{"id": s.id, "score": s.score})
	}
	fused := genieFuse(dense, sparse)
	results := []any{}
	for i, f := range fused {
		if int64(i) >= limit {
			break
		}
		results = append(results, map[string]any{"id": f.id, "path": byID[f.id].Path, "score": f.score})
	}
	var avg any
	if c.hasAvg {
		avg = c.avgdl
	}
	return map[string]any{
		"results": results,
		"trace": map[string]any{
			"hyde":  map[string]any{"document": hyde},
			"dense": map[string]any{"hits": len(dense)},
			"bm25": map[string]any{
				"k1": p.K1, "b": p.B, "documentCount": len(docs), "averageLength": avg, "hits": hits,
			},
			"fusion": map[string]any{"k": genieRRFK, "fused": len(fused)},
		},
	}, nil
}
