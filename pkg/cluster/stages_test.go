package cluster

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// stageLines renders stages as "stage N (...): ref ref ...", the refs
// being those of objs at the stage's indices.
func stageLines(stages []Stage, refOfIndex func(int) string) []string {
	var out []string
	for _, s := range stages {
		var names []string
		for _, i := range s.Indices {
			names = append(names, refOfIndex(i))
		}
		out = append(out, s.String()+": "+strings.Join(names, " "))
	}
	return out
}

func stagesOfFile(path string) ([]string, error) {
	objs, err := ReadObjects([]string{path}, false, nil)
	Expect(err).NotTo(HaveOccurred())
	stages, err := Stages(objs)
	return stageLines(stages, func(i int) string { return refOf(objs[i]).String() }), err
}

var _ = Describe("Stages", func() {
	DescribeTable("orders a run's objects",
		func(file string, want []string) {
			got, err := stagesOfFile("testdata/stages/" + file)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
		},
		Entry("by kind: namespaces, definitions, what others refer to, workloads, admission last", "kinds.yaml", []string{
			"stage 1 (wave 0, namespaces): namespace/b namespace/a",
			"stage 2 (wave 0, definitions): customresourcedefinition.apiextensions.k8s.io/widgets.example.com",
			"stage 3 (wave 0, referenced): service/hook clusterrole.rbac.authorization.k8s.io/reader configmap/c storageclass.storage.k8s.io/fast",
			"stage 4 (wave 0, workloads): deployment.apps/web widget.example.com/w namespace.example.com/not-core",
			"stage 5 (wave 0, admission): validatingwebhookconfiguration.admissionregistration.k8s.io/hook apiservice.apiregistration.k8s.io/v1.example.com",
		}),
		Entry("by Argo CD sync wave first, then kind", "waves.yaml", []string{
			"stage 1 (wave -1, workloads): job.batch/early",
			"stage 2 (wave 0, referenced): configmap/zero",
			"stage 3 (wave 0, workloads): deployment.apps/default-wave",
			"stage 4 (wave 1, namespaces): namespace/in-wave-1",
			"stage 5 (wave 2, referenced): configmap/late",
		}),
		Entry("by kapp change rules within a wave, then kind; rules naming no object's group order nothing", "groups.yaml", []string{
			"stage 1 (wave 0, referenced): configmap/settings",
			"stage 2 (wave 0, workloads): statefulset.apps/db",
			"stage 3 (wave 0, change level 1, workloads): job.batch/migrate",
			"stage 4 (wave 0, change level 2, workloads): deployment.apps/app",
			"stage 5 (wave 0, change level 3, referenced): service/front",
		}),
	)

	DescribeTable("refuses declared order it cannot read, naming the object or the groups",
		func(file, want string) {
			_, err := stagesOfFile("testdata/stages/" + file)
			Expect(err).To(MatchError(want))
		},
		Entry("a cycle of change rules", "cycle.yaml",
			`the kapp change rules form a cycle among the change groups "first", "second": `+
				`configmap/a "upsert after upserting second"; configmap/b "upsert after upserting first"`),
		Entry("a sync wave that is not an integer", "bad-wave.yaml",
			`configmap/a (testdata/stages/bad-wave.yaml#1): metadata.annotations.argocd.argoproj.io/sync-wave: "first" is not an integer`),
		Entry("a rule that does not parse", "bad-rule.yaml",
			`configmap/a (testdata/stages/bad-rule.yaml#1): metadata.annotations.kapp.k14s.io/change-rule: `+
				`"upsert whenever db" is not a change rule: want "upsert|delete after|before upserting|deleting <group>"`),
		Entry("a write after a deletion", "upsert-after-delete.yaml",
			`configmap/a (testdata/stages/upsert-after-delete.yaml#1): metadata.annotations.kapp.k14s.io/change-rule.old: `+
				`"upsert after deleting old": ply deletes (prunes) only after every write of the run, so no write can follow a deletion`),
	)

	It("orders deletions in reverse: higher waves first, admission before workloads, Namespaces last, and the delete rules", func() {
		objs, err := ReadObjects([]string{"testdata/stages/kinds.yaml", "testdata/stages/waves.yaml", "testdata/stages/groups.yaml"}, false, nil)
		Expect(err).NotTo(HaveOccurred())
		cands := make([]candidate, len(objs))
		for i, o := range objs {
			u := &unstructured.Unstructured{}
			Expect(u.UnmarshalJSON(o.Value.JSON())).To(Succeed())
			cands[i] = candidate{ref: refOf(o), live: u}
		}
		cands, err = orderDeletions(cands)
		Expect(err).NotTo(HaveOccurred())
		var got []string
		for _, cd := range cands {
			got = append(got, cd.ref.String())
		}
		Expect(got).To(Equal([]string{
			"configmap/late",
			"namespace/in-wave-1",
			"apiservice.apiregistration.k8s.io/v1.example.com",
			"validatingwebhookconfiguration.admissionregistration.k8s.io/hook",
			"deployment.apps/default-wave",
			"deployment.apps/web",
			"job.batch/migrate",
			"namespace.example.com/not-core",
			"statefulset.apps/db",
			"widget.example.com/w",
			"clusterrole.rbac.authorization.k8s.io/reader",
			"configmap/c",
			"configmap/settings",
			"configmap/zero",
			"service/front",
			"service/hook",
			"storageclass.storage.k8s.io/fast",
			"customresourcedefinition.apiextensions.k8s.io/widgets.example.com",
			"namespace/a",
			"namespace/b",
			// "delete before deleting apps" on service/front: level 1.
			"deployment.apps/app",
			"job.batch/early",
		}))
	})
})
