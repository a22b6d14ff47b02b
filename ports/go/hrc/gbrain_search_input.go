package hrc

// Profile gbrain: the request of `gbrain.search` (spec/profiles/gbrain.md GBRAIN-28,
// GBRAIN-39), every member checked before any stage runs.

import "fmt"

func gbrainFlag(m map[string]any, key string, def bool) (bool, error) {
	v, ok := present(m, key)
	if !ok {
		return def, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, invalid("%s must be a boolean", key)
	}
	return b, nil
}

func gbrainErrorObject(v any) (string, bool) {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 1 {
		return "", false
	}
	s, ok := m["error"].(string)
	return s, ok
}

func gbrainParseLeg(v any, where string, docs map[string]Candidate) (gbrainLeg, error) {
	if m, ok := v.(map[string]any); ok && len(m) == 1 {
		if _, has := m["error"]; has {
			s, ok := m["error"].(string)
			if !ok {
				return gbrainLeg{}, invalid("%s.error must be a string", where)
			}
			return gbrainLeg{err: s, failed: true}, nil
		}
	}
	list, ok := v.([]any)
	if !ok {
		return gbrainLeg{}, invalid("%s must be a list of {id, score} or {error}", where)
	}
	leg := gbrainLeg{hits: []gbrainHit{}}
	seen := map[string]bool{}
	for i, x := range list {
		e, ok := x.(map[string]any)
		_, hasID := e["id"]
		_, hasScore := e["score"]
		if !ok || len(e) != 2 || !hasID || !hasScore {
			return leg, invalid("%s[%d] must be {id, score}", where, i)
		}
		id, ok := e["id"].(string)
		if !ok || seen[id] {
			return leg, invalid("%s[%d].id must be a distinct id of documents", where, i)
		}
		doc, ok := docs[id]
		if !ok {
			return leg, invalid("%s[%d].id must be a distinct id of documents", where, i)
		}
		score, ok := asFloat(e["score"])
		if !ok {
			return leg, invalid("%s[%d].score must be a finite number", where, i)
		}
		seen[id] = true
		leg.hits = append(leg.hits, gbrainHit{doc, score})
	}
	return leg, nil
}

func gbrainParseLegs(v any, where string, docs map[string]Candidate) (map[string]gbrainLeg, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, invalid("%s must be an object with members among vector, keyword", where)
	}
	for _, k := range sortedKeys(m) {
		if k != "vector" && k != "keyword" {
			return nil, invalid("%s must be an object with members among vector, keyword", where)
		}
	}
	out := map[string]gbrainLeg{}
	for _, name := range gbrainLegNames {
		if raw, ok := m[name]; ok {
			leg, err := gbrainParseLeg(raw, where+"."+name, docs)
			if err != nil {
				return nil, err
			}
			out[name] = leg
		}
	}
	return out, nil
}

func gbrainBoostMap(v any, where string) ([]gbrainBoost, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, invalid("%s must be an object", where)
	}
	out := []gbrainBoost{}
	for _, p := range sortedKeys(m) {
		if p == "" {
			return nil, invalid("%s: a prefix must not be empty", where)
		}
		f, ok := asFloat(m[p])
		if !ok || f < 0 {
			return nil, invalid("%s.%s must be a finite number >= 0", where, p)
		}
		out = append(out, gbrainBoost{p, f})
	}
	gbrainSortBoost(out)
	return out, nil
}

// gbrainParseSearch is GBRAIN-28 and GBRAIN-39: every member checked before any stage.
func gbrainParseSearch(in map[string]any) (*gbrainRequest, error) {
	for _, k := range sortedKeys(in) {
		if !gbrainFields[k] {
			return nil, invalid("unknown member %s", k)
		}
	}
	rawDocs, ok := in["documents"].([]any)
	if !ok {
		return nil, invalid("documents must be a list")
	}
	req := &gbrainRequest{}
	docs := map[string]Candidate{}
	for i, raw := range rawDocs {
		c, err := parseCandidate(raw, fmt.Sprintf("documents[%d]", i), false)
		if err != nil {
			return nil, err
		}
		if _, dup := docs[c.ID]; dup {
			return nil, invalid("documents[%d]: repeated id %s", i, c.ID)
		}
		if _, ok := gbrainResolve(c.Path, nil); !ok {
			return nil, invalid("documents[%d]: path names no page", i)
		}
		docs[c.ID] = c
		req.documents = append(req.documents, c)
	}
	query, ok := in["query"].(string)
	if !ok {
		return nil, invalid("query must be a string")
	}
	legs, err := gbrainParseLegs(in["legs"], "legs", docs)
	if err != nil {
		return nil, err
	}
	req.variants = []gbrainVariant{{query, legs}}
	if v, ok := present(in, "variants"); ok {
		list, ok := v.([]any)
		if !ok || len(list) > gbrainMaxVariant {
			return nil, invalid("variants must be a list of at most %d", gbrainMaxVariant)
		}
		for i, x := range list {
			m, ok := x.(map[string]any)
			_, hasQ := m["query"]
			_, hasL := m["legs"]
			if !ok || len(m) != 2 || !hasQ || !hasL {
				return nil, invalid("variants[%d] must be {query, legs}", i)
			}
			q, ok := m["query"].(string)
			if !ok {
				return nil, invalid("variants[%d].query must be a string", i)
			}
			l, err := gbrainParseLegs(m["legs"], fmt.Sprintf("variants[%d]", i), docs)
			if err != nil {
				return nil, err
			}
			req.variants = append(req.variants, gbrainVariant{q, l})
		}
	}
	req.exclude = gbrainDefaultExcludes
	if v, ok := present(in, "exclude"); ok {
		list, ok := v.([]any)
		if !ok {
			return nil, invalid("exclude must be a list of non-empty strings")
		}
		req.exclude = []string{}
		for _, x := range list {
			s, ok := x.(string)
			if !ok || s == "" {
				return nil, invalid("exclude must be a list of non-empty strings")
			}
			req.exclude = append(req.exclude, s)
		}
	}
	req.boost = gbrainDefaultBoost
	if v, ok := present(in, "boost"); ok {
		if req.boost, err = gbrainBoostMap(v, "boost"); err != nil {
			return nil, err
		}
	}
	req.bundle = gbrainDefaultBundle
	if v, ok := present(in, "bundle"); ok {
		s, ok := v.(string)
		if _, known := gbrainBundles[s]; !ok || !known {
			return nil, invalid("bundle must be conservative, balanced or tokenmax")
		}
		req.bundle = s
	}
	preset := gbrainBundles[req.bundle]
	if v, ok := present(in, "rerank"); ok {
		req.rerankGiven = true
		if _, isErr := gbrainErrorObject(v); isErr {
			req.rerankFailed = true
		} else if list, ok := v.([]any); ok {
			for _, x := range list {
				s, ok := x.(string)
				if !ok {
					return nil, invalid("rerank must be a list of ids or {error}")
				}
				req.rerankOrder = append(req.rerankOrder, s)
			}
		} else {
			return nil, invalid("rerank must be a list of ids or {error}")
		}
	}
	if v, ok := present(in, "edges"); ok {
		if req.edges, err = gbrainEdgesFromJSON(v, "edges"); err != nil {
			return nil, err
		}
	} else {
		for _, d := range req.documents {
			_, edges, _ := GbrainExtract(d.Path, d.Content)
			req.edges = append(req.edges, edges...)
		}
	}
	if req.dedup, err = gbrainFlag(in, "dedup", true); err != nil {
		return nil, err
	}
	if req.expansion, err = gbrainFlag(in, "expansion", preset.expansion); err != nil {
		return nil, err
	}
	if req.reranker, err = gbrainFlag(in, "reranker", preset.reranker); err != nil {
		return nil, err
	}
	if req.graph, err = gbrainFlag(in, "graph", preset.graph); err != nil {
		return nil, err
	}
	req.budget = preset.budget
	if v, ok := present(in, "tokenBudget"); ok {
		if req.budget, err = asInt(v, "tokenBudget", 1); err != nil {
			return nil, err
		}
	}
	req.limit = preset.limit
	if v, ok := present(in, "limit"); ok {
		if req.limit, err = asInt(v, "limit", 1); err != nil {
			return nil, err
		}
		if req.limit > 1000 {
			return nil, invalid("limit must be <= 1000")
		}
	}
	if req.walk, err = gbrainWalkOptions(in, ""); err != nil {
		return nil, err
	}
	return req, nil
}
