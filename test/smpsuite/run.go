package smpsuite

import (
	"context"
	"strings"

	"github.com/plyproject/ply/test/internal/gotestjson"
)

// Outcome is a test's or subtest's result: "pass", "fail" or "skip".
type Outcome = gotestjson.Outcome

// Results are the outcomes of a run, by full test name ("TestX/sub/case"), and the output of the failed ones.
type Results = gotestjson.Results

// Run runs the copy's strategicpatch tests and reads their outcomes.
func (s *Scratch) Run(ctx context.Context) (*Results, error) {
	return gotestjson.Run(ctx, s.Module, "./"+Package+"/")
}

// Normalize gives the name a test has in every run: without "#NN" repeat suffixes, and with the field list of an OpenAPI
// v2 schema's name (Go map order) left out.
func Normalize(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		if j := strings.LastIndex(p, "#"); j >= 0 && strings.Trim(p[j+1:], "0123456789") == "" {
			p = p[:j]
		}
		if strings.HasPrefix(p, "Kind([") {
			p = "Kind"
		}
		parts[i] = p
	}
	return strings.Join(parts, "/")
}
