package collate_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/test/jsonv"
)

// A key's repeat (gate UniqueMergeKeys off) has its merged lists paired with those at their place in the member's tree
// or, for a later repeat, in an earlier one's (elements.Chain), as collating the repeat with the outcome so far as live
// pairs them.
var _ = Describe("a repeat's lists paired with its member's", func() {
	// repeatField collates patch p onto live (a PodSpec's JSON) and returns field name of containers' repeat n.
	repeatField := func(live, p string, n int, name string) elements.Element {
		s, err := openapi.Default()
		Expect(err).NotTo(HaveOccurred())
		t, ok := s.Kubectl().ByName("io.k8s.api.core.v1.PodSpec")
		Expect(ok).To(BeTrue())
		tree, err := collate.Collate(elements.Values{Local: jsonv.MustDecode(p), HasLocal: true, Live: jsonv.MustDecode(live), HasLive: true},
			t, collate.Options{Patch: true, MaxDepth: parse.DefaultMaxDepth, Gates: features.Kubectl()})
		Expect(err).NotTo(HaveOccurred())
		spec := tree.(*elements.MapElement)
		var containers *elements.ListElement
		for _, f := range spec.Fields {
			if f.Name == "containers" {
				containers = f.Element.(*elements.ListElement)
			}
		}
		Expect(containers).NotTo(BeNil())
		Expect(len(containers.Repeats)).To(BeNumerically(">", n))
		r := containers.Repeats[n]
		Expect(r.Err).NotTo(HaveOccurred())
		for _, f := range r.Element.(*elements.MapElement).Fields {
			if f.Name == name {
				return f.Element
			}
		}
		Fail("the repeat has no field " + name)
		return nil
	}

	It("pairs env with the member's by key: its items, its delete item, its order", func() {
		e := repeatField(`{"containers":[{"name":"c","env":[{"name":"A"},{"name":"K"},{"name":"G"}]}]}`,
			`{"containers":[{"name":"c","env":[{"name":"B","value":"1"}]},`+
				`{"name":"c","$setElementOrder/env":[{"name":"D"},{"name":"K"},{"name":"A"}],"env":[{"name":"D"},{"name":"A","value":"2"},{"$patch":"delete","name":"G"}]}]}`,
			0, "env")
		chain := e.(*elements.ListElement).Chain
		Expect(chain).NotTo(BeNil())
		base := chain.Base.(*elements.ListElement)
		key := func(j int) string {
			n := base.Items[j].Element.Base()
			v := n.Live
			if n.HasLocal {
				v = n.Local
			}
			name, _ := v.Get("name")
			s, _ := name.AsString()
			return s
		}
		// The member's items: B (the patch's), then live's A, K, G.
		Expect([]string{key(0), key(1), key(2), key(3)}).To(Equal([]string{"B", "A", "K", "G"}))
		Expect(chain.Of).To(Equal([]int{-1, 1}), "D is new, A the member's")
		Expect(chain.Gone).To(Equal([]int{3}), "G is deleted")
		Expect(chain.Named).To(Equal([]int32{-1, 2, 1, -1}), "K and A named, B and G not")
	})

	It("pairs ports the member leaves to live by position in live's list", func() {
		e := repeatField(`{"containers":[{"name":"c","ports":[{"containerPort":80},{"containerPort":81}]}]}`,
			`{"containers":[{"name":"c","image":"i"},{"name":"c","ports":[{"containerPort":82},{"containerPort":81,"name":"x"}]}]}`, 0, "ports")
		chain := e.(*elements.ListElement).Chain
		Expect(chain).NotTo(BeNil())
		Expect(chain.Base).To(BeAssignableToTypeOf(&elements.AtomicElement{}))
		Expect(chain.Of).To(Equal([]int{-1, 1}))
	})

	It("pairs a key's later repeat with the one before it, numbering that one's items, then its base's", func() {
		live := `{"containers":[{"name":"c","env":[{"name":"A"}]}]}`
		p := `{"containers":[{"name":"c","env":[{"name":"B"}]},{"name":"c","env":[{"name":"C"}]},{"name":"c","env":[{"name":"A"},{"name":"C","value":"1"}]}]}`
		first := repeatField(live, p, 0, "env").(*elements.ListElement)
		Expect(first.Chain).NotTo(BeNil())
		Expect(first.Chain.Laid).To(BeFalse(), "the member's list is laid out from its own tree")
		later := repeatField(live, p, 1, "env").(*elements.ListElement)
		Expect(later.Chain).NotTo(BeNil())
		Expect(later.Chain.Base).To(BeAssignableToTypeOf(first), "the first repeat's env")
		Expect(later.Chain.Base.(*elements.ListElement).Chain).NotTo(BeNil())
		Expect(later.Chain.Laid).To(BeTrue(), "an earlier repeat's list is laid out where Phase 2 merged it")
		// The first repeat's items (C), then its base's, the member's (B, live's A).
		Expect(later.Chain.Of).To(Equal([]int{2, 0}), "A the member's, C the first repeat's")
	})

	It("does not pair a later repeat with an earlier one that failed", func() {
		live := `{"containers":[{"name":"c","env":[{"name":"A"}]}]}`
		p := `{"containers":[{"name":"c","env":[{"name":"B"}]},{"name":"c","$setElementOrder/ports":[],"ports":null},{"name":"c","env":[{"name":"A"}]}]}`
		Expect(repeatField(live, p, 1, "env").(*elements.ListElement).Chain).To(BeNil())
	})

	It("pairs with a member's list replacing live's, whose live items are deleted there", func() {
		e := repeatField(`{"containers":[{"name":"c","env":[{"name":"A"}]}]}`,
			`{"containers":[{"name":"c","env":[{"$patch":"replace"},{"name":"B"}]},{"name":"c","env":[{"name":"A","value":"2"},{"name":"B","value":"1"}]}]}`, 0, "env")
		chain := e.(*elements.ListElement).Chain
		Expect(chain).NotTo(BeNil())
		base := chain.Base.(*elements.ListElement)
		Expect(base.Items[1].Deleted).To(BeTrue(), "live's A, which the member's replace drops")
		Expect(chain.Of).To(Equal([]int{1, 0}), "A live's (deleted: new in the outcome), B the member's")
	})

	It("pairs with a member's list replacing live's that names a key twice, with the first item of the key", func() {
		e := repeatField(`{"containers":[{"name":"c","env":[{"name":"A"}]}]}`,
			`{"containers":[{"name":"c","env":[{"$patch":"replace"},{"name":"B"},{"name":"B","value":"0"}]},{"name":"c","env":[{"name":"B","value":"1"}]}]}`, 0, "env")
		chain := e.(*elements.ListElement).Chain
		Expect(chain).NotTo(BeNil())
		base := chain.Base.(*elements.ListElement)
		Expect(base.Repeats).To(HaveLen(1), "the member's second B, kept apart")
		Expect(base.Items[chain.Of[0]].LocalIndex).To(Equal(1), "B the member's first item of the key")
	})
})
