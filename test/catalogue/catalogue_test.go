package catalogue_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.yaml.in/yaml/v3"
)

// catalogueFile is the catalogue, relative to this package.
const catalogueFile = "../../docs/errors.md"

// part is a piece of a generated file: text repeated times times.
type part struct {
	Text  string `yaml:"text"`
	Times int    `yaml:"times"`
}

// example is one entry of testdata/examples.yaml.
type example struct {
	ID        string            `yaml:"id"`
	Args      []string          `yaml:"args"`
	Stdin     string            `yaml:"stdin"`
	Files     map[string]string `yaml:"files"`
	Generated map[string][]part `yaml:"generated"`
	Exit      int               `yaml:"exit"`
	// Alone runs a copy of ply with no kubectl-ply beside it or on PATH.
	Alone  bool     `yaml:"alone"`
	Stderr []string `yaml:"stderr"`
}

// command is the example's command line as the catalogue shows it.
func (e example) command() string {
	var sb strings.Builder
	sb.WriteString("$ ply")
	for _, a := range e.Args {
		sb.WriteByte(' ')
		sb.WriteString(shellQuote(a))
	}
	if e.Stdin != "" {
		sb.WriteString(" < ")
		sb.WriteString(shellQuote(e.Stdin))
	}
	return sb.String()
}

var plainArg = regexp.MustCompile(`^[A-Za-z0-9._/=:,@+-]+$`)

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if plainArg.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func loadExamples() []example {
	data, err := os.ReadFile(filepath.Join("testdata", "examples.yaml"))
	if err != nil {
		Fail("reading the examples: " + err.Error())
	}
	var exs []example
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&exs); err != nil {
		Fail("testdata/examples.yaml: " + err.Error())
	}
	return exs
}

// block is a console block of the catalogue: its lines and the anchor of
// the section it is in.
type block struct {
	anchor string
	lines  []string
}

var anchorRE = regexp.MustCompile(`^<a id="([a-z0-9-]+)"></a>$`)

// readCatalogue returns the catalogue's anchors (in order) and its console
// blocks.
func readCatalogue() ([]string, []block) {
	data, err := os.ReadFile(catalogueFile)
	Expect(err).NotTo(HaveOccurred(), "the catalogue must exist")
	var anchors []string
	var blocks []block
	var cur *block
	for _, l := range strings.Split(string(data), "\n") {
		switch {
		case cur != nil && l == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, l)
		case l == "```console":
			anchor := ""
			if len(anchors) > 0 {
				anchor = anchors[len(anchors)-1]
			}
			cur = &block{anchor: anchor}
		default:
			if m := anchorRE.FindStringSubmatch(l); m != nil {
				anchors = append(anchors, m[1])
			}
		}
	}
	Expect(cur).To(BeNil(), "the catalogue's last console block is not closed")
	return anchors, blocks
}

// shows reports whether b shows the example: its command line followed,
// before the next command line, by its stderr lines in one run.
func (b block) shows(e example) bool {
	cmd := e.command()
	for i, l := range b.lines {
		if l != cmd {
			continue
		}
		end := i + 1
		for end < len(b.lines) && !strings.HasPrefix(b.lines[end], "$ ") {
			end++
		}
		if containsRun(b.lines[i+1:end], e.Stderr) {
			return true
		}
	}
	return false
}

// containsRun reports whether want occurs in lines as consecutive lines.
func containsRun(lines, want []string) bool {
	for i := 0; i+len(want) <= len(lines); i++ {
		ok := true
		for j, w := range want {
			if lines[i+j] != w {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

var examples = loadExamples()

var _ = Describe("the error catalogue (docs/errors.md)", func() {
	It("has well-formed examples", func() {
		Expect(examples).NotTo(BeEmpty())
		for i, e := range examples {
			where := "example " + strconv.Itoa(i) + " (" + e.ID + ")"
			Expect(e.ID).To(MatchRegexp(`^[a-z0-9-]+$`), where)
			Expect(e.Stderr).NotTo(BeEmpty(), where+": every example shows at least one line of standard error")
			if e.Stdin != "" {
				Expect(e.Files).To(HaveKey(e.Stdin), where+": stdin must name one of the files")
			}
			for name, parts := range e.Generated {
				Expect(e.Files).NotTo(HaveKey(name), where+": "+name+" is both given and generated")
				for _, p := range parts {
					Expect(p.Text).NotTo(BeEmpty(), where+": "+name)
					Expect(p.Times).To(BeNumerically(">", 0), where+": "+name)
				}
			}
		}
	})

	It("has unique anchors", func() {
		anchors, _ := readCatalogue()
		Expect(anchors).NotTo(BeEmpty())
		seen := make(map[string]bool, len(anchors))
		for _, a := range anchors {
			Expect(seen[a]).To(BeFalse(), "anchor "+a+" is defined twice")
			seen[a] = true
		}
	})

	It("shows only commands and outputs of the examples", func() {
		commands := make(map[string]bool, len(examples))
		outputs := make(map[string]bool)
		for _, e := range examples {
			commands[e.command()] = true
			for _, l := range e.Stderr {
				outputs[l] = true
			}
		}
		_, blocks := readCatalogue()
		Expect(blocks).NotTo(BeEmpty())
		for _, b := range blocks {
			for _, l := range b.lines {
				switch {
				case strings.HasPrefix(l, "$ "):
					Expect(commands).To(HaveKey(l), "the catalogue (section "+b.anchor+") shows a command that no example runs")
				case l == "" || l == "...":
				default:
					Expect(outputs).To(HaveKey(l), "the catalogue (section "+b.anchor+") shows an output line that no example checks")
				}
			}
		}
	})

	for i, e := range examples {
		It("prints what the catalogue shows: "+e.ID+" ("+strconv.Itoa(i)+")", func() {
			dir := GinkgoT().TempDir()
			for name, content := range e.Files {
				writeFile(filepath.Join(dir, name), []byte(content))
			}
			for name, parts := range e.Generated {
				var sb strings.Builder
				for _, p := range parts {
					sb.WriteString(strings.Repeat(p.Text, p.Times))
				}
				writeFile(filepath.Join(dir, name), []byte(sb.String()))
			}
			exe, path := bin, os.Getenv("PATH")
			if e.Alone {
				exe, path = filepath.Join(GinkgoT().TempDir(), "ply"), ""
				data, err := os.ReadFile(bin)
				Expect(err).NotTo(HaveOccurred())
				Expect(os.WriteFile(exe, data, 0o755)).To(Succeed())
			}
			cmd := exec.Command(exe, e.Args...)
			cmd.Dir = dir
			cmd.Env = []string{"HOME=" + dir, "PATH=" + path}
			cmd.Stdin = bytes.NewReader(nil)
			if e.Stdin != "" {
				cmd.Stdin = strings.NewReader(e.Files[e.Stdin])
			}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if err != nil {
				var ee *exec.ExitError
				Expect(err).To(BeAssignableToTypeOf(ee), "running "+e.command())
			}
			Expect(cmd.ProcessState.ExitCode()).To(Equal(e.Exit), e.command()+"\nstderr:\n"+stderr.String())
			lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
			Expect(containsRun(lines, e.Stderr)).To(BeTrue(),
				e.command()+": standard error does not hold the example's lines\nwant:\n"+
					strings.Join(e.Stderr, "\n")+"\ngot:\n"+stderr.String())

			anchors, blocks := readCatalogue()
			Expect(anchors).To(ContainElement(e.ID), "the catalogue has no anchor "+e.ID)
			shown := false
			for _, b := range blocks {
				if b.anchor == e.ID && b.shows(e) {
					shown = true
					break
				}
			}
			Expect(shown).To(BeTrue(), "the catalogue's section "+e.ID+" does not show, in a console block,\n"+
				e.command()+"\nfollowed by\n"+strings.Join(e.Stderr, "\n"))
		})
	}
})

func writeFile(path string, data []byte) {
	Expect(os.MkdirAll(filepath.Dir(path), 0o755)).To(Succeed())
	Expect(os.WriteFile(path, data, 0o644)).To(Succeed())
}
