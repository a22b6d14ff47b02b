package hrc

// Profile gbrain: intent routing (spec/profiles/gbrain.md GBRAIN-19, GBRAIN-20).

import (
	"fmt"
	"strings"
)

type gbrainIntentClass struct {
	intent   string
	triggers [][]string
}

var (
	gbrainIntentClasses []gbrainIntentClass
	gbrainIntentDefault string
	gbrainEntityFactor  float64
)

func loadGbrainIntent() error {
	var doc struct {
		Classes []struct {
			Intent   string   `json:"intent"`
			Triggers []string `json:"triggers"`
		} `json:"classes"`
		Default           string   `json:"default"`
		EntityGraphFactor *float64 `json:"entityGraphFactor"`
	}
	if err := readData("profiles/gbrain/intent.json", &doc); err != nil {
		return err
	}
	if len(doc.Classes) == 0 || doc.EntityGraphFactor == nil {
		return fmt.Errorf("profiles/gbrain/intent.json is malformed")
	}
	gbrainIntentClasses = nil
	for _, c := range doc.Classes {
		cl := gbrainIntentClass{intent: c.Intent}
		for _, t := range c.Triggers {
			cl.triggers = append(cl.triggers, strings.Split(t, " "))
		}
		gbrainIntentClasses = append(gbrainIntentClasses, cl)
	}
	gbrainIntentDefault = doc.Default
	gbrainEntityFactor = *doc.EntityGraphFactor
	return nil
}

// gbrainClassify is GBRAIN-19.
func gbrainClassify(query string) string {
	q := Words(query)
	for _, c := range gbrainIntentClasses {
		for _, t := range c.triggers {
			if len(gbrainOccurrences(q, t)) > 0 {
				return c.intent
			}
		}
	}
	return gbrainIntentDefault
}

// gbrainOccurrences is where trigger's words appear consecutively in words (used by GBRAIN-19 routing).
func gbrainOccurrences(words, trigger []string) []int {
	var out []int
	for i := 0; i+len(trigger) <= len(words); i++ {
		match := true
		for k, w := range trigger {
			if words[i+k] != w {
				match = false
				break
			}
		}
		if match {
			out = append(out, i)
		}
	}
	return out
}
