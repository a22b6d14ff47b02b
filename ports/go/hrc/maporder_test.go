package hrc

// Go randomises map iteration: an "unknown member" message must not depend on it.

import "testing"

func TestUnknownOptionMessageIsTheSameOnEveryRun(t *testing.T) {
	opts := map[string]any{"seeds": []any{}, "intent": "entity", "reached": 1.0, "query": "q", "documents": []any{}, "legs": map[string]any{}}
	first := ""
	for i := 0; i < 50; i++ {
		_, err := gbrainParseSearch(opts)
		if err == nil {
			t.Fatal("unknown options accepted")
		}
		if first == "" {
			first = err.Error()
		} else if err.Error() != first {
			t.Fatalf("message changed between runs: %q then %q", first, err.Error())
		}
	}
	if want := "invalid_input: unknown member intent"; first != want {
		t.Fatalf("got %q, want the smallest key named: %q", first, want)
	}
}
