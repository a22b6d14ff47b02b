package hrc

// Profile gbrain's operations (spec/profiles/gbrain.md GBRAIN-2, GBRAIN-10, GBRAIN-41).

// GbrainVersion is the profile version this port implements (PROFILE-2).
const GbrainVersion = "4.0.0"

func opGbrainExtractLinks(in map[string]any) (map[string]any, error) {
	path, ok1 := in["path"].(string)
	md, ok2 := in["markdown"].(string)
	if !ok1 || !ok2 {
		return nil, invalid("path and markdown must be strings")
	}
	page, edges, ok := GbrainExtract(path, md)
	if !ok {
		return nil, invalid("path %q names no page", path)
	}
	list := make([]any, 0, len(edges))
	for _, e := range edges {
		list = append(list, e.toJSON())
	}
	return map[string]any{"page": page, "edges": list}, nil
}

func opGbrainTraverse(in map[string]any) (map[string]any, error) {
	o, err := gbrainTraverseOptions(in)
	if err != nil {
		return nil, err
	}
	edges, err := gbrainEdgesFromJSON(in["edges"], "edges")
	if err != nil {
		return nil, err
	}
	raw, ok := in["seeds"].([]any)
	if !ok {
		return nil, invalid("seeds must be a list of non-empty strings")
	}
	seeds := make([]string, 0, len(raw))
	seen := map[string]bool{}
	for _, x := range raw {
		s, ok := x.(string)
		if !ok || s == "" {
			return nil, invalid("seeds must be a list of non-empty strings")
		}
		if seen[s] {
			return nil, invalid("seeds must be distinct")
		}
		seen[s] = true
		seeds = append(seeds, s)
	}
	results := make([]any, 0)
	for _, r := range GbrainTraverse(edges, seeds, o) {
		results = append(results, map[string]any{"page": r.Page, "depth": r.Depth})
	}
	return map[string]any{"results": results}, nil
}

func init() {
	dataLoaders = append(dataLoaders, loadGbrain, loadGbrainSources, loadGbrainIntent)
	RegisterProfile(&Profile{
		Name:    "gbrain",
		Version: GbrainVersion,
		Operations: map[string]handler{
			"gbrain.extract_links": opGbrainExtractLinks,
			"gbrain.search":        opGbrainSearch,
			"gbrain.traverse":      opGbrainTraverse,
		},
	})
}
