package hrc

// The BM25 leg's first pass with the anchor's fanout (spec/fanout.md, FANOUT-*):
// PlanTexts (FANOUT-4..13), PlanExpressions (FANOUT-14), fanoutKept and fanoutMerge
// (FANOUT-16, FANOUT-17, FANOUT-20).

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

const fanoutMergeK = 60 // FANOUT-17: the anchor's RRF_DEFAULT_K, not the request's rrfK

type fanoutRule struct {
	pattern *regexp.Regexp
	probe   string
}

// fanoutVocab is FANOUT-3: spec/data/fanout-anchor.json.
type fanoutVocab struct {
	maxQueries, maxDerived, overlapWindow, overlapMin, phraseMin, phraseMax int
	edges                                                                   string
	questionStop, connectors, boundary, trim, actionSkip                    map[string]bool
	inspirationSkip, lowSignal, headLast                                    map[string]bool
	actionRules                                                             []fanoutRule
	inspirationHints                                                        []string
	inspirationSuffix, moneySuffix, backEndHint                             string
	enumeration, money, specific, language                                  *regexp.Regexp
	recommend                                                               []*regexp.Regexp
	backEndProbes                                                           []string
}

var fv *fanoutVocab

func init() { dataLoaders = append(dataLoaders, loadFanout) }

func loadFanout() error {
	var f struct {
		MaxQueries, MaxDerived, OverlapWindow, OverlapMin int
		PhraseMinTokens, PhraseMaxTokens                  int
		EdgeCharacters                                    string
		QuestionStopWords, PhraseConnectors               []string
		PhraseBoundaryWords, PhraseTrimWords              []string
		ActionDateRules                                   []struct{ Pattern, Probe string }
		ActionDateFocusSkipWords, InspirationHints        []string
		InspirationFocusSkipWords, LowSignalPhraseWords   []string
		HeadBigramLastTokens                              []string
		InspirationSuffix, MoneyHeadSuffix, BackEndHint   string
		EnumerationOrTotalPattern, MoneyEventPattern      string
		SpecificPattern, LanguagePattern                  string
		RecommendPatterns, BackEndProbes                  []string
	}
	if err := readData("fanout-anchor.json", &f); err != nil {
		return err
	}
	if f.MaxQueries == 0 || len(f.PhraseBoundaryWords) == 0 || len(f.ActionDateRules) == 0 {
		return fmt.Errorf("fanout-anchor.json: incomplete")
	}
	set := func(ws []string) map[string]bool {
		m := map[string]bool{}
		for _, w := range ws {
			m[w] = true
		}
		return m
	}
	v := &fanoutVocab{
		maxQueries: f.MaxQueries, maxDerived: f.MaxDerived, overlapWindow: f.OverlapWindow,
		overlapMin: f.OverlapMin, phraseMin: f.PhraseMinTokens, phraseMax: f.PhraseMaxTokens,
		edges: f.EdgeCharacters, questionStop: set(f.QuestionStopWords),
		connectors: set(f.PhraseConnectors), boundary: set(f.PhraseBoundaryWords),
		trim: set(f.PhraseTrimWords), actionSkip: set(f.ActionDateFocusSkipWords),
		inspirationSkip: set(f.InspirationFocusSkipWords), lowSignal: set(f.LowSignalPhraseWords),
		headLast: set(f.HeadBigramLastTokens), inspirationHints: f.InspirationHints,
		inspirationSuffix: f.InspirationSuffix, moneySuffix: f.MoneyHeadSuffix,
		backEndHint: f.BackEndHint, backEndProbes: f.BackEndProbes,
	}
	var err error
	compile := func(src string) *regexp.Regexp {
		re, e := regexp.Compile(src)
		if e != nil && err == nil {
			err = fmt.Errorf("fanout-anchor.json: pattern %q: %w", src, e)
		}
		return re
	}
	for _, r := range f.ActionDateRules {
		v.actionRules = append(v.actionRules, fanoutRule{compile(r.Pattern), r.Probe})
	}
	v.enumeration = compile(f.EnumerationOrTotalPattern)
	v.money = compile(f.MoneyEventPattern)
	v.specific = compile(f.SpecificPattern)
	v.language = compile(f.LanguagePattern)
	for _, p := range f.RecommendPatterns {
		v.recommend = append(v.recommend, compile(p))
	}
	if err != nil {
		return err
	}
	fv = v
	return nil
}

// -- tokens (FANOUT-4, FANOUT-5) ------------------------------------------------------------

func fanoutLowered(q string) string { return Lower(Normalise(q)) }

func hasASCIIDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

func probeTokens(q string) []string {
	var out []string
	for _, p := range splitWhite(fanoutLowered(q)) {
		if t := strings.Trim(p, fv.edges); t != "" {
			out = append(out, t)
		}
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func questionTokens(q string) []string {
	var out []string
	for _, t := range probeTokens(q) {
		if CPLen(t) < 3 || hasASCIIDigit(t) || fv.questionStop[t] || contains(out, t) {
			continue
		}
		out = append(out, t)
	}
	return out
}

func without(ts []string, skip map[string]bool) []string {
	var out []string
	for _, t := range ts {
		if !skip[t] {
			out = append(out, t)
		}
	}
	return out
}

// -- phrase probes (FANOUT-6) ----------------------------------------------------------------

func phraseBreaks(t string) bool { return fv.boundary[t] || CPLen(t) < 2 || hasASCIIDigit(t) }

func joinPhrase(ts []string) string {
	if len(ts) >= fv.phraseMin {
		return strings.Join(ts, " ")
	}
	return ""
}

// phraseCollectors gives FANOUT-6's collect over the tokens left of i walking left (back in
// text order) and right of i, each call in at most phraseMax steps from precomputed kept
// positions: copying and skipping made a query of many connectors quadratic (issue 39).
func phraseCollectors(ts []string) (func(int) []string, func(int) []string) {
	n := len(ts)
	broken := make([]bool, n)
	for i, t := range ts {
		broken[i] = phraseBreaks(t)
	}
	right := make([]int, n+1) // right[i]: first kept index >= i (n: none)
	right[n] = n
	for i := n - 1; i >= 0; i-- {
		if broken[i] {
			right[i] = right[i+1]
		} else {
			right[i] = i
		}
	}
	left := make([]int, n+1) // left[i]: last kept index < i (-1: none)
	left[0] = -1
	for i := 0; i < n; i++ {
		if broken[i] {
			left[i+1] = left[i]
		} else {
			left[i+1] = i
		}
	}
	before := func(i int) []string {
		var out []string
		for j := left[i]; j >= 0 && !broken[j] && len(out) < fv.phraseMax; j-- {
			out = append(out, ts[j])
		}
		return reversed(out)
	}
	after := func(i int) []string {
		var out []string
		for j := right[i+1]; j < n && !broken[j] && len(out) < fv.phraseMax; j++ {
			out = append(out, ts[j])
		}
		return out
	}
	return before, after
}

func reversed(ts []string) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[len(ts)-1-i] = t
	}
	return out
}

func trimLeading(ts []string) []string {
	i := 0
	for i < len(ts) && fv.trim[ts[i]] {
		i++
	}
	return ts[i:]
}

func phraseScore(ts []string) int {
	s := 100 * len(ts)
	for _, t := range ts {
		s += CPLen(t)
	}
	return s
}

func segmentPhrase(seg []string) string {
	tr := trimLeading(seg)
	if len(tr) < fv.phraseMin {
		return ""
	}
	if len(tr) <= fv.phraseMax {
		return joinPhrase(tr)
	}
	for size := fv.phraseMax; size >= fv.phraseMin; size-- {
		best, bestScore := "", -1
		for start := 0; start+size <= len(tr); start++ {
			w := trimLeading(tr[start : start+size])
			if len(w) < fv.phraseMin {
				continue
			}
			if sc := phraseScore(w); sc > bestScore {
				best, bestScore = joinPhrase(w), sc
			}
		}
		if best != "" {
			return best
		}
	}
	return ""
}

func segmentPhrases(ts []string) []string {
	if len(ts) < fv.phraseMin {
		return nil
	}
	var out, seg []string
	seen := map[string]bool{}
	flush := func() {
		if p := segmentPhrase(seg); p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
		seg = nil
	}
	for _, t := range ts {
		if phraseBreaks(t) {
			flush()
			continue
		}
		seg = append(seg, t)
	}
	flush()
	return out
}

func phraseProbes(q string) []string {
	ts := probeTokens(q)
	if len(ts) < fv.phraseMin {
		return nil
	}
	var out []string
	add := func(p string) bool {
		if p != "" && !contains(out, p) {
			out = append(out, p)
		}
		return len(out) >= fv.maxDerived
	}
	before, after := phraseCollectors(ts)
	for i, t := range ts {
		if !fv.connectors[t] {
			continue
		}
		if add(joinPhrase(before(i))) {
			return out
		}
		if add(joinPhrase(after(i))) {
			return out
		}
	}
	for _, p := range segmentPhrases(ts) {
		if add(p) {
			return out
		}
	}
	return out
}

func filteredPhraseProbes(q string) []string {
	var out []string
	for _, p := range phraseProbes(q) {
		if len(without(questionTokens(p), fv.lowSignal)) > 0 {
			out = append(out, p)
		}
	}
	return out
}

// -- probes (FANOUT-7..10) -------------------------------------------------------------------

func firstDistinct(items []string) []string {
	var out []string
	for _, it := range items {
		if it == "" || contains(out, it) {
			continue
		}
		out = append(out, it)
		if len(out) >= fv.maxDerived {
			break
		}
	}
	return out
}

func specificRecommendationProbes(q string) []string {
	low := fanoutLowered(q)
	rec := false
	for _, re := range fv.recommend {
		rec = rec || re.MatchString(low)
	}
	if !fv.specific.MatchString(low) || !rec {
		return nil
	}
	if strings.Contains(low, fv.backEndHint) && fv.language.MatchString(low) {
		return append([]string{}, fv.backEndProbes...)
	}
	return nil
}

func moneyFocus(phrase string) string {
	ts := splitWhite(Lower(phrase))
	if len(ts) >= 3 && strings.Contains(ts[0], "-") && fv.headLast[ts[len(ts)-1]] {
		return ts[0] + " " + ts[len(ts)-1]
	}
	if len(ts) == 0 {
		return ""
	}
	last := ts[len(ts)-1]
	head := last
	if len(ts) >= 2 && fv.headLast[last] {
		head = strings.Join(ts[len(ts)-2:], " ")
	}
	if head != phrase && len(splitWhite(phrase)) <= 2 {
		return head + fv.moneySuffix
	}
	return phrase
}

func moneyFocusProbes(q string) []string {
	low := fanoutLowered(q)
	if !fv.enumeration.MatchString(low) || !fv.money.MatchString(low) {
		return nil
	}
	var items []string
	for _, p := range filteredPhraseProbes(q) {
		items = append(items, moneyFocus(p))
	}
	return firstDistinct(items)
}

func actionDateProbes(q string) []string {
	low := fanoutLowered(q)
	if !strings.Contains(low, "when") {
		return nil
	}
	var items []string
	for _, r := range fv.actionRules {
		if r.pattern.MatchString(low) {
			items = append(items, r.probe)
		}
	}
	return firstDistinct(items)
}

func actionFocuses(ts []string) []string {
	n := len(ts)
	var spans [][2]int
	switch {
	case n == 0:
		return nil
	case n == 1:
		spans = [][2]int{{0, 1}}
	case n == 2:
		spans = [][2]int{{0, 2}}
	case n == 3:
		spans = [][2]int{{1, 3}, {0, 2}}
	default:
		spans = [][2]int{{n - 2, n}, {0, 2}}
	}
	var out []string
	for _, s := range spans {
		if f := strings.Join(ts[s[0]:s[1]], " "); f != "" && !contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

func actionDateContextProbes(q string) []string {
	probes := actionDateProbes(q)
	if len(probes) == 0 {
		return nil
	}
	focuses := actionFocuses(without(questionTokens(q), fv.actionSkip))
	var pairs []string
	for _, p := range probes {
		for _, f := range focuses {
			pairs = append(pairs, strings.TrimSpace(f+" "+p))
		}
	}
	return firstDistinct(pairs)
}

func isInspiration(q string) bool {
	low := fanoutLowered(q)
	if low == "" {
		return false
	}
	for _, h := range fv.inspirationHints {
		if strings.Contains(low, h) {
			return true
		}
	}
	return false
}

func inspirationSourceProbes(q string) []string {
	if !isInspiration(q) {
		return nil
	}
	ts := without(questionTokens(q), fv.inspirationSkip)
	if len(ts) == 0 {
		return nil
	}
	return []string{ts[len(ts)-1] + fv.inspirationSuffix}
}

func chainProbes(q string, sources []func(string) []string, seen map[string]bool) []string {
	var out []string
	for _, src := range sources {
		for _, it := range src(q) {
			if seen[it] {
				continue
			}
			seen[it] = true
			out = append(out, it)
			if len(out) >= fv.maxDerived {
				return out
			}
		}
	}
	return out
}

// -- subqueries and the plan (FANOUT-11..14) -------------------------------------------------

func prioritySubqueries(q string) []string {
	return chainProbes(q, []func(string) []string{specificRecommendationProbes, moneyFocusProbes,
		actionDateContextProbes, inspirationSourceProbes, filteredPhraseProbes},
		map[string]bool{fanoutLowered(q): true})
}

func derivedSubqueries(q string) []string {
	seen := map[string]bool{fanoutLowered(q): true}
	insp := isInspiration(q)
	out := chainProbes(q, []func(string) []string{specificRecommendationProbes, moneyFocusProbes,
		actionDateContextProbes, inspirationSourceProbes, actionDateProbes}, seen)
	if len(out) >= fv.maxDerived {
		return out
	}
	phrases := filteredPhraseProbes(q)
	for _, p := range phrases {
		if insp && len(without(questionTokens(p), fv.inspirationSkip)) == 0 {
			continue
		}
		if seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
		if len(out) >= fv.maxDerived {
			return out
		}
	}
	src := q
	if len(phrases) > 0 {
		src = strings.Join(phrases, " ")
	}
	ts := questionTokens(src)
	if len(ts) < 2 {
		return out
	}
	sorted := append([]string{}, ts...)
	sort.SliceStable(sorted, func(i, j int) bool { return CPLen(sorted[i]) > CPLen(sorted[j]) })
	for _, t := range sorted {
		if (insp && fv.inspirationSkip[t]) || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, t)
		if len(out) >= fv.maxDerived {
			break
		}
	}
	return out
}

func priorityOnly(q string) bool {
	if len(actionDateContextProbes(q)) > 0 {
		return true
	}
	return len(filteredPhraseProbes(q)) >= 2 && strings.Contains(fanoutLowered(q), " and ")
}

// PlanTexts is FANOUT-13.
func PlanTexts(raw, base string) []string {
	var out []string
	push := func(s string) {
		if t := Normalise(s); t != "" && !contains(out, t) {
			out = append(out, t)
		}
	}
	raw, base = Normalise(raw), Normalise(base)
	src := raw
	if src == "" {
		src = base
	}
	prio := prioritySubqueries(src)
	var items []string
	if priorityOnly(src) && len(prio) >= 2 {
		items = append(append(items, prio...), filteredPhraseProbes(src)...)
	} else {
		items = append(append(items, prio...), src, base)
		items = append(items, derivedSubqueries(src)...)
	}
	for _, it := range items {
		push(it)
	}
	if len(out) > fv.maxQueries {
		out = out[:fv.maxQueries]
	}
	return out
}

// PlanExpressions is FANOUT-14.
func PlanExpressions(raw, base string, aliases *Aliases, stop map[string]bool) []string {
	probes := phraseProbes(raw)
	var out []string
	for _, it := range PlanTexts(raw, base) {
		if contains(probes, it) && strings.Contains(it, " ") && !strings.Contains(it, `"`) {
			it = `"` + it + `"`
		}
		_, _, toks := Parse(it, aliases, stop)
		if e := Compile(toks); e != "" && !contains(out, e) {
			out = append(out, e)
			if len(out) >= fv.maxQueries {
				break
			}
		}
	}
	return out
}

// -- merging (FANOUT-16, FANOUT-17, FANOUT-20) ---------------------------------------------------

func bypassesGate(expr string) bool {
	if hasASCIIDigit(expr) {
		return true
	}
	n := 0
	for _, p := range strings.Split(expr, " ") {
		if p != "" && p != "AND" && p != "OR" && p != "NOT" {
			n++
		}
	}
	return n >= fv.phraseMin && n <= fv.phraseMax
}

func fanoutOverlap(primary, other []Candidate) int {
	ids := map[string]bool{}
	for i := 0; i < len(primary) && i < fv.overlapWindow; i++ {
		ids[primary[i].ID] = true
	}
	if len(ids) == 0 {
		return 0
	}
	n := 0
	for i := 0; i < len(other) && i < fv.overlapWindow; i++ {
		if ids[other[i].ID] {
			n++
		}
	}
	return n
}

func fanoutKept(primary []Candidate, expr string, hits []Candidate) bool {
	return len(primary) == 0 || bypassesGate(expr) || fanoutOverlap(primary, hits) >= fv.overlapMin
}

func fanoutMerge(lists [][]Candidate, candidateK int64) []Candidate {
	switch len(lists) {
	case 0:
		return nil
	case 1:
		return firstN(lists[0], candidateK)
	}
	var rl []RankedList
	for _, l := range lists {
		rl = append(rl, RankedList{"bm25", 1, l})
	}
	var out []Candidate
	for _, f := range RRF(rl, fanoutMergeK) {
		out = append(out, f.Candidate)
	}
	return firstN(out, candidateK)
}
