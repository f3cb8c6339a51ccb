package main

import (
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/plyproject/ply/cmd/internal/command"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/pkg/secrets"
	"github.com/plyproject/ply/pkg/value"
)

// The engines ply patch runs; tests replace them to reach the error paths.
var (
	patchApplyFunc    = patch.Apply
	patchTwoWayFunc   = patchgen.TwoWay
	patchThreeWayFunc = patchgen.ThreeWay
)

const patchLong = `Applies and creates strategic merge patches on files:

  ply patch apply --live F --patch F [--schema F]... [--ordering seed|kubectl] [flags]
      print live with the strategic merge patch applied
  ply patch create --original F --modified F [--current F] [flags]
      print the strategic merge patch from original to modified: two-way
      (kubectl patch/edit), or three-way with --current (kubectl apply)

Each file holds one YAML or JSON document; "-" reads one of them from
standard input. Exit codes: 0 success, 1 bad input, 2 usage error,
3 conflicts (create with --current and --overwrite=false).`

// patchApplyFlags are the flags of ply patch apply.
type patchApplyFlags struct {
	live, patch string
	schemas     schemaList
	typeName    string
	output      string
	ordering    string
	showSecrets bool
	gates       command.GateFlags
}

// patchCreateFlags are the flags of ply patch create.
type patchCreateFlags struct {
	original, modified, current string
	schemas                     schemaList
	typeName                    string
	overwrite                   bool
	output                      string
	showSecrets                 bool
	gates                       command.GateFlags
}

// addSchemaFlags adds the flags merge, patch apply and patch create share.
func addSchemaFlags(fs *pflag.FlagSet, schemas *schemaList, typeName, output *string, typeFrom string) {
	fs.Var(schemas, "schema", "a `file or folder` of schemas: OpenAPI v2 or v3 JSON, or CustomResourceDefinition manifests\n"+
		"(folders are read recursively, files ending .json, .yaml or .yml); repeatable, the first\n"+
		"that defines a kind wins, then the embedded Kubernetes "+openapi.DefaultKubernetesVersion+" schema")
	fs.StringVar(typeName, "type", "", "schema definition `name` of the object (default: found from "+typeFrom+"'s apiVersion and kind)")
	fs.StringVarP(output, "output", "o", "yaml", "output `format`: yaml or json")
}

const patchApplyLong = `Prints live with the strategic merge patch applied, as the API server
stores it after 'kubectl patch --type strategic' (with --ordering kubectl;
the default, seed, orders merged lists as the design documents say). Each
file holds one YAML or JSON document; "-" reads one of them from standard
input.

Exit codes: 0 success, 1 bad input, 2 usage error.`

const patchCreateLong = `Prints the strategic merge patch that turns original into modified. Without
--current it is the two-way patch of 'kubectl patch' and 'kubectl edit';
with --current (the object on the server) it is the three-way patch of
'kubectl apply', original being the configuration applied last time. No
change prints an empty object. Each file holds one YAML or JSON document;
"-" reads one of them from standard input.

Exit codes: 0 success, 1 bad input, 2 usage error, 3 conflicts.`

// newPatchCommand returns ply patch and its subcommands.
func newPatchCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "patch apply|create",
		Short: "Apply or create strategic merge patches on files",
		Long:  patchLong,
		Args:  cobra.ArbitraryArgs,
		RunE: command.RunE(func(c *cobra.Command, args []string) int {
			stderr := c.ErrOrStderr()
			switch {
			case len(args) == 0:
				io.WriteString(stderr, "ply patch: missing subcommand, want apply or create\n\n")
			case args[0] == "help":
				c.Help()
				return exitOK
			default:
				io.WriteString(stderr, "ply patch: unknown subcommand "+strconv.Quote(args[0])+", want apply or create\n\n")
			}
			c.SetOut(stderr)
			c.Help()
			return exitUsage
		}),
	}
	c.AddCommand(newPatchApplyCommand(), newPatchCreateCommand())
	return command.WithGatesHelp(c)
}

func newPatchApplyCommand() *cobra.Command {
	var f patchApplyFlags
	c := command.Command("apply --live FILE --patch FILE", "Print live with a strategic merge patch applied", patchApplyLong,
		`  # Patch a Deployment as the API server would, in kubectl's list order
  ply patch apply --live live.yaml --patch patch.yaml --ordering kubectl`,
		func(c *cobra.Command) int { return runPatchApply(c, &f) })
	fs := c.Flags()
	fs.StringVar(&f.live, "live", "", "the object to patch (`file`, required); empty or null: it does not exist yet")
	fs.StringVar(&f.patch, "patch", "", "the strategic merge patch (`file`, required): an object")
	fs.BoolVar(&f.showSecrets, "show-secrets", false, "print the values of a Secret (data, stringData and the last-applied annotation) instead of ***")
	fs.StringVar(&f.ordering, "ordering", "seed", "order of merged list items: seed (design document 000: live items the patch does not order first)\n"+
		"or kubectl (as the API server's strategic merge patch); kubectl whenever the SeedOrdering gate is off")
	addSchemaFlags(fs, &f.schemas, &f.typeName, &f.output, "live")
	f.gates.Register(fs)
	return command.WithGatesHelp(c)
}

func newPatchCreateCommand() *cobra.Command {
	var f patchCreateFlags
	c := command.Command("create --original FILE --modified FILE [--current FILE]", "Print the two-way (or three-way) strategic merge patch",
		patchCreateLong, `  # The two-way patch of kubectl patch and kubectl edit
  ply patch create --original before.yaml --modified after.yaml

  # The three-way patch kubectl apply sends, failing on conflicts
  ply patch create --original recorded.yaml --modified local.yaml --current live.yaml --overwrite=false`,
		func(c *cobra.Command) int { return runPatchCreate(c, &f) })
	fs := c.Flags()
	fs.StringVar(&f.original, "original", "", "the configuration before (`file`); absent, empty or null: none (a first apply)")
	fs.StringVar(&f.modified, "modified", "", "the configuration after (`file`, required)")
	fs.StringVar(&f.current, "current", "", "the object on the server (`file`); given, the patch is three-way (kubectl apply's);\n"+
		"empty or null: it does not exist yet")
	fs.BoolVar(&f.overwrite, "overwrite", true, "three-way only: let modified win over changes made on the server; false: exit 3 on conflicts")
	fs.BoolVar(&f.showSecrets, "show-secrets", false, "print the values the patch gives a Secret (data, stringData and the last-applied annotation) instead of ***")
	addSchemaFlags(fs, &f.schemas, &f.typeName, &f.output, "modified")
	f.gates.Register(fs)
	return command.WithGatesHelp(c)
}

// checkCommon checks -o and that at most one input is standard input.
func checkCommon(c *cobra.Command, output string, paths ...string) (int, bool) {
	if output != "yaml" && output != "json" {
		return command.UsageError(c, "-o must be yaml or json, not "+strconv.Quote(output)), false
	}
	stdins := 0
	for _, p := range paths {
		if p == "-" {
			stdins++
		}
	}
	if stdins > 1 {
		return command.UsageError(c, `only one input can be read from standard input ("-")`), false
	}
	return 0, true
}

// runPatchApply is ply patch apply.
func runPatchApply(c *cobra.Command, f *patchApplyFlags) int {
	stdin, stdout, stderr := c.InOrStdin(), c.OutOrStdout(), c.ErrOrStderr()
	if code, ok := checkCommon(c, f.output, append([]string{f.live, f.patch}, f.schemas...)...); !ok {
		return code
	}
	if f.live == "" {
		return command.UsageError(c, "--live is required")
	}
	if f.patch == "" {
		return command.UsageError(c, "--patch is required")
	}
	gates, err := f.gates.Gates()
	if err != nil {
		return command.UsageError(c, err.Error())
	}
	ordering, err := command.Ordering(c.Flags(), f.ordering, gates)
	if err != nil {
		return command.UsageError(c, err.Error())
	}

	in := inputs{stdin: stdin}
	names := sourceNames{elements.Live: "live", elements.Patch: "patch"}
	live := in.addNamed(elements.Live, names, f.live)
	p := in.addNamed(elements.Patch, names, f.patch)
	if in.err == "" && !p.IsMap() {
		in.err = in.label(elements.Patch) + ": the patch must be an object, not " + kindName(p)
	}
	opts := patch.Options{TypeName: f.typeName, Ordering: ordering, Gates: gates}
	if len(f.schemas) > 0 {
		opts.Schema = in.schemas(f.schemas)
	}
	if in.err != "" {
		return inputError(stderr, in.err)
	}
	out, err := patchApplyFunc(live, p, opts)
	if err != nil {
		return in.patchError(stderr, names, err)
	}
	if !f.showSecrets {
		out = secrets.MaskObject(out)
	}
	return writeValue(stdout, stderr, out, f.output)
}

// runPatchCreate is ply patch create.
func runPatchCreate(c *cobra.Command, f *patchCreateFlags) int {
	stdin, stdout, stderr := c.InOrStdin(), c.OutOrStdout(), c.ErrOrStderr()
	if code, ok := checkCommon(c, f.output, append([]string{f.original, f.modified, f.current}, f.schemas...)...); !ok {
		return code
	}
	if f.modified == "" {
		return command.UsageError(c, "--modified is required")
	}
	threeWay := f.current != ""
	if !threeWay && !f.overwrite {
		return command.UsageError(c, "--overwrite=false needs --current (conflicts exist only in a three-way patch)")
	}
	gates, err := f.gates.Gates()
	if err != nil {
		return command.UsageError(c, err.Error())
	}

	in := inputs{stdin: stdin, showSecrets: f.showSecrets}
	names := sourceNames{elements.Recorded: "original", elements.Local: "modified", elements.Live: "current"}
	original := value.Null
	if f.original != "" {
		original = in.addNamed(elements.Recorded, names, f.original)
	}
	modified := in.addNamed(elements.Local, names, f.modified)
	current := value.Null
	if threeWay {
		current = in.addNamed(elements.Live, names, f.current)
	}
	opts := patchgen.Options{TypeName: f.typeName, Overwrite: f.overwrite, Gates: gates}
	if len(f.schemas) > 0 {
		opts.Schema = in.schemas(f.schemas)
	}
	if in.err != "" {
		return inputError(stderr, in.err)
	}
	var out value.Value
	if threeWay {
		out, err = patchThreeWayFunc(original, modified, current, opts)
	} else {
		out, err = patchTwoWayFunc(original, modified, opts)
	}
	if err != nil {
		return in.patchError(stderr, names, err)
	}
	if !f.showSecrets && (secrets.Is(modified) || secrets.Is(original) || secrets.Is(current)) {
		out = secrets.MaskPatch(out)
	}
	return writeValue(stdout, stderr, out, f.output)
}

// sourceNames are the names a patch command gives its inputs in messages
// ("original" for elements.Recorded in ply patch create); a source without
// a name is called by Source.String.
type sourceNames [elements.Patch + 1]string

// name returns the message name of s.
func (n *sourceNames) name(s elements.Source) string {
	if int(s) < len(n) && n[s] != "" {
		return n[s]
	}
	return s.String()
}

// addNamed reads source s from path like inputs.add, with the source
// called by its name in names in a read or parse error.
func (in *inputs) addNamed(s elements.Source, names sourceNames, path string) value.Value {
	if in.err != "" {
		return value.Null
	}
	v := in.add(s, path)
	if in.err != "" {
		in.err = in.namedLabel(s, names) + strings.TrimPrefix(in.err, in.label(s))
	}
	return v
}

// namedLabel is label with s called by its name in names:
// "original (a.yaml)".
func (in *inputs) namedLabel(s elements.Source, names sourceNames) string {
	label := in.label(s)
	if rest, ok := strings.CutPrefix(label, s.String()); ok && s != elements.NoSource {
		return names.name(s) + rest
	}
	return label
}

// patchError reports an error of the patch engines and returns its exit
// code: an *elements.Error names the input by its name in names, its file
// and the field path; everything else (conflicts included) is reported as
// merge reports it.
func (in *inputs) patchError(stderr io.Writer, names sourceNames, err error) int {
	var ee *elements.Error
	if errors.As(err, &ee) && ee.Source != elements.NoSource {
		msg := in.namedLabel(ee.Source, names)
		if len(ee.Path) > 0 {
			msg += " " + ee.Path.String()
		}
		return inputError(stderr, msg+": "+ee.Msg)
	}
	return in.mergeError(stderr, err)
}

// writeValue prints v as YAML or JSON.
func writeValue(stdout, stderr io.Writer, v value.Value, output string) int {
	out := v.YAML()
	if output == "json" {
		out = v.IndentJSON("  ")
	}
	if _, err := stdout.Write(out); err != nil {
		return inputError(stderr, "writing the output: "+err.Error())
	}
	return exitOK
}

// kindName names the JSON kind of v for messages.
func kindName(v value.Value) string {
	switch v.Kind() {
	case value.KindNull:
		return "null (or empty)"
	case value.KindBool:
		return "a boolean"
	case value.KindInt, value.KindFloat:
		return "a number"
	case value.KindString:
		return "a string"
	case value.KindList:
		return "a list"
	}
	return "an object"
}
