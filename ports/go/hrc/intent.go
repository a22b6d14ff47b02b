package hrc

// Intent-aware reweighting (INTENT-1..INTENT-13).

import (
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"sort"
	"strings"
)

type pattern struct {
	Name, Target, Source, Flags string
	re                          *regexp.Regexp
}

type cond struct {
	All, Any, None []any // string names or nested *cond
}

type rule struct {
	Name, Family string
	Cond         cond
	Mult         float64
}

// IntentTable is a loaded rule table (INTENT-1).
type IntentTable struct {
	Name           string
	QueryPatterns  []pattern
	DocPatterns    []pattern
	Families       map[string]cond
	Rules          []rule
	LongContentLen int
	hasLong        bool
}

var intentTables = map[string]*IntentTable{}

func toCond(m map[string]any) (cond, error) {
	var c cond
	for _, f := range []struct {
		key string
		dst *[]any
	}{{"all", &c.All}, {"any", &c.Any}, {"none", &c.None}} {
		raw, ok := m[f.key]
		if !ok {
			continue
		}
		l, ok := raw.([]any)
		if !ok {
			return c, fmt.Errorf("%s must be a list", f.key)
		}
		for _, x := range l {
			switch v := x.(type) {
			case string:
				*f.dst = append(*f.dst, v)
			case map[string]any:
				sub, err := toCond(v)
				if err != nil {
					return c, err
				}
				*f.dst = append(*f.dst, &sub)
			default:
				return c, fmt.Errorf("bad condition member")
			}
		}
	}
	return c, nil
}

// compilePattern is INTENT-3 in RE2: the `i` flag is dropped (the text is folded and the
// sources are lower case; RE2's (?i) would fold ſ onto s), and RE2's \b is already ASCII.
func compilePattern(p *pattern) error {
	re, err := regexp.Compile(p.Source)
	if err != nil {
		return err
	}
	p.re = re
	return nil
}

func loadIntentTable(name string) error {
	var raw map[string]any
	if err := readData("intent-"+name+".json", &raw); err != nil {
		return err
	}
	fail := func(err error) error { return fmt.Errorf("intent-%s.json: %w", name, err) }
	t := &IntentTable{Name: name, Families: map[string]cond{}}
	readPatterns := func(key string) ([]pattern, error) {
		l, ok := raw[key].([]any)
		if !ok {
			return nil, fmt.Errorf("%s missing", key)
		}
		var out []pattern
		for _, x := range l {
			m, ok := x.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("bad pattern")
			}
			p := pattern{}
			p.Name, _ = m["name"].(string)
			p.Source, _ = m["source"].(string)
			p.Target, _ = m["target"].(string)
			p.Flags, _ = m["flags"].(string)
			if p.Name == "" || p.Source == "" {
				return nil, fmt.Errorf("pattern without name or source")
			}
			if err := compilePattern(&p); err != nil {
				return nil, err
			}
			out = append(out, p)
		}
		return out, nil
	}
	var err error
	if t.QueryPatterns, err = readPatterns("queryPatterns"); err != nil {
		return fail(err)
	}
	if t.DocPatterns, err = readPatterns("documentPatterns"); err != nil {
		return fail(err)
	}
	fams, ok := raw["families"].([]any)
	if !ok {
		return fail(fmt.Errorf("families missing"))
	}
	for _, x := range fams {
		m, _ := x.(map[string]any)
		n, _ := m["name"].(string)
		c, err := toCond(m)
		if err != nil {
			return fail(err)
		}
		t.Families[n] = c
	}
	rules, ok := raw["rules"].([]any)
	if !ok {
		return fail(fmt.Errorf("rules missing"))
	}
	for _, x := range rules {
		m, _ := x.(map[string]any)
		r := rule{}
		r.Name, _ = m["name"].(string)
		r.Family, _ = m["family"].(string)
		c, err := toCond(m)
		if err != nil {
			return fail(err)
		}
		r.Cond = c
		mult, ok := asFloat(m["multiplier"])
		if !ok {
			return fail(fmt.Errorf("rule %s: bad multiplier", r.Name))
		}
		r.Mult = mult
		t.Rules = append(t.Rules, r)
	}
	if v, ok := raw["longContentLength"].(json.Number); ok {
		n, err := v.Int64()
		if err != nil {
			return fail(err)
		}
		t.LongContentLen, t.hasLong = int(n), true
	}
	intentTables[name] = t
	return nil
}

func (c *cond) holds(pred func(string) bool) bool {
	member := func(x any) bool {
		switch v := x.(type) {
		case string:
			return pred(v)
		case *cond:
			return v.holds(pred)
		}
		return false
	}
	for _, x := range c.All {
		if !member(x) {
			return false
		}
	}
	if len(c.Any) > 0 {
		ok := false
		for _, x := range c.Any {
			if member(x) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	for _, x := range c.None {
		if member(x) {
			return false
		}
	}
	return true
}

// Detection is the INTENT-4 result.
type Detection struct {
	Preference, ConcreteFact bool
}

// Label is INTENT-4's label.
func (d Detection) Label() string {
	switch {
	case d.Preference && d.ConcreteFact:
		return "preference+concrete-fact"
	case d.Preference:
		return "preference"
	case d.ConcreteFact:
		return "concrete-fact"
	}
	return ""
}

// Detect is INTENT-4.
func (t *IntentTable) Detect(query string) Detection {
	f := Fold(query)
	hit := map[string]bool{}
	for _, p := range t.QueryPatterns {
		hit[p.Name] = p.re.MatchString(f)
	}
	pred := func(n string) bool { return hit[n] }
	pc, cc := t.Families["preference"], t.Families["concrete-fact"]
	return Detection{pc.holds(pred), cc.holds(pred)}
}

// Adjusted is one reweighted item.
type Adjusted struct {
	Index int
	Score float64
	Mult  float64
	Rules []string
	Exact *big.Rat
}

// Reweight is INTENT-5..INTENT-10 over items given as candidates with scores and exact
// scores; it returns the new order (indexes into the input) and per-item adjustments.
func (t *IntentTable) Reweight(d Detection, items []Candidate, scores []float64, exact []*big.Rat) []Adjusted {
	out := make([]Adjusted, len(items))
	for i := range items {
		out[i] = Adjusted{Index: i, Score: scores[i], Mult: 1.0, Rules: []string{}, Exact: exact[i]}
	}
	if !d.Preference && !d.ConcreteFact {
		return out
	}
	for i, c := range items {
		fpath := Fold(c.Path)
		ftext := Fold(c.Path + "\n" + c.Title + "\n" + c.Summary + "\n" + c.Content)
		cache := map[string]bool{}
		pred := func(n string) bool {
			if v, ok := cache[n]; ok {
				return v
			}
			v := false
			if n == "long_content" && t.hasLong {
				v = CPLen(Normalise(c.Content)) > t.LongContentLen
			} else {
				for _, p := range t.DocPatterns {
					if p.Name == n {
						if p.Target == "path" {
							v = p.re.MatchString(fpath)
						} else {
							v = p.re.MatchString(ftext)
						}
						break
					}
				}
			}
			cache[n] = v
			return v
		}
		a := &out[i]
		e := new(big.Rat).Set(exact[i])
		for _, r := range t.Rules {
			if (r.Family == "preference" && !d.Preference) || (r.Family == "concrete-fact" && !d.ConcreteFact) {
				continue
			}
			if !r.Cond.holds(pred) {
				continue
			}
			m := r.Mult // a variable: multiplied at run time, never folded (INTENT-7)
			a.Mult = a.Mult * m
			a.Score = a.Score * m
			e.Mul(e, new(big.Rat).SetFloat64(m))
			a.Rules = append(a.Rules, r.Name)
		}
		a.Exact = e
	}
	sort.SliceStable(out, func(i, j int) bool {
		if c := out[i].Exact.Cmp(out[j].Exact); c != 0 {
			return c > 0
		}
		return out[i].Index < out[j].Index
	})
	return out
}

func intentTable(m map[string]any, key string) (*IntentTable, error) {
	v, ok := present(m, key)
	if !ok {
		return intentTables["anchor"], nil
	}
	s, ok := v.(string)
	if !ok {
		return nil, invalid("%s must be a string", key)
	}
	if t, ok := intentTables[s]; ok {
		return t, nil
	}
	return nil, invalid("unknown intent table %q", strings.TrimSpace(s))
}
