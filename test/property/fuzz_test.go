package property

import (
	"strings"
	"testing"

	"github.com/plyproject/ply/pkg/apply"
)

// FuzzMergeProperties checks every merge property on the triple the
// generator makes from a fuzzed seed, for the target the fuzzed index
// picks (modulo the number of targets). The seed corpus is one seed per
// target.
func FuzzMergeProperties(f *testing.F) {
	for i := range targetSpecs {
		f.Add(uint64(i)*0x9e3779b97f4a7c15+1, uint8(i))
	}
	f.Fuzz(func(ft *testing.T, s uint64, idx uint8) {
		spec := targetSpecs[int(idx)%len(targetSpecs)]
		t, err := load(spec)
		if err != nil {
			ft.Fatal(err)
		}
		tr := t.gen.Triple(s)
		probs := deterministic(t, tr)
		p, _ := samePatched(t, tr)
		probs = append(probs, p...)
		for _, ord := range []apply.Ordering{apply.OrderingSeed, apply.OrderingKubectl} {
			p, _ := idempotent(t, tr, ord)
			probs = append(probs, p...)
			sc, _ := inScope(t, withLiveOnly(tr), ord)
			probs = append(probs, sc.lost...)
			probs = append(probs, sc.dropped...)
		}
		if len(probs) > 0 {
			ft.Fatalf("%s seed %d:\n  %s\n%s", spec.name, s, strings.Join(probs, "\n  "), triple(tr))
		}
	})
}
