package hrc

// Scripted backends of the search operation (BACKEND-36..BACKEND-40, BACKEND-42).

import (
	"errors"
	"fmt"
)

type scriptedIndex struct {
	responses map[string][]Candidate
	errs      map[string]string
	chunks    []Candidate
	canList   bool
	execute   bool      // bm25.fts5 (BACKEND-42)
	fts       *FTSIndex // the chunks in FTS5, when execute
}

// SearchBM25 answers by exact spelling: this port declares canonical-fts5 and spells
// expressions as the keys do (BACKEND-36 allows the exact lookup then).
func (s *scriptedIndex) SearchBM25(expr string, limit int64) ([]Candidate, error) {
	if msg, ok := s.errs[expr]; ok {
		return nil, errors.New(msg)
	}
	if hits, ok := s.responses[expr]; ok || s.fts == nil {
		return firstN(hits, limit), nil
	}
	return s.fts.SearchBM25(expr, limit) // BACKEND-42: execute the unscripted expression
}

// close releases the FTS5 index of BACKEND-42, if any.
func (s *scriptedIndex) close() {
	if s.fts != nil {
		s.fts.Close()
	}
}

func (s *scriptedIndex) Chunks() ([]Candidate, bool) { return s.chunks, s.canList }

type scriptedVector struct {
	hits []Candidate
	err  string
	fail bool
}

func (s *scriptedVector) SearchVector(query string, limit int64) ([]Candidate, error) {
	if s.fail {
		return nil, errors.New(s.err)
	}
	return firstN(s.hits, limit), nil
}

// SearchGraph is the scripted graph backend (GRAPH-2): the scripted vector store's form.
func (s *scriptedVector) SearchGraph(query string, limit int64) ([]Candidate, error) {
	return s.SearchVector(query, limit)
}

type scriptedReranker struct {
	name    string
	entries []RerankEntry
	err     string
	fail    bool
}

func (s *scriptedReranker) Name() string { return s.name }
func (s *scriptedReranker) Rerank(string, []Candidate) ([]RerankEntry, error) {
	if s.fail {
		return nil, errors.New(s.err)
	}
	return s.entries, nil
}

// parseScripted is BACKEND-40.
func parseScripted(v any) (Backends, error) {
	var b Backends
	m, ok := v.(map[string]any)
	if !ok {
		return b, invalid("backends must be an object")
	}
	idx := &scriptedIndex{responses: map[string][]Candidate{}, errs: map[string]string{}}
	b.Index = idx
	if bv, ok := present(m, "bm25"); ok {
		bm, ok := bv.(map[string]any)
		if !ok {
			return b, invalid("backends.bm25 must be an object")
		}
		if rv, ok := present(bm, "responses"); ok {
			rm, ok := rv.(map[string]any)
			if !ok {
				return b, invalid("backends.bm25.responses must be an object")
			}
			for k, x := range rm {
				if x == nil {
					return b, invalid("backends.bm25.responses[%q] must be a list", k)
				}
				cs, err := parseCandidates(x, fmt.Sprintf("backends.bm25.responses[%q]", k), false)
				if err != nil {
					return b, err
				}
				idx.responses[k] = cs
			}
		}
		if fv, ok := present(bm, "fts5"); ok {
			f, ok := fv.(bool)
			if !ok {
				return b, invalid("backends.bm25.fts5 must be a boolean")
			}
			idx.execute = f
		}
		if ev, ok := present(bm, "errors"); ok {
			em, ok := ev.(map[string]any)
			if !ok {
				return b, invalid("backends.bm25.errors must be an object")
			}
			for k, x := range em {
				s, ok := x.(string)
				if !ok {
					return b, invalid("backends.bm25.errors[%q] must be a string", k)
				}
				if _, both := idx.responses[k]; both {
					return b, invalid("backends.bm25: expression %q has both a response and an error", k)
				}
				idx.errs[k] = s
			}
		}
	}
	if cv, ok := present(m, "chunks"); ok {
		cs, err := parseCandidates(cv, "backends.chunks", true)
		if err != nil {
			return b, err
		}
		idx.chunks, idx.canList = cs, true
	}
	if idx.execute { // BACKEND-42
		if !idx.canList {
			return b, invalid("backends.bm25.fts5 needs backends.chunks (the rows to search)")
		}
		seen := map[string]bool{}
		for i, c := range idx.chunks {
			if seen[c.ID] {
				return b, invalid("backends.chunks[%d]: id %q repeats (BACKEND-42)", i, c.ID)
			}
			seen[c.ID] = true
		}
		fts, err := NewFTSIndex(idx.chunks)
		if err != nil {
			return b, err
		}
		idx.fts = fts
	}
	emb := false
	if ev, ok := present(m, "embedder"); ok {
		e, ok := ev.(bool)
		if !ok {
			return b, invalid("backends.embedder must be a boolean")
		}
		emb = e
	}
	sv := &scriptedVector{}
	if vv, ok := present(m, "vector"); ok {
		v, err := parseHitsOrError(vv, "backends.vector")
		if err != nil {
			return b, err
		}
		sv = v
	}
	if emb {
		b.Vector = sv
	}
	if gv, ok := present(m, "graph"); ok {
		g, err := parseHitsOrError(gv, "backends.graph")
		if err != nil {
			return b, err
		}
		b.Graph = g
	}
	if pv, ok := present(m, "profiles"); ok {
		pm, ok := pv.(map[string]any)
		if !ok {
			return b, invalid("backends.profiles must be an object")
		}
		b.ProfileData = pm
	}
	if rv, ok := present(m, "reranker"); ok {
		rm, ok := rv.(map[string]any)
		if !ok {
			return b, invalid("backends.reranker must be an object")
		}
		name, err := optString(rm, "name", "scripted")
		if err != nil {
			return b, invalid("backends.reranker.name must be a string")
		}
		if name == "" {
			return b, invalid("backends.reranker.name must not be empty")
		}
		entries, failed, msg, err := rerankerAnswer(rm, "backends.reranker", func(v any) (float64, bool) { return asFloat(v) })
		if err != nil {
			return b, err
		}
		b.Reranker = &scriptedReranker{name, entries, msg, failed}
	}
	return b, nil
}

func opSearch(in map[string]any) (map[string]any, error) {
	rv, ok := present(in, "request")
	if !ok {
		return nil, invalid("request is required")
	}
	r, err := ParseRequest(rv)
	if err != nil {
		return nil, err
	}
	bv, ok := present(in, "backends")
	if !ok {
		bv = map[string]any{}
	}
	b, err := parseScripted(bv)
	if idx, ok := b.Index.(*scriptedIndex); ok {
		defer idx.close()
	}
	if err != nil {
		return nil, err
	}
	return Search(r, b)
}

func init() { handlers["search"] = opSearch }

// parseHitsOrError reads `{hits: [...]}` or `{error: "..."}` (BACKEND-37, GRAPH-2).
func parseHitsOrError(v any, where string) (*scriptedVector, error) {
	sv := &scriptedVector{}
	vm, ok := v.(map[string]any)
	if !ok {
		return nil, invalid("%s must be an object", where)
	}
	hv, hasHits := present(vm, "hits")
	ev, hasErr := present(vm, "error")
	if hasHits == hasErr {
		return nil, invalid("%s: exactly one of hits and error", where)
	}
	if hasHits {
		cs, err := parseCandidates(hv, where+".hits", false)
		if err != nil {
			return nil, err
		}
		sv.hits = cs
		return sv, nil
	}
	s, ok := ev.(string)
	if !ok {
		return nil, invalid("%s.error must be a string", where)
	}
	sv.err, sv.fail = s, true
	return sv, nil
}
