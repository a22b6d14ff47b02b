package hrc

// Stage operations beside the pipeline: trigrams, jaccard, trigram_search (the ladder's fuzzy
// rung), intent_*, unanimity, rerank.

import (
	"fmt"
	"math"
	"math/big"
)

func init() {
	for k, v := range map[string]handler{
		"trigrams":        opTrigrams,
		"jaccard":         opJaccard,
		"trigram_search":  opTrigramSearch,
		"intent_patterns": opIntentPatterns,
		"intent_detect":   opIntentDetect,
		"intent_reweight": opIntentReweight,
		"unanimity":       opUnanimity,
		"rerank":          opRerank,
	} {
		handlers[k] = v
	}
}

func opTrigrams(in map[string]any) (map[string]any, error) {
	w, err := reqString(in, "word")
	if err != nil {
		return nil, err
	}
	return map[string]any{"trigrams": Trigrams(w)}, nil
}

func opJaccard(in map[string]any) (map[string]any, error) {
	a, err := reqString(in, "a")
	if err != nil {
		return nil, err
	}
	b, err := reqString(in, "b")
	if err != nil {
		return nil, err
	}
	i, u := Jaccard(a, b)
	return map[string]any{"intersection": i, "union": u, "similar": Similar(i, u)}, nil
}

func parseChunks(v any, what string) ([]Candidate, error) {
	cs, err := parseCandidates(v, what, true)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, c := range cs {
		if seen[c.ID] {
			return nil, invalid("%s: repeated chunk id %q", what, c.ID)
		}
		seen[c.ID] = true
	}
	return cs, nil
}

func opTrigramSearch(in map[string]any) (map[string]any, error) {
	tv, ok := present(in, "tokens")
	if !ok {
		return nil, invalid("tokens is required")
	}
	toks, err := stringList(tv, "tokens")
	if err != nil {
		return nil, err
	}
	cv, ok := present(in, "chunks")
	if !ok {
		return nil, invalid("chunks is required")
	}
	chunks, err := parseChunks(cv, "chunks")
	if err != nil {
		return nil, err
	}
	k, err := optIntOrDefault(in, "candidateK", 60) // TRI-7
	if err != nil {
		return nil, err
	}
	hits := []any{}
	for _, h := range TrigramSearch(toks, chunks, k) {
		hits = append(hits, map[string]any{"id": h.Chunk.ID, "path": h.Chunk.Path, "intersection": h.Inter, "union": h.Union})
	}
	return map[string]any{"hits": hits}, nil
}

func opIntentPatterns(in map[string]any) (map[string]any, error) {
	t, err := intentTable(in, "table")
	if err != nil {
		return nil, err
	}
	p := map[string]any{}
	for _, x := range append(append([]pattern{}, t.QueryPatterns...), t.DocPatterns...) {
		p[x.Name] = x.Source
	}
	return map[string]any{"patterns": p}, nil
}

func opIntentDetect(in map[string]any) (map[string]any, error) {
	q, err := reqString(in, "query")
	if err != nil {
		return nil, err
	}
	if err := checkQueryBound(q, "query", "INTENT-14"); err != nil {
		return nil, err
	}
	t, err := intentTable(in, "table")
	if err != nil {
		return nil, err
	}
	d := t.Detect(q)
	return map[string]any{"preference": d.Preference, "concreteFact": d.ConcreteFact, "label": d.Label()}, nil
}

func opIntentReweight(in map[string]any) (map[string]any, error) {
	q, err := reqString(in, "query")
	if err != nil {
		return nil, err
	}
	t, err := intentTable(in, "table")
	if err != nil {
		return nil, err
	}
	items, scores, err := scoredResults(in)
	if err != nil {
		return nil, err
	}
	exact := make([]*big.Rat, len(scores))
	for i, s := range scores {
		exact[i] = new(big.Rat).SetFloat64(s)
	}
	adj := t.Reweight(t.Detect(q), items, scores, exact)
	out := make([]any, len(adj))
	for i, a := range adj {
		out[i] = map[string]any{"id": items[a.Index].ID, "score": a.Score, "multiplier": a.Mult, "rules": a.Rules}
	}
	return map[string]any{"results": out}, nil
}

// scoredResults parses in.results: candidates with distinct ids, each with a finite score
// (the input of intent.reweight and engram.boost).
func scoredResults(in map[string]any) ([]Candidate, []float64, error) {
	rv, ok := present(in, "results")
	if !ok {
		return nil, nil, invalid("results is required")
	}
	l, err := asList(rv, "results")
	if err != nil {
		return nil, nil, err
	}
	items := []Candidate{}
	scores := []float64{}
	seen := map[string]bool{}
	for i, x := range l {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, nil, invalid("results[%d] must be an object", i)
		}
		c, err := parseCandidate(m, fmt.Sprintf("results[%d]", i), false)
		if err != nil {
			return nil, nil, err
		}
		if seen[c.ID] {
			return nil, nil, invalid("results[%d]: repeated id %q", i, c.ID)
		}
		seen[c.ID] = true
		sv, ok := present(m, "score")
		if !ok {
			return nil, nil, invalid("results[%d]: score is required", i)
		}
		s, ok := asFloat(sv)
		if !ok {
			return nil, nil, invalid("results[%d]: score must be a finite number", i)
		}
		items = append(items, c)
		scores = append(scores, s)
	}
	return items, scores, nil
}

func idList(m map[string]any, key string) ([]string, error) {
	v, ok := present(m, key)
	if !ok {
		return nil, invalid("%s is required", key)
	}
	l, err := stringList(v, key)
	if err != nil {
		return nil, err
	}
	for _, s := range l {
		if s == "" {
			return nil, invalid("%s: ids must be non-empty strings", key)
		}
	}
	return l, nil
}

func opUnanimity(in map[string]any) (map[string]any, error) {
	a, err := idList(in, "bm25")
	if err != nil {
		return nil, err
	}
	b, err := idList(in, "vector")
	if err != nil {
		return nil, err
	}
	n, fired := Unanimity(a, b)
	return map[string]any{"agreements": n, "fired": fired}, nil
}

// rerankScore reads a score of the rerank operation (RERANK-9).
func rerankScore(v any) (float64, bool) {
	switch s := v.(type) {
	case string:
		switch s {
		case "NaN":
			return math.NaN(), true
		case "Infinity":
			return math.Inf(1), true
		case "-Infinity":
			return math.Inf(-1), true
		}
		return 0, false
	}
	return asFloat(v)
}

func opRerank(in map[string]any) (map[string]any, error) {
	fv, ok := present(in, "fused")
	if !ok {
		return nil, invalid("fused is required")
	}
	fl, err := asList(fv, "fused")
	if err != nil {
		return nil, err
	}
	var ids []string
	seen := map[string]bool{}
	for i, x := range fl {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, invalid("fused[%d] must be an object", i)
		}
		c, err := parseCandidate(m, fmt.Sprintf("fused[%d]", i), false)
		if err != nil {
			return nil, err
		}
		if seen[c.ID] {
			return nil, invalid("fused[%d]: repeated id", i)
		}
		seen[c.ID] = true
		sv, ok := present(m, "score")
		if !ok {
			return nil, invalid("fused[%d]: score is required", i)
		}
		if _, ok := asFloat(sv); !ok {
			return nil, invalid("fused[%d]: score must be finite", i)
		}
		ids = append(ids, c.ID)
	}
	topN, err := optIntOrDefault(in, "rerankTopN", 20) // RERANK-1
	if err != nil {
		return nil, err
	}
	rv, ok := present(in, "reranker")
	if !ok {
		return nil, invalid("reranker is required")
	}
	rm, err := asObject(rv, "reranker")
	if err != nil {
		return nil, err
	}
	name, err := reqString(rm, "name")
	if err != nil || name == "" {
		return nil, invalid("reranker.name must be a non-empty string")
	}
	entries, failed, msg, err := rerankerAnswer(rm, "reranker", rerankScore)
	if err != nil {
		return nil, err
	}
	order, rep := Rerank(ids, topN, name, entries, failed, msg)
	res := make([]any, len(order))
	for i, o := range order {
		var s any
		if o.Score != nil {
			s = *o.Score
		}
		res[i] = map[string]any{"id": ids[o.Index], "rerankScore": s}
	}
	return map[string]any{"results": res, "report": rep.JSON()}, nil
}

// rerankerAnswer reads exactly one of results / error.
func rerankerAnswer(rm map[string]any, what string, score func(any) (float64, bool)) ([]RerankEntry, bool, string, error) {
	resV, hasRes := present(rm, "results")
	errV, hasErr := present(rm, "error")
	if hasRes == hasErr {
		return nil, false, "", invalid("%s: exactly one of results and error", what)
	}
	if hasErr {
		s, ok := errV.(string)
		if !ok {
			return nil, false, "", invalid("%s.error must be a string", what)
		}
		return nil, true, s, nil
	}
	l, err := asList(resV, what+".results")
	if err != nil {
		return nil, false, "", err
	}
	var out []RerankEntry
	for i, x := range l {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, false, "", invalid("%s.results[%d] must be an object", what, i)
		}
		id, ok := m["id"].(string)
		if !ok {
			return nil, false, "", invalid("%s.results[%d].id must be a string", what, i)
		}
		sv, ok := present(m, "score")
		if !ok {
			return nil, false, "", invalid("%s.results[%d].score is required", what, i)
		}
		s, ok := score(sv)
		if !ok {
			return nil, false, "", invalid("%s.results[%d].score must be a number", what, i)
		}
		out = append(out, RerankEntry{id, s})
	}
	return out, false, "", nil
}
