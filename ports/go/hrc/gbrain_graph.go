package hrc

// Profile gbrain: the graph backend supplied to the core's graph leg (GBRAIN-13..15).

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"
	"unicode/utf8"
)

type gbrainData struct {
	pages map[string]Candidate
	edges []GbrainEdge
}

// gbrainOptions are GBRAIN-13's request options.
type gbrainOptions struct {
	walk    GbrainWalk
	exclude []string
	dedup   bool
	boost   []gbrainBoost // GBRAIN-18, longest prefix first
	budget  int64         // GBRAIN-21, 0 = no budget
	// variants are the caller's query variants (GBRAIN-22).
	variants []string
	// bundle is GBRAIN-26's mode bundle ("" none); expansion and reranker its switches.
	bundle              string
	expansion, reranker bool
}

type gbrainBundle struct {
	expansion, reranker bool
	budget              int64
}

// gbrainBundles are GBRAIN-26 (expansion, the balanced reranker: seed 004) and GBRAIN-27
// (the rest: the kit's).
var gbrainBundles = map[string]gbrainBundle{
	"conservative": {false, false, 4000},
	"balanced":     {false, true, 8000},
	"tokenmax":     {true, true, 16000},
}

// gbrainMaxVariants is GBRAIN-22's bound.
const gbrainMaxVariants = 8

type gbrainBoost struct {
	prefix string
	factor float64
}

// gbrainDefaultExcludes is sources.json's exclude list (GBRAIN-16), loaded at start-up.
var gbrainDefaultExcludes []string

func loadGbrainSources() error {
	var doc struct {
		Exclude []string `json:"exclude"`
	}
	if err := readData("profiles/gbrain/sources.json", &doc); err != nil {
		return err
	}
	if doc.Exclude == nil {
		return fmt.Errorf("profiles/gbrain/sources.json has no exclude list")
	}
	gbrainDefaultExcludes = doc.Exclude
	return nil
}

// gbrainParseOptions is GBRAIN-13: request.profiles.gbrain; unknown members are invalid.
func gbrainParseOptions(m map[string]any) (any, error) {
	const where = "request.profiles.gbrain"
	for _, k := range sortedKeys(m) { // the same message on every run, whatever the map order
		switch k {
		case "depth", "fanout", "types", "direction", "exclude", "dedup", "boost", "tokenBudget", "variants",
			"bundle", "expansion", "reranker":
		default:
			return nil, invalid("%s: unknown option %s", where, k)
		}
	}
	o := gbrainOptions{exclude: gbrainDefaultExcludes, dedup: true}
	if v, ok := present(m, "exclude"); ok {
		list, isList := v.([]any)
		if !isList {
			return nil, invalid("%s.exclude must be a list of non-empty strings", where)
		}
		o.exclude = []string{}
		for _, x := range list {
			p, isStr := x.(string)
			if !isStr || p == "" {
				return nil, invalid("%s.exclude must be a list of non-empty strings", where)
			}
			o.exclude = append(o.exclude, p)
		}
	}
	if v, ok := present(m, "dedup"); ok {
		b, isBool := v.(bool)
		if !isBool {
			return nil, invalid("%s.dedup must be a boolean", where)
		}
		o.dedup = b
	}
	if v, ok := present(m, "boost"); ok {
		bm, isObj := v.(map[string]any)
		if !isObj {
			return nil, invalid("%s.boost must be an object", where)
		}
		for prefix, raw := range bm {
			if prefix == "" {
				return nil, invalid("%s.boost: a prefix must not be empty", where)
			}
			f, isNum := asFloat(raw)
			if !isNum || math.IsInf(f, 0) || math.IsNaN(f) || f <= 0 {
				return nil, invalid("%s.boost.%s must be a finite number > 0", where, prefix)
			}
			o.boost = append(o.boost, gbrainBoost{prefix, f})
		}
		sort.Slice(o.boost, func(i, j int) bool {
			return CPLen(o.boost[i].prefix) > CPLen(o.boost[j].prefix)
		})
	}
	if v, ok := present(m, "tokenBudget"); ok {
		n, err := asInt(v, where+".tokenBudget", 1)
		if err != nil {
			return nil, err
		}
		o.budget = n
	}
	if v, ok := present(m, "variants"); ok { // GBRAIN-22
		list, isList := v.([]any)
		if !isList || len(list) > gbrainMaxVariants {
			return nil, invalid("%s.variants must be a list of at most %d strings", where, gbrainMaxVariants)
		}
		for i, x := range list {
			str, isStr := x.(string)
			if !isStr || Normalise(str) == "" {
				return nil, invalid("%s.variants[%d] must be a string, not empty after normalisation", where, i)
			}
			if len(str) > MaxQueryCodePoints && utf8.RuneCountInString(str) > MaxQueryCodePoints {
				return nil, invalid("%s.variants[%d] has more than %d code points (PIPE-14)", where, i, MaxQueryCodePoints)
			}
			o.variants = append(o.variants, str)
		}
	}
	o.expansion, o.reranker = true, true
	if v, ok := present(m, "bundle"); ok { // GBRAIN-26, GBRAIN-27
		name, isStr := v.(string)
		preset, known := gbrainBundles[name]
		if !isStr || !known {
			return nil, invalid("%s.bundle must be conservative, balanced or tokenmax", where)
		}
		o.bundle, o.expansion, o.reranker = name, preset.expansion, preset.reranker
		if o.budget == 0 {
			o.budget = preset.budget
		}
	}
	for _, f := range []struct {
		name string
		dst  *bool
	}{{"expansion", &o.expansion}, {"reranker", &o.reranker}} {
		if v, ok := present(m, f.name); ok {
			b, isBool := v.(bool)
			if !isBool {
				return nil, invalid("%s.%s must be a boolean", where, f.name)
			}
			*f.dst = b
		}
	}
	w, err := gbrainWalkOptions(m, where+".")
	if err != nil {
		return nil, err
	}
	o.walk = w
	return o, nil
}

// gbrainQueryVariants is GBRAIN-22: the caller's variants; the core runs and merges them (PIPE-12).
func gbrainQueryVariants(c *ProfileCall, query string) []string {
	o := c.Options.(gbrainOptions)
	if o.bundle != "" { // GBRAIN-26: the switches in force
		var budget any
		if o.budget > 0 {
			budget = o.budget
		}
		c.Trace["bundle"] = map[string]any{"name": o.bundle, "expansion": o.expansion, "reranker": o.reranker, "tokenBudget": budget}
	}
	if !o.expansion {
		return nil
	}
	return o.variants
}

// gbrainRerankEnabled is GBRAIN-26: the bundle's (or the option's) reranker switch.
func gbrainRerankEnabled(c *ProfileCall) bool { return c.Options.(gbrainOptions).reranker }

// gbrainApplyBoost is GBRAIN-18: longest prefix's factor, then order by exact value.
func gbrainApplyBoost(boost []gbrainBoost, items []FusedItem) []FusedItem {
	if len(boost) == 0 {
		return items
	}
	out := make([]FusedItem, len(items))
	for i, it := range items {
		out[i] = it
		for _, b := range boost {
			if strings.HasPrefix(it.Candidate.Path, b.prefix) {
				exact := it.Exact
				if exact == nil {
					exact = new(big.Rat).SetFloat64(it.Score)
				}
				out[i].Score = it.Score * b.factor
				out[i].Exact = new(big.Rat).Mul(exact, new(big.Rat).SetFloat64(b.factor))
				break
			}
		}
	}
	exactOf := func(f FusedItem) *big.Rat {
		if f.Exact == nil {
			return new(big.Rat).SetFloat64(f.Score)
		}
		return f.Exact
	}
	sort.SliceStable(out, func(i, j int) bool { return exactOf(out[i]).Cmp(exactOf(out[j])) > 0 })
	return out
}

// gbrainLegLimit is GBRAIN-16: with excludes, ask for every hit before the candidateK cut.
func gbrainLegLimit(c *ProfileCall, leg string, n int64) int64 {
	if len(c.Options.(gbrainOptions).exclude) > 0 {
		return maxInt
	}
	return n
}

// gbrainFilterLeg is GBRAIN-16: drop hits under a hard-exclude prefix.
func gbrainFilterLeg(c *ProfileCall, leg string, hits []Candidate) []Candidate {
	prefixes := c.Options.(gbrainOptions).exclude
	if len(prefixes) == 0 {
		return hits
	}
	out := []Candidate{}
	for _, h := range hits {
		keep := true
		for _, p := range prefixes {
			if strings.HasPrefix(h.Path, p) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, h)
		}
	}
	return out
}

// GbrainFusedTop is GBRAIN-25: seed 004's "RRF fusion -> top 30".
const GbrainFusedTop = 30

// gbrainAfterFusion is GBRAIN-18 (not for temporal queries, GBRAIN-20), then the cut to
// GbrainFusedTop (GBRAIN-25). GBRAIN-23: the temporal bypass (and the trace's intent) follows
// the query this stage sees, variant 0's, re-classified here whatever the variants' classes were.
func gbrainAfterFusion(c *ProfileCall, query string, items []FusedItem) []FusedItem {
	c.Trace["intent"] = gbrainClassify(query)
	if c.Trace["intent"] != "temporal" {
		items = gbrainApplyBoost(c.Options.(gbrainOptions).boost, items)
	}
	if len(items) > GbrainFusedTop {
		items = items[:GbrainFusedTop]
	}
	byID := map[string]Candidate{}
	for _, it := range items {
		byID[it.Candidate.ID] = it.Candidate
	}
	c.State["candidates"] = byID
	return items
}

// gbrainAfterRerank is GBRAIN-21 then GBRAIN-17 on the reranked list, in seed 004's order:
// the budget, then dedup keeps the best reranked chunk of each page.
func gbrainAfterRerank(c *ProfileCall, query string, ids []string, scores []*float64, outcome string) []string {
	byID := c.State["candidates"].(map[string]Candidate)
	items := make([]Candidate, len(ids))
	for i, id := range ids {
		items[i] = byID[id]
	}
	o := c.Options.(gbrainOptions)
	if o.budget > 0 {
		var used int64
		kept := 0
		for _, it := range items {
			tokens := int64(len(Words(it.Content)))
			if used+tokens > o.budget {
				break
			}
			used += tokens
			kept++
		}
		c.Trace["budget"] = map[string]any{"limit": o.budget, "used": used, "dropped": len(items) - kept}
		items = items[:kept]
	}
	if o.dedup {
		items = gbrainDedup(items)
	}
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.ID
	}
	return out
}

// gbrainDedup is GBRAIN-17: the first item of each page (page id of its path, or the path).
func gbrainDedup(items []Candidate) []Candidate {
	seen := map[string]bool{}
	out := []Candidate{}
	for _, it := range items {
		key := "\x00" + it.Path
		if page, ok := gbrainResolve(it.Path, nil); ok {
			key = page
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, it)
		}
	}
	return out
}

// gbrainParseBackends is GBRAIN-13: backends.profiles.gbrain {pages, edges?}.
func gbrainParseBackends(raw any, given bool) (any, error) {
	if !given {
		return nil, nil
	}
	const where = "backends.profiles.gbrain"
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, invalid("%s must be an object", where)
	}
	if _, ok := m["pages"].([]any); !ok {
		return nil, invalid("%s.pages must be a list", where)
	}
	pages, err := parseCandidates(m["pages"], where+".pages", false)
	if err != nil {
		return nil, err
	}
	d := &gbrainData{pages: map[string]Candidate{}}
	ids := map[string]bool{}
	for i, p := range pages {
		pid, ok := gbrainResolve(p.Path, nil)
		if !ok {
			return nil, invalid("%s.pages[%d]: path names no page", where, i)
		}
		if _, dup := d.pages[pid]; dup || ids[p.ID] {
			return nil, invalid("%s.pages[%d]: repeated id or page", where, i)
		}
		d.pages[pid] = p
		ids[p.ID] = true
	}
	if e, ok := present(m, "edges"); ok {
		if d.edges, err = gbrainEdgesFromJSON(e, where+".edges"); err != nil {
			return nil, err
		}
	} else {
		for _, p := range pages {
			_, edges, _ := GbrainExtract(p.Path, p.Content)
			d.edges = append(d.edges, edges...)
		}
	}
	// GBRAIN-24: only edges between two indexed pages are stored (the seed's JOIN pages).
	stored := d.edges[:0:0]
	for _, e := range d.edges {
		_, from := d.pages[e.From]
		_, to := d.pages[e.To]
		if from && to {
			stored = append(stored, e)
		}
	}
	d.edges = stored
	return d, nil
}

// gbrainNames is GBRAIN-14: the title and the id's last segment with - and _ spaced.
func gbrainNames(pid string, p Candidate) [][]string {
	var names []string
	if p.Title != "" {
		names = append(names, p.Title)
	}
	last := pid[strings.LastIndexByte(pid, '/')+1:]
	names = append(names, strings.NewReplacer("-", " ", "_", " ").Replace(last))
	var out [][]string
	for _, n := range names {
		if w := Words(n); len(w) > 0 {
			out = append(out, w)
		}
	}
	return out
}

func gbrainEntitySeeds(query string, d *gbrainData) []string {
	q := Words(query)
	seeds := []string{}
	for pid, p := range d.pages {
		for _, name := range gbrainNames(pid, p) {
			if len(gbrainOccurrences(q, name)) > 0 {
				seeds = append(seeds, pid)
				break
			}
		}
	}
	sort.Strings(seeds)
	return seeds
}

type gbrainGraph struct {
	call *ProfileCall
	data *gbrainData
}

// SearchGraph is GBRAIN-15: reached pages in rank order, at most limit.
func (g *gbrainGraph) SearchGraph(query string, limit int64) ([]Candidate, error) {
	seeds := gbrainEntitySeeds(query, g.data)
	reached := GbrainTraverse(g.data.edges, seeds, g.call.Options.(gbrainOptions).walk)
	list := make([]any, len(seeds))
	for i, s := range seeds {
		list[i] = s
	}
	g.call.Trace["seeds"] = list
	g.call.Trace["reached"] = len(reached)
	hits := []Candidate{}
	for _, r := range reached {
		if p, ok := g.data.pages[r.Page]; ok && int64(len(hits)) < limit {
			hits = append(hits, p)
		}
	}
	return hits, nil
}

func gbrainGraphBackend(c *ProfileCall) GraphBackend {
	d, ok := c.Backend.(*gbrainData)
	if !ok || d == nil {
		return nil
	}
	return &gbrainGraph{c, d}
}

func init() {
	profileDataLoaders = append(profileDataLoaders, loadGbrain, loadGbrainSources, loadGbrainIntent)
	RegisterProfile(&Profile{
		Name:    "gbrain",
		Version: GbrainVersion,
		Operations: map[string]handler{
			"gbrain.extract_links": opGbrainExtractLinks,
			"gbrain.traverse":      opGbrainTraverse,
		},
		Pipeline: &PipelineHooks{
			ParseRequest:  gbrainParseOptions,
			ParseBackends: gbrainParseBackends,
			QueryVariants: gbrainQueryVariants,
			AdjustWeights: gbrainAdjustWeights,
			LegLimit:      gbrainLegLimit,
			FilterLeg:     gbrainFilterLeg,
			GraphBackend:  gbrainGraphBackend,
			AfterFusion:   gbrainAfterFusion,
			AfterRerank:   gbrainAfterRerank,
			RerankEnabled: gbrainRerankEnabled,
		},
	})
}
