package hrc

// The FTS5 index (BACKEND-1..BACKEND-8) on modernc.org/sqlite, a pure-Go SQLite with FTS5.

import (
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	_ "modernc.org/sqlite"
)

// FTSHit is a BM25 hit with SQLite's score.
type FTSHit struct {
	Cand  Candidate
	Score float64
}

// FTSIndex is one in-memory FTS5 table holding a list of chunks.
type FTSIndex struct {
	db     *sql.DB
	chunks []Candidate
}

// NewFTSIndex creates the table of BACKEND-1 and stores the chunks.
func NewFTSIndex(chunks []Candidate) (*FTSIndex, error) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1) // one connection: every :memory: connection is its own database
	fail := func(err error) (*FTSIndex, error) { db.Close(); return nil, err }
	var ver string
	if err := db.QueryRow("SELECT sqlite_version()").Scan(&ver); err != nil {
		return fail(err)
	}
	if !versionAtLeast(ver, 3, 27) {
		return fail(fmt.Errorf("SQLite %s is older than 3.27.0 (BACKEND-2)", ver))
	}
	if _, err := db.Exec("PRAGMA encoding = 'UTF-8'"); err != nil {
		return fail(err)
	}
	if _, err := db.Exec(`CREATE VIRTUAL TABLE chunks USING fts5(
  id UNINDEXED, path, title, summary, content,
  tokenize = 'unicode61 remove_diacritics 2')`); err != nil {
		return fail(err)
	}
	tx, err := db.Begin()
	if err != nil {
		return fail(err)
	}
	for _, c := range chunks {
		if _, err := tx.Exec("INSERT INTO chunks(id, path, title, summary, content) VALUES (?, ?, ?, ?, ?)",
			c.ID, c.Path, c.Title, c.Summary, c.Content); err != nil {
			tx.Rollback()
			return fail(err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fail(err)
	}
	sorted := append([]Candidate{}, chunks...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].Path != sorted[j].Path {
			return sorted[i].Path < sorted[j].Path
		}
		return sorted[i].ID < sorted[j].ID
	})
	return &FTSIndex{db, sorted}, nil
}

func versionAtLeast(v string, major, minor int) bool {
	p := strings.Split(v, ".")
	if len(p) < 2 {
		return false
	}
	a, _ := strconv.Atoi(p[0])
	b, _ := strconv.Atoi(p[1])
	return a > major || (a == major && b >= minor)
}

// Close releases the database.
func (x *FTSIndex) Close() { x.db.Close() }

// Search is BACKEND-5; any SQLite error is returned with its message (BACKEND-7).
func (x *FTSIndex) Search(expr string, limit int64) ([]FTSHit, error) {
	rows, err := x.db.Query(`SELECT id, path, title, summary, content,
       bm25(chunks, 0.0, 3.0, 10.0, 5.0, 1.0) AS score
FROM chunks WHERE chunks MATCH ?
ORDER BY score, path, id LIMIT ?`, expr, limit)
	if err != nil {
		return nil, sqliteError(err)
	}
	defer rows.Close()
	var out []FTSHit
	for rows.Next() {
		var h FTSHit
		if err := rows.Scan(&h.Cand.ID, &h.Cand.Path, &h.Cand.Title, &h.Cand.Summary, &h.Cand.Content, &h.Score); err != nil {
			return nil, sqliteError(err)
		}
		h.Cand.Metadata = map[string]string{}
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, sqliteError(err)
	}
	return out, nil
}

func sqliteError(err error) error { return errors.New(err.Error()) }

// SearchBM25 implements Index.
func (x *FTSIndex) SearchBM25(expr string, limit int64) ([]Candidate, error) {
	hits, err := x.Search(expr, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Candidate, len(hits))
	for i, h := range hits {
		out[i] = h.Cand
	}
	return out, nil
}

// Chunks is BACKEND-8.
func (x *FTSIndex) Chunks() ([]Candidate, bool) { return x.chunks, true }
