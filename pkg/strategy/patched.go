package strategy

import "github.com/plyproject/ply/pkg/elements"

// walkPatched decides merge node e by its outcome tree p (Options.Patched): p's patch tree walked as pkg/patch walks a
// patch (a map's $retainKeys, not its schema strategy, clears fields; lists ordered as the patch orders them; a list
// naming a key twice applied as the API server applies it), e's outcome the tree's; p's error is the walk's.
func (w *Walker) walkPatched(e elements.Element, p *elements.Patched) (elements.Outcome, error) {
	if p.Err != nil {
		return elements.Absent, p.Err
	}
	w.inPatched = true
	out, err := w.Walk(p.Element)
	w.inPatched = false
	if err != nil {
		return elements.Absent, err
	}
	w.record(e, out)
	return out, nil
}

// Patched returns the outcome tree beside node n that decided it (Options.Patched), nil if none did: the change list
// reads live against its outcome there.
func (w *Walker) Patched(n *elements.Node) *elements.Patched {
	if w.patched == nil {
		return nil
	}
	return w.patched(n)
}
