package hrc

// Candidate and chunk shapes (spec/operations.md, OP-5).

import "fmt"

// parseCandidate reads {id, path, title?, summary?, content?, metadata?}; with needContent
// the content is required (a chunk).
func parseCandidate(v any, what string, needContent bool) (Candidate, error) {
	var c Candidate
	m, ok := v.(map[string]any)
	if !ok {
		return c, invalid("%s: candidate must be an object", what)
	}
	id, ok := m["id"].(string)
	if !ok || id == "" {
		return c, invalid("%s: candidate id must be a non-empty string", what)
	}
	c.ID = id
	p, ok := m["path"].(string)
	if !ok {
		return c, invalid("%s: candidate path must be a string", what)
	}
	c.Path = p
	for _, f := range []struct {
		key string
		dst *string
	}{{"title", &c.Title}, {"summary", &c.Summary}, {"content", &c.Content}} {
		x, ok := present(m, f.key)
		if !ok {
			if f.key == "content" && needContent {
				return c, invalid("%s: chunk content must be a string", what)
			}
			continue
		}
		s, ok := x.(string)
		if !ok {
			return c, invalid("%s: %s must be a string", what, f.key)
		}
		*f.dst = s
	}
	c.Metadata = map[string]string{}
	if x, ok := present(m, "metadata"); ok {
		mm, ok := x.(map[string]any)
		if !ok {
			return c, invalid("%s: metadata must be an object of strings", what)
		}
		for k, val := range mm {
			s, ok := val.(string)
			if !ok {
				return c, invalid("%s: metadata[%q] must be a string", what, k)
			}
			c.Metadata[k] = s
		}
	}
	return c, nil
}

func parseCandidates(v any, what string, needContent bool) ([]Candidate, error) {
	l, err := asList(v, what)
	if err != nil {
		return nil, err
	}
	out := make([]Candidate, 0, len(l))
	for i, x := range l {
		c, err := parseCandidate(x, fmt.Sprintf("%s[%d]", what, i), needContent)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func metaJSON(m map[string]string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func candJSON(c Candidate) map[string]any {
	return map[string]any{"id": c.ID, "path": c.Path, "title": c.Title, "summary": c.Summary,
		"content": c.Content, "metadata": metaJSON(c.Metadata)}
}
