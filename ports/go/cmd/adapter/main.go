// Command adapter serves the hrc adapter protocol (spec/adapter-protocol.md) on stdin/stdout.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/hrc/ports/go/hrcgo/hrc"
)

func main() {
	dir, err := hrc.FindDataDir()
	if err == nil {
		err = hrc.LoadData(dir)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "hrc-go: cannot load spec/data:", err)
		os.Exit(3)
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	write := func(v any) {
		b, err := hrc.Marshal(v)
		if err != nil {
			fmt.Fprintln(os.Stderr, "hrc-go: encode:", err)
			b, _ = json.Marshal(map[string]any{"type": "error", "seq": v.(map[string]any)["seq"],
				"error": map[string]any{"kind": "internal_error", "message": err.Error()}})
		}
		out.Write(b)
		out.WriteByte('\n')
		out.Flush()
	}
	for {
		line, err := in.ReadBytes('\n')
		line = bytes.TrimRight(line, "\r\n")
		if len(line) > 0 {
			msg, perr := hrc.DecodeStrict(line)
			if perr != nil {
				fmt.Fprintln(os.Stderr, "hrc-go: bad message:", perr)
			} else {
				switch msg["type"] {
				case "hello":
					write(map[string]any{"type": "hello", "protocol": 1, "name": "hrc-go",
						"version": "0.1.0", "specVersion": hrc.SpecVersion,
						"operations": hrc.Operations(), "capabilities": hrc.Capabilities(),
						"dataFiles": hrc.DataFiles, "profiles": hrc.ProfileVersions()})
				case "bye":
					return
				case "run":
					write(serve(msg))
				}
			}
		}
		if err != nil {
			return
		}
	}
}

func serve(msg map[string]any) (reply map[string]any) {
	seq := msg["seq"]
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "hrc-go: panic: %v\n%s", r, debug.Stack())
			reply = map[string]any{"type": "error", "seq": seq,
				"error": map[string]any{"kind": "internal_error", "message": fmt.Sprint(r)}}
		}
	}()
	op, _ := msg["op"].(string)
	input, ok := msg["input"].(map[string]any)
	if !ok {
		input = map[string]any{}
	}
	output, err := hrc.Run(op, input)
	if err != nil {
		kind, text := "internal_error", err.Error()
		if oe, ok := err.(*hrc.OpError); ok {
			kind, text = oe.Kind, oe.Msg
		} else {
			fmt.Fprintln(os.Stderr, "hrc-go: error:", err)
		}
		return map[string]any{"type": "error", "seq": seq, "error": map[string]any{"kind": kind, "message": text}}
	}
	// TEXT-11: an output holding a non-finite number (an overflow the input asked for) is
	// invalid_input; encoding/json would refuse it as an unsupported value.
	if hrc.NonFinite(output) {
		return map[string]any{"type": "error", "seq": seq, "error": map[string]any{
			"kind": "invalid_input", "message": "the output would hold a non-finite number"}}
	}
	return map[string]any{"type": "result", "seq": seq, "output": output}
}
