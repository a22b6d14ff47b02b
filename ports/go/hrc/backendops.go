package hrc

// Backend operations (spec/operations.md "Backend operations") and search_corpus (BACKEND-41).

import (
	"encoding/base64"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

func init() {
	for k, v := range map[string]handler{
		"fnv1a":           opFNV,
		"embed_features":  opFeatures,
		"embed":           opEmbed,
		"chunk_document":  opChunkDocument,
		"index_documents": opIndexDocuments,
		"fts_search":      opFTSSearch,
		"vector_search":   opVectorSearch,
		"lexical_rerank":  opLexicalRerank,
		"search_corpus":   opSearchCorpus,
	} {
		handlers[k] = v
	}
	capabilities = append(capabilities, "sqlite-fts5", "embedder:hrc-hash-v1", "reranker:hrc-lexical-v1")
}

func opFNV(in map[string]any) (map[string]any, error) {
	t, err := reqString(in, "text")
	if err != nil {
		return nil, err
	}
	h := FNV1a32([]byte(t))
	return map[string]any{"hash": h, "bucket": h % 256}, nil
}

func opFeatures(in map[string]any) (map[string]any, error) {
	t, err := reqString(in, "text")
	if err != nil {
		return nil, err
	}
	return map[string]any{"features": Features(t)}, nil
}

func opEmbed(in map[string]any) (map[string]any, error) {
	t, err := reqString(in, "text")
	if err != nil {
		return nil, err
	}
	counts := []any{}
	for b, c := range Embed(t) {
		if c != 0 {
			counts = append(counts, []int64{int64(b), c})
		}
	}
	return map[string]any{"dimension": 256, "counts": counts}, nil
}

// fileBytes reads {path, text} or {path, base64}.
func fileBytes(m map[string]any, what string) (string, []byte, error) {
	p, err := reqString(m, "path")
	if err != nil {
		return "", nil, invalid("%s: %v", what, err)
	}
	tv, hasText := present(m, "text")
	bv, hasB64 := present(m, "base64")
	if hasText == hasB64 {
		return "", nil, invalid("%s: exactly one of text and base64", what)
	}
	if hasText {
		s, ok := tv.(string)
		if !ok {
			return "", nil, invalid("%s: text must be a string", what)
		}
		return p, []byte(s), nil
	}
	s, ok := bv.(string)
	if !ok {
		return "", nil, invalid("%s: base64 must be a string", what)
	}
	b, err := base64.StdEncoding.Strict().DecodeString(s)
	if err != nil {
		return "", nil, invalid("%s: malformed base64", what)
	}
	return p, b, nil
}

func opChunkDocument(in map[string]any) (map[string]any, error) {
	p, data, err := fileBytes(in, "input")
	if err != nil {
		return nil, err
	}
	if p == "" {
		return nil, invalid("path must not be empty")
	}
	d, err := ChunkDocument(p, data)
	if err != nil {
		return nil, &OpError{"index_error", err.Error()}
	}
	cs := []any{}
	for _, c := range d.Chunks {
		cs = append(cs, map[string]any{"id": c.ID, "content": c.Content})
	}
	return map[string]any{"title": d.Title, "summary": d.Summary, "hash": d.Hash, "chunks": cs}, nil
}

func limitOf(m map[string]any) (int64, error) { return optInt(m, "limit", 60, 1) }

func ftsHitJSON(h FTSHit) map[string]any {
	m := candJSON(h.Cand)
	m["score"] = h.Score
	return m
}

func opFTSSearch(in map[string]any) (map[string]any, error) {
	cv, ok := present(in, "chunks")
	if !ok {
		return nil, invalid("chunks is required")
	}
	chunks, err := parseChunks(cv, "chunks")
	if err != nil {
		return nil, err
	}
	expr, err := reqString(in, "expression")
	if err != nil {
		return nil, err
	}
	limit, err := limitOf(in)
	if err != nil {
		return nil, err
	}
	for i := range chunks {
		chunks[i].Metadata = map[string]string{}
	}
	idx, err := NewFTSIndex(chunks)
	if err != nil {
		return nil, &OpError{"index_error", err.Error()}
	}
	defer idx.Close()
	hits, err := idx.Search(expr, limit)
	if err != nil {
		return nil, &OpError{"index_error", err.Error()}
	}
	out := []any{}
	for _, h := range hits {
		out = append(out, ftsHitJSON(h))
	}
	return map[string]any{"hits": out}, nil
}

func intVector(v any, what string) ([]int64, error) {
	l, err := asList(v, what)
	if err != nil {
		return nil, err
	}
	if len(l) < 1 || len(l) > 256 {
		return nil, invalid("%s must have 1 to 256 components", what)
	}
	out := make([]int64, len(l))
	for i, x := range l {
		n, err := asInt(x, what, 0)
		if err != nil {
			return nil, err
		}
		if n >= 1<<16 {
			return nil, invalid("%s components must be below 2^16", what)
		}
		out[i] = n
	}
	return out, nil
}

func vhitJSON(h VHit) map[string]any {
	return map[string]any{"id": h.Cand.ID, "path": h.Cand.Path, "dot": h.Dot, "similarity": h.Similarity}
}

func opVectorSearch(in map[string]any) (map[string]any, error) {
	qv, hasQ := present(in, "query")
	vv, hasV := present(in, "queryVector")
	if hasQ == hasV {
		return nil, invalid("exactly one of query and queryVector")
	}
	var q []int64
	var err error
	if hasQ {
		s, ok := qv.(string)
		if !ok {
			return nil, invalid("query must be a string")
		}
		q = Embed(s)
	} else if q, err = intVector(vv, "queryVector"); err != nil {
		return nil, err
	}
	limit, err := limitOf(in)
	if err != nil {
		return nil, err
	}
	cv, ok := present(in, "chunks")
	if !ok {
		return nil, invalid("chunks is required")
	}
	l, err := asList(cv, "chunks")
	if err != nil {
		return nil, err
	}
	var chunks []VChunk
	seen := map[string]bool{}
	for i, x := range l {
		m, ok := x.(map[string]any)
		what := fmt.Sprintf("chunks[%d]", i)
		if !ok {
			return nil, invalid("%s must be an object", what)
		}
		c, err := parseCandidate(m, what, false)
		if err != nil {
			return nil, err
		}
		if seen[c.ID] {
			return nil, invalid("%s: repeated id", what)
		}
		seen[c.ID] = true
		_, hasC := present(m, "content")
		vec, hasVec := present(m, "vector")
		if hasC == hasVec {
			return nil, invalid("%s: exactly one of content and vector", what)
		}
		var v []int64
		if hasC {
			v = Embed(c.Content)
		} else if v, err = intVector(vec, what+".vector"); err != nil {
			return nil, err
		}
		if len(v) != len(q) {
			return nil, invalid("%s: vector length differs from the query's", what)
		}
		chunks = append(chunks, VChunk{c, v})
	}
	out := []any{}
	for _, h := range VectorSearch(q, chunks, limit) {
		out = append(out, vhitJSON(h))
	}
	return map[string]any{"hits": out}, nil
}

func opLexicalRerank(in map[string]any) (map[string]any, error) {
	q, err := reqString(in, "query")
	if err != nil {
		return nil, err
	}
	hv, ok := present(in, "head")
	if !ok {
		return nil, invalid("head is required")
	}
	head, err := parseCandidates(hv, "head", false)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	out := []any{}
	for _, c := range head {
		if seen[c.ID] {
			return nil, invalid("head: repeated id %q", c.ID)
		}
		seen[c.ID] = true
		out = append(out, map[string]any{"id": c.ID, "score": LexicalScore(q, c)})
	}
	return map[string]any{"results": out}, nil
}

func validPath(p string) bool {
	if p == "" || strings.ContainsAny(p, "\\\x00") {
		return false
	}
	for _, s := range strings.Split(p, "/") {
		if s == "" || s == "." || s == ".." {
			return false
		}
	}
	return true
}

func opIndexDocuments(in map[string]any) (map[string]any, error) {
	bv, ok := present(in, "batches")
	if !ok {
		return nil, invalid("batches is required")
	}
	bl, err := asList(bv, "batches")
	if err != nil {
		return nil, err
	}
	type file struct {
		path string
		data []byte
	}
	var batches [][]file
	for i, x := range bl {
		fl, err := asList(x, fmt.Sprintf("batches[%d]", i))
		if err != nil {
			return nil, err
		}
		var files []file
		paths := map[string]bool{}
		for j, f := range fl {
			what := fmt.Sprintf("batches[%d][%d]", i, j)
			m, ok := f.(map[string]any)
			if !ok {
				return nil, invalid("%s must be an object", what)
			}
			p, data, err := fileBytes(m, what)
			if err != nil {
				return nil, err
			}
			if !validPath(p) || paths[p] {
				return nil, invalid("%s: bad or repeated path %q", what, p)
			}
			paths[p] = true
			files = append(files, file{p, data})
		}
		for p := range paths {
			for q := range paths {
				if strings.HasPrefix(q, p+"/") {
					return nil, invalid("batches[%d]: %q is a folder of %q", i, p, q)
				}
			}
		}
		batches = append(batches, files)
	}
	type search struct {
		expr  string
		limit int64
	}
	var searches []search
	if sv, ok := present(in, "searches"); ok {
		sl, err := asList(sv, "searches")
		if err != nil {
			return nil, err
		}
		for i, x := range sl {
			m, err := asObject(x, fmt.Sprintf("searches[%d]", i))
			if err != nil {
				return nil, err
			}
			e, err := reqString(m, "expression")
			if err != nil {
				return nil, err
			}
			l, err := limitOf(m)
			if err != nil {
				return nil, err
			}
			searches = append(searches, search{e, l})
		}
	}
	type vsearch struct {
		query string
		limit int64
	}
	var vsearches []vsearch
	if sv, ok := present(in, "vectorSearches"); ok {
		sl, err := asList(sv, "vectorSearches")
		if err != nil {
			return nil, err
		}
		for i, x := range sl {
			m, err := asObject(x, fmt.Sprintf("vectorSearches[%d]", i))
			if err != nil {
				return nil, err
			}
			q, err := reqString(m, "query")
			if err != nil {
				return nil, err
			}
			l, err := limitOf(m)
			if err != nil {
				return nil, err
			}
			vsearches = append(vsearches, vsearch{q, l})
		}
	}
	docs := map[string]*Document{}
	runs := []any{}
	for _, files := range batches {
		var sel []file
		for _, f := range files {
			if selected(f.path) {
				sel = append(sel, f)
			}
		}
		sort.Slice(sel, func(i, j int) bool { return sel[i].path < sel[j].path })
		parsed := map[string]*Document{}
		failed := ""
		for _, f := range sel {
			d, err := ChunkDocument(f.path, f.data)
			if err != nil {
				failed = f.path
				break
			}
			parsed[f.path] = d
		}
		if failed != "" {
			runs = append(runs, map[string]any{"committed": false, "failedPath": failed,
				"added": []string{}, "updated": []string{}, "unchanged": []string{}, "removed": []string{}})
			continue
		}
		added, updated, unchanged, removed := []string{}, []string{}, []string{}, []string{}
		for _, f := range sel {
			old, ok := docs[f.path]
			switch {
			case !ok:
				added = append(added, f.path)
			case old.Hash == parsed[f.path].Hash:
				unchanged = append(unchanged, f.path)
				continue
			default:
				updated = append(updated, f.path)
			}
		}
		for p := range docs {
			if _, ok := parsed[p]; !ok {
				removed = append(removed, p)
			}
		}
		for _, p := range removed {
			delete(docs, p)
		}
		for _, p := range append(append([]string{}, added...), updated...) {
			docs[p] = parsed[p]
		}
		for _, l := range [][]string{added, updated, unchanged, removed} {
			sort.Strings(l)
		}
		runs = append(runs, map[string]any{"committed": true, "failedPath": nil,
			"added": added, "updated": updated, "unchanged": unchanged, "removed": removed})
	}
	var all []Candidate
	for _, d := range docs {
		all = append(all, d.Chunks...)
	}
	idx, err := NewFTSIndex(all)
	if err != nil {
		return nil, &OpError{"index_error", err.Error()}
	}
	defer idx.Close()
	chunks, _ := idx.Chunks()
	cj := []any{}
	var vchunks []VChunk
	for _, c := range chunks {
		cj = append(cj, map[string]any{"id": c.ID, "path": c.Path, "title": c.Title, "summary": c.Summary, "content": c.Content})
		vchunks = append(vchunks, VChunk{c, Embed(c.Content)})
	}
	sj := []any{}
	for _, s := range searches {
		hits, err := idx.Search(s.expr, s.limit)
		if err != nil {
			return nil, &OpError{"index_error", err.Error()}
		}
		hl := []any{}
		for _, h := range hits {
			hl = append(hl, ftsHitJSON(h))
		}
		sj = append(sj, map[string]any{"hits": hl})
	}
	vj := []any{}
	for _, s := range vsearches {
		hl := []any{}
		for _, h := range VectorSearch(Embed(s.query), vchunks, s.limit) {
			hl = append(hl, vhitJSON(h))
		}
		vj = append(vj, map[string]any{"hits": hl})
	}
	return map[string]any{"runs": runs, "chunks": cj, "searches": sj, "vectorSearches": vj}, nil
}

var (
	demoOnce sync.Once
	demoIdx  *FTSIndex
	demoVec  *memVectors
	demoErr  error
)

// loadCorpus indexes a corpus folder by BACKEND-12..BACKEND-19.
func loadCorpus(root string) (*FTSIndex, *memVectors, error) {
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == root {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if selected(rel) {
				paths = append(paths, rel)
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(paths)
	var all []Candidate
	for _, p := range paths {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return nil, nil, err
		}
		d, err := ChunkDocument(p, data)
		if err != nil {
			return nil, nil, err
		}
		all = append(all, d.Chunks...)
	}
	idx, err := NewFTSIndex(all)
	if err != nil {
		return nil, nil, err
	}
	chunks, _ := idx.Chunks()
	mv := &memVectors{}
	for _, c := range chunks {
		mv.chunks = append(mv.chunks, VChunk{c, Embed(c.Content)})
	}
	return idx, mv, nil
}

func opSearchCorpus(in map[string]any) (map[string]any, error) {
	rv, ok := present(in, "request")
	if !ok {
		return nil, invalid("request is required")
	}
	r, err := ParseRequest(rv)
	if err != nil {
		return nil, err
	}
	name, err := reqString(in, "corpus")
	if err != nil {
		return nil, err
	}
	if name != "demo" {
		return nil, invalid("unknown corpus %q", name)
	}
	demoOnce.Do(func() {
		demoIdx, demoVec, demoErr = loadCorpus(filepath.Join(dataDir, "..", "..", "corpus", "demo"))
	})
	if demoErr != nil {
		return nil, &OpError{"index_error", demoErr.Error()}
	}
	return Search(r, Backends{Index: demoIdx, Vector: demoVec, Reranker: lexicalReranker{}})
}
