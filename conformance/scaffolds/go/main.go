// __HRC_NAME__: an hrc adapter (spec/adapter-protocol.md). One JSON object per line.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"unicode/utf8"
)

type message struct {
	Type  string          `json:"type"`
	Seq   int64           `json:"seq"`
	Op    string          `json:"op"`
	Input json.RawMessage `json:"input"`
}

var errInput = errors.New("invalid input")

// errUnsupported: wrap it (fmt.Errorf("%w: ...", errUnsupported)) for an optional feature this
// port does not have; it is answered `unsupported` (OP-2).
var errUnsupported = errors.New("unsupported")

// opLength is TEXT-8: the length of `text` in Unicode code points. Not len(text) (bytes).
func opLength(input json.RawMessage) (any, error) {
	var in struct {
		Text *string `json:"text"`
	}
	if err := json.Unmarshal(input, &in); err != nil || in.Text == nil {
		return nil, fmt.Errorf("%w: text must be a string", errInput)
	}
	return map[string]any{"length": utf8.RuneCountInString(*in.Text)}, nil
}

// operations: add one entry per operation you implement.
var operations = map[string]func(json.RawMessage) (any, error){"length": opLength}

func answer(m message) map[string]any {
	op, ok := operations[m.Op]
	if !ok {
		return map[string]any{"type": "error", "seq": m.Seq, "error": map[string]any{"kind": "invalid_input", "message": "unknown operation " + m.Op}}
	}
	output, err := op(m.Input)
	if err != nil {
		kind := "internal_error" // a bug: say so on stderr too (OP-2)
		if errors.Is(err, errUnsupported) {
			kind = "unsupported"
		} else if errors.Is(err, errInput) {
			kind = "invalid_input"
		} else {
			fmt.Fprintln(os.Stderr, err)
		}
		return map[string]any{"type": "error", "seq": m.Seq, "error": map[string]any{"kind": kind, "message": err.Error()}}
	}
	return map[string]any{"type": "result", "seq": m.Seq, "output": output}
}

func main() {
	in := bufio.NewReader(os.Stdin)
	out := json.NewEncoder(os.Stdout) // Encode writes one line; os.Stdout is unbuffered
	out.SetEscapeHTML(false)
	for {
		line, err := in.ReadBytes('\n')
		var m message
		if len(line) > 0 && json.Unmarshal(line, &m) == nil {
			switch m.Type {
			case "hello":
				names := make([]string, 0, len(operations))
				for name := range operations {
					names = append(names, name)
				}
				sort.Strings(names)
				out.Encode(map[string]any{"type": "hello", "protocol": 1, "name": "__HRC_NAME__", "version": "0.0.1",
					"specVersion": "__HRC_SPEC_VERSION__", "operations": names,
					"capabilities": []string{}, "dataFiles": map[string]string{}}) // dataFiles: see README.md (PROTO-28)
			case "run":
				reply := answer(m)
				if err := out.Encode(reply); err != nil {
					// encoding/json refuses NaN and Infinity (PROTO-2) and writes nothing: answer anyway.
					fmt.Fprintln(os.Stderr, "cannot write the answer:", err)
					out.Encode(map[string]any{"type": "error", "seq": m.Seq, "error": map[string]any{
						"kind": "internal_error", "message": "output is not JSON: " + err.Error()}})
				}
			case "bye":
				return
			}
		}
		if err != nil {
			return
		}
	}
}
