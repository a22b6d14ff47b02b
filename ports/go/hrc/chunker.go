package hrc

// Files, documents and chunks (BACKEND-12..BACKEND-18).

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Document is one parsed file.
type Document struct {
	Path, Title, Summary, Hash string
	Chunks                     []Candidate
}

func isHeading(line string) bool {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && n < len(line) && (line[n] == ' ' || line[n] == '\t')
}

func isBlank(line string) bool {
	for _, r := range line {
		if !isWhite(r) {
			return false
		}
	}
	return true
}

// ChunkDocument parses one file (BACKEND-13..BACKEND-18).
func ChunkDocument(path string, data []byte) (*Document, error) {
	sum := sha256.Sum256(data)
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("%s: not valid UTF-8", path)
	}
	text := strings.TrimPrefix(string(data), "\uFEFF")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	type block struct {
		text    string
		heading bool
	}
	var blocks []block
	var run []string
	flush := func() {
		if len(run) > 0 {
			if n := Normalise(strings.Join(run, "\n")); n != "" {
				blocks = append(blocks, block{n, false})
			}
			run = nil
		}
	}
	for _, line := range strings.Split(text, "\n") {
		switch {
		case isBlank(line):
			flush()
		case isHeading(line):
			flush()
			if n := Normalise(line); n != "" {
				blocks = append(blocks, block{n, true})
			}
		default:
			run = append(run, line)
		}
	}
	flush()
	doc := &Document{Path: path, Hash: hex.EncodeToString(sum[:])}
	titled := false
	for _, b := range blocks {
		if b.heading {
			t := Normalise(strings.TrimLeft(b.text, "#"))
			if t != "" {
				doc.Title, titled = t, true
				break
			}
		}
	}
	if !titled {
		name := path[strings.LastIndex(path, "/")+1:]
		if i := strings.LastIndex(name, "."); i >= 0 {
			name = name[:i]
		}
		doc.Title = name
	}
	for _, b := range blocks {
		if !b.heading {
			rs := []rune(b.text)
			if len(rs) > 200 {
				rs = rs[:200]
			}
			doc.Summary = strings.TrimSuffix(string(rs), " ")
			break
		}
	}
	var cur string
	var chunks []string
	has := false
	for _, b := range blocks {
		if has && CPLen(cur)+2+CPLen(b.text) <= 1000 {
			cur += "\n\n" + b.text
			continue
		}
		if has {
			chunks = append(chunks, cur)
		}
		cur, has = b.text, true
	}
	if has {
		chunks = append(chunks, cur)
	}
	for i, c := range chunks {
		doc.Chunks = append(doc.Chunks, Candidate{ID: fmt.Sprintf("%s#%d", path, i), Path: path,
			Title: doc.Title, Summary: doc.Summary, Content: c, Metadata: map[string]string{}})
	}
	return doc, nil
}

// selected is BACKEND-12 for a relative path.
func selected(path string) bool {
	if !strings.HasSuffix(path, ".md") && !strings.HasSuffix(path, ".txt") {
		return false
	}
	for _, seg := range strings.Split(path, "/") {
		if strings.HasPrefix(seg, ".") {
			return false
		}
	}
	return true
}
