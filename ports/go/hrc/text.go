package hrc

// Text pipeline of spec/portability.md (TEXT-1..TEXT-10).

import (
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// isWhite reports Unicode White_Space, the 25 code points of TEXT-4.
func isWhite(r rune) bool {
	switch {
	case r >= 0x09 && r <= 0x0D, r == 0x20, r == 0x85, r == 0xA0, r == 0x1680,
		r >= 0x2000 && r <= 0x200A, r == 0x2028, r == 0x2029, r == 0x202F, r == 0x205F, r == 0x3000:
		return true
	}
	return false
}

func isDeleted(r rune) bool { // TEXT-1 (the anchor's set)
	return r == 0x200B || r == 0x200C || r == 0x200D || r == 0xFEFF
}

func isControl(r rune) bool { // TEXT-2
	return r <= 0x1F || (r >= 0x7F && r <= 0x9F)
}

// splitWhite splits on runs of TEXT-4 whitespace, dropping empty pieces.
func splitWhite(s string) []string {
	return strings.FieldsFunc(s, isWhite)
}

// Normalise applies TEXT-3 (NFC) first, then TEXT-1, TEXT-2 and TEXT-4.
func Normalise(s string) string {
	var b strings.Builder
	for _, r := range norm.NFC.String(s) {
		if isDeleted(r) {
			continue
		}
		if isControl(r) && !isWhite(r) {
			r = ' '
		}
		b.WriteRune(r)
	}
	return strings.Join(splitWhite(b.String()), " ")
}

// Fold is the normalised form lowercased (TEXT-5).
func Fold(s string) string { return Lower(Normalise(s)) }

func isCased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

func isCaseIgnorable(r rune) bool {
	switch r {
	case 0x27, 0x2E, 0x3A, 0xB7, 0x387, 0x55F, 0x5F4, 0x2018, 0x2019, 0x2024, 0x2027,
		0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

// Lower is Unicode full default lowercasing without locale (TEXT-5): the simple mappings,
// the one unconditional SpecialCasing lowercase mapping (U+0130) and Final_Sigma.
// strings.ToLower is not used: it has no Final_Sigma context (TEXT-5).
func Lower(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		switch r {
		case 0x130:
			b.WriteString("i\u0307")
			continue
		case 0x3A3:
			if finalSigma(rs, i) {
				b.WriteRune(0x3C2)
			} else {
				b.WriteRune(0x3C3)
			}
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

func finalSigma(rs []rune, i int) bool {
	before := false
	for j := i - 1; j >= 0; j-- {
		if isCaseIgnorable(rs[j]) {
			continue
		}
		before = isCased(rs[j])
		break
	}
	if !before {
		return false
	}
	for j := i + 1; j < len(rs); j++ {
		if isCaseIgnorable(rs[j]) {
			continue
		}
		return !isCased(rs[j])
	}
	return true
}

// Words are TEXT-7: fold, P∪S to space, split.
func Words(s string) []string {
	f := Fold(s)
	var b strings.Builder
	for _, r := range f {
		if isPunctSymbol(r) {
			b.WriteRune(' ')
		} else {
			b.WriteRune(r)
		}
	}
	w := splitWhite(b.String())
	if w == nil {
		w = []string{}
	}
	return w
}

// CPLen is the code point length (TEXT-8).
func CPLen(s string) int { return len([]rune(s)) }

// SortStrings orders by code point (TEXT-9); Go's string < is UTF-8 byte order, which
// equals code point order for valid UTF-8.
func SortStrings(in []string) []string {
	out := append([]string{}, in...)
	sort.Strings(out)
	return out
}

func isPunctSymbol(r rune) bool {
	rs := punctRanges
	i := sort.Search(len(rs), func(i int) bool { return rs[i][1] >= r })
	return i < len(rs) && rs[i][0] <= r
}
