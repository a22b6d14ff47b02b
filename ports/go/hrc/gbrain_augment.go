package hrc

// Profile gbrain: the graph augment's level walk of gbrain.search (spec/profiles/gbrain.md
// GBRAIN-40, decision G1), with fan-out and support; not gbrain.traverse's walk (GBRAIN-11).

import "sort"

// GbrainWalk holds GBRAIN-40's options; types nil means every type.
type GbrainWalk struct {
	Depth, Fanout int
	Types         map[string]bool
	Direction     string
}

// gbrainWalkOptions validates depth, fanout, types and direction (OP-5: null is absent).
func gbrainWalkOptions(m map[string]any, where string) (GbrainWalk, error) {
	o := GbrainWalk{Depth: 2, Fanout: 10, Direction: "both"}
	if v, ok := present(m, "depth"); ok {
		n, err := asInt(v, where+"depth", 0)
		if err != nil {
			return o, err
		}
		if n > 10 {
			return o, invalid("%sdepth must be <= 10", where)
		}
		o.Depth = int(n)
	}
	if v, ok := present(m, "fanout"); ok {
		n, err := asInt(v, where+"fanout", 1)
		if err != nil {
			return o, err
		}
		if n > 1000 {
			return o, invalid("%sfanout must be <= 1000", where)
		}
		o.Fanout = int(n)
	}
	if v, ok := present(m, "types"); ok {
		list, isList := v.([]any)
		if !isList {
			return o, invalid("%stypes must be a list of strings", where)
		}
		o.Types = map[string]bool{}
		for _, x := range list {
			s, isStr := x.(string)
			if !isStr {
				return o, invalid("%stypes must be a list of strings", where)
			}
			o.Types[s] = true
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

// GbrainReached is one page the augment reached (GBRAIN-40).
type GbrainReached struct {
	Page           string
	Depth, Support int
}

// GbrainAugmentWalk is GBRAIN-40: level by level with fan-out; depth, support descending, id.
func GbrainAugmentWalk(edges []GbrainEdge, seeds []string, o GbrainWalk) []GbrainReached {
	adj := map[string]map[string]bool{}
	add := func(a, b string) {
		if adj[a] == nil {
			adj[a] = map[string]bool{}
		}
		adj[a][b] = true
	}
	for _, e := range edges {
		if (o.Types != nil && !o.Types[e.Type]) || e.From == e.To {
			continue
		}
		if o.Direction != "in" {
			add(e.From, e.To)
		}
		if o.Direction != "out" {
			add(e.To, e.From)
		}
	}
	depth := map[string]int{}
	support := map[string]int{}
	for _, s := range seeds {
		depth[s] = 0
		support[s] = 0
	}
	level := SortStrings(seeds)
	for d := 0; d < o.Depth; d++ {
		var next []string
		for _, page := range level {
			var fresh []string
			for n := range adj[page] {
				if dn, ok := depth[n]; !ok || dn > d {
					fresh = append(fresh, n)
				}
			}
			sort.Strings(fresh)
			if len(fresh) > o.Fanout {
				fresh = fresh[:o.Fanout]
			}
			for _, n := range fresh {
				if _, ok := depth[n]; !ok {
					depth[n] = d + 1
					support[n] = 0
					next = append(next, n)
				}
				support[n]++
			}
		}
		sort.Strings(next)
		level = next
	}
	out := make([]GbrainReached, 0, len(depth))
	for p, d := range depth {
		out = append(out, GbrainReached{p, d, support[p]})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Depth != b.Depth {
			return a.Depth < b.Depth
		}
		if a.Support != b.Support {
			return a.Support > b.Support
		}
		return a.Page < b.Page
	})
	return out
}
