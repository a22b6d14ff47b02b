package hrc

// The conformance embedder hrc-hash-v1, the vector store and the lexical reranker
// (BACKEND-20..BACKEND-35).

import (
	"math"
	"math/big"
	"sort"
)

// FNV1a32 is BACKEND-22 (uint32 arithmetic wraps modulo 2^32).
func FNV1a32(b []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range b {
		h ^= uint32(c)
		h *= 16777619
	}
	return h
}

// Features is BACKEND-21.
func Features(text string) []string {
	out := []string{}
	for _, w := range Words(text) {
		rs := append(append([]rune{'$'}, []rune(w)...), '$')
		for i := 0; i+3 <= len(rs); i++ {
			out = append(out, string(rs[i:i+3]))
		}
	}
	return out
}

// Embed is BACKEND-23: 256 integer counts.
func Embed(text string) []int64 {
	v := make([]int64, 256)
	for _, f := range Features(text) {
		v[FNV1a32([]byte(f))%256]++
	}
	return v
}

// VChunk is a chunk with its integer vector.
type VChunk struct {
	Cand Candidate
	Vec  []int64
}

// VHit is a vector hit (BACKEND-27..BACKEND-30).
type VHit struct {
	Cand       Candidate
	Dot, Norm2 int64
	Similarity float64
}

// VectorSearch is BACKEND-27..BACKEND-29; ordering is exact in big integers (BACKEND-28).
func VectorSearch(q []int64, chunks []VChunk, limit int64) []VHit {
	var q2 int64
	for _, x := range q {
		q2 += x * x
	}
	var hits []VHit
	for _, c := range chunks {
		var dot, c2 int64
		for i, x := range c.Vec {
			dot += q[i] * x
			c2 += x * x
		}
		if dot <= 0 {
			continue
		}
		qf, cf := float64(q2), float64(c2)
		sim := float64(dot) / math.Sqrt(qf*cf)
		hits = append(hits, VHit{c.Cand, dot, c2, sim})
	}
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		l := new(big.Int).Mul(new(big.Int).Mul(big.NewInt(a.Dot), big.NewInt(a.Dot)), big.NewInt(b.Norm2))
		r := new(big.Int).Mul(new(big.Int).Mul(big.NewInt(b.Dot), big.NewInt(b.Dot)), big.NewInt(a.Norm2))
		if c := l.Cmp(r); c != 0 {
			return c > 0
		}
		if a.Cand.Path != b.Cand.Path {
			return a.Cand.Path < b.Cand.Path
		}
		return a.Cand.ID < b.Cand.ID
	})
	if int64(len(hits)) > limit {
		hits = hits[:limit]
	}
	return hits
}

// LexicalScore is BACKEND-34, BACKEND-35 (always the hrc-1.0 stopword list).
func LexicalScore(query string, c Candidate) float64 {
	stop := stopLists["hrc-1.0"]
	q := map[string]bool{}
	for _, w := range Words(query) {
		if !IsStopword(w, stop) {
			q[w] = true
		}
	}
	if len(q) == 0 {
		return 0.0
	}
	d := map[string]bool{}
	for _, t := range []string{c.Title, c.Summary, c.Content} {
		for _, w := range Words(t) {
			d[w] = true
		}
	}
	n := 0
	for w := range q {
		if d[w] {
			n++
		}
	}
	num, den := float64(n), float64(len(q))
	return num / den
}

type lexicalReranker struct{}

func (lexicalReranker) Name() string { return "hrc-lexical-v1" }
func (lexicalReranker) Rerank(query string, head []Candidate) ([]RerankEntry, error) {
	out := make([]RerankEntry, len(head))
	for i, c := range head {
		out[i] = RerankEntry{c.ID, LexicalScore(query, c)}
	}
	return out, nil
}

// memVectors is the hrc-hash-v1 vector leg over a set of chunks.
type memVectors struct{ chunks []VChunk }

func (m *memVectors) SearchVector(query string, limit int64) ([]Candidate, error) {
	hits := VectorSearch(Embed(Normalise(query)), m.chunks, limit)
	out := make([]Candidate, len(hits))
	for i, h := range hits {
		out[i] = h.Cand
	}
	return out, nil
}
