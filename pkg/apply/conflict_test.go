package apply_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/apply"
)

var _ = Describe("Overwrite false", func() {
	noOverwrite := apply.Options{}

	conflicts := func(recorded, local, live string) []string {
		_, err := apply.Merge(mustParse(recorded), mustParse(local), mustParse(live), noOverwrite)
		if err == nil {
			return nil
		}
		var ce *apply.ConflictError
		Expect(errors.As(err, &ce)).To(BeTrue(), "%v", err)
		var out []string
		for _, c := range ce.Conflicts {
			out = append(out, c.Path.String()+": local "+string(c.Local.JSON())+", live "+string(c.Live.JSON()))
		}
		return out
	}

	DescribeTable("reports the fields local writes that live changed since the last apply",
		func(recorded, local, live string, want []string) {
			Expect(conflicts(recorded, local, live)).To(Equal(want))
		},
		Entry("live scaled, local sets another count",
			`{apiVersion: apps/v1, kind: Deployment, spec: {replicas: 1}}`,
			`{apiVersion: apps/v1, kind: Deployment, spec: {replicas: 2}}`,
			`{apiVersion: apps/v1, kind: Deployment, spec: {replicas: 5}}`,
			[]string{"spec.replicas: local 2, live 5"}),
		Entry("local keeps the recorded value live changed (kubectl counts it too)",
			`{apiVersion: apps/v1, kind: Deployment, spec: {replicas: 1}}`,
			`{apiVersion: apps/v1, kind: Deployment, spec: {replicas: 1}}`,
			`{apiVersion: apps/v1, kind: Deployment, spec: {replicas: 5}}`,
			[]string{"spec.replicas: local 1, live 5"}),
		Entry("live changed a field local does not set",
			`{apiVersion: apps/v1, kind: Deployment, spec: {paused: false}}`,
			`{apiVersion: apps/v1, kind: Deployment, spec: {paused: true}}`,
			`{apiVersion: apps/v1, kind: Deployment, spec: {paused: false, replicas: 5}, status: {replicas: 5}}`,
			nil),
		Entry("local removes a label live changed",
			`{apiVersion: v1, kind: ConfigMap, metadata: {labels: {a: "1", b: "1"}}}`,
			`{apiVersion: v1, kind: ConfigMap, metadata: {labels: {b: "1"}}}`,
			`{apiVersion: v1, kind: ConfigMap, metadata: {labels: {a: "2", b: "1"}}}`,
			[]string{"metadata.labels.a: local null, live \"2\""}),
		Entry("local deletes a container live changed",
			`{apiVersion: v1, kind: Pod, spec: {containers: [{name: web, image: a}, {name: side, image: b}]}}`,
			`{apiVersion: v1, kind: Pod, spec: {containers: [{name: web, image: a}]}}`,
			`{apiVersion: v1, kind: Pod, spec: {containers: [{name: web, image: a}, {name: side, image: c}]}}`,
			[]string{`spec.containers[name=side]: local {"$patch":"delete","name":"side"}, live {"image":"c","name":"side"}`}),
		Entry("both sides delete the same container",
			`{apiVersion: v1, kind: Pod, spec: {containers: [{name: web, image: a}, {name: side, image: b}]}}`,
			`{apiVersion: v1, kind: Pod, spec: {containers: [{name: web, image: a}]}}`,
			`{apiVersion: v1, kind: Pod, spec: {containers: [{name: web, image: a}]}}`,
			nil),
		Entry("every conflict is listed, in path order",
			`{apiVersion: apps/v1, kind: Deployment, spec: {replicas: 1, minReadySeconds: 1}}`,
			`{apiVersion: apps/v1, kind: Deployment, spec: {replicas: 2, minReadySeconds: 2}}`,
			`{apiVersion: apps/v1, kind: Deployment, spec: {replicas: 5, minReadySeconds: 5}}`,
			[]string{"spec.minReadySeconds: local 2, live 5", "spec.replicas: local 2, live 5"}),
	)

	It("leaves the merge alone when there is no conflict", func() {
		res, err := apply.Merge(
			mustParse(`{apiVersion: apps/v1, kind: Deployment, spec: {paused: false}}`),
			mustParse(`{apiVersion: apps/v1, kind: Deployment, spec: {paused: true}}`),
			mustParse(`{apiVersion: apps/v1, kind: Deployment, spec: {paused: false, replicas: 5}}`), noOverwrite)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Object).To(equalValue(mustParse(`{apiVersion: apps/v1, kind: Deployment, spec: {paused: true, replicas: 5}}`)))
	})
})
