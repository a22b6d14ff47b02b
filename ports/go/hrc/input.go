package hrc

// Reading JSON inputs (OP-1..OP-5): numbers arrive as json.Number, null means absent.

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
)

// OpError is an OP-2 error answer.
type OpError struct{ Kind, Msg string }

func (e *OpError) Error() string { return e.Kind + ": " + e.Msg }

func invalid(format string, a ...any) error {
	return &OpError{"invalid_input", fmt.Sprintf(format, a...)}
}

func unsupported(format string, a ...any) error {
	return &OpError{"unsupported", fmt.Sprintf(format, a...)}
}

const maxInt = 2147483647

// present returns the value of key, treating null as absent (OP-5).
func present(m map[string]any, key string) (any, bool) {
	v, ok := m[key]
	if !ok || v == nil {
		return nil, false
	}
	return v, true
}

func asObject(v any, what string) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, invalid("%s must be an object", what)
	}
	return m, nil
}

func asList(v any, what string) ([]any, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, invalid("%s must be a list", what)
	}
	return l, nil
}

func reqString(m map[string]any, key string) (string, error) {
	v, ok := present(m, key)
	if !ok {
		return "", invalid("%s is required", key)
	}
	s, ok := v.(string)
	if !ok {
		return "", invalid("%s must be a string", key)
	}
	return s, nil
}

func optString(m map[string]any, key, def string) (string, error) {
	v, ok := present(m, key)
	if !ok {
		return def, nil
	}
	s, ok := v.(string)
	if !ok {
		return "", invalid("%s must be a string", key)
	}
	return s, nil
}

// asFloat reads a JSON number as binary64 (TEXT-12).
func asFloat(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// asInt reads an integer input under OP-4: a whole JSON number, at most 2^31-1.
func asInt(v any, what string, min int64) (int64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, invalid("%s must be an integer", what)
	}
	r, ok := new(big.Rat).SetString(string(n))
	if !ok || !r.IsInt() {
		return 0, invalid("%s must be a whole number", what)
	}
	i := r.Num()
	if i.Cmp(big.NewInt(min)) < 0 {
		return 0, invalid("%s must be >= %d", what, min)
	}
	if i.Cmp(big.NewInt(maxInt)) > 0 {
		return 0, invalid("%s must be <= 2147483647", what)
	}
	return i.Int64(), nil
}

// optIntOrDefault reads an integer whose value <= 0 means the default (RRF-1, PIPE-13); any
// other value follows asInt (RRF-15, PIPE-1).
func optIntOrDefault(m map[string]any, key string, def int64) (int64, error) {
	v, ok := present(m, key)
	if !ok {
		return def, nil
	}
	if n, isNum := v.(json.Number); isNum {
		if r, ok := new(big.Rat).SetString(string(n)); ok && r.Sign() <= 0 {
			return def, nil
		}
	}
	return asInt(v, key, 1)
}

func optInt(m map[string]any, key string, def, min int64) (int64, error) {
	v, ok := present(m, key)
	if !ok {
		return def, nil
	}
	return asInt(v, key, min)
}

func optBool(m map[string]any, key string, def bool) (bool, error) {
	v, ok := present(m, key)
	if !ok {
		return def, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, invalid("%s must be a boolean", key)
	}
	return b, nil
}

func stringList(v any, what string) ([]string, error) {
	l, err := asList(v, what)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(l))
	for i, x := range l {
		s, ok := x.(string)
		if !ok {
			return nil, invalid("%s[%d] must be a string", what, i)
		}
		out = append(out, s)
	}
	return out, nil
}
