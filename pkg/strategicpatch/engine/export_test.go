package engine

// ApplyMapWhole is ApplyMap converting original whole to ply's values: the result ApplyMap's scoping must give.
func (o Options) ApplyMapWhole(original, p map[string]interface{}, l Lookup) (map[string]interface{}, error) {
	ov, err := fromMap(original)
	if err != nil {
		return nil, err
	}
	pv, err := fromMap(p)
	if err != nil {
		return nil, err
	}
	out, err := o.Apply(ov, pv, l)
	if err != nil {
		return nil, err
	}
	return toMap(out), nil
}

// SkeletonsLen is the number of ApplyMap types c keeps by their documents' skeletons.
func (c *Types) SkeletonsLen() int { return c.bySkeleton.len() }
