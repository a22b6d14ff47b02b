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
	for k := range m {
		switch k {
		case "depth", "fanout", "types", "direction", "exclude", "dedup", "boost", "tokenBudget", "variants":
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
				return nil, invalid("%s.variants[%d] has more than %d code points (PIPE-13)", where, i, MaxQueryCodePoints)
			}
			o.variants = append(o.variants, str)
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
	return c.Options.(gbrainOptions).variants
}

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

// gbrainAfterFusion is GBRAIN-17: keep the first fused item of each page.
// GBRAIN-23: the temporal bypass (and the trace's intent) follows the query this stage sees,
// variant 0's, re-classified here whatever the variants' classes were.
func gbrainAfterFusion(c *ProfileCall, query string, items []FusedItem) []FusedItem {
	c.Trace["intent"] = gbrainClassify(query)
	if c.Trace["intent"] != "temporal" {
		items = gbrainApplyBoost(c.Options.(gbrainOptions).boost, items)
	}
	o := c.Options.(gbrainOptions)
	if o.dedup {
		seen := map[string]bool{}
		out := []FusedItem{}
		for _, it := range items {
			key := "\x00" + it.Candidate.Path
			if page, ok := gbrainResolve(it.Candidate.Path, nil); ok {
				key = page
			}
			if !seen[key] {
				seen[key] = true
				out = append(out, it)
			}
		}
		items = out
	}
	if o.budget > 0 {
		var used int64
		kept := 0
		for _, it := range items {
			tokens := int64(len(Words(it.Candidate.Content)))
			if used+tokens > o.budget {
				break
			}
			used += tokens
			kept++
		}
		c.Trace["budget"] = map[string]any{"limit": o.budget, "used": used, "dropped": len(items) - kept}
		items = items[:kept]
	}
	return items
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
		},
	})
}
