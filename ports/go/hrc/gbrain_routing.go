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
	// GBRAIN-31: gbrain's RRF_K and each class's [vector, keyword] leg weight.
	gbrainRrfK       float64
	gbrainLegWeights map[string][2]float64
)

// gbrainLegKs is GBRAIN-31: a class's vector and keyword k, gbrain's k over the leg's weight.
func gbrainLegKs(intent string) (float64, float64) {
	w := gbrainLegWeights[intent]
	return gbrainRrfK / w[0], gbrainRrfK / w[1]
}

func loadGbrainIntent() error {
	var doc struct {
		Classes []struct {
			Intent   string   `json:"intent"`
			Triggers []string `json:"triggers"`
		} `json:"classes"`
		Default           string   `json:"default"`
		EntityGraphFactor *float64 `json:"entityGraphFactor"`
		Rrf               *struct {
			K       float64 `json:"k"`
			Weights map[string]struct {
				Vector  float64 `json:"vector"`
				Keyword float64 `json:"keyword"`
			} `json:"weights"`
		} `json:"rrf"`
	}
	if err := readData("profiles/gbrain/intent.json", &doc); err != nil {
		return err
	}
	if len(doc.Classes) == 0 || doc.EntityGraphFactor == nil || doc.Rrf == nil || doc.Rrf.K <= 0 {
		return fmt.Errorf("profiles/gbrain/intent.json is malformed")
	}
	gbrainRrfK = doc.Rrf.K
	gbrainLegWeights = map[string][2]float64{}
	for name, w := range doc.Rrf.Weights {
		if w.Vector <= 0 || w.Keyword <= 0 {
			return fmt.Errorf("profiles/gbrain/intent.json rrf.weights.%s is malformed", name)
		}
		gbrainLegWeights[name] = [2]float64{w.Vector, w.Keyword}
	}
	names := []string{doc.Default}
	for _, c := range doc.Classes {
		names = append(names, c.Intent)
	}
	for _, n := range names {
		if _, ok := gbrainLegWeights[n]; !ok {
			return fmt.Errorf("profiles/gbrain/intent.json rrf.weights lacks %s", n)
		}
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
