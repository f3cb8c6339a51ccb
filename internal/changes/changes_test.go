package changes_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/changes"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/strategy"
	"github.com/plyproject/ply/pkg/value"
)

// fixture is one case of testdata/collect: the three inputs (each may be
// absent) and the expected changes, each written "op path source".
type fixture struct {
	vals elements.Values
	want []string
}

func loadFixture(path string) fixture {
	data, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	doc, err := parse.Document(data)
	Expect(err).NotTo(HaveOccurred(), path)
	var fx fixture
	fx.vals.Recorded, fx.vals.HasRecorded = doc.Get("recorded")
	fx.vals.Local, fx.vals.HasLocal = doc.Get("local")
	fx.vals.Live, fx.vals.HasLive = doc.Get("live")
	want, ok := doc.Get("changes")
	Expect(ok).To(BeTrue(), "%s has no changes list", path)
	fx.want = []string{}
	for _, w := range want.Items() {
		s, ok := w.AsString()
		Expect(ok).To(BeTrue())
		fx.want = append(fx.want, s)
	}
	return fx
}

func deploymentType() *openapi.Type {
	schema, err := openapi.Default()
	Expect(err).NotTo(HaveOccurred())
	t, ok := schema.ForKind("apps/v1", "Deployment")
	Expect(ok).To(BeTrue())
	return t
}

// decide collates vals as a Deployment and walks the tree with the
// default options.
// decided is a collated tree and the walk that decided it.
type decided struct {
	tree elements.Element
	walk *strategy.Walker
}

func decide(vals elements.Values) decided {
	tree, err := collate.Collate(vals, deploymentType(), collate.Options{})
	Expect(err).NotTo(HaveOccurred())
	w := strategy.New(strategy.Options{Record: true})
	_, err = w.Walk(tree)
	Expect(err).NotTo(HaveOccurred())
	return decided{tree, w}
}

func collect(d decided) []changes.Change { return changes.Collect(d.tree, d.walk) }

// fixed gives every node one Outcome.
type fixed elements.Outcome

func (f fixed) Outcome(*elements.Node) elements.Outcome { return elements.Outcome(f) }

func render(cs []changes.Change) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Op.String() + " " + c.Path().String() + " " + c.Source.String()
	}
	return out
}

func fixtureEntries() []TableEntry {
	files, err := filepath.Glob("testdata/collect/*.yaml")
	if err != nil || len(files) == 0 {
		panic("no fixtures in testdata/collect")
	}
	sort.Strings(files)
	entries := make([]TableEntry, len(files))
	for i, f := range files {
		entries[i] = Entry(filepath.Base(f), f)
	}
	return entries
}

var _ = Describe("Collect", func() {
	DescribeTable("reports the outermost differences between live and the result",
		func(path string) {
			fx := loadFixture(path)
			Expect(render(collect(decide(fx.vals)))).To(Equal(fx.want))
		},
		fixtureEntries(),
	)

	It("is deterministic", func() {
		fx := loadFixture("testdata/collect/many.yaml")
		tree := decide(fx.vals)
		first := render(collect(tree))
		Expect(first).NotTo(BeEmpty())
		Expect(render(collect(tree))).To(Equal(first), "same tree twice")
		for range 5 {
			Expect(render(collect(decide(fx.vals)))).To(Equal(first), "fresh tree")
		}
	})

	It("reports nothing for a tree whose every input is equal", func() {
		fx := loadFixture("testdata/collect/replace-scalar.yaml")
		vals := elements.Values{Recorded: fx.vals.Local, HasRecorded: true, Local: fx.vals.Local, HasLocal: true, Live: fx.vals.Local, HasLive: true}
		Expect(collect(decide(vals))).To(BeEmpty())
	})

	It("reports creating the whole object as one add at the root", func() {
		fx := loadFixture("testdata/collect/add-field.yaml")
		vals := elements.Values{Local: fx.vals.Local, HasLocal: true}
		cs := collect(decide(vals))
		Expect(render(cs)).To(Equal([]string{"add . local"}))
		Expect(cs[0].Path()).To(BeEmpty())
	})

	It("gives each change its own path value", func() {
		fx := loadFixture("testdata/collect/many.yaml")
		cs := collect(decide(fx.vals))
		Expect(len(cs)).To(BeNumerically(">", 2))
		p := cs[0].Path()
		p[0].Field = "overwritten"
		Expect(render(cs)).To(Equal(fx.want))
	})

	It("gives the zero Change an empty path", func() {
		Expect(changes.Change{}.Path()).To(BeEmpty())
	})

	DescribeTable("Detach keeps every path, each rebuilt from at most as many pieces as it has elements",
		func(path string) {
			fx := loadFixture(path)
			cs := collect(decide(fx.vals))
			changes.Detach(cs)
			Expect(render(cs)).To(Equal(fx.want))
			for _, c := range cs {
				Expect(changes.Segments(c)).To(BeNumerically("<=", max(len(c.Path()), 1)), c.Path().String())
			}
		},
		fixtureEntries(),
	)

	It("Detach rebuilds the path of every one of many sibling changes from at most two pieces", func() {
		// Labels l000 to l199 in local only: 200 adds under one map. Each
		// path shares metadata.labels with the first.
		labels := make([]value.Field, 200)
		for i := range labels {
			labels[i] = value.Field{Key: fmt.Sprintf("l%03d", i), Value: value.String("v")}
		}
		meta := value.MustMap(value.Field{Key: "labels", Value: value.MapFromSorted(labels)}, value.Field{Key: "name", Value: value.String("d")})
		local := value.MustMap(value.Field{Key: "metadata", Value: meta})
		live := value.MustMap(value.Field{Key: "metadata", Value: value.MustMap(value.Field{Key: "labels", Value: value.MustMap()},
			value.Field{Key: "name", Value: value.String("d")})})
		cs := collect(decide(elements.Values{Local: local, HasLocal: true, Live: live, HasLive: true}))
		Expect(cs).To(HaveLen(200))
		want := render(cs)
		changes.Detach(cs)
		Expect(render(cs)).To(Equal(want))
		for _, c := range cs {
			Expect(changes.Segments(c)).To(BeNumerically("<=", 2), c.Path().String())
		}
	})

	It("compares the stored outcome with live", func() {
		// A leaf whose outcome is absent: Collect reports live's value as
		// removed.
		leaf := &elements.AtomicElement{Node: elements.Node{
			Type:   openapi.Unknown,
			Values: elements.Values{Live: value.Int(1), HasLive: true},
		}}
		Expect(render(changes.Collect(leaf, fixed(elements.Absent)))).To(Equal([]string{"remove . local"}))
		Expect(changes.Collect(leaf, fixed(elements.Keep(value.Float(1))))).To(BeEmpty(), "1 and 1.0 are the same number")
	})
})

var _ = Describe("Op", func() {
	DescribeTable("String",
		func(o changes.Op, want string) { Expect(o.String()).To(Equal(want)) },
		Entry("add", changes.Add, "add"),
		Entry("replace", changes.Replace, "replace"),
		Entry("remove", changes.Remove, "remove"),
		Entry("zero", changes.Op(0), ""),
		Entry("out of range", changes.Op(9), "invalid"),
	)
})
