package e2e

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("ply apply --validate", func() {
	var ns, typo string
	BeforeEach(func() {
		ns = newNamespace("validate-")
		typo = fixture("deployment-typo.yaml")
	})

	It("refuses an unknown field by default (strict), naming the object, the file, the document and the field path", func() {
		for _, flags := range [][]string{nil, {"--validate=strict"}, {"--validate=true"}, {"--validate"}} {
			r := applyWith(srv.Kubeconfig, ns, []string{typo}, flags...)
			Expect(r.ExitCode).To(Equal(1), "%v: %s", flags, r)
			Expect(r.Stderr).To(Equal(`error: deployments.apps "typo" (`+typo+`#1): unknown field "spec.replcas"`+"\n"), "%v", flags)
			expectAbsent(deployments, ns, "typo")
		}
		By("diff and the server dry run refuse it the same way")
		for _, args := range [][]string{{"diff", "-n", ns, "-f", typo}, {"apply", "-n", ns, "-f", typo, "--dry-run=server"}} {
			r := kubectlPly(args...)
			Expect(r.ExitCode).NotTo(BeZero(), "%s", r)
			Expect(r.Stderr).To(ContainSubstring(`(` + typo + `#1): unknown field "spec.replcas"`))
		}
	})

	It("stores the object without the field and warns under warn; silently under ignore", func() {
		r := applyWith(srv.Kubeconfig, ns, []string{typo}, "--validate=warn")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal("deployment.apps/typo created\n"))
		Expect(r.Stderr).To(Equal(`Warning: deployment.apps/typo (` + typo + `#1): unknown field "spec.replcas"` + "\n"))
		Expect(has(live(deployments, ns, "typo"), "spec", "replcas")).To(BeFalse())

		for _, v := range []string{"ignore", "false"} {
			r = applyWith(srv.Kubeconfig, ns, []string{typo}, "--validate="+v)
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(r.Stdout).To(Equal("deployment.apps/typo unchanged\n"))
			Expect(r.Stderr).To(BeEmpty())
		}
	})

	It("--warnings-as-errors: the object is applied, the run exits 1 saying how many warnings it received", func() {
		r := applyWith(srv.Kubeconfig, ns, []string{typo}, "--validate=warn", "--warnings-as-errors")
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stdout).To(Equal("deployment.apps/typo created\n"))
		Expect(r.Stderr).To(Equal(`Warning: deployment.apps/typo (` + typo + `#1): unknown field "spec.replcas"` + "\n" +
			"error: 1 warning received\n"))
		live(deployments, ns, "typo")

		r = applyWith(srv.Kubeconfig, ns, []string{typo}, "--validate=ignore", "--warnings-as-errors")
		Expect(r.ExitCode).To(Equal(0), "no warning: %s", r)
	})

	It("diff --warnings-as-errors exits 2 after the diff and after the plan (-o json), the warnings on stderr", func() {
		warning := `Warning: deployment.apps/typo (` + typo + `#1): unknown field "spec.replcas"` + "\n"
		r := kubectlPly("diff", "-n", ns, "-f", typo, "--validate=warn", "--warnings-as-errors")
		Expect(r.ExitCode).To(Equal(2), "%s", r)
		Expect(r.Stdout).To(ContainSubstring("+++ merged/apps.v1.Deployment." + ns + ".typo"))
		Expect(r.Stderr).To(Equal(warning + "Plan: 1 to create, 0 to update, 0 to recreate, 0 to prune, 0 unchanged, 0 ignored, 0 failed.\n" +
			"error: 1 warning received\n"))

		r = kubectlPly("diff", "-n", ns, "-f", typo, "--validate=warn", "--warnings-as-errors", "-o", "json")
		Expect(r.ExitCode).To(Equal(2), "%s", r)
		Expect(r.Stdout).To(ContainSubstring(`"action": "create"`))
		Expect(r.Stderr).To(Equal(warning + "error: 1 warning received\n"))

		r = kubectlPly("diff", "-n", ns, "-f", typo, "--validate=warn", "-o", "json")
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stderr).To(Equal(warning), "the warning said with -o json too")
	})

	It("refuses a duplicate field before sending anything, naming the file and the line, whatever --validate says", func() {
		dup := fixture("configmap-duplicate.yaml")
		for _, v := range []string{"strict", "warn", "ignore"} {
			r := applyWith(srv.Kubeconfig, ns, []string{dup}, "--validate="+v)
			Expect(r.ExitCode).To(Equal(1), "%s", r)
			Expect(r.Stderr).To(Equal("error: " + dup + `: line 8, column 3: duplicate key "a" (first at line 7)` + "\n"))
			expectAbsent(configMaps, ns, "dup")
		}
	})

	It("refuses a bad --validate value as a usage error", func() {
		r := applyWith(srv.Kubeconfig, ns, []string{typo}, "--validate=loose")
		Expect(r.ExitCode).To(Equal(2), "%s", r)
		Expect(r.Stderr).To(ContainSubstring(`invalid --validate value "loose": want strict (or true), warn or ignore (or false)`))
	})
})
