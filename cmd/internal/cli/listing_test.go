package cli

import (
	"errors"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/cmd/internal/command"
	"github.com/plyproject/ply/pkg/cluster"
)

var _ = Describe("apply -o json|yaml|jsonpath|go-template: one object or a v1 List at the end", func() {
	// listed prints the outcomes through a listing of total objects and
	// returns standard output.
	listed := func(output string, total int, outs ...cluster.Outcome) (string, *applyPrinter) {
		var out, errb strings.Builder
		p := newApplyPrinter(printerFor(output), cluster.DryRunNone, false, &out, &errb)
		p.list = &listing{total: total}
		for i := len(outs) - 1; i >= 0; i-- {
			p.report(i, outs[i]) // the last first: printed in input order all the same
		}
		Expect(out.String()).To(BeEmpty(), "nothing before the end")
		p.finish()
		return out.String(), p
	}

	It("prints the one object of an input of one alone", func() {
		got, _ := listed("json", 1, outcome("ConfigMap", "", "a", "a#1", cluster.Created, nil))
		Expect(got).To(Equal(golden("apply-list-one.json", got)))
	})

	It("prints several in a List, in input order, without those that failed, Secrets masked", func() {
		got, p := listed("yaml", 4, outcome("ConfigMap", "", "a", "a#1", cluster.Created, nil),
			outcome("ConfigMap", "", "b", "b#1", cluster.Failed, errors.New("boom")),
			outcome("ConfigMap", "", "c", "c#1", cluster.Unchanged, nil), secretOutcome(cluster.Configured))
		Expect(got).To(Equal(golden("apply-list-several.yaml", got)))
		Expect(got).NotTo(ContainSubstring("s3cr3t"))
		Expect(got).NotTo(ContainSubstring("czNjcjN0"))
		Expect(p.code).To(Equal(command.ExitFailed))
	})

	It("lets a jsonpath walk the List's items", func() {
		got, _ := listed("jsonpath={.items[*].metadata.name}", 2, outcome("ConfigMap", "", "a", "a#1", cluster.Created, nil),
			outcome("ConfigMap", "", "b", "b#1", cluster.Configured, nil))
		Expect(got).To(Equal("a b"))
	})

	It("prints the objects pruned after the List, one by one, as kubectl", func() {
		pruned := outcome("ConfigMap", "", "old", cluster.PruneSource, cluster.Pruned, nil)
		got, _ := listed("jsonpath={.kind}:{.metadata.name} ", 1, outcome("ConfigMap", "", "a", "a#1", cluster.Created, nil), pruned)
		Expect(got).To(Equal("ConfigMap:a ConfigMap:old "))
	})

	It("prints nothing when every object failed", func() {
		got, _ := listed("json", 2, outcome("ConfigMap", "", "a", "a#1", cluster.Failed, errors.New("boom")))
		Expect(got).To(BeEmpty())
	})

	DescribeTable("lists with every format but name, which prints each object as it is done",
		func(output string, lists bool) {
			f := applyFlags{}
			f.print.Output = output
			Expect(listsObjects(&f.print)).To(Equal(lists))
		},
		Entry("json", "json", true),
		Entry("yaml", "yaml", true),
		Entry("jsonpath", "jsonpath={.a}", true),
		Entry("go-template", "go-template={{.a}}", true),
		Entry("name", "name", false),
		Entry("kubectl's lines", "", false),
	)
})
