package hrc

// The pipeline (PIPE-*, MODE-*, LADDER-*, UNAN-6, RERANK-10, TRACE-*).

import (
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
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
	Fanout                          bool // FANOUT-1: bm25Fanout
	Aliases                         *Aliases
	Intent                          *IntentTable
	Stop                            map[string]bool
	// Profiles are the enabled profiles' parsed options (PIPE-10).
	Profiles map[string]any
}

var requestFields = map[string]bool{"query": true, "mode": true, "topK": true, "candidateK": true,
	"rerankTopN": true, "rrfK": true, "weights": true, "rerank": true, "skipRetryLadder": true,
	"bm25Fanout": true, "aliases": true, "intentTable": true, "stopwordList": true, "profiles": true}

// ParseRequest is PIPE-1, PIPE-2.
// MaxQueryCodePoints is PIPE-14's bound on a request's query.
const MaxQueryCodePoints = 4096

// checkQueryBound is FANOUT-25 and INTENT-14: an operation's query is bounded as PIPE-14
// bounds a search's, in code points of the string as given.
func checkQueryBound(s, field, clause string) error {
	if len(s) > MaxQueryCodePoints && utf8.RuneCountInString(s) > MaxQueryCodePoints {
		return invalid("%s has more than %d code points (%s)", field, MaxQueryCodePoints, clause)
	}
	return nil
}

func ParseRequest(v any) (*Request, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, invalid("request must be an object")
	}
	for _, k := range sortedKeys(m) {
		if !requestFields[k] {
			return nil, invalid("request: unknown field %q", k)
		}
	}
	r := &Request{WBM25: 1, WVector: 1, WGraph: 1}
	var err error
	if r.Query, err = reqString(m, "query"); err != nil {
		return nil, err
	}
	// PIPE-14: at most MaxQueryCodePoints code points (TEXT-8); bytes overcount non-ASCII.
	if len(r.Query) > MaxQueryCodePoints && utf8.RuneCountInString(r.Query) > MaxQueryCodePoints {
		return nil, invalid("request.query has more than %d code points (PIPE-14)", MaxQueryCodePoints)
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
	if r.TopK, err = optIntOrDefault(m, "topK", 10); err != nil {
		return nil, err
	}
	if r.CandidateK, err = optIntOrDefault(m, "candidateK", 60); err != nil {
		return nil, err
	}
	if r.RerankTopN, err = optIntOrDefault(m, "rerankTopN", 20); err != nil {
		return nil, err
	}
	if r.K, err = optIntOrDefault(m, "rrfK", 60); err != nil {
		return nil, err
	}
	if wv, ok := present(m, "weights"); ok {
		wm, ok := wv.(map[string]any)
		if !ok {
			return nil, invalid("weights must be an object")
		}
		for _, k := range sortedKeys(wm) {
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
	if r.Fanout, err = optBool(m, "bm25Fanout", false); err != nil { // FANOUT-1
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
	passes  []any // FANOUT-19: the first-pass rows (nil without the fanout)
}

func firstN(c []Candidate, n int64) []Candidate {
	if int64(len(c)) > n {
		return c[:n]
	}
	return c
}

// fanoutPass is FANOUT-16..19: every plan query searched, the kept answers merged; the initial
// row shows the first query and the merged count. It reports whether the walk ends.
func fanoutPass(r *Request, idx Index, plan []string, leg *bm25Leg) bool {
	leg.passes = []any{}
	if len(plan) == 0 {
		leg.rows = append(leg.rows, row("initial", "", false, 0, "empty", nil))
		return false
	}
	var lists [][]Candidate
	var primary []Candidate
	for i, expr := range plan {
		hits, err := idx.SearchBM25(expr, r.CandidateK)
		if err != nil {
			leg.err = errJSON("index_error", err.Error())
			leg.passes = append(leg.passes, map[string]any{"expression": expr, "hits": 0})
			leg.rows = append(leg.rows, row("initial", plan[0], true, 0, "", leg.err))
			return true
		}
		hits = firstN(hits, r.CandidateK)
		leg.passes = append(leg.passes, map[string]any{"expression": expr, "hits": len(hits)})
		if i == 0 {
			primary = hits
		}
		if len(hits) > 0 && (i == 0 || fanoutKept(primary, expr, hits)) {
			lists = append(lists, hits)
		}
	}
	merged := fanoutMerge(lists, r.CandidateK)
	leg.rows = append(leg.rows, row("initial", plan[0], true, len(merged), "", nil))
	if len(merged) > 0 {
		leg.hits, leg.winning = merged, "initial"
		return true
	}
	return false
}

// runLadder is LADDER-1..LADDER-15; plan is the fanout's first pass (nil without it).
func runLadder(r *Request, idx Index, initial string, run *profileRun, plan []string) bm25Leg {
	var leg bm25Leg
	noAliases := &Aliases{alts: map[string][]string{}}
	// try searches one FTS5 rung; it reports whether the walk ends. LADDER-3: a rung with
	// nothing to search emits no row, except `initial`; LADDER-6: a repeat is searched again.
	try := func(rung, expr string) bool {
		if expr == "" {
			if rung == "initial" {
				leg.rows = append(leg.rows, row(rung, "", false, 0, "empty", nil))
			}
			return false
		}
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
	var first bool
	if plan != nil {
		first = fanoutPass(r, idx, plan, &leg)
	} else {
		first = try("initial", initial)
	}
	if first || r.SkipLadder {
		return leg
	}
	quote := func(s string) string {
		if s == "" {
			return ""
		}
		return Quote(s)
	}
	strongest := StrongestTerm(r.Query, r.Stop)
	rung1 := strongest
	if rung1 == Fold(r.Query) { // LADDER-9: the whole folded query adds nothing
		rung1 = ""
	}
	if try("strongest_term", quote(rung1)) {
		return leg
	}
	leg.rows = append(leg.rows, row("force-refresh", "", false, 0, "no_op", nil))
	_, sexpr := Sanitise(r.Query, r.Aliases, r.Stop)
	if try("refreshed_sanitised", sexpr) {
		return leg
	}
	stoks, _ := Sanitise(r.Query, noAliases, r.Stop)
	if try("refreshed_strongest", quote(strongest)) {
		return leg
	}
	texpr := strings.Join(stoks, " ")
	if len(stoks) == 0 { // LADDER-3: nothing to match, no row
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

// legSkip is MODE-4, PIPE-8: "" when the leg runs; else "mode" (checked first) or "zero_weight".
func legSkip(runs bool, w float64) string {
	if !runs {
		return "mode"
	}
	if w == 0 {
		return "zero_weight"
	}
	return ""
}

// variantList is PIPE-12: the request's query, then the profiles' variants; repeats after
// TEXT-1..4 are dropped.
func variantList(q string, run *profileRun) ([]string, error) {
	out := []string{q}
	seen := map[string]bool{Normalise(q): true}
	for _, v := range run.queryVariants(q) {
		key := Normalise(v)
		if key == "" {
			return nil, invalid("a query variant is empty after normalisation")
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, v)
		}
	}
	return out, nil
}

// variantRun is PIPE-12: stages 1 and 3-5 (and the graph leg) of one query variant.
type variantRun struct {
	text, query, expr string
	hasOps            bool
	toks              []Token
	bm                bm25Leg
	bSkip, vSkip      string
	vUnfused          bool // PIPE-11: the vector leg ran at weight 0 for a profile
	vHits             []Candidate
	vErr              map[string]any
	bmTrace, vTrace   map[string]any
	gTrace            map[string]any
	// ranErrs are the errors of the legs that ran, nil for a leg without error (PIPE-7, PIPE-15).
	ranErrs []map[string]any
	lists   []RankedList
	fl      []any
	fused   []*Fused
}

// legsJSON adds the variant's legs in the trace's form (TRACE-7..9) to m.
func (v *variantRun) legsJSON(m map[string]any, withGraph bool) {
	m["bm25"], m["vector"] = v.bmTrace, v.vTrace
	if withGraph {
		m["graph"] = v.gTrace // GRAPH-5
	}
}

type variantCtx struct {
	r     *Request
	b     Backends
	run   *profileRun
	eff   string
	graph GraphBackend
}

// runVariant is PIPE-3 stages 1, 3 and 4 (and the graph leg) for one query variant, with the
// lists stage 5 fuses (PIPE-12); fusion waits until every variant ran (PIPE-15 is checked first).
func runVariant(text string, c variantCtx) (*variantRun, error) {
	r, b, run := c.r, c.b, c.run
	v := &variantRun{text: text}
	// PIPE-11: every stage after the rewrite sees the rewritten query.
	rq := *r
	rq.Query = run.rewriteQuery(text, r.Fanout) // FANOUT-15: no temporal rewrite with the fanout
	q := rq.Query
	v.query = q
	_, v.hasOps, v.toks = Parse(q, r.Aliases, r.Stop)
	v.expr = Compile(v.toks)
	w, err := run.adjustWeights(q, Weights{r.WBM25, r.WVector, r.WGraph})
	if err != nil {
		return nil, err
	}
	v.bSkip = legSkip(c.eff == "bm25" || c.eff == "hybrid", w.BM25)
	v.vSkip = legSkip(c.eff == "semantic" || c.eff == "hybrid", w.Vector)
	if v.vSkip == "zero_weight" && run.runsAtZeroWeight("vector") {
		v.vSkip, v.vUnfused = "", true
	}
	gSkip := legSkip(c.eff == "hybrid", w.Graph) // GRAPH-3

	v.bmTrace = map[string]any{"ran": v.bSkip == "", "attempts": []any{}, "usedRetry": false,
		"winningRung": nil, "hits": 0, "error": nil, "skip": nil}
	if r.Fanout {
		v.bmTrace["firstPass"] = []any{} // FANOUT-19: [] when the leg does not run
	}
	if v.bSkip != "" {
		v.bmTrace["skip"] = v.bSkip
	} else {
		var plan []string
		if r.Fanout { // FANOUT-13..15: never nil with the fanout
			plan = append([]string{}, PlanExpressions(q, run.fanoutBase(q), r.Aliases, r.Stop)...)
		}
		v.bm = runLadder(&rq, filteredIndex{b.Index, run, r.CandidateK}, v.expr, run, plan)
		v.bmTrace["attempts"] = v.bm.rows
		if v.bm.passes != nil {
			v.bmTrace["firstPass"] = v.bm.passes
		}
		v.bmTrace["usedRetry"] = len(v.bm.rows) > 1
		if v.bm.winning != "" {
			v.bmTrace["winningRung"] = v.bm.winning
		}
		v.bmTrace["hits"] = len(v.bm.hits)
		if v.bm.err != nil {
			v.bmTrace["error"] = v.bm.err
		}
		v.ranErrs = append(v.ranErrs, v.bm.err)
	}
	v.vTrace = map[string]any{"ran": v.vSkip == "", "skip": nil, "hits": 0, "error": nil}
	if v.vSkip != "" {
		v.vTrace["skip"] = v.vSkip
	} else {
		embedded := run.vectorQuery(q) // PIPE-11
		ask := run.legSearch("vector", r.CandidateK, func(n int64) ([]Candidate, error) {
			return b.Vector.SearchVector(embedded, n)
		})
		h, err := ask(r.CandidateK)
		if err != nil {
			v.vErr = errJSON("index_error", err.Error())
			v.vTrace["error"] = v.vErr
		} else {
			v.vHits = firstN(h, r.CandidateK)
			v.vTrace["hits"] = len(v.vHits)
		}
		v.ranErrs = append(v.ranErrs, v.vErr)
	}
	// GRAPH-3: the graph leg, after the vector leg.
	gRuns := c.graph != nil && gSkip == ""
	v.gTrace = map[string]any{"ran": gRuns, "skip": nil, "hits": 0, "error": nil}
	var gHits []Candidate
	if !gRuns {
		v.gTrace["skip"] = gSkip
	} else {
		ask := run.legSearch("graph", r.CandidateK, func(n int64) ([]Candidate, error) {
			return c.graph.SearchGraph(Normalise(q), n)
		})
		h, err := ask(r.CandidateK)
		var gErr map[string]any
		if err != nil {
			gErr = errJSON("index_error", err.Error())
			v.gTrace["error"] = gErr
		} else {
			gHits = firstN(h, r.CandidateK)
			v.gTrace["hits"] = len(gHits)
		}
		v.ranErrs = append(v.ranErrs, gErr)
	}
	// the lists of stage 5 (PIPE-5)
	v.fl = []any{}
	add := func(name string, weight float64, hits []Candidate) {
		v.lists = append(v.lists, RankedList{name, weight, hits})
		v.fl = append(v.fl, map[string]any{"name": name, "weight": weight, "size": len(hits)})
	}
	if v.bSkip == "" {
		add("bm25", w.BM25, v.bm.hits)
	}
	if v.vSkip == "" && !v.vUnfused {
		add("vector", w.Vector, v.vHits)
	}
	if gRuns { // GRAPH-4
		add("graph", w.Graph, gHits)
	}
	return v, nil
}

// mergeVariants is PIPE-5 per variant, then PIPE-12: one variant's fused list as is; several merge by RRF of their
// ranks, weight 1 each, lists named variant:i.
func mergeVariants(runs []*variantRun, k int64) ([]any, []*Fused) {
	for _, v := range runs {
		v.fused = RRF(v.lists, k) // PIPE-5, per variant
	}
	if len(runs) == 1 {
		return runs[0].fl, runs[0].fused
	}
	var lists []RankedList
	fl := []any{}
	for i, v := range runs {
		items := make([]Candidate, len(v.fused))
		for j, f := range v.fused {
			items[j] = f.Candidate
		}
		name := "variant:" + strconv.Itoa(i)
		lists = append(lists, RankedList{name, 1, items})
		fl = append(fl, map[string]any{"name": name, "weight": 1.0, "size": len(items)})
	}
	return fl, RRF(lists, k)
}

// Search runs the whole pipeline (PIPE-3).
func Search(r *Request, b Backends) (map[string]any, error) {
	start := time.Now()
	run, err := newProfileRun(r.Profiles, b.ProfileData) // PIPE-9: checked before any backend
	if err != nil {
		return nil, err
	}
	variants, err := variantList(r.Query, run) // PIPE-12, before any backend call
	if err != nil {
		return nil, err
	}
	// modes (MODE-1..MODE-3), once for every variant (PIPE-12)
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
	graph := b.Graph // GRAPH-2: a scripted graph takes precedence over a profile's
	if graph == nil {
		graph = run.graphBackend()
	}
	ctx := variantCtx{r, b, run, eff, graph}
	runs := make([]*variantRun, 0, len(variants))
	for _, text := range variants {
		v, err := runVariant(text, ctx)
		if err != nil {
			return nil, err
		}
		runs = append(runs, v)
	}
	// PIPE-7, PIPE-15, PIPE-12: a BM25 error never fails the call; without a BM25 leg in any
	// variant, the call fails when every leg that ran, of every variant, errored.
	var msgs []string
	ran, failed := 0, 0
	bm25Ran := false
	for _, v := range runs {
		if v.bSkip == "" {
			bm25Ran = true
		}
		for _, e := range v.ranErrs {
			ran++
			if e != nil {
				failed++
				msgs = append(msgs, e["message"].(string))
			}
		}
		if eff == "hybrid" && v.vErr != nil {
			fell = true // MODE-6
		}
	}
	if !bm25Ran && ran > 0 && failed == ran {
		return nil, &OpError{"index_error", "every leg failed: " + strings.Join(msgs, "; ")}
	}
	fl, fused := mergeVariants(runs, r.K)
	first := runs[0]
	q, hasOps, toks, expr := first.query, first.hasOps, first.toks, first.expr
	bm, vHits, bSkip, vSkip := first.bm, first.vHits, first.bSkip, first.vSkip
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
	case !r.Rerank || !run.rerankEnabled(): // PIPE-11
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
		if bSkip == "" && vSkip == "" && !first.vUnfused {
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
		"fusion":         map[string]any{"k": r.K, "lists": fl, "fusedHits": len(fused)},
		"intent": map[string]any{"preference": det.Preference, "concreteFact": det.ConcreteFact,
			"label": det.Label(), "adjusted": adjusted},
		"unanimity": unTrace,
		"rerank":    rep.JSON(),
		"resultIds": resultIDs,
		"timings":   map[string]any{"totalMs": float64(time.Since(start).Microseconds()) / 1000},
	}
	first.legsJSON(trace, graph != nil)
	if len(runs) > 1 { // TRACE-16
		entries := make([]any, len(runs))
		for i, v := range runs {
			e := map[string]any{"query": v.text, "lists": v.fl, "fusedHits": len(v.fused)}
			v.legsJSON(e, graph != nil)
			entries[i] = e
		}
		trace["variants"] = entries
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
