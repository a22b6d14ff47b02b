package hrc

// Operation dispatch (spec/operations.md).

import (
	"math"
	"sort"
)

// Operations lists every operation this port implements.
func Operations() []string {
	ops := make([]string, 0, len(handlers))
	for k := range handlers {
		ops = append(ops, k)
	}
	sort.Strings(ops)
	return ops
}

type handler func(in map[string]any) (map[string]any, error)

var handlers = map[string]handler{}

func init() {
	for k, v := range map[string]handler{
		"normalise":      opNormalise,
		"words":          opWords,
		"length":         opLength,
		"sort_strings":   opSortStrings,
		"parse":          opParse,
		"compile":        opCompile,
		"stopwords":      opStopwords,
		"sanitise":       opSanitise,
		"strongest_term": opStrongest,
		"fanout_texts":   opFanoutTexts,
		"rerank_text":    opRerankText,
		"rrf":            opRRF,
	} {
		handlers[k] = v
	}
}

// Run dispatches one operation.
func Run(op string, in map[string]any) (map[string]any, error) {
	h, ok := handlers[op]
	if !ok {
		return nil, unsupported("unknown operation %s", op)
	}
	return h(in)
}

func opNormalise(in map[string]any) (map[string]any, error) {
	t, err := reqString(in, "text")
	if err != nil {
		return nil, err
	}
	n := Normalise(t)
	return map[string]any{"normalised": n, "folded": Lower(n)}, nil
}

func opWords(in map[string]any) (map[string]any, error) {
	t, err := reqString(in, "text")
	if err != nil {
		return nil, err
	}
	return map[string]any{"words": Words(t)}, nil
}

func opLength(in map[string]any) (map[string]any, error) {
	t, err := reqString(in, "text")
	if err != nil {
		return nil, err
	}
	return map[string]any{"length": CPLen(t)}, nil
}

func opSortStrings(in map[string]any) (map[string]any, error) {
	v, ok := present(in, "strings")
	if !ok {
		return nil, invalid("strings is required")
	}
	l, err := stringList(v, "strings")
	if err != nil {
		return nil, err
	}
	return map[string]any{"sorted": SortStrings(l)}, nil
}

func queryInputs(in map[string]any) (string, *Aliases, map[string]bool, error) {
	q, err := reqString(in, "query")
	if err != nil {
		return "", nil, nil, err
	}
	stop, err := stopList(in, "stopwordList")
	if err != nil {
		return "", nil, nil, err
	}
	al, _ := present(in, "aliases")
	a, err := ParseAliases(al, nil)
	if err != nil {
		return "", nil, nil, err
	}
	return q, a, stop, nil
}

func opParse(in map[string]any) (map[string]any, error) {
	q, a, stop, err := queryInputs(in)
	if err != nil {
		return nil, err
	}
	n, ops, toks := Parse(q, a, stop)
	tj := make([]any, len(toks))
	for i, t := range toks {
		tj[i] = tokenJSON(t)
	}
	return map[string]any{"normalised": n, "hasOperators": ops, "tokens": tj}, nil
}

func opCompile(in map[string]any) (map[string]any, error) {
	q, a, stop, err := queryInputs(in)
	if err != nil {
		return nil, err
	}
	_, _, toks := Parse(q, a, stop)
	return map[string]any{"expression": Compile(toks)}, nil
}

func opStopwords(in map[string]any) (map[string]any, error) {
	v, ok := present(in, "words")
	if !ok {
		return nil, invalid("words is required")
	}
	ws, err := stringList(v, "words")
	if err != nil {
		return nil, err
	}
	stop, err := stopList(in, "stopwordList")
	if err != nil {
		return nil, err
	}
	out := make([]bool, len(ws))
	for i, w := range ws {
		out[i] = IsStopword(w, stop)
	}
	return map[string]any{"stopword": out}, nil
}

func opSanitise(in map[string]any) (map[string]any, error) {
	q, a, stop, err := queryInputs(in)
	if err != nil {
		return nil, err
	}
	toks, expr := Sanitise(q, a, stop)
	return map[string]any{"tokens": toks, "expression": expr}, nil
}

func opStrongest(in map[string]any) (map[string]any, error) {
	q, err := reqString(in, "query")
	if err != nil {
		return nil, err
	}
	stop, err := stopList(in, "stopwordList")
	if err != nil {
		return nil, err
	}
	return map[string]any{"term": StrongestTerm(q, stop)}, nil
}

// opFanoutTexts is FANOUT-13: the first-pass query texts of query with its base.
func opFanoutTexts(in map[string]any) (map[string]any, error) {
	q, err := reqString(in, "query")
	if err != nil {
		return nil, err
	}
	if err := checkQueryBound(q, "query", "FANOUT-25"); err != nil {
		return nil, err
	}
	base, err := optString(in, "base", q)
	if err != nil {
		return nil, err
	}
	if err := checkQueryBound(base, "base", "FANOUT-25"); err != nil {
		return nil, err
	}
	texts := PlanTexts(q, base)
	if texts == nil {
		texts = []string{}
	}
	return map[string]any{"texts": texts}, nil
}

// parseWeight is RRF-3: a finite number >= 0, default 1.
func parseWeight(v any, what string) (float64, error) {
	f, ok := asFloat(v)
	if !ok || f < 0 || math.IsInf(f, 0) {
		return 0, invalid("%s must be a finite number >= 0", what)
	}
	return f, nil
}

func opRRF(in map[string]any) (map[string]any, error) {
	k, err := optIntOrDefault(in, "k", 60)
	if err != nil {
		return nil, err
	}
	lv, ok := present(in, "lists")
	if !ok {
		return nil, invalid("lists is required")
	}
	raw, err := asList(lv, "lists")
	if err != nil {
		return nil, err
	}
	var lists []RankedList
	for i, x := range raw {
		m, err := asObject(x, "lists[i]")
		if err != nil {
			return nil, err
		}
		l := RankedList{Weight: 1}
		if l.Name, err = optString(m, "name", ""); err != nil {
			return nil, err
		}
		if w, ok := present(m, "weight"); ok {
			if l.Weight, err = parseWeight(w, "weight"); err != nil {
				return nil, err
			}
		}
		iv, ok := present(m, "items")
		if !ok {
			return nil, invalid("lists[%d].items is required", i)
		}
		if l.Items, err = parseCandidates(iv, "items", false); err != nil {
			return nil, err
		}
		lists = append(lists, l)
	}
	fused := RRF(lists, k)
	res := make([]any, len(fused))
	for i, f := range fused {
		m := candJSON(f.Candidate)
		m["score"] = f.Score
		res[i] = m
	}
	return map[string]any{"results": res}, nil
}
