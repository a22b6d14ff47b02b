package hrc

// Profile `temporal` (spec/profiles/temporal.md, TEMPORAL-*): the anchor's temporal expansion,
// written from the chapter. The calendar is integer arithmetic on day numbers (TEMPORAL-9),
// not package time: no local zone, no clock. Matching runs on an ASCII-lowercased copy of the
// normalised query, never through (?i) (which folds ſ and K) or strings.ToLower (İ -> i).

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// TemporalVersion is the profile version this port implements (PROFILE-2).
const TemporalVersion = "1.0.0"

type temporalRecogniser struct {
	name string
	re   *regexp.Regexp
}

var temporal struct {
	recognisers []temporalRecogniser
	countWords  map[string]int
	units       map[string]string
	weekdays    []string
	ordering    []struct {
		Words []string `json:"words"`
		Note  string   `json:"note"`
	}
}

var temporalNames = []string{"relative_time", "relative_day", "last_week", "last_weekday"}

// loadTemporal reads spec/data/profiles/temporal/recognisers.json (TEMPORAL-3).
func loadTemporal() error {
	var f struct {
		Recognisers []struct {
			Name   string `json:"name"`
			Source string `json:"source"`
			Flags  string `json:"flags"`
		} `json:"recognisers"`
		CountWords map[string]int    `json:"countWords"`
		Units      map[string]string `json:"units"`
		Weekdays   []string          `json:"weekdays"`
		Ordering   []struct {
			Words []string `json:"words"`
			Note  string   `json:"note"`
		} `json:"ordering"`
	}
	const name = "profiles/temporal/recognisers.json"
	if err := readData(name, &f); err != nil {
		return err
	}
	if len(f.Recognisers) != len(temporalNames) || len(f.Weekdays) != 7 {
		return fmt.Errorf("%s: malformed", name)
	}
	temporal.recognisers = nil
	for i, r := range f.Recognisers {
		if r.Name != temporalNames[i] || (r.Flags != "" && r.Flags != "i") {
			return fmt.Errorf("%s: recogniser %d is %q", name, i, r.Name)
		}
		// INTENT-3 reading for Go: no (?i); the text is ASCII-lowercased instead.
		re, err := regexp.Compile(r.Source)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", name, r.Name, err)
		}
		temporal.recognisers = append(temporal.recognisers, temporalRecogniser{r.Name, re})
	}
	temporal.countWords, temporal.units, temporal.weekdays = f.CountWords, f.Units, f.Weekdays
	temporal.ordering = f.Ordering
	return nil
}

// fdiv and fmod are floored (TEMPORAL-9); Go's / and % truncate toward zero.
func fdiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func fmod(a, b int) int { return a - b*fdiv(a, b) }

func isLeap(y int) bool { return (y%4 == 0 && y%100 != 0) || y%400 == 0 }

func daysInMonth(y, m int) int {
	switch m {
	case 2:
		if isLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func daysFromCivil(y, m, d int) int {
	if m <= 2 {
		y--
	}
	era := fdiv(y, 400)
	yoe := y - era*400
	mp := m + 9
	if m > 2 {
		mp = m - 3
	}
	doy := fdiv(153*mp+2, 5) + d - 1
	doe := yoe*365 + fdiv(yoe, 4) - fdiv(yoe, 100) + doy
	return era*146097 + doe - 719468
}

func civilFromDays(n int) (int, int, int) {
	z := n + 719468
	era := fdiv(z, 146097)
	doe := z - era*146097
	yoe := fdiv(doe-fdiv(doe, 1460)+fdiv(doe, 36524)-fdiv(doe, 146096), 365)
	doy := doe - (365*yoe + fdiv(yoe, 4) - fdiv(yoe, 100))
	mp := fdiv(5*doy+2, 153)
	d := doy - fdiv(153*mp+2, 5) + 1
	m := mp - 9
	if mp < 10 {
		m = mp + 3
	}
	y := yoe + era*400
	if m <= 2 {
		y++
	}
	return y, m, d
}

// weekdayOf: 0 = Sunday (TEMPORAL-10), floored.
func weekdayOf(n int) int { return fmod(n+4, 7) }

var minDay, maxDay = daysFromCivil(1, 1, 1), daysFromCivil(9999, 12, 31)

func dayInRange(n int) bool { return n >= minDay && n <= maxDay } // TEMPORAL-11

// monthsBack: TEMPORAL-12's roll-over; ok false when out of range.
func monthsBack(anchor, count int) (int, bool) {
	y, m, d := civilFromDays(anchor)
	t := y*12 + (m - 1) - count
	ty, tm := fdiv(t, 12), fmod(t, 12)+1
	if ty < 1 {
		return 0, false
	}
	out := daysFromCivil(ty, tm, 1) + d - 1
	return out, dayInRange(out)
}

func slashDate(n int) string { // TEMPORAL-13
	y, m, d := civilFromDays(n)
	return fmt.Sprintf("%04d/%02d/%02d", y, m, d)
}

var (
	formA = regexp.MustCompile(`^([0-9]{4})[-/]([0-9]{2})[-/]([0-9]{2})(?: \([A-Za-z]{3}\))?(?: ([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?)?$`)
	formB = regexp.MustCompile(`^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.[0-9]+)?)?(Z|[-+][0-9]{2}:[0-9]{2})?$`)
)

func atoiASCII(s string) int { n, _ := strconv.Atoi(s); return n } // regex-checked [0-9]{2,4}

func civilDay(ys, ms, ds string) (int, bool) {
	y, m, d := atoiASCII(ys), atoiASCII(ms), atoiASCII(ds)
	if y < 1 || y > 9999 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m) {
		return 0, false
	}
	return daysFromCivil(y, m, d), true
}

func clockMinutes(hs, ms, ss string) (int, bool) {
	h, mi, s := atoiASCII(hs), atoiASCII(ms), 0
	if ss != "" {
		s = atoiASCII(ss)
	}
	if h > 23 || mi > 59 || s > 59 {
		return 0, false
	}
	return h*60 + mi, true
}

// parseQuestionDate: TEMPORAL-6..8, the anchor day number.
func parseQuestionDate(value string) (int, bool) {
	s := strings.Join(splitWhite(value), " ")
	if a := formA.FindStringSubmatch(s); a != nil {
		day, ok := civilDay(a[1], a[2], a[3])
		if !ok {
			return 0, false
		}
		if a[4] != "" {
			if _, ok := clockMinutes(a[4], a[5], a[6]); !ok {
				return 0, false
			}
		}
		return day, true
	}
	b := formB.FindStringSubmatch(s)
	if b == nil {
		return 0, false
	}
	day, ok1 := civilDay(b[1], b[2], b[3])
	minutes, ok2 := clockMinutes(b[4], b[5], b[6])
	if !ok1 || !ok2 {
		return 0, false
	}
	if zone := b[7]; zone != "" && zone != "Z" {
		oh, om := atoiASCII(zone[1:3]), atoiASCII(zone[4:6])
		if oh > 23 || om > 59 {
			return 0, false
		}
		offset := oh*60 + om
		if zone[0] == '+' {
			minutes -= offset
		} else {
			minutes += offset
		}
	}
	day += fdiv(minutes, 1440)
	return day, dayInRange(day)
}

// asciiLower maps A-Z to a-z only, byte for byte, so offsets stay valid (TEMPORAL-15).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

func temporalCount(word string) (int, bool) { // TEMPORAL-16
	if word != "" && strings.Trim(word, "0123456789") == "" {
		digits := strings.TrimLeft(word, "0")
		if len(digits) > 7 {
			return 0, false
		}
		return atoiASCII(word), true
	}
	n, ok := temporal.countWords[word]
	return n, ok
}

type temporalResolved struct {
	suffix string
	hints  []string
}

func resolveTemporal(name, match string, anchor int) *temporalResolved {
	one := func(day int, ok bool, format string) *temporalResolved {
		if !ok || !dayInRange(day) {
			return nil
		}
		s := slashDate(day)
		return &temporalResolved{fmt.Sprintf(format, s), []string{s}}
	}
	words := strings.Split(match, " ")
	switch name {
	case "relative_time":
		n, ok := temporalCount(words[0])
		unit, uok := temporal.units[words[1]]
		if !ok || !uok {
			return nil
		}
		switch unit {
		case "month":
			day, ok := monthsBack(anchor, n)
			return one(day, ok, "(around %s)")
		case "week":
			return one(anchor-7*n, true, "(around %s)")
		default:
			return one(anchor-n, true, "(around %s)")
		}
	case "relative_day":
		if match == "yesterday" {
			return one(anchor-1, true, "(%s)")
		}
		return one(anchor, true, "(%s)")
	case "last_week":
		if !dayInRange(anchor - 7) {
			return nil
		}
		var hints []string
		for k := 7; k >= 1; k-- {
			hints = append(hints, slashDate(anchor-k))
		}
		return &temporalResolved{fmt.Sprintf("(%s to %s)", hints[0], hints[6]), hints}
	case "last_weekday":
		target := -1
		for i, w := range temporal.weekdays {
			if w == words[len(words)-1] {
				target = i
			}
		}
		for back := 1; back <= 7; back++ {
			if weekdayOf(anchor-back) == target {
				return one(anchor-back, true, "(%s)")
			}
		}
	}
	return nil
}

// TemporalExpansion is the output of temporal.expand (TEMPORAL-2).
type TemporalExpansion struct {
	ExpandedQuery  string
	DateHints      []string
	Resolved       bool
	AugmentedQuery string
}

func dedupeStrings(xs []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// ExpandTemporal: TEMPORAL-5, TEMPORAL-14..20. questionDate nil means absent.
func ExpandTemporal(query string, questionDate *string) TemporalExpansion {
	unchanged := TemporalExpansion{query, []string{}, false, query}
	if questionDate == nil {
		return unchanged
	}
	anchor, ok := parseQuestionDate(*questionDate)
	if !ok {
		return unchanged
	}
	normalised := Normalise(query)
	s := normalised
	var hints []string
	for _, r := range temporal.recognisers {
		lowered := asciiLower(s)
		var out strings.Builder
		pos := 0
		for _, loc := range r.re.FindAllStringIndex(lowered, -1) {
			out.WriteString(s[pos:loc[1]])
			if res := resolveTemporal(r.name, lowered[loc[0]:loc[1]], anchor); res != nil {
				out.WriteString(" " + res.suffix)
				hints = append(hints, res.hints...)
			}
			pos = loc[1]
		}
		out.WriteString(s[pos:])
		s = out.String()
	}
	if len(hints) == 0 {
		return unchanged
	}
	lowered := asciiLower(s)
	for _, o := range temporal.ordering {
		found := false
		for _, w := range o.Words {
			if strings.Contains(lowered, w) {
				found = true
			}
		}
		if found {
			s += " " + o.Note
			break
		}
	}
	dateHints := dedupeStrings(hints)
	var tokens []string
	for _, h := range dateHints {
		tokens = append(tokens, `"`+h+`"`, `"`+strings.ReplaceAll(h, "/", "-")+`"`)
	}
	tokens = dedupeStrings(tokens)
	return TemporalExpansion{s, dateHints, true, normalised + " " + strings.Join(tokens, " ")}
}

// questionDateInput: TEMPORAL-2, a string, null or absent.
func questionDateInput(m map[string]any, where string) (*string, error) {
	v, ok := present(m, "questionDate")
	if !ok {
		return nil, nil
	}
	s, isStr := v.(string)
	if !isStr {
		return nil, invalid("%squestionDate must be a string or null", where)
	}
	return &s, nil
}

func opTemporalExpand(in map[string]any) (map[string]any, error) {
	query, err := reqString(in, "query")
	if err != nil {
		return nil, err
	}
	qd, err := questionDateInput(in, "")
	if err != nil {
		return nil, err
	}
	e := ExpandTemporal(query, qd)
	return map[string]any{"expandedQuery": e.ExpandedQuery, "dateHints": e.DateHints,
		"resolved": e.Resolved, "augmentedQuery": e.AugmentedQuery}, nil
}

// TEMPORAL-21: request.profiles.temporal is {questionDate?}.
func temporalParseRequest(options map[string]any) (any, error) {
	for _, k := range sortedKeys(options) {
		if k != "questionDate" {
			return nil, invalid("request.profiles.temporal: unknown option %s", k)
		}
	}
	return questionDateInput(options, "request.profiles.temporal.")
}

// temporalRewrite: the query becomes augmentedQuery; the trace records the expansion.
func temporalRewrite(c *ProfileCall, query string) string {
	qd, _ := c.Options.(*string)
	e := ExpandTemporal(query, qd)
	var given any
	if qd != nil {
		given = *qd
	}
	c.Trace["questionDate"] = given
	c.Trace["expandedQuery"] = e.ExpandedQuery
	c.Trace["dateHints"] = e.DateHints
	c.Trace["resolved"] = e.Resolved
	c.Trace["augmentedQuery"] = e.AugmentedQuery
	return e.AugmentedQuery
}

func init() {
	RegisterProfile(&Profile{
		Name:       "temporal",
		Version:    TemporalVersion,
		Operations: map[string]handler{"temporal.expand": opTemporalExpand},
		Pipeline:   &PipelineHooks{ParseRequest: temporalParseRequest, RewriteQuery: temporalRewrite, FanoutBase: temporalRewrite},
	})
}
