package hrc

// Profiles this port implements (spec/profiles.md) and their pipeline hooks
// (spec/pipeline.md PIPE-10, PIPE-11). A profile file calls RegisterProfile from its init().

import (
	"math"
	"math/big"
	"sort"
)

// ProfileCall is one enabled profile during one search; what hooks put in Trace becomes
// trace.profiles[Name].
type ProfileCall struct {
	Name    string
	Options any
	Backend any
	Trace   map[string]any
	// State is what one hook hands a later one during this call (never traced).
	State map[string]any
}

// GraphBackend is the graph leg's backend (GRAPH-2).
type GraphBackend interface {
	SearchGraph(query string, limit int64) ([]Candidate, error)
}

// Weights are the leg weights a profile may adjust (PIPE-11).
type Weights struct{ BM25, Vector, Graph float64 }

// FusedItem is one item of the fused list after intent reweighting (PIPE-11 after_fusion).
type FusedItem struct {
	Candidate Candidate
	Score     float64
	Exact     *big.Rat
	Mult      float64
	Rules     []string
}

// PipelineHooks are a profile's pipeline behaviour; nil means the profile does nothing there.
type PipelineHooks struct {
	ParseRequest  func(options map[string]any) (any, error)
	ParseBackends func(raw any, present bool) (any, error)
	// QueryVariants is PIPE-12: more variants of the request's query, called once per search.
	QueryVariants func(c *ProfileCall, query string) []string
	RewriteQuery  func(c *ProfileCall, query string) string
	// FanoutBase is FANOUT-15: the first pass's base query with the fanout, instead of a rewrite.
	FanoutBase    func(c *ProfileCall, query string) string
	AdjustWeights func(c *ProfileCall, query string, w Weights) Weights
	// CheckWeights rejects weights with an error (Go's way of raising from adjust_weights,
	// e.g. a weight range check): the weights the profile receives, before its
	// AdjustWeights.
	CheckWeights func(c *ProfileCall, w Weights) error
	// RerankEnabled (PIPE-11) false switches the reranker off for the call (outcome disabled).
	RerankEnabled func(c *ProfileCall) bool
	// VectorQuery (PIPE-11) is the text the vector leg embeds, given the query (default: it).
	VectorQuery func(c *ProfileCall, text string) string
	// RunsAtZeroWeight (PIPE-11) runs the vector leg although its weight is 0; the leg is then
	// neither fused nor a unanimity voter (the profile reads its hits itself).
	RunsAtZeroWeight func(c *ProfileCall, leg string) bool
	LegLimit         func(c *ProfileCall, leg string, n int64) int64
	FilterLeg        func(c *ProfileCall, leg string, hits []Candidate) []Candidate
	GraphBackend     func(c *ProfileCall) GraphBackend
	AfterFusion      func(c *ProfileCall, query string, items []FusedItem) []FusedItem
	// AfterRerank gets each item's id and rerank score (nil: not reranked) in order and the
	// rerank outcome; it returns the ids to keep, before the topK cut (PIPE-11).
	AfterRerank func(c *ProfileCall, query string, ids []string, scores []*float64, outcome string) []string
}

// Profile is one implemented profile: version, operations (`NAME.op`), pipeline hooks.
type Profile struct {
	Name       string
	Version    string
	Operations map[string]handler
	Pipeline   *PipelineHooks
}

// Profiles are the registered profiles by name.
var Profiles = map[string]*Profile{}

// RegisterProfile declares a profile: its operations join the handlers, `profile:NAME` the
// capabilities (PROFILE-1, PROFILE-4).
func RegisterProfile(p *Profile) {
	Profiles[p.Name] = p
	for op, h := range p.Operations {
		handlers[op] = h
	}
	capabilities = append(capabilities, "profile:"+p.Name)
}

// ProfileVersions is the hello's `profiles` object (PROTO-31).
func ProfileVersions() map[string]string {
	out := map[string]string{}
	for name, p := range Profiles {
		out[name] = p.Version
	}
	return out
}

type profileEntry struct {
	hooks *PipelineHooks
	call  *ProfileCall
}

// profileRun is the enabled profiles of one search, in code-point order of their names.
type profileRun struct{ calls []profileEntry }

// parseProfiles is PIPE-10: each enabled profile's options; null entries are absent.
func parseProfiles(v any, isPresent bool) (map[string]any, error) {
	out := map[string]any{}
	if !isPresent || v == nil {
		return out, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, invalid("request.profiles must be an object")
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names) // byte order of UTF-8 is code-point order
	for _, name := range names {
		o := m[name]
		if o == nil {
			continue
		}
		p, ok := Profiles[name]
		if !ok || p.Pipeline == nil {
			return nil, invalid("request.profiles.%s: unknown profile", name)
		}
		om, ok := o.(map[string]any)
		if !ok {
			return nil, invalid("request.profiles.%s must be an object", name)
		}
		opts, err := p.Pipeline.ParseRequest(om)
		if err != nil {
			return nil, err
		}
		out[name] = opts
	}
	return out, nil
}

func newProfileRun(enabled map[string]any, backendData map[string]any) (*profileRun, error) {
	names := make([]string, 0, len(enabled))
	for k := range enabled {
		names = append(names, k)
	}
	sort.Strings(names)
	run := &profileRun{}
	for _, name := range names {
		hooks := Profiles[name].Pipeline
		call := &ProfileCall{Name: name, Options: enabled[name], Trace: map[string]any{}, State: map[string]any{}}
		if hooks.ParseBackends != nil {
			raw, ok := backendData[name]
			b, err := hooks.ParseBackends(raw, ok && raw != nil)
			if err != nil {
				return nil, err
			}
			call.Backend = b
		}
		run.calls = append(run.calls, profileEntry{hooks, call})
	}
	return run, nil
}

// queryVariants is PIPE-12: every profile's variants of the request's query, in name order.
func (p *profileRun) queryVariants(q string) []string {
	var out []string
	for _, e := range p.calls {
		if e.hooks.QueryVariants != nil {
			out = append(out, e.hooks.QueryVariants(e.call, q)...)
		}
	}
	return out
}

// rewriteQuery is PIPE-11; with the fanout a profile with FanoutBase does not rewrite (FANOUT-15).
func (p *profileRun) rewriteQuery(q string, fanout bool) string {
	for _, e := range p.calls {
		if fanout && e.hooks.FanoutBase != nil {
			continue
		}
		if e.hooks.RewriteQuery != nil {
			q = e.hooks.RewriteQuery(e.call, q)
		}
	}
	return q
}

// fanoutBase is FANOUT-15: the base query of the first pass (the query when no profile has one).
func (p *profileRun) fanoutBase(q string) string {
	for _, e := range p.calls {
		if e.hooks.FanoutBase != nil {
			q = e.hooks.FanoutBase(e.call, q)
		}
	}
	return q
}

func (p *profileRun) adjustWeights(q string, w Weights) (Weights, error) {
	for _, e := range p.calls {
		if e.hooks.CheckWeights != nil {
			if err := e.hooks.CheckWeights(e.call, w); err != nil {
				return w, err
			}
		}
		if e.hooks.AdjustWeights != nil {
			w = e.hooks.AdjustWeights(e.call, q, w)
			for _, x := range []float64{w.BM25, w.Vector, w.Graph} {
				if x != x || x < 0 || math.IsInf(x, 0) {
					return w, invalid("profile %s: a weight must be a finite number >= 0", e.call.Name)
				}
			}
		}
	}
	return w, nil
}

// legSearch is PIPE-11: ask for the profiles' limit, filter each answer, keep `limit` (PIPE-4).
func (p *profileRun) legSearch(leg string, candidateK int64,
	ask func(int64) ([]Candidate, error)) func(int64) ([]Candidate, error) {
	asked := candidateK
	var filters []profileEntry
	for _, e := range p.calls {
		if e.hooks.LegLimit != nil {
			asked = e.hooks.LegLimit(e.call, leg, asked)
		}
		if e.hooks.FilterLeg != nil {
			filters = append(filters, e)
		}
	}
	if asked == candidateK && len(filters) == 0 {
		return ask
	}
	return func(limit int64) ([]Candidate, error) {
		n := asked
		if limit > n {
			n = limit
		}
		hits, err := ask(n)
		if err != nil {
			return nil, err
		}
		for _, e := range filters {
			hits = e.hooks.FilterLeg(e.call, leg, hits)
		}
		return firstN(hits, limit), nil
	}
}

// rerankEnabled is PIPE-11: false when an enabled profile switches the reranker off.
func (p *profileRun) rerankEnabled() bool {
	for _, e := range p.calls {
		if e.hooks.RerankEnabled != nil && !e.hooks.RerankEnabled(e.call) {
			return false
		}
	}
	return true
}

// vectorQuery is PIPE-11: the text the vector leg embeds (the query unless a profile says).
func (p *profileRun) vectorQuery(text string) string {
	for _, e := range p.calls {
		if e.hooks.VectorQuery != nil {
			text = e.hooks.VectorQuery(e.call, text)
		}
	}
	return text
}

// runsAtZeroWeight is PIPE-11: whether an enabled profile runs this leg at weight 0.
func (p *profileRun) runsAtZeroWeight(leg string) bool {
	for _, e := range p.calls {
		if e.hooks.RunsAtZeroWeight != nil && e.hooks.RunsAtZeroWeight(e.call, leg) {
			return true
		}
	}
	return false
}

func (p *profileRun) graphBackend() GraphBackend {
	for _, e := range p.calls {
		if e.hooks.GraphBackend != nil {
			if g := e.hooks.GraphBackend(e.call); g != nil {
				return g
			}
		}
	}
	return nil
}

func (p *profileRun) afterFusion(q string, items []FusedItem) []FusedItem {
	for _, e := range p.calls {
		if e.hooks.AfterFusion != nil {
			items = e.hooks.AfterFusion(e.call, q, items)
		}
	}
	return items
}

// afterRerank is PIPE-11's last point: each profile keeps a subsequence of the reranked list.
func (p *profileRun) afterRerank(q string, order []Reranked, idOf func(Reranked) string, outcome string) []Reranked {
	for _, e := range p.calls {
		if e.hooks.AfterRerank == nil {
			continue
		}
		ids := make([]string, len(order))
		scores := make([]*float64, len(order))
		for i, o := range order {
			ids[i], scores[i] = idOf(o), o.Score
		}
		keep := map[string]bool{}
		for _, id := range e.hooks.AfterRerank(e.call, q, ids, scores, outcome) {
			keep[id] = true
		}
		kept := []Reranked{}
		for _, o := range order {
			if keep[idOf(o)] {
				kept = append(kept, o)
			}
		}
		order = kept
	}
	return order
}

func (p *profileRun) traceJSON() map[string]any {
	out := map[string]any{}
	for _, e := range p.calls {
		out[e.call.Name] = e.call.Trace
	}
	return out
}
