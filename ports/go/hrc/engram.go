package hrc

// The engram profile (spec/profiles/engram.md, ENGRAM-*): intent channels, boost, threshold.

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// EngramVersion is the profile version this port implements (PROTO-31).
const EngramVersion = "3.0.0"

var engramChannels = []string{"vector", "bm25", "graph"}

type engramPattern struct {
	name string
	re   *regexp.Regexp
}

// The patterns stay in a slice, in table order: a map would iterate in random order (ENGRAM-3).
var engramPatterns []engramPattern
var engramDefault string
var engramWeights = map[string]map[string]float64{}

// loadEngramTable reads spec/data/profiles/engram/intent.json (ENGRAM-1), failing loudly.
func loadEngramTable() error {
	var f struct {
		Patterns []struct {
			Name   string `json:"name"`
			Source string `json:"source"`
		} `json:"patterns"`
		Default string                    `json:"default"`
		Weights map[string]map[string]any `json:"weights"`
	}
	const name = "profiles/engram/intent.json"
	if err := readData(name, &f); err != nil {
		return err
	}
	if len(f.Patterns) == 0 || f.Default == "" {
		return fmt.Errorf("%s: malformed", name)
	}
	engramPatterns = nil
	names := []string{}
	for _, p := range f.Patterns {
		// ENGRAM-2: no (?i); RE2's \b is ASCII; the seed's capturing groups only group.
		re, err := regexp.Compile(p.Source)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", name, p.Name, err)
		}
		engramPatterns = append(engramPatterns, engramPattern{p.Name, re})
		names = append(names, p.Name)
	}
	engramDefault = f.Default
	for _, n := range append(names, f.Default) {
		row, ok := f.Weights[n]
		if !ok {
			return fmt.Errorf("%s: no weights for %s", name, n)
		}
		engramWeights[n] = map[string]float64{}
		for _, ch := range engramChannels {
			w, ok := asFloat(row[ch])
			if !ok || w < 0 {
				return fmt.Errorf("%s: bad weight %s.%s", name, n, ch)
			}
			engramWeights[n][ch] = w
		}
	}
	return nil
}

// EngramClassify returns the class, every matching pattern in table order, and the class's
// weights (ENGRAM-3, ENGRAM-4).
func EngramClassify(query string) (string, []string, map[string]float64) {
	text := Fold(query)
	// ENGRAM-3: the most non-overlapping matches win, ties to table order (a slice, never a map).
	matched := []string{}
	intent := engramDefault
	best := 0
	for _, p := range engramPatterns {
		n := len(p.re.FindAllStringIndex(text, -1))
		if n > 0 {
			matched = append(matched, p.name)
		}
		if n > best {
			best, intent = n, p.name
		}
	}
	w := map[string]float64{}
	for k, v := range engramWeights[intent] {
		w[k] = v
	}
	return intent, matched, w
}

var engramForm = regexp.MustCompile(`^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:T([0-9]{2}):([0-9]{2}):([0-9]{2})Z)?$`)
var engramCount = regexp.MustCompile(`^(?:0|[1-9][0-9]*)$`)

func engramDaysInMonth(y, m int64) int64 {
	if m == 2 {
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	}
	if m == 4 || m == 6 || m == 9 || m == 11 {
		return 30
	}
	return 31
}

// floorDiv is division rounding down: Go's / truncates toward zero.
func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func engramDaysFromCivil(year, month, day int64) int64 {
	y := year
	if month <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mp := (month + 9) % 12
	doy := (153*mp+2)/5 + day - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// engramParseDate reads the two UTC forms of ENGRAM-7 in integers (no time package).
func engramParseDate(s string) (string, int64, bool) {
	m := engramForm.FindStringSubmatch(s)
	if m == nil {
		return "", 0, false
	}
	n := func(i int) int64 { v, _ := strconv.ParseInt(m[i], 10, 64); return v }
	year, month, day := n(1), n(2), n(3)
	if year < 1 || month < 1 || month > 12 || day < 1 || day > engramDaysInMonth(year, month) {
		return "", 0, false
	}
	var hh, mm, ss int64
	if m[4] != "" {
		hh, mm, ss = n(4), n(5), n(6)
		if hh > 23 || mm > 59 || ss > 59 {
			return "", 0, false
		}
	}
	return s[:10], engramDaysFromCivil(year, month, day)*86400 + hh*3600 + mm*60 + ss, true
}

// engramSignalPatterns are ENGRAM-8: engram's temporal signal patterns in engram's order
// (raya-ac/engram engram/retrieval.py:422-442, a7527a1, MIT), \d read as [0-9], \b ASCII.
var engramMonths = []string{"january", "february", "march", "april", "may", "june", "july",
	"august", "september", "october", "november", "december"}
var engramMonth = "(" + strings.Join(engramMonths, "|") + ")"
var engramSignalPatterns = []*regexp.Regexp{
	regexp.MustCompile(`\b([0-9]{4}-[0-9]{2}-[0-9]{2})\b`),
	regexp.MustCompile(`\b([0-9]{4}-[0-9]{2})\b`),
	regexp.MustCompile(`\b` + engramMonth + ` ([0-9]{4})\b`),
	regexp.MustCompile(`\b` + engramMonth + ` ([0-9]{1,2})\b`),
}

// engramMonthDayYear is the year engram's code writes for "month D", verbatim.
const engramMonthDayYear = "2026"

// engramQuerySignal is ENGRAM-8: the first pattern that matches the ASCII-lowered normalised
// query gives the one signal; ok false when none matches.
func engramQuerySignal(normalized string) (string, bool) {
	b := []byte(normalized)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	text := string(b)
	for i, rx := range engramSignalPatterns {
		m := rx.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		if i < 2 {
			return m[1], true
		}
		month := 0
		for j, name := range engramMonths {
			if name == m[1] {
				month = j + 1
			}
		}
		if i == 2 {
			return fmt.Sprintf("%s-%02d", m[2], month), true
		}
		day, _ := strconv.Atoi(m[2])
		return fmt.Sprintf("%s-%02d-%02d", engramMonthDayYear, month, day), true
	}
	return "", false
}

func engramAccessCount(meta map[string]string) float64 {
	raw, ok := meta["engram.accessCount"]
	if !ok || !engramCount.MatchString(raw) || len(raw) > 16 {
		return 0
	}
	v, ok := new(big.Int).SetString(raw, 10)
	if !ok || v.Cmp(big.NewInt(1<<53-1)) > 0 {
		return 0
	}
	return float64(v.Int64())
}

type engramOptions struct {
	now          string
	nowSeconds   int64
	halfLifeDays float64
}

// parseEngramOptions validates now and halfLifeDays (ENGRAM-7, ENGRAM-13, ENGRAM-15).
func parseEngramOptions(m map[string]any, where string, allowed []string) (engramOptions, error) {
	for _, k := range sortedKeys(m) {
		ok := false
		for _, a := range allowed {
			ok = ok || a == k
		}
		if !ok {
			return engramOptions{}, invalid("%s.%s: unknown field", where, k)
		}
	}
	nv, ok := present(m, "now")
	s, isStr := nv.(string)
	if !ok || !isStr {
		return engramOptions{}, invalid("%s.now must be a date string", where)
	}
	_, secs, ok := engramParseDate(s)
	if !ok {
		return engramOptions{}, invalid("%s.now: not YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ", where)
	}
	opts := engramOptions{now: s, nowSeconds: secs, halfLifeDays: 30}
	if hv, ok := present(m, "halfLifeDays"); ok {
		h, ok := asFloat(hv)
		if !ok || !(h > 0) {
			return engramOptions{}, invalid("%s.halfLifeDays must be a finite number > 0", where)
		}
		opts.halfLifeDays = h
	}
	return opts, nil
}

type engramItem struct {
	id    string
	meta  map[string]string
	score float64
}

// engramBoost applies ENGRAM-8..11 and returns the query's dates and the records in order.
func engramBoost(query string, opts engramOptions, items []engramItem) (any, []map[string]any) {
	signal, hasSignal := engramQuerySignal(strings.Join(strings.FieldsFunc(query, engramPySpace), " "))
	var wanted any
	if hasSignal {
		wanted = signal
	}
	recs := make([]map[string]any, len(items))
	scores := make([]float64, len(items))
	for i, it := range items {
		dateMatch := false
		var age any
		recency := 1.0
		// ENGRAM-8: the signal found in the fact date (a substring test, as engram's `in`).
		if fact, ok := it.meta["engram.factDate"]; ok && hasSignal {
			dateMatch = strings.Contains(fact, signal)
		}
		if raw, ok := it.meta["engram.date"]; ok {
			if _, secs, ok := engramParseDate(raw); ok {
				diff := opts.nowSeconds - secs
				if diff < 0 {
					diff = 0
				}
				a := float64(diff) / 86400
				age = a
				if it.meta["engram.kind"] == "episodic" {
					// float64(...) around each step keeps Go from fusing into an FMA.
					decayed := math.Exp(float64(float64(-0.693*a) / opts.halfLifeDays))
					recency = 0.5
					if decayed > 0.5 {
						recency = decayed
					}
				}
			}
		}
		access := 1.0 + float64(0.1*math.Log(1.0+engramAccessCount(it.meta)))
		date := 1.0
		if dateMatch {
			date = 2.0
		}
		s := float64(float64(float64(it.score*date)*recency) * access)
		scores[i] = s
		recs[i] = map[string]any{"id": it.id, "score": s, "dateMatch": dateMatch, "ageDays": age,
			"recency": recency, "access": access}
	}
	order := make([]int, len(items))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return scores[order[a]] > scores[order[b]] })
	out := make([]map[string]any, len(items))
	for i, j := range order {
		out[i] = recs[j]
	}
	return wanted, out
}

func opEngramClassify(in map[string]any) (map[string]any, error) {
	q, err := reqString(in, "query")
	if err != nil {
		return nil, err
	}
	intent, matched, w := EngramClassify(q)
	return map[string]any{"intent": intent, "matched": matched, "weights": w}, nil
}

func opEngramBoost(in map[string]any) (map[string]any, error) {
	q, err := reqString(in, "query")
	if err != nil {
		return nil, err
	}
	sub := map[string]any{}
	for _, k := range []string{"now", "halfLifeDays"} {
		if v, ok := in[k]; ok {
			sub[k] = v
		}
	}
	opts, err := parseEngramOptions(sub, "input", []string{"now", "halfLifeDays"})
	if err != nil {
		return nil, err
	}
	cands, scores, err := scoredResults(in)
	if err != nil {
		return nil, err
	}
	items := make([]engramItem, len(cands))
	for i, c := range cands {
		items[i] = engramItem{c.ID, c.Metadata, scores[i]}
	}
	wanted, recs := engramBoost(q, opts, items)
	return map[string]any{"querySignal": wanted, "results": recs}, nil
}

func init() {
	RegisterProfile(&Profile{
		Name:    "engram",
		Version: EngramVersion,
		Operations: map[string]handler{
			"engram.classify": opEngramClassify,
			"engram.boost":    opEngramBoost,
			"engram.search":   opEngramSearch,
		},
	})
}
