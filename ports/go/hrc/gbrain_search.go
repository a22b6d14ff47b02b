package hrc

// Profile gbrain: `gbrain.search`, seed 004's "Putting it together" stage by stage
// (spec/profiles/gbrain.md GBRAIN-28..39): intent -> expansion -> hybrid (legs, hard
// excludes, source-aware re-rank, RRF) -> top 30 -> graph augment -> reranker -> token
// budget -> dedup. Only the core's RRF is shared; no jeffs-brain stage runs.

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

const (
	gbrainTop        = 30 // GBRAIN-25
	gbrainMaxVariant = 8
)

var gbrainLegNames = []string{"vector", "keyword"}

var gbrainFields = map[string]bool{"query": true, "documents": true, "legs": true, "variants": true,
	"edges": true, "rerank": true, "exclude": true, "boost": true, "dedup": true, "tokenBudget": true,
	"bundle": true, "expansion": true, "reranker": true, "limit": true, "graph": true, "depth": true,
	"types": true, "direction": true}

// gbrainBundle is GBRAIN-39: garrytan/gbrain src/core/search/mode.ts (budget 0 = none).
type gbrainBundle struct {
	expansion, reranker bool
	budget, limit       int64
	graph               bool
}

var gbrainBundles = map[string]gbrainBundle{
	"conservative": {false, false, 4000, 10, false},
	"balanced":     {false, true, 12000, 25, true},
	"tokenmax":     {true, true, 0, 50, true},
}

const gbrainDefaultBundle = "balanced"

type gbrainBoost struct {
	prefix string
	factor float64
}

var (
	gbrainDefaultExcludes []string
	gbrainDefaultBoost    []gbrainBoost
)

func loadGbrainSources() error {
	var doc struct {
		Exclude []string           `json:"exclude"`
		Boost   map[string]float64 `json:"boost"`
	}
	if err := readData("profiles/gbrain/sources.json", &doc); err != nil {
		return err
	}
	if doc.Exclude == nil || doc.Boost == nil {
		return fmt.Errorf("profiles/gbrain/sources.json needs exclude and boost")
	}
	gbrainDefaultExcludes = doc.Exclude
	gbrainDefaultBoost = nil
	for p, f := range doc.Boost {
		gbrainDefaultBoost = append(gbrainDefaultBoost, gbrainBoost{p, f})
	}
	gbrainSortBoost(gbrainDefaultBoost)
	return nil
}

// gbrainSortBoost puts the longest prefix first (ties by prefix, so the order is fixed).
func gbrainSortBoost(b []gbrainBoost) {
	sort.Slice(b, func(i, j int) bool {
		li, lj := utf8.RuneCountInString(b[i].prefix), utf8.RuneCountInString(b[j].prefix)
		if li != lj {
			return li > lj
		}
		return b[i].prefix < b[j].prefix
	})
}

type gbrainHit struct {
	doc   Candidate
	score float64
}

type gbrainLeg struct {
	hits   []gbrainHit
	err    string
	failed bool
}

type gbrainVariant struct {
	query string
	legs  map[string]gbrainLeg
}

type gbrainRequest struct {
	variants            []gbrainVariant
	documents           []Candidate
	edges               []GbrainEdge
	rerankGiven         bool
	rerankFailed        bool
	rerankOrder         []string
	exclude             []string
	boost               []gbrainBoost
	dedup               bool
	bundle              string
	expansion, reranker bool
	budget, limit       int64
	graph               bool
	walk                GbrainWalk
}

func (r *gbrainRequest) excluded(path string) bool {
	for _, p := range r.exclude {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

// gbrainPageKey is GBRAIN-17: a document's page.
func gbrainPageKey(d Candidate) string {
	if page, ok := gbrainResolve(d.Path, nil); ok {
		return page
	}
	return d.Path
}

type gbrainItem struct {
	doc    Candidate
	score  float64
	source string
}

// gbrainRerankLeg is GBRAIN-16 then GBRAIN-30.
func gbrainRerankLeg(r *gbrainRequest, hits []gbrainHit, bypass bool) []gbrainHit {
	kept := []gbrainHit{}
	for _, h := range hits {
		if !r.excluded(h.doc.Path) {
			kept = append(kept, h)
		}
	}
	if bypass || len(r.boost) == 0 {
		return kept
	}
	scores := make([]float64, len(kept))
	for i, h := range kept {
		scores[i] = h.score
		for _, b := range r.boost {
			if strings.HasPrefix(h.doc.Path, b.prefix) {
				scores[i] = h.score * b.factor
				break
			}
		}
	}
	idx := make([]int, len(kept))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
	out := make([]gbrainHit, len(kept))
	for i, j := range idx {
		out[i] = gbrainHit{kept[j].doc, scores[j]}
	}
	return out
}

// gbrainFusion is a fused list and its divisor M, the largest raw sum (GBRAIN-31; 1 unfused).
type gbrainFusion struct {
	items   []gbrainItem
	divisor float64
}

type gbrainRRFList struct {
	docs []Candidate
	k    float64
}

// gbrainRRF is GBRAIN-31, gbrain's rrfFusionWeighted: rank r (from 0) of a list fused at k adds
// 1 / (k + r); sums in list order; each divided by the largest; score descending, ties in
// first-seen order (a stable sort).
func gbrainRRF(lists []gbrainRRFList) gbrainFusion {
	sums := map[string]int{}
	items := []gbrainItem{}
	for _, l := range lists {
		for rank, d := range l.docs {
			share := 1 / (l.k + float64(rank))
			if i, ok := sums[d.ID]; ok {
				items[i].score += share
				continue
			}
			sums[d.ID] = len(items)
			items = append(items, gbrainItem{d, share, "fused"})
		}
	}
	if len(items) == 0 {
		return gbrainFusion{items, 1}
	}
	top := items[0].score
	for _, it := range items {
		if it.score > top {
			top = it.score
		}
	}
	for i := range items {
		items[i].score = items[i].score / top
	}
	sort.SliceStable(items, func(a, b int) bool { return items[a].score > items[b].score })
	return gbrainFusion{items, top}
}

// gbrainHybrid is GBRAIN-31: each leg re-ranked, then gbrain's RRF of the two, vector first, at
// k over the class's leg weight; a failed vector leg leaves the keyword leg's own scores, unfused.
func gbrainHybrid(r *gbrainRequest, v gbrainVariant, intent string, trace map[string]any) gbrainFusion {
	bypass := intent == "temporal"
	legs := map[string]any{}
	kept := map[string][]gbrainHit{}
	vectorFailed := false
	for _, name := range gbrainLegNames {
		leg := v.legs[name]
		if leg.failed {
			legs[name] = map[string]any{"error": leg.err}
			if name == "vector" {
				vectorFailed = true
			}
			continue
		}
		hits := gbrainRerankLeg(r, leg.hits, bypass)
		legs[name] = map[string]any{"hits": len(hits)}
		kept[name] = hits
	}
	trace["variants"] = append(trace["variants"].([]any), map[string]any{"query": v.query, "legs": legs})
	docs := func(hits []gbrainHit) []Candidate {
		out := make([]Candidate, len(hits))
		for i, h := range hits {
			out[i] = h.doc
		}
		return out
	}
	if vectorFailed {
		items := []gbrainItem{}
		for _, h := range kept["keyword"] {
			items = append(items, gbrainItem{h.doc, h.score, "fused"})
		}
		return gbrainFusion{items, 1}
	}
	vectorK, keywordK := gbrainLegKs(intent)
	return gbrainRRF([]gbrainRRFList{{docs(kept["vector"]), vectorK}, {docs(kept["keyword"]), keywordK}})
}

// gbrainAugment is GBRAIN-24, GBRAIN-34, GBRAIN-35: the walk's list is one more ranked list,
// w / (k + r) / M to each reached page's first document (raised if fused, else added).
func gbrainAugment(r *gbrainRequest, fusion gbrainFusion, intent string, trace map[string]any) []gbrainItem {
	head := fusion.items
	if len(head) > gbrainTop {
		head = head[:gbrainTop]
	}
	if !r.graph {
		trace["graph"] = map[string]any{"seeds": 0, "reached": 0, "added": []any{}}
		return head
	}
	first := map[string]Candidate{}
	for _, d := range r.documents {
		if r.excluded(d.Path) {
			continue
		}
		if _, ok := first[gbrainPageKey(d)]; !ok {
			first[gbrainPageKey(d)] = d
		}
	}
	stored := []GbrainEdge{}
	for _, e := range r.edges {
		_, okF := first[e.From]
		_, okT := first[e.To]
		if okF && okT {
			stored = append(stored, e)
		}
	}
	present := map[string]bool{}
	seeds := []string{}
	for _, it := range head {
		key := gbrainPageKey(it.doc)
		if present[key] {
			continue
		}
		present[key] = true
		if _, ok := first[key]; ok {
			seeds = append(seeds, key)
		}
	}
	reached := GbrainAugmentWalk(stored, seeds, r.walk, r.limit)
	weight := 1.0
	if intent == "entity" {
		weight = gbrainEntityFactor
	}
	fusedIDs := map[string]bool{}
	for _, it := range head {
		fusedIDs[it.doc.ID] = true
	}
	raised := map[string]float64{}
	added := []gbrainItem{}
	ids := []any{}
	pages := map[string]bool{}
	for _, s := range seeds {
		pages[s] = true
	}
	for rank, rc := range reached {
		pages[rc.Page] = true
		d := first[rc.Page]
		share := weight / (gbrainRrfK + float64(rank)) / fusion.divisor
		if fusedIDs[d.ID] {
			raised[d.ID] += share
			continue
		}
		added = append(added, gbrainItem{d, share, "graph"})
		ids = append(ids, d.ID)
	}
	trace["graph"] = map[string]any{"seeds": len(seeds), "reached": len(pages), "added": ids}
	all := make([]gbrainItem, 0, len(head)+len(added))
	for _, it := range head {
		if share, ok := raised[it.doc.ID]; ok {
			it.score += share
		}
		all = append(all, it)
	}
	all = append(all, added...)
	sort.SliceStable(all, func(a, b int) bool { return all[a].score > all[b].score })
	return all
}

// gbrainRerankStage is GBRAIN-36.
func gbrainRerankStage(r *gbrainRequest, items []gbrainItem, trace map[string]any) []gbrainItem {
	switch {
	case !r.reranker:
		trace["rerank"] = "disabled"
		return items
	case !r.rerankGiven:
		trace["rerank"] = "absent"
		return items
	case r.rerankFailed:
		trace["rerank"] = "failed"
		return items
	}
	n := len(items)
	if n > gbrainTop {
		n = gbrainTop
	}
	head := items[:n]
	pos := map[string]int{}
	for i, it := range head {
		pos[it.doc.ID] = i
	}
	used := make([]bool, n)
	out := []gbrainItem{}
	for _, id := range r.rerankOrder {
		if i, ok := pos[id]; ok && !used[i] {
			used[i] = true
			out = append(out, head[i])
		}
	}
	for i, it := range head {
		if !used[i] {
			out = append(out, it)
		}
	}
	trace["rerank"] = "reranked"
	return append(out, items[n:]...)
}

// gbrainTokens is GBRAIN-37: ceil(UTF-16 length / 4) of the title plus that of the content.
func gbrainTokens(d Candidate) int64 {
	units := func(s string) int64 {
		n := 0
		for _, r := range s {
			n += utf16.RuneLen(r)
		}
		return int64(math.Ceil(float64(n) / 4))
	}
	return units(d.Title) + units(d.Content)
}

// gbrainCutCost is GBRAIN-37's failsafe: the cost of an item cut to fit, its title to 4 x budget
// UTF-16 units and its content to what the cut title leaves.
func gbrainCutCost(d Candidate, budget int64) int64 {
	title := min(utf16Units(d.Title), 4*budget)
	titleTokens := (title + 3) / 4
	content := min(utf16Units(d.Content), max(0, budget-titleTokens)*4)
	return titleTokens + (content+3)/4
}

// utf16Units is JavaScript's String.length: the UTF-16 code units of s.
func utf16Units(s string) int64 {
	var n int64
	for _, r := range s {
		n += int64(utf16.RuneLen(r))
	}
	return n
}

func opGbrainSearch(in map[string]any) (map[string]any, error) {
	r, err := gbrainParseSearch(in)
	if err != nil {
		return nil, err
	}
	intent := gbrainClassify(r.variants[0].query)
	var budget any
	if r.budget > 0 {
		budget = r.budget
	}
	trace := map[string]any{
		"intent": intent,
		"bundle": map[string]any{"name": r.bundle, "expansion": r.expansion, "reranker": r.reranker,
			"graph": r.graph, "tokenBudget": budget, "limit": r.limit},
		"variants": []any{},
	}
	variants := r.variants
	if !r.expansion {
		variants = variants[:1]
	}
	per := []gbrainFusion{}
	for _, v := range variants {
		per = append(per, gbrainHybrid(r, v, intent, trace))
	}
	fused := per[0]
	if len(per) > 1 {
		lists := []gbrainRRFList{}
		for _, f := range per {
			cands := make([]Candidate, len(f.items))
			for j, it := range f.items {
				cands[j] = it.doc
			}
			lists = append(lists, gbrainRRFList{cands, gbrainRrfK})
		}
		fused = gbrainRRF(lists)
	}
	trace["fused"] = len(fused.items)
	items := gbrainAugment(r, fused, intent, trace)
	items = gbrainRerankStage(r, items, trace)
	if r.budget > 0 {
		var used int64
		kept := 0
		for _, it := range items {
			cost := gbrainTokens(it.doc)
			if used+cost > r.budget {
				break
			}
			used += cost
			kept++
		}
		if kept == 0 && len(items) > 0 {
			// The code's minKeep failsafe: the first item alone, cut to fit.
			trace["budget"] = map[string]any{"limit": r.budget, "used": gbrainCutCost(items[0].doc, r.budget),
				"dropped": len(items) - 1, "truncated": true}
			items = items[:1]
		} else {
			trace["budget"] = map[string]any{"limit": r.budget, "used": used, "dropped": len(items) - kept}
			items = items[:kept]
		}
	}
	if r.dedup {
		seen := map[string]bool{}
		out := []gbrainItem{}
		for _, it := range items {
			key := gbrainPageKey(it.doc)
			if !seen[key] {
				seen[key] = true
				out = append(out, it)
			}
		}
		trace["dedup"] = map[string]any{"removed": len(items) - len(out)}
		items = out
	}
	results := []any{}
	for i, it := range items {
		if int64(i) >= r.limit {
			break
		}
		results = append(results, map[string]any{"id": it.doc.ID, "path": it.doc.Path, "score": it.score, "source": it.source})
	}
	return map[string]any{"results": results, "trace": trace}, nil
}
