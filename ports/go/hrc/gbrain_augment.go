package hrc

// Profile gbrain: the graph augment's walk of gbrain.search (spec/profiles/gbrain.md GBRAIN-40):
// gbrain's relationalFanout, paths with their own visited sets, ranked by hop then edge types.

import "sort"

// gbrainMaxReached is GBRAIN-40: relationalFanout's limit is clamped to 1..200.
const gbrainMaxReached = 200

// GbrainWalk holds GBRAIN-40's options; types nil means every type.
type GbrainWalk struct {
	Depth     int
	Types     map[string]bool
	Direction string
}

// gbrainWalkOptions validates depth (clamped 1..3), types ([] = every type) and direction.
func gbrainWalkOptions(m map[string]any, where string) (GbrainWalk, error) {
	o := GbrainWalk{Depth: 2, Direction: "both"}
	if v, ok := present(m, "depth"); ok {
		n, err := asInt(v, where+"depth", -maxInt)
		if err != nil {
			return o, err
		}
		o.Depth = int(min(max(n, 1), 3))
	}
	if v, ok := present(m, "types"); ok {
		list, isList := v.([]any)
		if !isList {
			return o, invalid("%stypes must be a list of strings", where)
		}
		types := map[string]bool{}
		for _, x := range list {
			s, isStr := x.(string)
			if !isStr {
				return o, invalid("%stypes must be a list of strings", where)
			}
			types[s] = true
		}
		if len(types) > 0 {
			o.Types = types
		}
	}
	if v, ok := present(m, "direction"); ok {
		s, _ := v.(string)
		if s != "out" && s != "in" && s != "both" {
			return o, invalid("%sdirection must be one of out, in, both", where)
		}
		o.Direction = s
	}
	return o, nil
}

// GbrainReached is one page of the augment's walk list (GBRAIN-40).
type GbrainReached struct {
	Page           string
	Hop, EdgeTypes int
}

type gbrainStep struct{ page, kind string }

// GbrainAugmentWalk is GBRAIN-40: pages reached at depth 1..Depth on paths that never revisit a
// page; hop, distinct entering edge types descending, id; the first limit (at most 200).
func GbrainAugmentWalk(edges []GbrainEdge, seeds []string, o GbrainWalk, limit int64) []GbrainReached {
	step := map[string]map[gbrainStep]bool{}
	add := func(a string, s gbrainStep) {
		if step[a] == nil {
			step[a] = map[gbrainStep]bool{}
		}
		step[a][s] = true
	}
	for _, e := range edges {
		if o.Types != nil && !o.Types[e.Type] {
			continue
		}
		if o.Direction != "in" {
			add(e.From, gbrainStep{e.To, e.Type})
		}
		if o.Direction != "out" {
			add(e.To, gbrainStep{e.From, e.Type})
		}
	}
	hop := map[string]int{}
	entered := map[string]map[string]bool{}
	var extend func(page string, d int, onPath map[string]bool)
	extend = func(page string, d int, onPath map[string]bool) {
		if d == o.Depth {
			return
		}
		for s := range step[page] {
			if onPath[s.page] {
				continue
			}
			if h, ok := hop[s.page]; !ok || d+1 < h {
				hop[s.page] = d + 1
			}
			if entered[s.page] == nil {
				entered[s.page] = map[string]bool{}
			}
			entered[s.page][s.kind] = true
			onPath[s.page] = true
			extend(s.page, d+1, onPath)
			delete(onPath, s.page)
		}
	}
	for _, seed := range seeds {
		extend(seed, 0, map[string]bool{seed: true})
	}
	out := make([]GbrainReached, 0, len(hop))
	for p, h := range hop {
		out = append(out, GbrainReached{p, h, len(entered[p])})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Hop != b.Hop {
			return a.Hop < b.Hop
		}
		if a.EdgeTypes != b.EdgeTypes {
			return a.EdgeTypes > b.EdgeTypes
		}
		return a.Page < b.Page
	})
	cut := int(min(max(limit, 1), gbrainMaxReached))
	if len(out) > cut {
		out = out[:cut]
	}
	return out
}
