package hrc

// The query DSL of spec/query-dsl.md (DSL-1..DSL-22) and the strongest term (LADDER-8).

import (
	"reflect"
	"sort"
	"strings"
)

var stopLists = map[string]map[string]bool{}

// Token is a parsed query token (DSL-15).
type Token struct {
	Kind     string
	Text     string
	Operator string // "" means null
}

// alt is one alias alternative as a token kind and text (DSL-14).
type alt struct{ Kind, Text string }

// Aliases is a folded alias table (DSL-12) with keys in input order.
type Aliases struct {
	keys []string
	alts map[string][]string
}

func stopList(m map[string]any, key string) (map[string]bool, error) {
	v, ok := present(m, key)
	if !ok {
		return stopLists["anchor"], nil
	}
	s, ok := v.(string)
	if !ok {
		return nil, invalid("%s must be a string", key)
	}
	if s == "anchor" || s == "hrc-1.0" {
		return stopLists[s], nil
	}
	return nil, invalid("unknown stopword list %q", s)
}

// IsStopword is DSL-10.
func IsStopword(w string, list map[string]bool) bool {
	return CPLen(w) <= 2 || list[w]
}

// IsFiltered is DSL-9 and DSL-20: a lowercase operator word (filler, the anchor) or a stopword.
func IsFiltered(w string, list map[string]bool) bool {
	return w == "and" || w == "or" || w == "not" || IsStopword(w, list)
}

// ParseAliases validates and folds an alias table (DSL-12). The raw object keeps its key
// order through orderedKeys.
func ParseAliases(v any, order []string) (*Aliases, error) {
	a := &Aliases{alts: map[string][]string{}}
	if v == nil {
		return a, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, invalid("aliases must be an object")
	}
	if order == nil {
		for k := range m {
			order = append(order, k)
		}
		sort.Strings(order)
	}
	for _, k := range order {
		raw, ok := m[k]
		if !ok {
			continue
		}
		l, ok := raw.([]any)
		if !ok {
			return nil, invalid("aliases[%q] must be a list of strings", k)
		}
		var alts []string
		for _, x := range l {
			s, ok := x.(string)
			if !ok {
				return nil, invalid("aliases[%q] must be a list of strings", k)
			}
			alts = append(alts, s)
		}
		fk := Fold(k)
		if fk == "" {
			return nil, invalid("alias key %q folds to the empty string", k)
		}
		if _, dup := a.alts[fk]; dup {
			return nil, invalid("alias keys fold to the same text %q", fk)
		}
		a.keys = append(a.keys, fk)
		a.alts[fk] = alts
	}
	return a, nil
}

// HasOperators is DSL-2.
func HasOperators(normalised string) bool {
	if strings.ContainsRune(normalised, '"') {
		return true
	}
	for _, f := range strings.Split(normalised, " ") {
		if f == "AND" || f == "OR" || f == "NOT" {
			return true
		}
	}
	return false
}

const stripSet = "*():^+\"-?!.,;/\\[]{}<>|&'$#@%=~`"

// Parse is DSL-1..DSL-14.
func Parse(query string, aliases *Aliases, stop map[string]bool) (string, bool, []Token) {
	n := Normalise(query)
	ops := HasOperators(n)
	rs := []rune(n)
	tokens := []Token{}
	pending := ""
	emit := func(t Token) {
		t.Operator = pending // DSL-5: a leading operator stays on the first token (DSL-17 ignores it)
		pending = ""
		tokens = append(tokens, t)
	}
	i := 0
	for i < len(rs) {
		c := rs[i]
		if c == ' ' {
			i++
			continue
		}
		if c == '"' {
			j := i + 1
			for j < len(rs) && rs[j] != '"' {
				j++
			}
			text := Lower(strings.Join(splitWhite(string(rs[i+1:j])), " "))
			if j < len(rs) {
				j++
			}
			i = j
			if text != "" {
				emit(Token{Kind: "phrase", Text: text})
			}
			continue
		}
		j := i
		for j < len(rs) && rs[j] != ' ' && rs[j] != '"' {
			j++
		}
		word := string(rs[i:j])
		i = j
		if word == "AND" || word == "OR" || word == "NOT" {
			pending = word
			continue
		}
		kind := "term"
		if strings.HasSuffix(word, "*") {
			kind = "prefix"
		}
		stripped := strings.Map(func(r rune) rune {
			if r < 128 && strings.ContainsRune(stripSet, r) {
				return -1
			}
			return r
		}, word)
		if stripped == "" {
			pending = ""
			continue
		}
		text := Lower(stripped)
		if !ops && IsFiltered(text, stop) { // DSL-9: terms and prefixes, before aliases
			continue
		}
		if kind == "term" {
			if alts, ok := aliases.alts[text]; ok {
				for i, t := range expandTerm(text, alts) {
					if i == 0 {
						emit(t)
					} else {
						tokens = append(tokens, t)
					}
				}
				continue
			}
		}
		emit(Token{Kind: kind, Text: text})
	}
	return n, ops, tokens
}

// expandTerm is DSL-14: the term replaced by its alternatives in table order, deduplicated
// by (kind, text); the term itself when no alternative has a word. The caller gives the
// first token the term's operator.
func expandTerm(text string, alts []string) []Token {
	var out []Token
	seen := map[alt]bool{}
	for _, a := range alts {
		w := Words(a)
		var m alt
		switch len(w) {
		case 0:
			continue
		case 1:
			m = alt{"term", w[0]}
		default:
			m = alt{"phrase", strings.Join(w, " ")}
		}
		if !seen[m] {
			seen[m] = true
			out = append(out, Token{Kind: m.Kind, Text: m.Text})
		}
	}
	if len(out) == 0 {
		return []Token{{Kind: "term", Text: text}}
	}
	return out
}

// Quote is the canonical FTS5 string (DSL-16).
func Quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func render(t Token) string {
	switch t.Kind {
	case "prefix":
		return Quote(t.Text) + "*"
	}
	return Quote(t.Text)
}

// Compile is DSL-16, DSL-17.
func Compile(tokens []Token) string {
	var parts []string
	for i, t := range tokens {
		if i > 0 {
			op := t.Operator
			if op == "" {
				op = "OR"
			}
			parts = append(parts, op)
		}
		parts = append(parts, render(t))
	}
	return strings.Join(parts, " ")
}

// Sanitise is DSL-20, DSL-21.
func Sanitise(query string, aliases *Aliases, stop map[string]bool) ([]string, string) {
	tokens := []string{}
	var toks []Token
	for _, w := range Words(query) {
		if IsFiltered(w, stop) { // DSL-20 before DSL-21's expansion
			continue
		}
		tokens = append(tokens, w)
		if alts, isKey := aliases.alts[w]; isKey {
			toks = append(toks, expandTerm(w, alts)...)
		} else {
			toks = append(toks, Token{Kind: "term", Text: w})
		}
	}
	return tokens, Compile(toks)
}

// Strongest is LADDER-8.
func Strongest(words []string, stop map[string]bool) string {
	best, bestLen := "", -1
	for _, w := range words {
		if IsStopword(w, stop) {
			continue
		}
		if l := CPLen(w); l > bestLen {
			best, bestLen = w, l
		}
	}
	return best
}

// ladderStopFor is LADDER-8's stop-word set for a DSL list: under `anchor` the ladder's own
// set (the anchor's STOP_WORDS), under `hrc-1.0` that list itself.
func ladderStopFor(stop map[string]bool) map[string]bool {
	if anchor := stopLists["anchor"]; stop != nil && anchor != nil &&
		reflect.ValueOf(stop).Pointer() == reflect.ValueOf(anchor).Pointer() {
		return ladderStop
	}
	return stop
}

// StrongestTerm is LADDER-9: over the query's sanitised words (TEXT-7).
func StrongestTerm(query string, stop map[string]bool) string {
	return Strongest(Words(query), ladderStopFor(stop))
}

func tokenJSON(t Token) map[string]any {
	var op any
	if t.Operator != "" {
		op = t.Operator
	}
	return map[string]any{"kind": t.Kind, "text": t.Text, "operator": op}
}
