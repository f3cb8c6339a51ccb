package patch_test

import (
	"errors"
	"os"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

// nest returns {key: {key: ... leaf}} n levels deep.
func nest(key string, n int, leaf value.Value) value.Value {
	v := leaf
	for range n {
		v = value.MustMap(value.Field{Key: key, Value: v})
	}
	return v
}

func testType(name string) *openapi.Type {
	s, err := testSchema()
	Expect(err).NotTo(HaveOccurred())
	t, ok := s.ByName(name)
	Expect(ok).To(BeTrue(), name)
	return t
}

var _ = Describe("Apply on values built in memory", func() {
	It("rejects a patch nested 10,000 levels deep with a path, without exhausting the stack", func() {
		deep := nest("a", 10000, value.Int(1))
		live := nest("a", 10000, value.Int(0))
		_, err := patch.ApplyType(live, deep, nil)
		Expect(err).To(HaveOccurred())
		var ee *elements.Error
		Expect(errors.As(err, &ee)).To(BeTrue())
		Expect(ee.Source).To(Equal(elements.Patch))
		Expect(ee.Msg).To(ContainSubstring("nesting is deeper than the limit of 1000"))
		Expect(strings.HasPrefix(ee.Path.String(), "a.a.a.")).To(BeTrue())
		// The same below a replaced map (taken whole, not walked) and when
		// live lacks the subtree.
		_, err = patch.ApplyType(value.MustMap(value.Field{Key: "a", Value: value.MustMap()}),
			value.MustMap(value.Field{Key: "a", Value: deep.With("$patch", value.String("replace"))}), nil)
		Expect(err).To(MatchError(ContainSubstring("nesting is deeper than the limit")))
		_, err = patch.ApplyType(value.Null, deep, nil)
		Expect(err).To(MatchError(ContainSubstring("nesting is deeper than the limit")))
	})

	It("honours MaxDepth", func() {
		p := nest("a", 20, value.Int(1)).With("apiVersion", value.String("example.com/v1")).With("kind", value.String("Thing"))
		_, err := patch.Apply(value.Null, p, patch.Options{Schema: openapi.Union(), MaxDepth: 10})
		Expect(err).To(MatchError(ContainSubstring("limit of 10 levels")))
		out, err := patch.Apply(value.Null, p, patch.Options{Schema: openapi.Union(), MaxDepth: 30})
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(equalValue(p))
	})

	It("is deterministic and does not modify its inputs", func() {
		for _, path := range fixtureFiles("seeds") {
			f := loadFixture(path)
			live, p := f.get("live"), f.get("patch")
			before := string(live.JSON()) + string(p.JSON())
			for _, o := range []patch.Ordering{patch.OrderSeed, patch.OrderKubectl} {
				a, errA := f.run(o)
				b, errB := f.run(o)
				Expect(string(live.JSON()) + string(p.JSON())).To(Equal(before))
				if errA != nil {
					Expect(errB).To(MatchError(errA.Error()))
					continue
				}
				Expect(errB).NotTo(HaveOccurred())
				Expect(b).To(equalValue(a), path)
			}
		}
	})

	It("gives the same items under both orderings, in another order at most", func() {
		for _, dir := range []string{"seeds", "directives", "reject", "bad"} {
			for _, path := range fixtureFiles(dir) {
				f := loadFixture(path)
				seed, errS := f.run(patch.OrderSeed)
				kubectl, errK := f.run(patch.OrderKubectl)
				if errS != nil {
					Expect(errK).To(MatchError(errS.Error()), path)
					continue
				}
				Expect(errK).NotTo(HaveOccurred(), path)
				Expect(sortedLists(kubectl)).To(equalValue(sortedLists(seed)), path)
			}
		}
	})

	It("orders by design document 000 under OrderSeed, by strategicpatch under OrderKubectl", func() {
		// 000's rules: live's items $setElementOrder does not name first,
		// in live order; then the named ones in its order.
		live := mustParse(`{list: [C, B, D, A, E], klist: [{foo: C}, {foo: B}, {foo: D}, {foo: A}, {foo: E}]}`)
		p := mustParse(`
$setElementOrder/list: [A, B]
list: [A, B]
$setElementOrder/klist: [{foo: A}, {foo: B}]
klist: [{foo: A, other: 1}]`)
		t := testType("dev.ply.patch.v1.Example")
		out, err := patch.ApplyType(live, p, t)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(equalValue(mustParse(`{list: [C, D, E, A, B], klist: [{foo: C}, {foo: D}, {foo: E}, {foo: A, other: 1}, {foo: B}]}`)))
		out, err = patch.ApplyTypeOrdered(live, p, t, patch.OrderKubectl)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(equalValue(mustParse(`{list: [C, D, A, B, E], klist: [{foo: C}, {foo: D}, {foo: A, other: 1}, {foo: B}, {foo: E}]}`)))
		// Without $setElementOrder: live's order where the patch does not
		// order, new items last (000's "append to the end")...
		p = mustParse(`{list: [A, F], klist: [{foo: A, other: 1}, {foo: F}]}`)
		out, err = patch.ApplyType(live, p, t)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(equalValue(mustParse(`{list: [C, B, D, A, E, F], klist: [{foo: C}, {foo: B}, {foo: D}, {foo: A, other: 1}, {foo: E}, {foo: F}]}`)))
		// ... unless the patch's order puts them before an item live has.
		p = mustParse(`{list: [F, A], klist: [{foo: F}, {foo: A, other: 1}]}`)
		out, err = patch.ApplyType(live, p, t)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(equalValue(mustParse(`{list: [C, B, D, F, A, E], klist: [{foo: C}, {foo: B}, {foo: D}, {foo: F}, {foo: A, other: 1}, {foo: E}]}`)))
		// strategicpatch puts new items before live-only ones.
		out, err = patch.ApplyTypeOrdered(live, p, t, patch.OrderKubectl)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(equalValue(mustParse(`{list: [F, C, B, D, A, E], klist: [{foo: F}, {foo: C}, {foo: B}, {foo: D}, {foo: A, other: 1}, {foo: E}]}`)))
	})

	It("resolves the type from the patch's kind when live does not exist", func() {
		p := mustParse(`
apiVersion: patch.ply.dev/v1
kind: Example
$setElementOrder/list: [b, a]
list: [b, a]
klist: [{foo: a, $patch: delete}]`)
		s, err := testSchema()
		Expect(err).NotTo(HaveOccurred())
		out, err := patch.Apply(value.Null, p, patch.Options{Schema: s})
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(equalValue(mustParse(`{apiVersion: patch.ply.dev/v1, kind: Example, list: [b, a], klist: []}`)))
	})

	It("applies with an explicit root type", func() {
		live := mustParse(`{klist: [{foo: a, other: 1}]}`)
		p := mustParse(`{klist: [{foo: a, other: 2}]}`)
		out, err := patch.ApplyType(live, p, testType("dev.ply.patch.v1.Example"))
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(equalValue(p))
		// Without the type the list has no merge key: it is replaced.
		out, err = patch.ApplyType(live, mustParse(`{klist: [{foo: b}]}`), nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(equalValue(mustParse(`{klist: [{foo: b}]}`)))
	})

	It("matches a port by containerPort and protocol with the default schema, filling the default protocol", func() {
		live := mustParse(`
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: web
    ports:
    - {containerPort: 80, protocol: TCP, name: http}`)
		p := mustParse(`
spec:
  containers:
  - name: web
    ports:
    - {containerPort: 80, protocol: UDP, name: dns}
    - {containerPort: 80, hostPort: 8080}`)
		out, err := patch.Apply(live, p, patch.Options{})
		Expect(err).NotTo(HaveOccurred())
		ports, _ := out.Get("spec")
		ports, _ = ports.Get("containers")
		ports, _ = ports.Items()[0].Get("ports")
		Expect(ports).To(equalValue(mustParse(`
- {containerPort: 80, protocol: UDP, name: dns}
- {containerPort: 80, protocol: TCP, name: http, hostPort: 8080}`)))
	})

	It("reports an unknown type name", func() {
		_, err := patch.Apply(value.MustMap(), value.MustMap(), patch.Options{Schema: openapi.Union(), TypeName: "no.such.Type"})
		Expect(err).To(MatchError(ContainSubstring("no definition named no.such.Type")))
	})

	It("merges long lists in time linear in their length", func() {
		// Not a timing test: the result of a 20,000-item patch is checked;
		// quadratic work would make this spec (and BenchmarkApply) crawl.
		n := 20000
		live := make([]value.Value, n)
		p := make([]value.Value, n)
		want := make([]value.Value, n)
		for i := range n {
			k := value.String("k" + strconv.Itoa(i))
			live[i] = value.MustMap(value.Field{Key: "foo", Value: k}, value.Field{Key: "other", Value: value.Int(int64(i))})
			p[n-1-i] = value.MustMap(value.Field{Key: "foo", Value: k}, value.Field{Key: "another", Value: value.String("x")})
			want[n-1-i] = live[i].With("another", value.String("x"))
		}
		for _, o := range []patch.Ordering{patch.OrderSeed, patch.OrderKubectl} {
			out, err := patch.ApplyTypeOrdered(value.MustMap(value.Field{Key: "klist", Value: value.List(live)}),
				value.MustMap(value.Field{Key: "klist", Value: value.List(p)}), testType("dev.ply.patch.v1.Example"), o)
			Expect(err).NotTo(HaveOccurred())
			got, _ := out.Get("klist")
			Expect(got).To(equalValue(value.List(want)), orderingName(o))
		}
	})
})

var _ = Describe("live's values a patch does not touch", func() {
	It("come out unchanged, nulls included, as strategicpatch leaves them", func() {
		live := jsonv.MustDecode(`{"apiVersion":"patch.ply.dev/v1","kind":"Example","count":1,"note":null,"rollingUpdate":{"maxSurge":null,"maxUnavailable":1}}`)
		p := jsonv.MustDecode(`{"count":2,"rollingUpdate":{"maxUnavailable":2}}`)
		want := `{"apiVersion":"patch.ply.dev/v1","count":2,"kind":"Example","note":null,"rollingUpdate":{"maxSurge":null,"maxUnavailable":2}}`
		got, err := patch.Apply(live, p, patch.Options{Schema: fixture{}.schema()})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got.JSON())).To(Equal(want))
		models, err := oracle.Load(mustRead("testdata/schema.json"))
		Expect(err).NotTo(HaveOccurred())
		o, err := models.Oracle("dev.ply.patch.v1.Example")
		Expect(err).NotTo(HaveOccurred())
		sp, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta(live.JSON(), p.JSON(), o.Meta())
		Expect(err).NotTo(HaveOccurred())
		Expect(string(jsonv.MustDecode(string(sp)).JSON())).To(Equal(want))
	})
})

func mustRead(path string) []byte {
	data, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	return data
}
