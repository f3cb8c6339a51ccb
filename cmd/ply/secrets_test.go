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

// conflictValues are the values of testdata/secret-conflict, as written,
// base64-encoded and decoded.
var conflictValues = func() []string {
	var out []string
	for _, v := range []string{"REC-PW-1111", "N3w-PW-5353", "OLD-PW-7777", "REC-TOK-1111", "N3w-TOK-5353", "OLD-TOK-7777"} {
		out = append(out, v, base64.StdEncoding.EncodeToString([]byte(v)))
	}
	return out
}()

var _ = Describe("a Secret's conflicts (--overwrite=false)", func() {
	file := func(f string) string { return testdata("secret-conflict", f) }
	runs := map[string][]string{
		"merge":        {"merge", "--overwrite=false", "--recorded", file("recorded.yaml"), "--local", file("local.yaml"), "--live", file("live.yaml")},
		"patch create": {"patch", "create", "--overwrite=false", "--original", file("recorded.yaml"), "--modified", file("local.yaml"), "--current", file("live.yaml")},
	}
	for name, args := range runs {
		It(name+": lists each conflict, a value of data or stringData as ***, other fields' values as they are", func() {
			r := ply(args...)
			Expect(r.code).To(Equal(exitConflict), r.stderr)
			Expect(r.stderr).To(Equal("ply: 3 conflicts with changes made on the server since the last apply (--overwrite=true lets local win):\n" +
				"  data.token: local sets ***, live has ***\n" +
				"  stringData.password: local sets ***, live has ***\n" +
				`  type: local sets "example.com/db", live has "example.com/other"` + "\n"))
			for _, v := range conflictValues {
				Expect(r.stdout + r.stderr).NotTo(ContainSubstring(v))
			}
		})
		It(name+": prints the values with --show-secrets", func() {
			r := ply(append(args, "--show-secrets")...)
			Expect(r.code).To(Equal(exitConflict), r.stderr)
			Expect(r.stderr).To(ContainSubstring(`  stringData.password: local sets "N3w-PW-5353", live has "OLD-PW-7777"` + "\n"))
			Expect(r.stderr).To(ContainSubstring(`  data.token: local sets "TjN3LVRPSy01MzUz", live has "T0xELVRPSy03Nzc3"` + "\n"))
		})
	}
})
