// Package gotestjson runs `go test -json` in a module and reads every test's and subtest's outcome: the runner of the
// suites that build other projects' tests against ply (test/smpsuite, test/consumersuite).
package gotestjson

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
	// BuildOutput is the go command's output outside any test: build errors, and the package's own lines.
	BuildOutput string
}

// event is one line of `go test -json`.
type event struct {
	Action string
	Test   string
	Output string
}

// Run runs `go test -count=1 -json ARGS` in dir (GOFLAGS=-mod=mod, GOWORK=off, GOTOOLCHAIN=local; the module cache,
// GOPROXY and GONOSUMDB of the environment) and reads the outcomes. It fails only when no test ran.
func Run(ctx context.Context, dir string, args ...string) (*Results, error) {
	cmd := exec.CommandContext(ctx, "go", append([]string{"test", "-count=1", "-json"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	r := read(&stdout)
	r.BuildOutput += stderr.String()
	if len(r.Outcomes) == 0 {
		return r, fmt.Errorf("no test ran (%v):\n%s", runErr, r.BuildOutput)
	}
	return r, nil
}

// read reads the events of a `go test -json` output.
func read(stdout *bytes.Buffer) *Results {
	r := &Results{Outcomes: map[string]Outcome{}, Output: map[string]string{}}
	outputs := map[string]*strings.Builder{}
	var build strings.Builder
	sc := bufio.NewScanner(stdout)
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
	r.BuildOutput = build.String()
	return r
}
