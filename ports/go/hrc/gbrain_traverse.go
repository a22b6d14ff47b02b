package hrc

// Profile gbrain: gbrain.traverse as gbrain's code walks (spec/profiles/gbrain.md GBRAIN-10..12,
// GBRAIN-41): paths with their own visited sets, results the distinct (page, depth) pairs.

import "sort"

// GbrainTraverseOptions holds GBRAIN-11's clamped depth, the one link type (nil = every type)
// and the direction.
type GbrainTraverseOptions struct {
	Depth     int
	LinkType  *string
	Direction string
}

var gbrainTraverseFields = map[string]bool{
	"edges": true, "seeds": true, "depth": true, "linkType": true, "direction": true,
}

// gbrainClampDepth is traverse_graph's (p.depth || 5) clamped to 1..10 (GBRAIN-11).
func gbrainClampDepth(requested int64) int {
	if requested == 0 {
		requested = 5
	}
	return int(max(1, min(requested, 10)))
}

// gbrainTraverseOptions validates depth, linkType and direction (OP-5: null is absent) and
// refuses any other member (GBRAIN-10).
func gbrainTraverseOptions(m map[string]any) (GbrainTraverseOptions, error) {
	o := GbrainTraverseOptions{Depth: 5, Direction: "out"}
	for _, k := range SortStrings(keysOf(m)) {
		if !gbrainTraverseFields[k] {
			return o, invalid("unknown member %q", k)
		}
	}
	if v, ok := present(m, "depth"); ok {
		n, err := asInt(v, "depth", -maxInt)
		if err != nil {
			return o, err
		}
		o.Depth = gbrainClampDepth(n)
	}
	if v, ok := present(m, "linkType"); ok {
		s, isStr := v.(string)
		if !isStr {
			return o, invalid("linkType must be a string")
		}
		o.LinkType = &s
	}
	if v, ok := present(m, "direction"); ok {
		s, _ := v.(string)
		if s != "out" && s != "in" && s != "both" {
			return o, invalid("direction must be one of out, in, both")
		}
		o.Direction = s
	}
	return o, nil
}

func keysOf(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func gbrainEdgesFromJSON(v any, where string) ([]GbrainEdge, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, invalid("%s must be a list", where)
	}
	out := make([]GbrainEdge, 0, len(list))
	for i, x := range list {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, invalid("%s[%d] must be an object", where, i)
		}
		var f [3]string
		for k, name := range []string{"from", "to", "type"} {
			s, ok := m[name].(string)
			if !ok || s == "" {
				return nil, invalid("%s[%d].%s must be a non-empty string", where, i, name)
			}
			f[k] = s
		}
		out = append(out, GbrainEdge{f[0], f[1], f[2]})
	}
	return out, nil
}

// GbrainPair is one (page, depth) pair the walk reaches (GBRAIN-12).
type GbrainPair struct {
	Page  string
	Depth int
}

// GbrainTraverse is GBRAIN-11, GBRAIN-12 and GBRAIN-41: every (last page, depth) of the paths
// from each seed that never revisit a page of their own path, by depth, then page.
func GbrainTraverse(edges []GbrainEdge, seeds []string, o GbrainTraverseOptions) []GbrainPair {
	step := map[string]map[string]bool{}
	add := func(a, b string) {
		if step[a] == nil {
			step[a] = map[string]bool{}
		}
		step[a][b] = true
	}
	for _, e := range edges {
		if o.LinkType != nil && e.Type != *o.LinkType {
			continue
		}
		if o.Direction != "in" {
			add(e.From, e.To)
		}
		if o.Direction != "out" {
			add(e.To, e.From)
		}
	}
	reached := map[GbrainPair]bool{}
	var extend func(page string, d int, onPath map[string]bool)
	extend = func(page string, d int, onPath map[string]bool) {
		reached[GbrainPair{page, d}] = true
		if d == o.Depth {
			return
		}
		for next := range step[page] {
			if onPath[next] {
				continue
			}
			onPath[next] = true
			extend(next, d+1, onPath)
			delete(onPath, next)
		}
	}
	for _, s := range seeds {
		extend(s, 0, map[string]bool{s: true})
	}
	out := make([]GbrainPair, 0, len(reached))
	for p := range reached {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Depth != out[j].Depth {
			return out[i].Depth < out[j].Depth
		}
		return out[i].Page < out[j].Page
	})
	return out
}
