package hrc

// Profile gbrain: zero-LLM link extraction and link-type inference
// (spec/profiles/gbrain.md GBRAIN-1..9). Offsets are byte offsets of the code-stripped text;
// blanking keeps byte offsets and a group read back counts one space per UTF-16 code unit; the
// inference window (GBRAIN-8) counts UTF-16 code units of the markdown as given.

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

const gbrainDataFile = "profiles/gbrain/links.json"

type gbrainType struct {
	typ  string
	re   *regexp.Regexp
	fold bool // flag i: read as JavaScript without u, ASCII letters only
}

type gbrainPattern struct {
	re           *regexp.Regexp
	target, text int
}

type gbrainLinkTable struct {
	// the code's passes (GBRAIN-5): ENTITY_REF_RE, SAME_DIR_MD_RE, QUALIFIED_WIKILINK_RE,
	// WIKILINK_RE, MARKDOWN_LABEL_WIKILINK_RE, WIKILINK_GENERIC_RE
	markdown, sameDir, qualified, wikilink, labelWikilink, generic gbrainPattern
	typed                                                          *regexp.Regexp
	typedGroup                                                     int
	window                                                         int
	defaultType                                                    string
	types                                                          []gbrainType
}

var gbrainTable *gbrainLinkTable

// loadGbrain reads links.json at start-up (GBRAIN-1): a missing file fails before hello.
func loadGbrain() error {
	type pat struct {
		Source string `json:"source"`
		Target int    `json:"target"`
		Text   int    `json:"text"`
		Label  int    `json:"label"`
	}
	var doc struct {
		Patterns struct {
			Markdown      pat `json:"markdown"`
			SameDir       pat `json:"sameDir"`
			Qualified     pat `json:"qualified"`
			Wikilink      pat `json:"wikilink"`
			LabelWikilink pat `json:"labelWikilink"`
			Generic       pat `json:"generic"`
			Typed         pat `json:"typed"`
		} `json:"patterns"`
		Window      int    `json:"window"`
		DefaultType string `json:"defaultType"`
		Types       []struct {
			Type   string `json:"type"`
			Source string `json:"source"`
			Flags  string `json:"flags"`
		} `json:"types"`
	}
	if err := readData(gbrainDataFile, &doc); err != nil {
		return err
	}
	t := &gbrainLinkTable{window: doc.Window, defaultType: doc.DefaultType,
		typedGroup: doc.Patterns.Typed.Label}
	for _, x := range []struct {
		dst *gbrainPattern
		src pat
	}{{&t.markdown, doc.Patterns.Markdown}, {&t.sameDir, doc.Patterns.SameDir},
		{&t.qualified, doc.Patterns.Qualified}, {&t.wikilink, doc.Patterns.Wikilink},
		{&t.labelWikilink, doc.Patterns.LabelWikilink}, {&t.generic, doc.Patterns.Generic}} {
		re, err := gbrainLinkRegex(x.src.Source)
		if err != nil {
			return err
		}
		*x.dst = gbrainPattern{re, x.src.Target, x.src.Text}
	}
	var err error
	if t.typed, err = regexp.Compile(doc.Patterns.Typed.Source); err != nil {
		return err
	}
	for _, ty := range doc.Types {
		src := ty.Source
		switch ty.Flags {
		case "":
		case "i":
			src = "(?i)" + src
		default:
			return fmt.Errorf("%s: unknown flags %q", gbrainDataFile, ty.Flags)
		}
		re, err := regexp.Compile(src)
		if err != nil {
			return err
		}
		t.types = append(t.types, gbrainType{ty.Type, re, ty.Flags == "i"})
	}
	if t.window < 1 || len(t.types) == 0 {
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
// to the next ``` anywhere (or the end), and from one backtick to the next with no LF
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

type gbrainRef struct {
	start            int // where the match starts in the stripped text (its typed line, GBRAIN-7)
	target           string
	lookup, fallback string // GBRAIN-8: the text the code looks the link up by, and its fallback
}

// gbrainMasked is the stripped text with ranges blanked (the code's maskRanges), same byte
// offsets; group reads a span back with one space per UTF-16 unit of what it blanked.
type gbrainMasked struct {
	src   string
	blank []bool
	text  string
}

func gbrainMask(src string, ranges [][2]int) gbrainMasked {
	m := gbrainMasked{src: src, blank: make([]bool, len(src))}
	b := []byte(src)
	for _, r := range ranges {
		for i := r[0]; i < r[1]; i++ {
			m.blank[i] = true
			b[i] = ' '
		}
	}
	m.text = string(b)
	return m
}

func (m gbrainMasked) group(loc []int, n int) (string, bool) {
	if n <= 0 || loc[2*n] < 0 {
		return "", false
	}
	var b strings.Builder
	for i := loc[2*n]; i < loc[2*n+1]; {
		r, size := utf8.DecodeRuneInString(m.src[i:])
		if m.blank[i] {
			b.WriteString(strings.Repeat(" ", gbrainUTF16Len(m.src[i:i+size])))
		} else {
			b.WriteString(m.src[i : i+size])
		}
		_ = r
		i += size
	}
	return b.String(), true
}

// gbrainWikilinkSlug is GBRAIN-6 for a wikilink target: trimmed, trailing backslashes cut,
// skipped when empty or holding :// (pass 2c: any :), a final .md cut.
func gbrainWikilinkSlug(raw string, generic bool) (string, bool) {
	slug := strings.TrimRight(strings.Trim(raw, gbrainJSSpace), `\`)
	if slug == "" || strings.Contains(slug, "://") || (generic && strings.Contains(slug, ":")) {
		return "", false
	}
	return strings.TrimSuffix(slug, ".md"), true
}

// gbrainUpLevels is GBRAIN-6, the code's resolveRelativeSlug.
func gbrainUpLevels(folders []string, target string, up int) string {
	if up <= 0 {
		return target
	}
	keep := max(0, len(folders)-up)
	return strings.Join(append(append([]string{}, folders[:keep]...), target), "/")
}

// gbrainRefs is GBRAIN-5 and GBRAIN-6: the code's passes 1, 1b, 2a, 2b, 2c.
func gbrainRefs(stripped, page string, t *gbrainLinkTable) []gbrainRef {
	var refs []gbrainRef
	parts := strings.Split(page, "/")
	folders := parts[:len(parts)-1]
	plain := gbrainMask(stripped, nil)
	var mdRanges, wikiRanges [][2]int
	for _, loc := range t.markdown.re.FindAllStringSubmatchIndex(stripped, -1) {
		name, _ := plain.group(loc, t.markdown.text)
		raw := stripped[loc[2*t.markdown.text+1]+2 : loc[1]-1]
		up := 0
		for strings.HasPrefix(raw[3*up:], "../") {
			up++
		}
		full, _ := plain.group(loc, t.markdown.target)
		refs = append(refs, gbrainRef{loc[0], gbrainUpLevels(folders, gbrainPercentDecoded(full), up), name, name})
		mdRanges = append(mdRanges, [2]int{loc[0], loc[1]})
	}
	for _, loc := range t.sameDir.re.FindAllStringSubmatchIndex(stripped, -1) {
		name, _ := plain.group(loc, t.sameDir.text)
		leaf, _ := plain.group(loc, t.sameDir.target)
		mdRanges = append(mdRanges, [2]int{loc[0], loc[1]})
		target := gbrainSlugifyPath(strings.Join(append(append([]string{}, folders...), gbrainPercentDecoded(leaf)), "/"))
		if target != "" && target != page {
			refs = append(refs, gbrainRef{loc[0], target, name, name})
		}
	}
	for _, p := range []gbrainPattern{t.qualified, t.wikilink} {
		view := gbrainMask(stripped, wikiRanges)
		for _, loc := range p.re.FindAllStringSubmatchIndex(view.text, -1) {
			raw, _ := view.group(loc, p.target)
			slug, ok := gbrainWikilinkSlug(raw, false)
			if !ok {
				continue
			}
			text, _ := view.group(loc, p.text)
			if text == "" {
				text = slug
			}
			name := strings.Trim(text, gbrainJSSpace)
			refs = append(refs, gbrainRef{loc[0], slug, name, name})
			wikiRanges = append(wikiRanges, [2]int{loc[0], loc[1]})
		}
	}
	ranges := append(append([][2]int{}, mdRanges...), wikiRanges...)
	for _, loc := range t.labelWikilink.re.FindAllStringIndex(stripped, -1) {
		ranges = append(ranges, [2]int{loc[0], loc[1]})
	}
	view := gbrainMask(stripped, ranges)
	for _, loc := range t.generic.re.FindAllStringSubmatchIndex(view.text, -1) {
		raw, _ := view.group(loc, t.generic.target)
		slug, ok := gbrainWikilinkSlug(raw, true)
		if !ok {
			continue
		}
		text, _ := view.group(loc, t.generic.text)
		if text == "" {
			text = slug
		}
		target := slug
		if !strings.Contains(slug, "/") {
			target = gbrainSlugifyPath(slug)
		}
		if target != "" && target != page {
			refs = append(refs, gbrainRef{loc[0], target, slug, strings.Trim(text, gbrainJSSpace)})
		}
	}
	return refs
}

// gbrainJSSpace is JavaScript's white space and line terminators (\s, String.prototype.trim).
const gbrainJSSpace = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"

var gbrainJSSpaceRun = regexp.MustCompile("[" + regexp.QuoteMeta(gbrainJSSpace) + "]+")

// JavaScript's . skips CR, U+2028 and U+2029 besides LF; RE2's skips LF only.
var gbrainJSLineEnds = strings.NewReplacer("\r", "\n", "\u2028", "\n", "\u2029", "\n")

// Under RE2's (?i) the Kelvin sign folds to k and the long s to s; JavaScript's i without u does not.
var gbrainASCIIFoldOnly = strings.NewReplacer("\u212a", "\ufffd", "\u017f", "\ufffd")

// gbrainContext is GBRAIN-8: the code's excerpt(content, content.indexOf(lookup), window) in
// UTF-16 code units (a cut surrogate half becomes U+FFFD), or the fallback when lookup is absent.
func gbrainContext(markdown string, units func() []uint16, lookup, fallback string, window int) string {
	at := strings.Index(markdown, lookup)
	if at < 0 {
		return fallback
	}
	u := units()
	idx := gbrainUTF16Len(markdown[:at])
	half := window / 2
	start, end := max(0, idx-half), min(len(u), idx+half)
	cut := string(utf16.Decode(u[start:end]))
	return strings.Trim(gbrainJSSpaceRun.ReplaceAllString(cut, " "), gbrainJSSpace)
}

// gbrainInfer is GBRAIN-8: the type of the first regex of the table that matches the context.
func gbrainInfer(context string, t *gbrainLinkTable) string {
	text := gbrainJSLineEnds.Replace(context)
	folded := gbrainASCIIFoldOnly.Replace(text)
	for _, ty := range t.types {
		in := text
		if ty.fold {
			in = folded
		}
		if ty.re.MatchString(in) {
			return ty.typ
		}
	}
	return t.defaultType
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

var gbrainLineEnd = regexp.MustCompile("\r\n|\r|\n")

// GbrainExtract is GBRAIN-2..9; ok is false when path names no page.
func GbrainExtract(path, markdown string) (string, []GbrainEdge, bool) {
	t := gbrainTable
	page, ok := gbrainResolve(path, nil)
	if !ok {
		return "", nil, false
	}
	stripped := gbrainStripCode(markdown)
	if !strings.Contains(stripped, "[") {
		return page, nil, true
	}
	// GBRAIN-7: each line of the stripped text (ends LF, CR LF, CR) and its label
	var starts []int
	var labels []string
	at := 0
	for _, loc := range append(gbrainLineEnd.FindAllStringIndex(stripped, -1), nil) {
		end := len(stripped)
		if loc != nil {
			end = loc[0]
		}
		label, _ := gbrainTypedLabel(stripped[at:end], t)
		starts, labels = append(starts, at), append(labels, label)
		if loc != nil {
			at = loc[1]
		}
	}
	seen := map[[2]string]bool{}
	types := map[[2]string]string{}
	var u16 []uint16
	units := func() []uint16 {
		if u16 == nil {
			u16 = utf16.Encode([]rune(markdown))
		}
		return u16
	}
	var edges []GbrainEdge
	for _, ref := range gbrainRefs(stripped, page, t) {
		ty := labels[sort.SearchInts(starts, ref.start+1)-1]
		if ty == "" {
			key := [2]string{ref.lookup, ref.fallback}
			got, done := types[key]
			if !done {
				got = gbrainInfer(gbrainContext(markdown, units, ref.lookup, ref.fallback, t.window), t)
				types[key] = got
			}
			ty = got
		}
		key := [2]string{ref.target, ty}
		if !seen[key] {
			seen[key] = true
			edges = append(edges, GbrainEdge{page, ref.target, ty})
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
