package cli

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/plyproject/ply/cmd/internal/command"
	"github.com/plyproject/ply/pkg/cluster"
)

// useColor reads --color: auto colours when stdout is a terminal, NO_COLOR
// is unset and TERM is not dumb.
func useColor(mode string, stdout io.Writer) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		return isTerminal(stdout) && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb", nil
	}
	return false, errors.New("--color must be auto, always or never, not " + strconv.Quote(mode))
}

// ANSI colours of the diff lines.
const (
	colorReset  = "\x1b[0m"
	colorBold   = "\x1b[1m"
	colorRed    = "\x1b[31m"
	colorGreen  = "\x1b[32m"
	colorCyan   = "\x1b[36m"
	colorHeader = colorBold
)

// colorWriter colours the lines of unified diffs written to it: file
// headers bold, hunk headers cyan, removed lines red, added lines green.
// Each Write must end on a line end (reportDiff writes whole output).
type colorWriter struct {
	w io.Writer
}

func (c *colorWriter) Write(p []byte) (int, error) {
	var sb strings.Builder
	for _, line := range strings.SplitAfter(string(p), "\n") {
		if line == "" {
			continue
		}
		body := strings.TrimSuffix(line, "\n")
		color := ""
		switch {
		case strings.HasPrefix(body, "diff -u "), strings.HasPrefix(body, "--- "), strings.HasPrefix(body, "+++ "):
			color = colorHeader
		case strings.HasPrefix(body, "@@"):
			color = colorCyan
		case strings.HasPrefix(body, "-"):
			color = colorRed
		case strings.HasPrefix(body, "+"):
			color = colorGreen
		}
		if color == "" {
			sb.WriteString(line)
			continue
		}
		sb.WriteString(color + body + colorReset + line[len(body):])
	}
	if _, err := io.WriteString(c.w, sb.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}

// externalArg is what kubectl accepts as a flag of KUBECTL_EXTERNAL_DIFF's
// program: letters, digits, '-' and '='.
var externalArg = regexp.MustCompile(`^[a-zA-Z0-9-=]+$`)

// externalDiff reads KUBECTL_EXTERNAL_DIFF as kubectl does: a program and
// its flags separated by spaces; nil when the variable is unset or empty.
func externalDiff(env string) ([]string, error) {
	args := strings.Fields(env)
	if len(args) == 0 {
		return nil, nil
	}
	for _, a := range args[1:] {
		if !externalArg.MatchString(a) {
			return nil, errors.New("KUBECTL_EXTERNAL_DIFF: the flag " + strconv.Quote(a) + " has characters other than letters, digits, - and =")
		}
	}
	return args, nil
}

// runExternalDiff writes the changed objects to the directories live/ and
// merged/ of a temporary directory (one file each, named by Ref.FileName)
// and runs the program of prog on them, as kubectl diff does; its output
// is ours. The exit code is diff's: 1 when an object differs, 2 when an
// object failed or the program failed (exit code above 1, or not run).
func runExternalDiff(prog []string, res []cluster.DiffResult, stdout, stderr io.Writer) int {
	tmp, err := os.MkdirTemp("", "ply-diff-")
	if err != nil {
		io.WriteString(stderr, "error: "+err.Error()+"\n")
		return command.DiffError
	}
	defer os.RemoveAll(tmp)
	live, merged := filepath.Join(tmp, "live"), filepath.Join(tmp, "merged")
	code := reportDiff(res, false, io.Discard, stderr)
	for _, d := range res {
		if note := recreateNote(d); note != "" && d.Changed() {
			io.WriteString(stderr, "Note: "+note+"\n")
		}
	}
	for _, dir := range []string{live, merged} {
		if err := os.Mkdir(dir, 0o700); err != nil {
			io.WriteString(stderr, "error: "+err.Error()+"\n")
			return command.DiffError
		}
	}
	for _, d := range res {
		if !d.Changed() {
			continue
		}
		name := d.Ref.FileName()
		if err := os.WriteFile(filepath.Join(live, name), []byte(d.LiveText), 0o600); err != nil {
			io.WriteString(stderr, "error: "+err.Error()+"\n")
			return command.DiffError
		}
		if err := os.WriteFile(filepath.Join(merged, name), []byte(d.MergedText), 0o600); err != nil {
			io.WriteString(stderr, "error: "+err.Error()+"\n")
			return command.DiffError
		}
	}
	cmd := exec.Command(prog[0], append(prog[1:], live, merged)...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ee.ExitCode() == 1:
	default:
		io.WriteString(stderr, "error: KUBECTL_EXTERNAL_DIFF "+strconv.Quote(strings.Join(prog, " "))+": "+err.Error()+"\n")
		return command.DiffError
	}
	return code
}
