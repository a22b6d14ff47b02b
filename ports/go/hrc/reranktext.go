package hrc

// What a reranker is shown for one candidate (spec/rerank.md RERANK-13, RERANK-14).

import "strings"

const rerankSnippetMax = 280 // code points (RERANK-14)

// RerankSnippet is RERANK-14: collapsed, trimmed, the first 280 code points, nothing appended.
func RerankSnippet(content string) string {
	rs := []rune(strings.Join(splitWhite(content), " "))
	if len(rs) > rerankSnippetMax {
		rs = rs[:rerankSnippetMax]
	}
	return string(rs)
}

// RerankText is RERANK-13: title \n summary, else title, else summary, else the snippet.
func RerankText(title, summary, content string) string {
	t := strings.TrimFunc(title, isWhite)
	s := strings.TrimFunc(summary, isWhite)
	switch {
	case t != "" && s != "":
		return t + "\n" + s
	case t != "":
		return t
	case s != "":
		return s
	}
	return RerankSnippet(content)
}

// opRerankText is RERANK-15.
func opRerankText(in map[string]any) (map[string]any, error) {
	var f [3]string
	for i, name := range []string{"title", "summary", "content"} {
		s, err := optString(in, name, "")
		if err != nil {
			return nil, err
		}
		f[i] = s
	}
	return map[string]any{"text": RerankText(f[0], f[1], f[2])}, nil
}
