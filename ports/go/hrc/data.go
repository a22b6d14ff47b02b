package hrc

// Loading spec/data (TEXT-6, DSL-11, INTENT-1) and reporting what was read (PROTO-28).

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// DataFiles maps each spec/data file read to the SHA-256 of the bytes read (PROTO-28).
var DataFiles = map[string]string{}

var dataDir string

var punctRanges [][2]rune

// FindDataDir locates spec/data: $HRC_SPEC_DATA, else the first ancestor of the working
// directory or of the executable holding spec/data/punct_symbol.json.
func FindDataDir() (string, error) {
	if d := os.Getenv("HRC_SPEC_DATA"); d != "" {
		return d, nil
	}
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if exe, err := os.Executable(); err == nil {
		starts = append(starts, filepath.Dir(exe))
	}
	for _, s := range starts {
		d := s
		for {
			c := filepath.Join(d, "spec", "data")
			if _, err := os.Stat(filepath.Join(c, "punct_symbol.json")); err == nil {
				return c, nil
			}
			p := filepath.Dir(d)
			if p == d {
				break
			}
			d = p
		}
	}
	return "", fmt.Errorf("spec/data not found (set HRC_SPEC_DATA)")
}

// readData reads one data file strictly and records its hash.
func readData(name string, v any) error {
	raw, err := os.ReadFile(filepath.Join(dataDir, name))
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	sum := sha256.Sum256(raw)
	DataFiles[name] = hex.EncodeToString(sum[:])
	return nil
}

// LoadData loads every data file at start-up so a missing one fails before hello.
func LoadData(dir string) error {
	dataDir = dir
	var ps struct {
		Ranges [][2]int64 `json:"ranges"`
	}
	if err := readData("punct_symbol.json", &ps); err != nil {
		return err
	}
	if len(ps.Ranges) == 0 {
		return fmt.Errorf("punct_symbol.json: no ranges")
	}
	punctRanges = nil
	for _, r := range ps.Ranges {
		punctRanges = append(punctRanges, [2]rune{rune(r[0]), rune(r[1])})
	}
	sort.Slice(punctRanges, func(i, j int) bool { return punctRanges[i][0] < punctRanges[j][0] })
	for _, name := range []string{"anchor", "hrc-1.0"} {
		if err := loadStopwords(name); err != nil {
			return err
		}
		if err := loadIntentTable(name); err != nil {
			return err
		}
	}
	if err := loadLadderStopwords(); err != nil {
		return err
	}
	if err := loadTemporal(); err != nil {
		return err
	}
	if err := loadEngramTable(); err != nil {
		return err
	}
	for _, load := range dataLoaders {
		if err := load(); err != nil {
			return err
		}
	}
	return nil
}

// dataLoaders load the data files of each registered stage or profile (the fanout, gbrain)
// at start-up (PROTO-28); temporal and engram are loaded by name in LoadData.
var dataLoaders []func() error

// ladderStop is LADDER-8's stop-word set under `anchor`: the anchor's STOP_WORDS, verbatim.
var ladderStop map[string]bool

func loadLadderStopwords() error {
	var f struct {
		Words []string `json:"words"`
	}
	if err := readData("stopwords-ladder.json", &f); err != nil {
		return err
	}
	if len(f.Words) == 0 {
		return fmt.Errorf("stopwords-ladder.json: empty list")
	}
	ladderStop = map[string]bool{}
	for _, w := range f.Words {
		ladderStop[w] = true
	}
	return nil
}

func loadStopwords(name string) error {
	var f struct {
		En []string `json:"en"`
		Nl []string `json:"nl"`
	}
	if err := readData("stopwords-"+name+".json", &f); err != nil {
		return err
	}
	if len(f.En) == 0 || len(f.Nl) == 0 {
		return fmt.Errorf("stopwords-%s.json: empty list", name)
	}
	set := map[string]bool{}
	for _, w := range append(f.En, f.Nl...) {
		set[w] = true
	}
	stopLists[name] = set
	return nil
}
