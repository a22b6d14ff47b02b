package hrc

// Profile gbrain: zero-LLM link extraction and link-type inference
// (spec/profiles/gbrain.md GBRAIN-1..9). Offsets are byte offsets of one blanked line; the
// inference window (GBRAIN-8) counts UTF-16 code units of the markdown as given.

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf16"

	"golang.org/x/text/unicode/norm"
)

const gbrainDataFile = "profiles/gbrain/links.json"

type gbrainType struct {
	typ  string
	re   *regexp.Regexp
	fold bool // flag i: read as JavaScript without u, ASCII letters only
}

type gbrainLinkTable struct {
	wikilink, markdown, typed                *regexp.Regexp
	wikilinkGroup, markdownGroup, typedGroup int
	wikilinkText, markdownText               int
	window                                   int
	defaultType                              string
	types                                    []gbrainType
	directories                              map[string]bool
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
			Wikilink pat `json:"wikilink"`
			Markdown pat `json:"markdown"`
			Typed    pat `json:"typed"`
		} `json:"patterns"`
		Window      int      `json:"window"`
		DefaultType string   `json:"defaultType"`
		Directories []string `json:"directories"`
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
		wikilinkGroup: doc.Patterns.Wikilink.Target, markdownGroup: doc.Patterns.Markdown.Target,
		typedGroup: doc.Patterns.Typed.Label, wikilinkText: doc.Patterns.Wikilink.Text,
		markdownText: doc.Patterns.Markdown.Text, directories: map[string]bool{}}
	for _, d := range doc.Directories {
		t.directories[d] = true
	}
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
	start            int
	target           string
	lookup, fallback string // GBRAIN-8: the text the code looks the link up by, and its fallback
}

// gbrainWikilinkName is GBRAIN-8's lookup of a wikilink (the code's pass 2b: its text; 2c: its target).
func gbrainWikilinkName(target, text string, t *gbrainLinkTable) (string, string) {
	head, _, _ := strings.Cut(target, "#")
	slug := strings.TrimRight(strings.Trim(head, gbrainJSSpace), "\\")
	slug = strings.TrimSuffix(slug, ".md")
	name := slug
	if text != "" {
		name = strings.Trim(text, gbrainJSSpace)
	}
	dir, after, found := strings.Cut(head, "/")
	if found && t.directories[dir] && after != "" {
		return name, name
	}
	return slug, name
}

// gbrainSpans is GBRAIN-5: wikilinks, then markdown links on the line with wikilinks blanked.
func gbrainSpans(line string, t *gbrainLinkTable) []gbrainSpan {
	var spans []gbrainSpan
	rest := []byte(line)
	for _, m := range t.wikilink.FindAllStringSubmatchIndex(line, -1) {
		g, x := 2*t.wikilinkGroup, 2*t.wikilinkText
		target, text := line[m[g]:m[g+1]], ""
		if m[x] >= 0 {
			text = line[m[x]:m[x+1]]
		}
		lookup, fallback := gbrainWikilinkName(target, text, t)
		spans = append(spans, gbrainSpan{m[0], target, lookup, fallback})
		for i := m[0]; i < m[1]; i++ {
			rest[i] = ' '
		}
	}
	r := string(rest)
	for _, m := range t.markdown.FindAllStringSubmatchIndex(r, -1) {
		if m[0] > 0 && r[m[0]-1] == '!' {
			continue
		}
		g, x := 2*t.markdownGroup, 2*t.markdownText
		name := r[m[x]:m[x+1]]
		spans = append(spans, gbrainSpan{m[0], r[m[g]:m[g+1]], name, name})
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	return spans
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
	types := map[[2]string]string{}
	var u16 []uint16
	units := func() []uint16 {
		if u16 == nil {
			u16 = utf16.Encode([]rune(markdown))
		}
		return u16
	}
	var edges []GbrainEdge
	for _, blanked := range lines {
		spans := gbrainSpans(blanked, t)
		label, typed := gbrainTypedLabel(blanked, t)
		for _, s := range spans {
			to, ok := gbrainTargetPage(s.target, base)
			if !ok || to == page {
				continue
			}
			ty := label
			if !typed {
				key := [2]string{s.lookup, s.fallback}
				got, done := types[key]
				if !done {
					got = gbrainInfer(gbrainContext(markdown, units, s.lookup, s.fallback, t.window), t)
					types[key] = got
				}
				ty = got
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
