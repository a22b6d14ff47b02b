package hrc

// Strict JSON in and out (PROTO-2): repeated keys, lone surrogates and non-finite numbers are
// refused; numbers are kept as json.Number so integers stay exact (TEXT-12).

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"unicode/utf8"
)

// SpecVersion is the spec version this port implements.
const SpecVersion = "5.0.0"

var loneSurrogate = regexp.MustCompile(`\\u[dD][89abAB][0-9a-fA-F]{2}(\\u[dD][c-fC-F][0-9a-fA-F]{2})?|\\u[dD][c-fC-F][0-9a-fA-F]{2}`)

// DecodeStrict parses one protocol line.
func DecodeStrict(line []byte) (map[string]any, error) {
	if !utf8.Valid(line) {
		return nil, fmt.Errorf("invalid UTF-8")
	}
	for _, m := range loneSurrogate.FindAll(line, -1) {
		if len(m) == 6 {
			// a high surrogate without its low half, or a bare low surrogate;
			// an escaped backslash before it (\\ud800) is text, checked below.
			idx := bytes.Index(line, m)
			bs := 0
			for j := idx - 1; j >= 0 && line[j] == '\\'; j-- {
				bs++
			}
			if bs%2 == 0 {
				return nil, fmt.Errorf("unpaired surrogate escape")
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	v, err := readValue(dec)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not a JSON object")
	}
	return m, nil
}

func readValue(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch d := t.(type) {
	case json.Delim:
		switch d {
		case '{':
			m := map[string]any{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k := kt.(string)
				if _, dup := m[k]; dup {
					return nil, fmt.Errorf("repeated key %q", k)
				}
				v, err := readValue(dec)
				if err != nil {
					return nil, err
				}
				m[k] = v
			}
			_, err := dec.Token()
			return m, err
		case '[':
			l := []any{}
			for dec.More() {
				v, err := readValue(dec)
				if err != nil {
					return nil, err
				}
				l = append(l, v)
			}
			_, err := dec.Token()
			return l, err
		}
	case json.Number:
		if f, err := strconv.ParseFloat(string(d), 64); err != nil {
			return nil, fmt.Errorf("number out of range: %s (%v)", d, f)
		}
		return d, nil
	}
	return t, nil
}

// Marshal writes one message without HTML escaping; NaN and infinities are errors.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Capabilities lists the optional features this port implements in full.
func Capabilities() []string { return capabilities }

var capabilities = []string{"rrf-weights", "canonical-fts5", "stopwords:hrc-1.0", "intent-table:hrc-1.0", "graph-leg", "bm25-fanout"}

// sortedKeys lists a JSON object's keys in code-point order (byte order of UTF-8), so that a
// message naming "the first unknown member" is the same on every run: Go randomises map order.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// NonFinite reports whether an output holds a non-finite number (TEXT-11), whatever Go types
// it is built of: encoding/json refuses exactly those with an UnsupportedValueError.
func NonFinite(v any) bool {
	_, err := Marshal(v)
	var unsupported *json.UnsupportedValueError
	return errors.As(err, &unsupported)
}
