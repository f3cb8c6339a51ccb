package main

import (
	"encoding/base64"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The values a Secret's merge and patches carry, raw and base64.
var secretValues = []string{"old-s3cret-value", "new-s3cret-value",
	base64.StdEncoding.EncodeToString([]byte("old-s3cret-value")), base64.StdEncoding.EncodeToString([]byte("new-s3cret-value"))}

var _ = Describe("a Secret's values in merge and patch output", func() {
	secret := func(f string) string { return testdata("secret", f) }
	runs := map[string][]string{
		"merge":              {"merge", "--recorded", secret("recorded.yaml"), "--local", secret("local.yaml"), "--live", secret("live.yaml")},
		"merge -o json":      {"merge", "-o", "json", "--recorded", secret("recorded.yaml"), "--local", secret("local.yaml"), "--live", secret("live.yaml")},
		"patch apply":        {"patch", "apply", "--live", secret("live.yaml"), "--patch", secret("patch.yaml")},
		"patch create":       {"patch", "create", "--original", secret("recorded.yaml"), "--modified", secret("local.yaml")},
		"patch create 3-way": {"patch", "create", "--original", secret("recorded.yaml"), "--modified", secret("local.yaml"), "--current", secret("live.yaml")},
	}
	for name, args := range runs {
		It(name+": masked, shown with --show-secrets", func() {
			r := ply(args...)
			Expect(r.code).To(Equal(0), r.stderr)
			Expect(r.stdout).To(ContainSubstring("***"))
			for _, v := range secretValues {
				Expect(r.stdout + r.stderr).NotTo(ContainSubstring(v))
			}
			shown := ply(append(args, "--show-secrets")...)
			Expect(shown.code).To(Equal(0), shown.stderr)
			Expect(shown.stdout).To(ContainSubstring("new-s3cret-value"))
		})
	}
})
