package hrc

// Profile gbrain: the graph backend supplied to the core's graph leg (GBRAIN-13..15).

import (
	"sort"
	"strings"
)

type gbrainData struct {
	pages map[string]Candidate
	edges []GbrainEdge
}

// gbrainParseOptions is GBRAIN-13: request.profiles.gbrain; unknown members are invalid.
func gbrainParseOptions(m map[string]any) (any, error) {
	for k := range m {
		switch k {
		case "depth", "fanout", "types", "direction":
		default:
			return nil, invalid("request.profiles.gbrain: unknown option %s", k)
		}
	}
	return gbrainWalkOptions(m, "request.profiles.gbrain.")
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
	reached := GbrainTraverse(g.data.edges, seeds, g.call.Options.(GbrainWalk))
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
	profileDataLoaders = append(profileDataLoaders, loadGbrain)
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
			GraphBackend:  gbrainGraphBackend,
		},
	})
}
