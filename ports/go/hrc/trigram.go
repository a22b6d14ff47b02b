package hrc

// Trigram fuzzy matching (TRI-1..TRI-7): integer arithmetic over code points.

import "sort"

// Trigrams is TRI-2: the set of padded code point trigrams, sorted (TEXT-9).
func Trigrams(w string) []string {
	if w == "" {
		return []string{}
	}
	rs := append(append([]rune{'$'}, []rune(w)...), '$')
	seen := map[string]bool{}
	out := []string{}
	for i := 0; i+3 <= len(rs); i++ {
		t := string(rs[i : i+3])
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	sort.Strings(out)
	return out
}

// Jaccard is TRI-3: (intersection, union) of two trigram sets.
func Jaccard(a, b string) (int64, int64) {
	ta, tb := Trigrams(a), Trigrams(b)
	set := map[string]bool{}
	for _, t := range ta {
		set[t] = true
	}
	inter := 0
	for _, t := range tb {
		if set[t] {
			inter++
		}
	}
	return int64(inter), int64(len(ta) + len(tb) - inter)
}

// Similar is TRI-5.
func Similar(i, u int64) bool { return u > 0 && 10*i >= 3*u }

// ratioGreater compares i1/u1 > i2/u2 by cross-multiplication; union 0 counts as 0.
func ratioGreater(i1, u1, i2, u2 int64) bool {
	if u1 == 0 {
		i1, u1 = 0, 1
	}
	if u2 == 0 {
		i2, u2 = 0, 1
	}
	return i1*u2 > i2*u1
}

// TriHit is one trigram search hit.
type TriHit struct {
	Chunk        Candidate
	Inter, Union int64
}

// TrigramSearch is TRI-1, TRI-4, TRI-6, TRI-7.
func TrigramSearch(tokens []string, chunks []Candidate, limit int64) []TriHit {
	var hits []TriHit
	for _, c := range chunks {
		var words []string
		seen := map[string]bool{}
		for _, w := range Words(c.Content) {
			if !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
		found := false
		var bi, bu int64
		for _, t := range tokens {
			for _, w := range words {
				i, u := Jaccard(t, w)
				if !found || ratioGreater(i, u, bi, bu) {
					found, bi, bu = true, i, u
				}
			}
		}
		if found && Similar(bi, bu) {
			hits = append(hits, TriHit{c, bi, bu})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool {
		x, y := hits[a], hits[b]
		if ratioGreater(x.Inter, x.Union, y.Inter, y.Union) {
			return true
		}
		if ratioGreater(y.Inter, y.Union, x.Inter, x.Union) {
			return false
		}
		if x.Chunk.Path != y.Chunk.Path {
			return x.Chunk.Path < y.Chunk.Path
		}
		return x.Chunk.ID < y.Chunk.ID
	})
	if int64(len(hits)) > limit {
		hits = hits[:limit]
	}
	return hits
}

// Unanimity is UNAN-2..UNAN-5: equal ids at the positions 0..2; a leg with fewer than three
// entries is not compared.
func Unanimity(bm25, vector []string) (int, bool) {
	if len(bm25) < 3 || len(vector) < 3 {
		return 0, false
	}
	n := 0
	for i := 0; i < 3; i++ {
		if bm25[i] == vector[i] {
			n++
		}
	}
	return n, n >= 2
}
