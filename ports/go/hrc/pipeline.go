package hrc

// The pipeline (PIPE-*, MODE-*, LADDER-*, UNAN-6, RERANK-10, TRACE-*).

import (
	"math/big"
	"strings"
	"time"
)

// Index is a BM25 backend (BACKEND-5, BACKEND-36).
type Index interface {
	SearchBM25(expr string, limit int64) ([]Candidate, error)
	// Chunks lists the indexed chunks; ok false means "cannot list".
	Chunks() ([]Candidate, bool)
}

// VectorLeg embeds the query and searches the vector store.
type VectorLeg interface {
	SearchVector(query string, limit int64) ([]Candidate, error)
}

// Reranker reranks a head (BACKEND-33, BACKEND-39).
type Reranker interface {
	Name() string
	Rerank(query string, head []Candidate) ([]RerankEntry, error)
}

// Backends are the pipeline's backends; Vector nil means no embedder.
type Backends struct {
	Index    Index
	Vector   VectorLeg
	Reranker Reranker
	// Graph is the graph leg's backend (GRAPH-2); nil when none is configured.
	Graph GraphBackend
	// ProfileData is `backends.profiles`, raw; each enabled profile parses its member (PIPE-10).
	ProfileData map[string]any
}

// Request is a validated search request (PIPE-1).
type Request struct {
	Query                           string
	Mode                            string
	TopK, CandidateK, RerankTopN, K int64
	WBM25, WVector, WGraph          float64
	Rerank, SkipLadder              bool
	Aliases                         *Aliases
	Intent                          *IntentTable
	Stop                            map[string]bool
	// Profiles are the enabled profiles' parsed options (PIPE-10).
	Profiles map[string]any
}

var requestFields = map[string]bool{"query": true, "mode": true, "topK": true, "candidateK": true,
	"rerankTopN": true, "rrfK": true, "weights": true, "rerank": true, "skipRetryLadder": true,
	"aliases": true, "intentTable": true, "stopwordList": true, "profiles": true}

// ParseRequest is PIPE-1, PIPE-2.
func ParseRequest(v any) (*Request, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, invalid("request must be an object")
	}
	for k := range m {
		if !requestFields[k] {
			return nil, invalid("request: unknown field %q", k)
		}
	}
	r := &Request{WBM25: 1, WVector: 1, WGraph: 1}
	var err error
	if r.Query, err = reqString(m, "query"); err != nil {
		return nil, err
	}
	if Normalise(r.Query) == "" {
		return nil, invalid("query is empty after normalisation")
	}
	if r.Mode, err = optString(m, "mode", "auto"); err != nil {
		return nil, err
	}
	switch r.Mode {
	case "auto", "bm25", "semantic", "hybrid":
	default:
		return nil, invalid("unknown mode %q", r.Mode)
	}
	if r.TopK, err = optInt(m, "topK", 10, 1); err != nil {
		return nil, err
	}
	if r.CandidateK, err = optInt(m, "candidateK", 60, 1); err != nil {
		return nil, err
	}
	if r.RerankTopN, err = optInt(m, "rerankTopN", 20, 1); err != nil {
		return nil, err
	}
	if r.K, err = optInt(m, "rrfK", 60, 1); err != nil {
		return nil, err
	}
	if wv, ok := present(m, "weights"); ok {
		wm, ok := wv.(map[string]any)
		if !ok {
			return nil, invalid("weights must be an object")
		}
		for k := range wm {
			if k != "bm25" && k != "vector" && k != "graph" {
				return nil, invalid("weights: unknown field %q", k)
			}
		}
		if x, ok := present(wm, "bm25"); ok {
			if r.WBM25, err = parseWeight(x, "weights.bm25"); err != nil {
				return nil, err
			}
		}
		if x, ok := present(wm, "vector"); ok {
			if r.WVector, err = parseWeight(x, "weights.vector"); err != nil {
				return nil, err
			}
		}
		if x, ok := present(wm, "graph"); ok { // GRAPH-1
			if r.WGraph, err = parseWeight(x, "weights.graph"); err != nil {
				return nil, err
			}
		}
	}
	if r.Rerank, err = optBool(m, "rerank", true); err != nil {
		return nil, err
	}
	if r.SkipLadder, err = optBool(m, "skipRetryLadder", false); err != nil {
		return nil, err
	}
	al, _ := present(m, "aliases")
	if r.Aliases, err = ParseAliases(al, nil); err != nil {
		return nil, err
	}
	if r.Intent, err = intentTable(m, "intentTable"); err != nil {
		return nil, err
	}
	if r.Stop, err = stopList(m, "stopwordList"); err != nil {
		return nil, err
	}
	pv, pok := m["profiles"]
	if r.Profiles, err = parseProfiles(pv, pok); err != nil {
		return nil, err
	}
	return r, nil
}

func errJSON(kind, msg string) map[string]any { return map[string]any{"kind": kind, "message": msg} }

func row(rung, expr string, searched bool, hits int, skip string, e any) map[string]any {
	var sk any
	if skip != "" {
		sk = skip
	}
	return map[string]any{"rung": rung, "expression": expr, "searched": searched, "hits": hits, "skip": sk, "error": e}
}

type bm25Leg struct {
	rows    []any
	hits    []Candidate
	winning string
	err     map[string]any
}

func firstN(c []Candidate, n int64) []Candidate {
	if int64(len(c)) > n {
		return c[:n]
	}
	return c
}

// runLadder is LADDER-1..LADDER-15.
func runLadder(r *Request, idx Index, initial string, run *profileRun) bm25Leg {
	var leg bm25Leg
	searched := map[string]bool{}
	noAliases := &Aliases{alts: map[string][]string{}}
	// try searches one FTS5 rung; it reports whether the walk ends.
	try := func(rung, expr string) bool {
		if expr == "" {
			leg.rows = append(leg.rows, row(rung, "", false, 0, "empty", nil))
			return false
		}
		if searched[expr] {
			leg.rows = append(leg.rows, row(rung, expr, false, 0, "duplicate", nil))
			return false
		}
		searched[expr] = true
		hits, err := idx.SearchBM25(expr, r.CandidateK)
		if err != nil {
			leg.err = errJSON("index_error", err.Error())
			leg.rows = append(leg.rows, row(rung, expr, true, 0, "", leg.err))
			return true
		}
		hits = firstN(hits, r.CandidateK)
		leg.rows = append(leg.rows, row(rung, expr, true, len(hits), "", nil))
		if len(hits) > 0 {
			leg.hits, leg.winning = hits, rung
			return true
		}
		return false
	}
	if try("initial", initial) || r.SkipLadder {
		return leg
	}
	quote := func(s string) string {
		if s == "" {
			return ""
		}
		return Quote(s)
	}
	if try("strongest_term", quote(StrongestTerm(r.Query, r.Stop))) {
		return leg
	}
	leg.rows = append(leg.rows, row("force-refresh", "", false, 0, "no_op", nil))
	_, sexpr := Sanitise(r.Query, r.Aliases, r.Stop)
	if try("refreshed_sanitised", sexpr) {
		return leg
	}
	stoks, _ := Sanitise(r.Query, noAliases, r.Stop)
	if try("refreshed_strongest", quote(Strongest(stoks, r.Stop))) {
		return leg
	}
	texpr := strings.Join(stoks, " ")
	if len(stoks) == 0 {
		leg.rows = append(leg.rows, row("trigram_fuzzy", "", false, 0, "empty", nil))
		return leg
	}
	chunks, ok := idx.Chunks()
	if !ok {
		leg.rows = append(leg.rows, row("trigram_fuzzy", texpr, false, 0, "no_chunks", nil))
		return leg
	}
	// PIPE-11: profiles may ask for more and filter the rung's hits before the cut.
	ask := run.legSearch("bm25", r.CandidateK, func(n int64) ([]Candidate, error) {
		var cs []Candidate
		for _, h := range TrigramSearch(stoks, chunks, n) {
			cs = append(cs, h.Chunk)
		}
		return cs, nil
	})
	th, _ := ask(r.CandidateK)
	leg.rows = append(leg.rows, row("trigram_fuzzy", texpr, true, len(th), "", nil))
	if len(th) > 0 {
		leg.hits = append(leg.hits, th...)
		leg.winning = "trigram_fuzzy"
	}
	return leg
}

func ids(c []Candidate) []string {
	out := make([]string, len(c))
	for i, x := range c {
		out[i] = x.ID
	}
	return out
}

// Search runs the whole pipeline (PIPE-3).
func Search(r *Request, b Backends) (map[string]any, error) {
	start := time.Now()
	run, err := newProfileRun(r.Profiles, b.ProfileData) // PIPE-9: checked before any backend
	if err != nil {
		return nil, err
	}
	// PIPE-11: every stage after the rewrite sees the rewritten query.
	rq := *r
	rq.Query = run.rewriteQuery(r.Query)
	q := rq.Query
	_, hasOps, toks := Parse(q, r.Aliases, r.Stop)
	expr := Compile(toks)
	// modes (MODE-1..MODE-3)
	eff, fell := r.Mode, false
	emb := b.Vector != nil
	switch r.Mode {
	case "auto":
		eff = "bm25"
		if emb {
			eff = "hybrid"
		}
	case "hybrid", "semantic":
		if !emb {
			eff, fell = "bm25", true
		}
	}
	legSkip := func(runs bool, w float64) string {
		if !runs {
			return "mode"
		}
		if w == 0 {
			return "zero_weight"
		}
		return ""
	}
	w, err := run.adjustWeights(q, Weights{r.WBM25, r.WVector, r.WGraph})
	if err != nil {
		return nil, err
	}
	graph := b.Graph // GRAPH-2: a scripted graph takes precedence over a profile's
	if graph == nil {
		graph = run.graphBackend()
	}
	bSkip := legSkip(eff == "bm25" || eff == "hybrid", w.BM25)
	vSkip := legSkip(eff == "semantic" || eff == "hybrid", w.Vector)
	gSkip := legSkip(eff == "hybrid", w.Graph) // GRAPH-3

	bmTrace := map[string]any{"ran": bSkip == "", "attempts": []any{}, "usedRetry": false,
		"winningRung": nil, "hits": 0, "error": nil, "skip": nil}
	var bm bm25Leg
	if bSkip != "" {
		bmTrace["skip"] = bSkip
	} else {
		bm = runLadder(&rq, filteredIndex{b.Index, run, r.CandidateK}, expr, run)
		bmTrace["attempts"] = bm.rows
		bmTrace["usedRetry"] = len(bm.rows) > 1
		if bm.winning != "" {
			bmTrace["winningRung"] = bm.winning
		}
		bmTrace["hits"] = len(bm.hits)
		if bm.err != nil {
			bmTrace["error"] = bm.err
		}
	}
	vTrace := map[string]any{"ran": vSkip == "", "skip": nil, "hits": 0, "error": nil}
	var vHits []Candidate
	var vErr map[string]any
	if vSkip != "" {
		vTrace["skip"] = vSkip
	} else {
		ask := run.legSearch("vector", r.CandidateK, func(n int64) ([]Candidate, error) {
			return b.Vector.SearchVector(q, n)
		})
		h, err := ask(r.CandidateK)
		if err != nil {
			vErr = errJSON("index_error", err.Error())
			vTrace["error"] = vErr
		} else {
			vHits = firstN(h, r.CandidateK)
			vTrace["hits"] = len(vHits)
		}
	}
	// GRAPH-3: the graph leg, after the vector leg.
	gRuns := graph != nil && gSkip == ""
	gTrace := map[string]any{"ran": gRuns, "skip": nil, "hits": 0, "error": nil}
	var gHits []Candidate
	var gErr map[string]any
	if !gRuns {
		gTrace["skip"] = gSkip
	} else {
		ask := run.legSearch("graph", r.CandidateK, func(n int64) ([]Candidate, error) {
			return graph.SearchGraph(Normalise(q), n)
		})
		h, err := ask(r.CandidateK)
		if err != nil {
			gErr = errJSON("index_error", err.Error())
			gTrace["error"] = gErr
		} else {
			gHits = firstN(h, r.CandidateK)
			gTrace["hits"] = len(gHits)
		}
	}
	// PIPE-7: fail when every leg that ran errored.
	ranAny := bSkip == "" || vSkip == "" || gRuns
	if ranAny && (bSkip != "" || bm.err != nil) && (vSkip != "" || vErr != nil) && (!gRuns || gErr != nil) {
		var msgs []string
		for _, e := range []map[string]any{bm.err, vErr, gErr} {
			if e != nil {
				msgs = append(msgs, e["message"].(string))
			}
		}
		return nil, &OpError{"index_error", "every leg failed: " + strings.Join(msgs, "; ")}
	}
	if eff == "hybrid" && vErr != nil {
		fell = true
	}
	// fusion (PIPE-5)
	var lists []RankedList
	fl := []any{}
	if bSkip == "" {
		lists = append(lists, RankedList{"bm25", w.BM25, bm.hits})
		fl = append(fl, map[string]any{"name": "bm25", "weight": w.BM25, "size": len(bm.hits)})
	}
	if vSkip == "" {
		lists = append(lists, RankedList{"vector", w.Vector, vHits})
		fl = append(fl, map[string]any{"name": "vector", "weight": w.Vector, "size": len(vHits)})
	}
	if gRuns { // GRAPH-4
		lists = append(lists, RankedList{"graph", w.Graph, gHits})
		fl = append(fl, map[string]any{"name": "graph", "weight": w.Graph, "size": len(gHits)})
	}
	fused := RRF(lists, r.K)
	// intent (INTENT-*)
	det := r.Intent.Detect(q)
	fusedItems := make([]Candidate, len(fused))
	scores := make([]float64, len(fused))
	exact := make([]*big.Rat, len(fused))
	for i, f := range fused {
		fusedItems[i], scores[i], exact[i] = f.Candidate, f.Score, f.Exact
	}
	reweighted := r.Intent.Reweight(det, fusedItems, scores, exact)
	adjusted := []any{}
	byIndex := make([]Adjusted, len(reweighted))
	for _, a := range reweighted {
		byIndex[a.Index] = a
	}
	for _, a := range byIndex {
		if len(a.Rules) > 0 {
			adjusted = append(adjusted, map[string]any{"id": fusedItems[a.Index].ID, "multiplier": a.Mult, "rules": a.Rules})
		}
	}
	// PIPE-11: the profiles' post-fusion stages, on the list in its reweighted order.
	post := make([]FusedItem, len(reweighted))
	for i, a := range reweighted {
		post[i] = FusedItem{fusedItems[a.Index], a.Score, a.Exact, a.Mult, a.Rules}
	}
	post = run.afterFusion(q, post)
	items := make([]Candidate, len(post))
	adj := make([]Adjusted, len(post))
	for i, f := range post {
		items[i] = f.Candidate
		adj[i] = Adjusted{Index: i, Score: f.Score, Mult: f.Mult, Rules: f.Rules, Exact: f.Exact}
	}
	// unanimity and rerank (UNAN-6, RERANK-10)
	unTrace := map[string]any{"evaluated": false, "agreements": nil, "fired": false}
	listIDs := make([]string, len(adj))
	for i, a := range adj {
		listIDs[i] = items[a.Index].ID
	}
	var rep RerankReport
	order := unchanged(len(adj))
	switch {
	case !r.Rerank:
		rep.Outcome = "disabled"
	case b.Reranker == nil:
		rep.Outcome = "no_reranker"
	case len(adj) == 0:
		rep.Outcome = "empty"
	}
	if b.Reranker != nil {
		rep.Provider, rep.HasProvider = b.Reranker.Name(), true
	}
	if rep.Outcome == "" {
		fired := false
		if bSkip == "" && vSkip == "" {
			n, f := Unanimity(ids(bm.hits), ids(vHits))
			fired = f
			unTrace = map[string]any{"evaluated": true, "agreements": n, "fired": f}
		}
		if fired {
			rep.Outcome = "unanimity"
		} else {
			h := len(adj)
			if int64(h) > r.RerankTopN {
				h = int(r.RerankTopN)
			}
			head := make([]Candidate, h)
			for i := 0; i < h; i++ {
				head[i] = items[adj[i].Index]
			}
			entries, err := b.Reranker.Rerank(q, head)
			msg := ""
			if err != nil {
				msg = err.Error()
			}
			order, rep = Rerank(listIDs, r.RerankTopN, b.Reranker.Name(), entries, err != nil, msg)
		}
	}
	// PIPE-11: the profiles' post-rerank removals, before the topK cut.
	order = run.afterRerank(q, order, func(o Reranked) string { return items[adj[o.Index].Index].ID }, rep.Outcome)
	results := []any{}
	resultIDs := []string{}
	for i, o := range order {
		if int64(i) >= r.TopK {
			break
		}
		a := adj[o.Index]
		c := items[a.Index]
		m := candJSON(c)
		m["score"] = a.Score
		if o.Score != nil {
			m["rerankScore"] = *o.Score
		} else {
			m["rerankScore"] = nil
		}
		results = append(results, m)
		resultIDs = append(resultIDs, c.ID)
	}
	tj := make([]any, len(toks))
	for i, t := range toks {
		tj[i] = tokenJSON(t)
	}
	reqWeights := map[string]any{"bm25": r.WBM25, "vector": r.WVector}
	if graph != nil {
		reqWeights["graph"] = r.WGraph // GRAPH-5
	}
	trace := map[string]any{
		"specVersion": SpecVersion,
		"request": map[string]any{"query": r.Query, "mode": r.Mode, "topK": r.TopK, "candidateK": r.CandidateK,
			"rerankTopN": r.RerankTopN, "rrfK": r.K, "weights": reqWeights,
			"rerank": r.Rerank, "skipRetryLadder": r.SkipLadder},
		"requestedMode":  r.Mode,
		"effectiveMode":  eff,
		"fellBackToBM25": fell,
		"query":          map[string]any{"normalised": Normalise(q), "hasOperators": hasOps, "tokens": tj, "expression": expr},
		"bm25":           bmTrace,
		"vector":         vTrace,
		"fusion":         map[string]any{"k": r.K, "lists": fl, "fusedHits": len(fused)},
		"intent": map[string]any{"preference": det.Preference, "concreteFact": det.ConcreteFact,
			"label": det.Label(), "adjusted": adjusted},
		"unanimity": unTrace,
		"rerank":    rep.JSON(),
		"resultIds": resultIDs,
		"timings":   map[string]any{"totalMs": float64(time.Since(start).Microseconds()) / 1000},
	}
	if graph != nil {
		trace["graph"] = gTrace // GRAPH-5
	}
	if len(run.calls) > 0 {
		trace["profiles"] = run.traceJSON() // PIPE-11, TRACE-15
	}
	return map[string]any{"results": results, "trace": trace}, nil
}

// filteredIndex asks its index through the profiles' leg hooks (PIPE-11).
type filteredIndex struct {
	idx Index
	run *profileRun
	k   int64
}

func (f filteredIndex) SearchBM25(expr string, limit int64) ([]Candidate, error) {
	return f.run.legSearch("bm25", limit, func(n int64) ([]Candidate, error) {
		return f.idx.SearchBM25(expr, n)
	})(limit)
}

func (f filteredIndex) Chunks() ([]Candidate, bool) { return f.idx.Chunks() }
