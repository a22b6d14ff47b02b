package hrc

// The metrics operation (spec/metrics.md, METRIC-1..13).

import (
	"sort"
)

func init() { handlers["metrics"] = opMetrics }

// MetricsRow is one evaluated query (METRIC-13).
type MetricsRow struct {
	Query                                     string
	Relevant, Retrieved, RelevantRetrieved    int
	Precision, Recall, RR, NDCG, Hit, AvgPrec float64
}

// readRun reads METRIC-1's run: query id -> list of non-empty document ids.
func readRun(v any) (map[string][]string, error) {
	m, err := asObject(v, "run")
	if err != nil {
		return nil, err
	}
	out := make(map[string][]string, len(m))
	for q, lv := range m {
		if q == "" {
			return nil, invalid("run: query ids must be non-empty")
		}
		l, ok := lv.([]any) // a null list is not absent: map values are never null (OP-5)
		if !ok {
			return nil, invalid("run[%q] must be a list", q)
		}
		docs := make([]string, 0, len(l))
		for i, x := range l {
			s, ok := x.(string)
			if !ok || s == "" {
				return nil, invalid("run[%q][%d] must be a non-empty string", q, i)
			}
			docs = append(docs, s)
		}
		out[q] = docs
	}
	return out, nil
}

// readQrels reads METRIC-1's qrels: query id -> document id -> integer relevance.
func readQrels(v any) (map[string]map[string]int64, error) {
	m, err := asObject(v, "qrels")
	if err != nil {
		return nil, err
	}
	out := make(map[string]map[string]int64, len(m))
	for q, jv := range m {
		if q == "" {
			return nil, invalid("qrels: query ids must be non-empty")
		}
		j, ok := jv.(map[string]any)
		if !ok {
			return nil, invalid("qrels[%q] must be an object", q)
		}
		rels := make(map[string]int64, len(j))
		for d, rv := range j {
			if d == "" {
				return nil, invalid("qrels[%q]: document ids must be non-empty", q)
			}
			if rv == nil {
				return nil, invalid("qrels[%q][%q] must be an integer, not null", q, d)
			}
			r, err := asInt(rv, "relevance", -maxInt)
			if err != nil {
				return nil, err
			}
			rels[d] = r
		}
		out[q] = rels
	}
	return out, nil
}

// MeasureQuery computes one query's row (METRIC-2..10) with the float procedure of METRIC-12.
func MeasureQuery(query string, list []string, rels map[string]int64, k int) MetricsRow {
	// METRIC-3: first occurrence only.
	seen := make(map[string]bool, len(list))
	docs := make([]string, 0, len(list))
	for _, d := range list {
		if !seen[d] {
			seen[d] = true
			docs = append(docs, d)
		}
	}
	// METRIC-2: gains of the relevant documents.
	var ideal []int64
	for _, r := range rels {
		if r > 0 {
			ideal = append(ideal, r)
		}
	}
	R := len(ideal)
	gain := func(d string) int64 {
		if r := rels[d]; r > 0 {
			return r
		}
		return 0
	}
	n := len(docs)
	cut := min(k, n)

	relret := 0
	dcg := 0.0
	for i := 1; i <= cut; i++ {
		g := gain(docs[i-1])
		if g > 0 {
			relret++
		}
		term := float64(g) / Log2Int(i+1)
		dcg = dcg + term
	}
	sort.Slice(ideal, func(a, b int) bool { return ideal[a] > ideal[b] })
	idcg := 0.0
	for i := 1; i <= min(k, R); i++ {
		term := float64(ideal[i-1]) / Log2Int(i+1)
		idcg = idcg + term
	}

	rr := 0.0
	hits := 0
	apSum := 0.0
	for i, d := range docs {
		if gain(d) > 0 {
			hits++
			if hits == 1 {
				rr = 1.0 / float64(i+1)
			}
			term := float64(hits) / float64(i+1)
			apSum = apSum + term
		}
	}
	hit := 0.0
	if relret > 0 {
		hit = 1.0
	}
	row := MetricsRow{
		Query: query, Relevant: R, Retrieved: n, RelevantRetrieved: relret,
		Precision: float64(relret) / float64(k),
		RR:        rr,
		Hit:       hit,
	}
	if R > 0 { // an evaluated query (METRIC-4); the caller never asks for R = 0
		row.Recall = float64(relret) / float64(R)
		row.NDCG = dcg / idcg
		row.AvgPrec = apSum / float64(R)
	}
	return row
}

func opMetrics(in map[string]any) (map[string]any, error) {
	rv, ok := present(in, "run")
	if !ok {
		return nil, invalid("run is required")
	}
	run, err := readRun(rv)
	if err != nil {
		return nil, err
	}
	qv, ok := present(in, "qrels")
	if !ok {
		return nil, invalid("qrels is required")
	}
	qrels, err := readQrels(qv)
	if err != nil {
		return nil, err
	}
	k, err := optInt(in, "k", 5, 1)
	if err != nil {
		return nil, err
	}
	if k > 1000 {
		return nil, invalid("k must be <= 1000")
	}

	qids := make([]string, 0, len(qrels))
	for q := range qrels {
		qids = append(qids, q)
	}
	sort.Strings(qids) // TEXT-9: byte order of UTF-8 is code point order
	rows := []any{}
	excluded := []string{}
	var evaluated []MetricsRow
	for _, q := range qids {
		R := 0
		for _, r := range qrels[q] {
			if r > 0 {
				R++
			}
		}
		if R == 0 {
			excluded = append(excluded, q)
			continue
		}
		row := MeasureQuery(q, run[q], qrels[q], int(k)) // missing from run: empty (METRIC-4)
		evaluated = append(evaluated, row)
		rows = append(rows, map[string]any{
			"query": row.Query, "relevant": row.Relevant, "retrieved": row.Retrieved,
			"relevantRetrieved": row.RelevantRetrieved, "precision": row.Precision,
			"recall": row.Recall, "reciprocalRank": row.RR, "ndcg": row.NDCG,
			"hit": row.Hit, "averagePrecision": row.AvgPrec,
		})
	}
	unjudged := []string{}
	for q := range run {
		if _, ok := qrels[q]; !ok {
			unjudged = append(unjudged, q)
		}
	}
	sort.Strings(unjudged)

	mean := map[string]any{}
	names := []string{"precision", "recall", "reciprocalRank", "ndcg", "hit", "averagePrecision"}
	get := []func(MetricsRow) float64{
		func(r MetricsRow) float64 { return r.Precision },
		func(r MetricsRow) float64 { return r.Recall },
		func(r MetricsRow) float64 { return r.RR },
		func(r MetricsRow) float64 { return r.NDCG },
		func(r MetricsRow) float64 { return r.Hit },
		func(r MetricsRow) float64 { return r.AvgPrec },
	}
	for i, name := range names {
		if len(evaluated) == 0 {
			mean[name] = nil // METRIC-11
			continue
		}
		s := 0.0
		for _, r := range evaluated { // query-id order
			s = s + get[i](r)
		}
		mean[name] = s / float64(len(evaluated))
	}
	return map[string]any{"queries": rows, "excluded": excluded, "unjudged": unjudged, "mean": mean}, nil
}
