package hrc

// Seed 002's dense list for profile scoped-fusion (spec/profiles/scoped-fusion.md SCOPE-13..15):
// activation + 0.5 × label overlap, pre-selection and ties pinned.

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

type denseNode struct {
	ID, Label  string
	Activation float64
}

type denseHit struct {
	ID      string
	Score   float64
	Overlap int
}

// denseHits is SCOPE-13..15.
func denseHits(nodes []denseNode, words []string, limit int64) []denseHit {
	pre := make([]denseNode, 0, len(nodes))
	for _, n := range nodes {
		if n.Activation > 0 {
			pre = append(pre, n)
		}
	}
	sort.SliceStable(pre, func(i, j int) bool {
		if pre[i].Activation != pre[j].Activation {
			return pre[i].Activation > pre[j].Activation
		}
		return pre[i].ID < pre[j].ID // Go compares strings bytewise: code point order (TEXT-9)
	})
	keep := 3 * limit
	if keep > maxInt {
		keep = maxInt
	}
	if int64(len(pre)) > keep {
		pre = pre[:keep]
	}
	out := make([]denseHit, 0, len(pre))
	for _, n := range pre {
		lowered := Lower(n.Label)
		overlap := 0
		for _, w := range words {
			if strings.Contains(lowered, w) {
				overlap++
			}
		}
		out = append(out, denseHit{n.ID, n.Activation + float64(overlap)*0.5, overlap})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].ID > out[j].ID
	})
	if int64(len(out)) > limit {
		out = out[:limit]
	}
	return out
}

// opDenseHits is the operation scoped-fusion.dense_hits.
func opDenseHits(in map[string]any) (map[string]any, error) {
	nv, _ := present(in, "nodes")
	l, err := asList(nv, "nodes")
	if err != nil {
		return nil, err
	}
	nodes := make([]denseNode, 0, len(l))
	seen := map[string]bool{}
	for i, x := range l {
		m, err := asObject(x, fmt.Sprintf("nodes[%d]", i))
		if err != nil {
			return nil, err
		}
		id, ok := m["id"].(string)
		if !ok || id == "" {
			return nil, invalid("nodes[%d].id must be a non-empty string", i)
		}
		if seen[id] {
			return nil, invalid("nodes[%d].id %q is repeated", i, id)
		}
		seen[id] = true
		label := ""
		if lv, ok := present(m, "label"); ok {
			if label, ok = lv.(string); !ok {
				return nil, invalid("nodes[%d].label must be a string", i)
			}
		}
		act, ok := asFloat(m["activation"])
		if !ok || math.IsInf(act, 0) {
			return nil, invalid("nodes[%d].activation must be a finite number", i)
		}
		nodes = append(nodes, denseNode{id, label, act})
	}
	wv, _ := present(in, "queryWords")
	words, err := stringList(wv, "queryWords")
	if err != nil {
		return nil, err
	}
	limit, err := optInt(in, "limit", 20, 1)
	if err != nil {
		return nil, err
	}
	hits := denseHits(nodes, words, limit)
	rows := make([]any, len(hits))
	for i, h := range hits {
		rows[i] = map[string]any{"id": h.ID, "score": h.Score, "overlap": h.Overlap}
	}
	return map[string]any{"hits": rows}, nil
}
