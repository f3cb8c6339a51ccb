package property

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/value"
)

// containerPorts calls visit for every map below v that has a
// containerPort field: the items of a container's ports list, whose v3
// merge key is containerPort,protocol.
func containerPorts(v value.Value, visit func(value.Value)) {
	switch {
	case v.IsMap():
		if _, ok := v.Get("containerPort"); ok {
			visit(v)
		}
		for _, f := range v.Fields() {
			containerPorts(f.Value, visit)
		}
	case v.IsList():
		for _, it := range v.Items() {
			containerPorts(it, visit)
		}
	}
}

var _ = Describe("the generator's multi-field-key lists", func() {
	It("spell the defaulted key field protocol both ways, and use other protocols too", func() {
		t, err := load(targetSpecs[5]) // pod/v3
		Expect(err).NotTo(HaveOccurred())
		Expect(t.multiKey).To(BeTrue())
		omitted, tcp, other := 0, 0, 0
		for i := range 300 {
			tr := t.gen.Triple(seed(11, t.name, i))
			for _, v := range []value.Value{tr.Recorded, tr.Local, tr.Live} {
				containerPorts(v, func(item value.Value) {
					p, ok := item.Get("protocol")
					switch s, _ := p.AsString(); {
					case !ok:
						omitted++
					case s == "TCP":
						tcp++
					default:
						other++
					}
				})
			}
		}
		Expect(omitted).To(BeNumerically(">", 0))
		Expect(tcp).To(BeNumerically(">", 0))
		Expect(other).To(BeNumerically(">", 0))
	})
})
