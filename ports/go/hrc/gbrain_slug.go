package hrc

// Profile gbrain: the JavaScript string semantics gbrain's link grammar relies on
// (spec/profiles/gbrain.md GBRAIN-1, GBRAIN-6): the patterns' \s, decodeURIComponent,
// toLowerCase and the code's slugifyPath, written for RE2 and Go strings.

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// gbrainJSSpaceClass is gbrainJSSpace as RE2 class members.
func gbrainJSSpaceClass() string {
	var b strings.Builder
	for _, r := range gbrainJSSpace {
		fmt.Fprintf(&b, `\x{%04x}`, r)
	}
	return b.String()
}

// gbrainLinkRegex compiles a link pattern's JavaScript source for RE2 (GBRAIN-1): \s (only
// inside a class in these patterns) is JavaScript's white space spelled out, since RE2's \s is
// ASCII without \v; nothing else changes.
func gbrainLinkRegex(source string) (*regexp.Regexp, error) {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(source); i++ {
		c := source[i]
		if c == '\\' && i+1 < len(source) {
			if source[i+1] == 's' {
				if !inClass {
					return nil, fmt.Errorf(`%s: \s outside a class in %q`, gbrainDataFile, source)
				}
				b.WriteString(gbrainJSSpaceClass())
			} else {
				b.WriteString(source[i : i+2])
			}
			i++
			continue
		}
		if c == '[' && !inClass {
			inClass = true
		} else if c == ']' && inClass {
			inClass = false
		}
		b.WriteByte(c)
	}
	return regexp.Compile(b.String())
}

func gbrainHex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// gbrainDecodeURIComponent is JavaScript's decodeURIComponent; ok is false where it throws
// (a % without two hex digits, escapes that are not well-formed UTF-8).
func gbrainDecodeURIComponent(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '%' {
			b.WriteByte(s[i])
			i++
			continue
		}
		var run []byte
		for i < len(s) && s[i] == '%' {
			if i+2 >= len(s) {
				return "", false
			}
			hi, ok1 := gbrainHex(s[i+1])
			lo, ok2 := gbrainHex(s[i+2])
			if !ok1 || !ok2 {
				return "", false
			}
			run = append(run, hi<<4|lo)
			i += 3
		}
		if !utf8.Valid(run) {
			return "", false
		}
		b.Write(run)
	}
	return b.String(), true
}

// gbrainPercentDecoded is GBRAIN-6: a target holding % is decoded, a malformed one kept.
func gbrainPercentDecoded(target string) string {
	if !strings.Contains(target, "%") {
		return target
	}
	if d, ok := gbrainDecodeURIComponent(target); ok {
		return d
	}
	return target
}

func gbrainCased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

func gbrainCaseIgnorable(r rune) bool {
	if unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk) {
		return true
	}
	switch r { // Word_Break MidLetter, MidNumLet, Single_Quote
	case '\'', '.', ':', 0xB7, 0x387, 0x55F, 0x5F4, 0x2018, 0x2019, 0x2024, 0x2027,
		0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A:
		return true
	}
	return false
}

// gbrainFinalSigma is Unicode's Final_Sigma condition for the capital sigma at rs[i].
func gbrainFinalSigma(rs []rune, i int) bool {
	j := i - 1
	for j >= 0 && gbrainCaseIgnorable(rs[j]) {
		j--
	}
	if j < 0 || !gbrainCased(rs[j]) {
		return false
	}
	k := i + 1
	for k < len(rs) && gbrainCaseIgnorable(rs[k]) {
		k++
	}
	return k >= len(rs) || !gbrainCased(rs[k])
}

// gbrainJSLower is String.prototype.toLowerCase: the full lowercase mapping, which differs
// from Go's simple one at U+0130 and at a word-final capital sigma.
func gbrainJSLower(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		switch {
		case r == 0x130:
			b.WriteString("i\u0307")
		case r == 0x3A3 && gbrainFinalSigma(rs, i):
			b.WriteRune(0x3C2)
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

var gbrainDashes = regexp.MustCompile(`-+`)

// gbrainSlugifySegment is GBRAIN-6, the code's slugifySegment (sync.ts:574-592).
func gbrainSlugifySegment(seg string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(seg) {
		if (r >= 0x300 && r <= 0x36F) || (r >= 0x591 && r <= 0x5C7) {
			continue
		}
		b.WriteRune(r)
	}
	lowered := gbrainJSLower(norm.NFC.String(b.String()))
	b.Reset()
	for _, r := range lowered {
		if r == '.' || r == '_' || r == '-' || strings.ContainsRune(gbrainJSSpace, r) ||
			unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M, unicode.N) {
			b.WriteRune(r)
		}
	}
	s := gbrainDashes.ReplaceAllString(gbrainJSSpaceRun.ReplaceAllString(b.String(), "-"), "-")
	s = strings.TrimPrefix(s, "-")
	return strings.TrimSuffix(s, "-")
}

// gbrainSlugifyPath is GBRAIN-6, the code's slugifyPath (sync.ts:602-607).
func gbrainSlugifyPath(p string) string {
	tail := p
	if len(tail) > 4 {
		tail = tail[len(tail)-4:]
	}
	tail = strings.ToLower(tail)
	if strings.HasSuffix(tail, ".md") {
		p = p[:len(p)-3]
	} else if tail == ".mdx" {
		p = p[:len(p)-4]
	}
	p = strings.ReplaceAll(p, `\`, "/")
	if strings.HasPrefix(p, "./") {
		p = p[2:]
	} else if strings.HasPrefix(p, "/") {
		p = p[1:]
	}
	var out []string
	for _, seg := range strings.Split(p, "/") {
		if s := gbrainSlugifySegment(seg); s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, "/")
}
