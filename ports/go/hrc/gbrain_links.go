package hrc

// Profile gbrain: zero-LLM link extraction and link-type inference
// (spec/profiles/gbrain.md GBRAIN-1..9). Offsets are byte offsets of one blanked line.

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/text/unicode/norm"
)

const gbrainDataFile = "profiles/gbrain/links.json"

type gbrainTrigger struct {
	typ   string
	words [][]string
}

type gbrainLinkTable struct {
	wikilink, markdown, typed                *regexp.Regexp
	wikilinkGroup, markdownGroup, typedGroup int
	window                                   int
	defaultType                              string
	triggers                                 []gbrainTrigger
}

var gbrainTable *gbrainLinkTable

// loadGbrain reads links.json at start-up (GBRAIN-1): a missing file fails before hello.
func loadGbrain() error {
	type pat struct {
		Source string `json:"source"`
		Target int    `json:"target"`
		Label  int    `json:"label"`
	}
	var doc struct {
		Patterns struct {
			Wikilink pat `json:"wikilink"`
			Markdown pat `json:"markdown"`
			Typed    pat `json:"typed"`
		} `json:"patterns"`
		Window      int    `json:"window"`
		DefaultType string `json:"defaultType"`
		Types       []struct {
			Type     string   `json:"type"`
			Triggers []string `json:"triggers"`
		} `json:"types"`
	}
	if err := readData(gbrainDataFile, &doc); err != nil {
		return err
	}
	t := &gbrainLinkTable{window: doc.Window, defaultType: doc.DefaultType,
		wikilinkGroup: doc.Patterns.Wikilink.Target, markdownGroup: doc.Patterns.Markdown.Target,
		typedGroup: doc.Patterns.Typed.Label}
	var err error
	if t.wikilink, err = regexp.Compile(doc.Patterns.Wikilink.Source); err != nil {
		return err
	}
	if t.markdown, err = regexp.Compile(doc.Patterns.Markdown.Source); err != nil {
		return err
	}
	if t.typed, err = regexp.Compile(doc.Patterns.Typed.Source); err != nil {
		return err
	}
	for _, ty := range doc.Types {
		tr := gbrainTrigger{typ: ty.Type}
		for _, w := range ty.Triggers {
			tr.words = append(tr.words, strings.Split(w, " "))
		}
		t.triggers = append(t.triggers, tr)
	}
	if t.window < 1 || len(t.triggers) == 0 {
		return fmt.Errorf("%s has no types or no window", gbrainDataFile)
	}
	gbrainTable = t
	return nil
}

// gbrainUTF16Len is the length of s in UTF-16 code units (a rune above U+FFFF counts two).
func gbrainUTF16Len(s string) int {
	n := 0
	for _, r := range s {
		if r > 0xFFFF {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// gbrainStripCode is GBRAIN-3 and GBRAIN-4, gbrain's stripCodeBlocks on the whole text: from ```
// to the next ``` anywhere (or the end), and from one backtick to the next with no line end
// between, the span becomes one space per UTF-16 code unit; any other backtick stays.
func gbrainStripCode(text string) string {
	if !strings.Contains(text, "`") {
		return text
	}
	var b strings.Builder
	i, n := 0, len(text)
	for i < n {
		tick := strings.IndexByte(text[i:], '`')
		if tick < 0 {
			b.WriteString(text[i:])
			break
		}
		b.WriteString(text[i : i+tick])
		i += tick
		if strings.HasPrefix(text[i:], "```") {
			stop := n
			if end := strings.Index(text[i+3:], "```"); end >= 0 {
				stop = i + 3 + end + 3
			}
			b.WriteString(strings.Repeat(" ", gbrainUTF16Len(text[i:stop])))
			i = stop
			continue
		}
		end := strings.IndexByte(text[i+1:], '`')
		if end < 0 || strings.IndexByte(text[i+1:i+1+end], '\n') >= 0 {
			b.WriteByte('`')
			i++
			continue
		}
		stop := i + 1 + end + 1
		b.WriteString(strings.Repeat(" ", gbrainUTF16Len(text[i:stop])))
		i = stop
	}
	return b.String()
}

// gbrainResolve is GBRAIN-6 steps 3-6; ok is false when no page results.
func gbrainResolve(target string, base []string) (string, bool) {
	t := norm.NFC.String(target)
	t = strings.TrimSuffix(t, ".md")
	var segs []string
	if strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../") {
		segs = append(segs, base...)
	}
	for _, seg := range strings.Split(t, "/") {
		switch seg {
		case "", ".":
		case "..":
			if len(segs) == 0 {
				return "", false
			}
			segs = segs[:len(segs)-1]
		default:
			segs = append(segs, seg)
		}
	}
	if len(segs) == 0 {
		return "", false
	}
	return strings.Join(segs, "/"), true
}

var gbrainExternal = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.\-]*:`)

// gbrainTargetPage is GBRAIN-6.
func gbrainTargetPage(target string, base []string) (string, bool) {
	if gbrainExternal.MatchString(target) || strings.HasPrefix(target, "//") {
		return "", false
	}
	if h := strings.IndexByte(target, '#'); h >= 0 {
		target = target[:h]
	}
	return gbrainResolve(target, base)
}

type gbrainSpan struct {
	start, end int
	target     string
}

// gbrainSpans is GBRAIN-5: wikilinks, then markdown links on the line with wikilinks blanked.
func gbrainSpans(line string, t *gbrainLinkTable) []gbrainSpan {
	var spans []gbrainSpan
	rest := []byte(line)
	for _, m := range t.wikilink.FindAllStringSubmatchIndex(line, -1) {
		g := 2 * t.wikilinkGroup
		spans = append(spans, gbrainSpan{m[0], m[1], line[m[g]:m[g+1]]})
		for i := m[0]; i < m[1]; i++ {
			rest[i] = ' '
		}
	}
	r := string(rest)
	for _, m := range t.markdown.FindAllStringSubmatchIndex(r, -1) {
		if m[0] > 0 && r[m[0]-1] == '!' {
			continue
		}
		g := 2 * t.markdownGroup
		spans = append(spans, gbrainSpan{m[0], m[1], r[m[g]:m[g+1]]})
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	return spans
}

// gbrainWords is GBRAIN-8's words: maximal [a-z0-9] runs after ASCII lowercasing.
func gbrainWords(s string) []string {
	var out []string
	var cur []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 32
		}
		if (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') {
			cur = append(cur, c)
			continue
		}
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = cur[:0]
		}
	}
	if len(cur) > 0 {
		out = append(out, string(cur))
	}
	return out
}

func gbrainOccurrences(words, trigger []string) []int {
	var out []int
	for i := 0; i+len(trigger) <= len(words); i++ {
		match := true
		for k, w := range trigger {
			if words[i+k] != w {
				match = false
				break
			}
		}
		if match {
			out = append(out, i)
		}
	}
	return out
}

// gbrainSentenceEnds is GBRAIN-8: `.`, `!`, `?` outside link spans, then space, tab or the end.
func gbrainSentenceEnds(line string, spans []gbrainSpan) []int {
	inside := make([]bool, len(line))
	for _, s := range spans {
		for i := s.start; i < s.end; i++ {
			inside[i] = true
		}
	}
	var ends []int
	for p := 0; p < len(line); p++ {
		c := line[p]
		if (c != '.' && c != '!' && c != '?') || inside[p] {
			continue
		}
		if p+1 == len(line) || line[p+1] == ' ' || line[p+1] == '\t' {
			ends = append(ends, p)
		}
	}
	return ends
}

// gbrainWindows is GBRAIN-8: per span, the last window words of its sentence before it and the
// first after it, every link span a separator. The line is tokenised once, left to right, so
// the cost is linear in its length; re-tokenising the sentence per link was quadratic (issue 29).
func gbrainWindows(line string, spans []gbrainSpan, ends []int, window int) [][2][]string {
	type bound struct{ lo, hi, k int }
	bounds := make([]bound, 0, len(spans)+len(ends))
	for k, s := range spans {
		bounds = append(bounds, bound{s.start, s.end, k})
	}
	for _, p := range ends {
		bounds = append(bounds, bound{p, p + 1, -1})
	}
	sort.Slice(bounds, func(i, j int) bool { return bounds[i].lo < bounds[j].lo })
	var words []string
	marks := make([][3]int, len(spans))
	var stops []int
	first, pos := 0, 0
	for _, b := range bounds {
		if b.lo > pos {
			words = append(words, gbrainWords(line[pos:b.lo])...)
		}
		pos = b.hi
		if b.k < 0 {
			stops = append(stops, len(words))
			first = len(words)
		} else {
			marks[b.k] = [3]int{first, len(words), len(stops)}
		}
	}
	if pos < len(line) {
		words = append(words, gbrainWords(line[pos:])...)
	}
	stops = append(stops, len(words))
	out := make([][2][]string, len(spans))
	for k, m := range marks {
		lo, at, stop := max(m[0], m[1]-window), m[1], min(stops[m[2]], m[1]+window)
		out[k] = [2][]string{words[lo:at], words[at:stop]}
	}
	return out
}

// gbrainInfer is GBRAIN-8: the type of the nearest trigger among a link's window words.
func gbrainInfer(before, after []string, t *gbrainLinkTable) string {
	bestDist, bestRank := -1, -1
	consider := func(dist, rank int) {
		if bestDist < 0 || dist < bestDist || (dist == bestDist && rank < bestRank) {
			bestDist, bestRank = dist, rank
		}
	}
	for rank, tr := range t.triggers {
		for _, words := range tr.words {
			for _, i := range gbrainOccurrences(before, words) {
				consider(len(before)-(i+len(words)-1), rank)
			}
			for _, j := range gbrainOccurrences(after, words) {
				consider(j+1, rank)
			}
		}
	}
	if bestRank < 0 {
		return t.defaultType
	}
	return t.triggers[bestRank].typ
}

var gbrainLabelSep = regexp.MustCompile(`[ _\-]+`)

// gbrainTypedLabel is GBRAIN-7.
func gbrainTypedLabel(line string, t *gbrainLinkTable) (string, bool) {
	m := t.typed.FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	var b strings.Builder
	for _, c := range []byte(m[t.typedGroup]) {
		if c >= 'A' && c <= 'Z' {
			c += 32
		}
		b.WriteByte(c)
	}
	label := strings.Trim(gbrainLabelSep.ReplaceAllString(b.String(), "_"), "_")
	return label, label != ""
}

// GbrainEdge is one typed edge (GBRAIN-2).
type GbrainEdge struct{ From, To, Type string }

func (e GbrainEdge) toJSON() map[string]any {
	return map[string]any{"from": e.From, "to": e.To, "type": e.Type}
}

// GbrainExtract is GBRAIN-2..9; ok is false when path names no page.
func GbrainExtract(path, markdown string) (string, []GbrainEdge, bool) {
	t := gbrainTable
	page, ok := gbrainResolve(path, nil)
	if !ok {
		return "", nil, false
	}
	parts := strings.Split(page, "/")
	base := parts[:len(parts)-1]
	md := strings.ReplaceAll(strings.ReplaceAll(markdown, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(gbrainStripCode(md), "\n")
	seen := map[[2]string]bool{}
	var edges []GbrainEdge
	for _, blanked := range lines {
		spans := gbrainSpans(blanked, t)
		label, typed := gbrainTypedLabel(blanked, t)
		var windows [][2][]string
		if !typed && len(spans) > 0 {
			windows = gbrainWindows(blanked, spans, gbrainSentenceEnds(blanked, spans), t.window)
		}
		for k, s := range spans {
			to, ok := gbrainTargetPage(s.target, base)
			if !ok || to == page {
				continue
			}
			ty := label
			if !typed {
				ty = gbrainInfer(windows[k][0], windows[k][1], t)
			}
			key := [2]string{to, ty}
			if !seen[key] {
				seen[key] = true
				edges = append(edges, GbrainEdge{page, to, ty})
			}
		}
	}
	sort.Slice(edges, func(i, j int) bool {
		if edges[i].To != edges[j].To {
			return edges[i].To < edges[j].To
		}
		return edges[i].Type < edges[j].Type
	})
	return page, edges, true
}
