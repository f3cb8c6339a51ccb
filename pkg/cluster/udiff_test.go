package cluster

import (
	"math/rand/v2"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// applyUnified applies a unified diff made by unifiedDiff to a, checking
// every context and removed line, and returns the result.
func applyUnified(a, diff string) string {
	if diff == "" {
		return a
	}
	al := splitLines(a)
	lines := strings.SplitAfter(diff, "\n")
	Expect(lines[0]).To(HavePrefix("--- "))
	Expect(lines[1]).To(HavePrefix("+++ "))
	var out []string
	pos := 0
	for i := 2; i < len(lines) && lines[i] != ""; i++ {
		l := lines[i]
		if strings.HasPrefix(l, "@@ -") {
			var start int
			spec := strings.Fields(l)[1][1:]
			n, _ := strings.CutSuffix(strings.Split(spec, ",")[0], "")
			for _, c := range n {
				start = start*10 + int(c-'0')
			}
			if strings.HasSuffix(spec, ",0") {
				start++
			}
			for pos < start-1 {
				out = append(out, al[pos])
				pos++
			}
			continue
		}
		if strings.HasPrefix(l, `\ No newline`) {
			last := out[len(out)-1]
			out[len(out)-1] = strings.TrimSuffix(last, "\n")
			continue
		}
		body := l[1:]
		switch l[0] {
		case ' ':
			Expect(al[pos]).To(Equal(body))
			out = append(out, body)
			pos++
		case '-':
			Expect(al[pos]).To(Equal(body))
			pos++
		case '+':
			out = append(out, body)
		}
	}
	out = append(out, al[pos:]...)
	return strings.Join(out, "")
}

var _ = Describe("unifiedDiff", func() {
	It("renders hunks as diff -u does", func() {
		a := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n"
		b := "a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\nl\nm\n"
		Expect(unifiedDiff("live/x", "merged/x", a, b)).To(Equal(
			"--- live/x\n+++ merged/x\n" +
				"@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n" +
				"@@ -10,3 +10,4 @@\n j\n k\n l\n+m\n"))
	})

	It("joins changes closer than twice the context into one hunk", func() {
		a := "1\n2\n3\n4\n5\n6\n7\n8\n"
		b := "1\nX\n3\n4\n5\n6\nY\n8\n"
		Expect(unifiedDiff("a", "b", a, b)).To(Equal(
			"--- a\n+++ b\n@@ -1,8 +1,8 @@\n 1\n-2\n+X\n 3\n 4\n 5\n 6\n-7\n+Y\n 8\n"))
	})

	It("diffs against an empty text as diff -u -N does", func() {
		Expect(unifiedDiff("a", "b", "", "x: 1\ny: 2\n")).To(Equal("--- a\n+++ b\n@@ -0,0 +1,2 @@\n+x: 1\n+y: 2\n"))
	})

	It("is empty for equal texts", func() {
		Expect(unifiedDiff("a", "b", "x\n", "x\n")).To(BeEmpty())
	})

	It("marks a missing final newline", func() {
		Expect(unifiedDiff("a", "b", "x\ny", "x\nz\n")).To(Equal("--- a\n+++ b\n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+z\n"))
	})

	It("turns a into b, and finds a shortest script, on random texts", func() {
		r := rand.New(rand.NewPCG(1, 2))
		text := func() string {
			var sb strings.Builder
			for range r.IntN(40) {
				sb.WriteString(string(rune('a' + r.IntN(4))))
				sb.WriteByte('\n')
			}
			return sb.String()
		}
		for range 300 {
			a, b := text(), text()
			Expect(applyUnified(a, unifiedDiff("a", "b", a, b))).To(Equal(b))
			ops := editScript(splitLines(a), splitLines(b))
			kept := 0
			for _, op := range ops {
				if op.kind == ' ' {
					kept++
				}
			}
			Expect(kept).To(Equal(lcsLen(splitLines(a), splitLines(b))))
		}
	})

	It("stays correct past the edit distance bound", func() {
		var a, b strings.Builder
		for i := range 2*maxEditDistance + 10 {
			a.WriteString("a" + string(rune('0'+i%10)) + "\n")
			b.WriteString("b" + string(rune('0'+i%10)) + "\n")
		}
		Expect(applyUnified(a.String(), unifiedDiff("a", "b", a.String(), b.String()))).To(Equal(b.String()))
	})
})

// lcsLen is the length of a longest common subsequence, by dynamic
// programming (the reference the Myers script is checked against).
func lcsLen(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			switch {
			case a[i-1] == b[j-1]:
				cur[j] = prev[j-1] + 1
			case prev[j] >= cur[j-1]:
				cur[j] = prev[j]
			default:
				cur[j] = cur[j-1]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
