package command

import (
	"errors"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/features"
)

// CompatKubectl is the value of --compat that turns every feature gate
// off.
const CompatKubectl = "kubectl"

// GateFlags are --feature-gates and --compat, which every command that
// merges or patches takes (ply merge, patch apply, patch create, apply,
// diff and the kubectl plugin's commands).
type GateFlags struct {
	specs  gateSpecs
	compat string
}

// gateSpecs collects the values of the repeatable --feature-gates flag.
type gateSpecs []string

func (g *gateSpecs) String() string { return strings.Join(*g, ",") }

// Set adds one --feature-gates value; it is read once every flag is
// parsed (GateFlags.Gates), so that it applies on top of --compat wherever
// each is given.
func (g *gateSpecs) Set(s string) error {
	*g = append(*g, s)
	return nil
}

// Type names the value in the help.
func (g *gateSpecs) Type() string { return "strings" }

// Register adds --feature-gates and --compat to fs.
func (g *GateFlags) Register(fs *pflag.FlagSet) {
	fs.Var(&g.specs, "feature-gates", "`Name=true|false,...`: switch ply's departures from kubectl (see Feature gates);\n"+
		"repeatable, applied on top of --compat")
	fs.StringVar(&g.compat, "compat", "", "`kubectl`: turn every feature gate off, so ply computes what kubectl computes")
}

// Gates returns the gates the flags set: every gate on, all off with
// --compat=kubectl, then --feature-gates on top. A bad value is an error
// for the command to report as a usage error: an unknown --compat, or the
// message features.Parse gives.
func (g *GateFlags) Gates() (features.Gates, error) {
	var gates features.Gates
	switch g.compat {
	case "":
	case CompatKubectl:
		gates = features.Kubectl()
	default:
		return gates, errors.New("--compat must be " + CompatKubectl + ", not " + strconv.Quote(g.compat))
	}
	return features.Parse(gates, strings.Join(g.specs, ","))
}

// Ordering parses the --ordering flag of fs, whose value is value, under
// gates. With the SeedOrdering gate off every list is in kubectl's order,
// so an explicit --ordering seed contradicts the gates and is an error;
// --ordering kubectl, or none, is fine.
func Ordering(fs *pflag.FlagSet, value string, gates features.Gates) (apply.Ordering, error) {
	o, err := apply.ParseOrdering(value)
	if err != nil {
		return o, err
	}
	if o == apply.OrderingSeed && !gates.Enabled(features.SeedOrdering) && fs.Changed("ordering") {
		return o, errors.New("--ordering seed contradicts the SeedOrdering feature gate, which --compat=kubectl or --feature-gates " +
			"turns off (the order is then kubectl's): drop one of them")
	}
	return o, nil
}

// GatesHelp is the "Feature gates" section of the help of the commands
// that take GateFlags: every gate, on by default, and what it does.
func GatesHelp() string {
	var sb strings.Builder
	sb.WriteString("\nFeature gates (--feature-gates Name=true|false,...; all on by default, --compat=kubectl turns all off):\n")
	width := 0
	for _, g := range features.All() {
		width = max(width, len(g.String()))
	}
	pad := strings.Repeat(" ", width+4)
	for _, g := range features.All() {
		on, off, _ := strings.Cut(g.Summary(), "; off: ")
		sb.WriteString("  " + g.String() + pad[len(g.String())+2:] + on + "\n")
		if off != "" {
			sb.WriteString(pad + "off: " + off + "\n")
		}
	}
	return sb.String()
}

// gatesHelpFunc is the template function that writes GatesHelp into a
// usage template, so that the section is built when a help is printed, not
// for every command each time a command tree is built.
const gatesHelpFunc = "plyGatesHelp"

func init() { cobra.AddTemplateFunc(gatesHelpFunc, GatesHelp) }

// WithGatesHelp appends the feature gates' section to the help of c.
func WithGatesHelp(c *cobra.Command) *cobra.Command {
	c.SetUsageTemplate(c.UsageTemplate() + "{{" + gatesHelpFunc + "}}")
	return c
}
