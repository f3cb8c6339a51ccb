package smpsuite

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// Outcome is a test's or subtest's result: "pass", "fail" or "skip".
type Outcome string

// Results are the outcomes of a run, by full test name ("TestX/sub/case"), and the output of the failed ones.
type Results struct {
	Outcomes map[string]Outcome
	Output   map[string]string
	// BuildOutput is the go command's output when the package did not build or run.
	BuildOutput string
}

// event is one line of `go test -json`.
type event struct {
	Action string
	Test   string
	Output string
}

// Run runs the copy's strategicpatch tests and reads their outcomes.
func (s *Scratch) Run(ctx context.Context) (*Results, error) {
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-json", "./"+Package+"/")
	cmd.Dir = s.Module
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	r := &Results{Outcomes: map[string]Outcome{}, Output: map[string]string{}}
	outputs := map[string]*strings.Builder{}
	var build strings.Builder
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			build.WriteString(sc.Text() + "\n")
			continue
		}
		switch {
		case e.Test == "":
			build.WriteString(e.Output)
		case e.Action == "output":
			b := outputs[e.Test]
			if b == nil {
				b = &strings.Builder{}
				outputs[e.Test] = b
			}
			b.WriteString(e.Output)
		case e.Action == "pass" || e.Action == "fail" || e.Action == "skip":
			r.Outcomes[e.Test] = Outcome(e.Action)
		}
	}
	for name, o := range r.Outcomes {
		if o == "fail" && outputs[name] != nil {
			r.Output[name] = outputs[name].String()
		}
	}
	r.BuildOutput = build.String() + stderr.String()
	if len(r.Outcomes) == 0 {
		return r, fmt.Errorf("no test ran (%v):\n%s", runErr, r.BuildOutput)
	}
	return r, nil
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
