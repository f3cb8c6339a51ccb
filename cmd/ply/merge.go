package main

import (
	"errors"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/plyproject/ply/cmd/internal/command"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/secrets"
	"github.com/plyproject/ply/pkg/value"
)

// mergeFunc is the engine merge runs; tests replace it to reach the panic
// recovery.
var mergeFunc = apply.Merge

// mergeFlags are the flags of ply merge.
type mergeFlags struct {
	local, recorded, live string
	schemas               schemaList
	typeName              string
	overwrite             bool
	ordering              string
	output                string
	changes               bool
	showSecrets           bool
	gates                 command.GateFlags
}

const mergeLong = `Prints the object the server should hold after applying local, given the
configuration applied last time (recorded) and the object on the server
(live). Each file holds one YAML or JSON document; "-" reads one of them
from standard input.

Exit codes: 0 success, 1 bad input, 2 usage error, 3 conflicts.`

const mergeExample = `  # Merge the three sources and print the result as YAML
  ply merge --recorded recorded.yaml --local local.yaml --live live.yaml

  # A first apply (no recorded), as JSON, with the changes on standard error
  ply merge --local local.yaml --live live.yaml -o json --changes

  # A custom resource, its schema from the CRD manifest
  ply merge --local w.yaml --live live.yaml --schema crds/widgets.yaml`

// newMergeCommand returns ply merge.
func newMergeCommand() *cobra.Command {
	var f mergeFlags
	c := command.Command("merge --local FILE [--recorded FILE] --live FILE", "Print the merged object of a three-way apply",
		mergeLong, mergeExample, func(c *cobra.Command) int { return runMerge(c, &f) })
	fs := c.Flags()
	fs.StringVar(&f.local, "local", "", "the configuration applied now (`file`, required)")
	fs.StringVar(&f.recorded, "recorded", "", "the configuration applied last time (`file`); absent, empty or null: first apply")
	fs.StringVar(&f.live, "live", "", "the object on the server (`file`, required); empty or null: it does not exist yet")
	addSchemaFlags(fs, &f.schemas, &f.typeName, &f.output, "local")
	fs.BoolVar(&f.overwrite, "overwrite", true, "let local win over changes made on the server; false: exit 3 on conflicts")
	fs.StringVar(&f.ordering, "ordering", "seed", "order of merged list items: seed (server-only items first) or kubectl (as kubectl apply);\n"+
		"kubectl whenever the SeedOrdering gate is off")
	fs.BoolVar(&f.changes, "changes", false, "also print the changes to live on standard error, one per line")
	fs.BoolVar(&f.showSecrets, "show-secrets", false, "print the values of a Secret (data, stringData and the last-applied annotation) instead of ***")
	f.gates.Register(fs)
	return command.WithGatesHelp(c)
}

// usageError reports a usage error of c and returns exitUsage.
func usageError(c *cobra.Command, msg string) int { return command.UsageError(c, msg) }

// runMerge is ply merge.
func runMerge(c *cobra.Command, f *mergeFlags) int {
	stdin, stdout, stderr := c.InOrStdin(), c.OutOrStdout(), c.ErrOrStderr()
	opts := apply.DefaultOptions()
	opts.Overwrite = f.overwrite
	opts.TypeName = f.typeName
	var err error
	if opts.Gates, err = f.gates.Gates(); err != nil {
		return usageError(c, err.Error())
	}
	if opts.Ordering, err = command.Ordering(c.Flags(), f.ordering, opts.Gates); err != nil {
		return usageError(c, err.Error())
	}
	if f.output != "yaml" && f.output != "json" {
		return usageError(c, "-o must be yaml or json, not "+strconv.Quote(f.output))
	}
	if f.local == "" {
		return usageError(c, "--local is required")
	}
	if f.live == "" {
		return usageError(c, "--live is required")
	}
	stdins := 0
	for _, p := range append([]string{f.local, f.recorded, f.live}, f.schemas...) {
		if p == "-" {
			stdins++
		}
	}
	if stdins > 1 {
		return usageError(c, `only one input can be read from standard input ("-")`)
	}

	in := inputs{stdin: stdin, showSecrets: f.showSecrets}
	local := in.add(elements.Local, f.local)
	live := in.add(elements.Live, f.live)
	recorded := value.Null
	if f.recorded != "" {
		recorded = in.add(elements.Recorded, f.recorded)
	}
	if len(f.schemas) > 0 {
		opts.Schema = in.schemas(f.schemas)
	}
	if in.err != "" {
		return inputError(stderr, in.err)
	}
	for _, w := range opts.Schema.Warnings() {
		io.WriteString(stderr, "warning: "+schemaWarning(w)+"\n")
	}

	res, err := mergeFunc(recorded, local, live, opts)
	if err != nil {
		return in.mergeError(stderr, err)
	}
	for _, w := range res.Warnings {
		io.WriteString(stderr, "warning: "+w+"\n")
	}
	if f.changes {
		var sb strings.Builder
		for _, c := range res.Changes {
			sb.WriteString(c.Op.String())
			sb.WriteByte(' ')
			sb.WriteString(c.Path().String())
			sb.WriteString(" (")
			sb.WriteString(c.Source.String())
			sb.WriteString(")\n")
		}
		io.WriteString(stderr, sb.String())
	}
	obj := res.Object
	if !f.showSecrets {
		obj = secrets.MaskObject(obj)
	}
	out := obj.YAML()
	if f.output == "json" {
		out = obj.IndentJSON("  ")
	}
	if _, err := stdout.Write(out); err != nil {
		return inputError(stderr, "writing the output: "+err.Error())
	}
	return exitOK
}

// inputError reports bad input on one line (the lines of a multi-line
// message joined by "; ") and returns exitInput.
func inputError(stderr io.Writer, msg string) int {
	lines := strings.FieldsFunc(msg, func(r rune) bool { return r == '\n' || r == '\r' })
	io.WriteString(stderr, "ply: "+strings.Join(lines, "; ")+"\n")
	return exitInput
}

// inputs reads merge's files, keeping the first error and the name of the
// file each source came from.
type inputs struct {
	stdin io.Reader
	// files maps each source to the name of its file, for messages.
	files [elements.Patch + 1]string
	// err is the first problem, as the message to print; later reads are
	// skipped once it is set.
	err string
	// showSecrets prints the values of a Secret's conflicts (else ***).
	showSecrets bool
}

// displayName is the name messages use for path.
func displayName(path string) string {
	if path == "-" {
		return "stdin"
	}
	return path
}

// label names a source and its file for messages: "local (deploy.yaml)".
func (in *inputs) label(s elements.Source) string {
	if s == elements.NoSource || int(s) >= len(in.files) || in.files[s] == "" {
		return s.String()
	}
	return s.String() + " (" + in.files[s] + ")"
}

// read returns the content of path ("-": standard input), reading at most
// one byte more than parse accepts so that parse reports an oversized
// input.
func (in *inputs) read(path string) ([]byte, error) {
	r := in.stdin
	if path != "-" {
		f, err := openInput(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	return io.ReadAll(io.LimitReader(r, parse.DefaultMaxBytes+1))
}

// readError renders a failure to read a file without repeating its name.
func readError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return "cannot read: " + pe.Err.Error()
	}
	return "cannot read: " + err.Error()
}

// add reads the document of source s from path. Local must hold one
// document; recorded and live may be empty or null, which gives value.Null.
func (in *inputs) add(s elements.Source, path string) value.Value {
	if in.err != "" {
		return value.Null
	}
	in.files[s] = displayName(path)
	data, err := in.read(path)
	if err != nil {
		in.err = in.label(s) + ": " + readError(err)
		return value.Null
	}
	docs, err := parse.Documents(data)
	switch {
	case err == nil && len(docs) == 1:
		return docs[0]
	case err == nil && len(docs) == 0 && s != elements.Local:
		return value.Null
	case err == nil:
		// No document in local, or several: Document says which.
		_, err = parse.Document(data)
	}
	in.err = in.label(s) + ": " + err.Error()
	return value.Null
}

// schemaList collects the values of the repeatable --schema flag.
type schemaList []string

// String renders the list for flag's help (empty: no default shown).
func (l *schemaList) String() string { return strings.Join(*l, ",") }

// Type names the value in the help.
func (l *schemaList) Type() string { return "strings" }

// Set adds one --schema value.
func (l *schemaList) Set(v string) error {
	if v == "" {
		return errors.New("the value is empty, want a file or folder")
	}
	*l = append(*l, v)
	return nil
}

// schemas loads the --schema files and folders in order ("-": standard
// input) and returns their union, falling back to the embedded default so
// that built-in kinds still resolve.
func (in *inputs) schemas(paths []string) *openapi.Schema {
	if in.err != "" {
		return nil
	}
	all := make([]*openapi.Schema, 0, len(paths)+1)
	for _, path := range paths {
		var s *openapi.Schema
		var err error
		if path == "-" {
			data, rerr := in.read(path)
			if rerr != nil {
				in.err = "schema (stdin): " + readError(rerr)
				return nil
			}
			s, err = openapi.LoadSource(displayName(path), data)
		} else {
			s, err = openapi.LoadSources(path)
		}
		if err != nil {
			in.err = schemaError(displayName(path), err)
			return nil
		}
		all = append(all, s)
	}
	def, err := openapi.Default()
	if err != nil {
		in.err = schemaError("embedded default", err)
		return nil
	}
	return openapi.Union(append(all, def)...)
}

// schemaWarning renders a departure from the OpenAPI specification a
// --schema document holds, which the loader read past as kube-openapi
// does: "schema (<file>): definition <name>, field <path>: <msg>".
func schemaWarning(w openapi.Warning) string {
	return schemaError(w.Document, &openapi.Error{Document: w.Document, Definition: w.Definition, Path: w.Path, Msg: w.Msg})
}

// schemaError renders a schema loading error: "schema (<file>):
// definition <name>, field <path>: <msg>".
func schemaError(name string, err error) string {
	var oe *openapi.Error
	if !errors.As(err, &oe) {
		return "schema (" + name + "): " + err.Error()
	}
	msg := "schema (" + oe.Document + "): "
	if oe.Definition != "" {
		msg += "definition " + oe.Definition
		if oe.Path != "" {
			msg += ", field " + oe.Path
		}
		msg += ": "
	}
	return msg + oe.Msg
}

// mergeError reports an error of the engine and returns its exit code.
func (in *inputs) mergeError(stderr io.Writer, err error) int {
	var ce *apply.ConflictError
	if errors.As(err, &ce) {
		var sb strings.Builder
		sb.WriteString("ply: ")
		sb.WriteString(strconv.Itoa(len(ce.Conflicts)))
		if len(ce.Conflicts) == 1 {
			sb.WriteString(" conflict")
		} else {
			sb.WriteString(" conflicts")
		}
		sb.WriteString(" with changes made on the server since the last apply (--overwrite=true lets local win):\n")
		for _, c := range ce.Conflicts {
			sb.WriteString("  " + c.Describe(in.showSecrets) + "\n")
		}
		io.WriteString(stderr, sb.String())
		return exitConflict
	}
	var ee *elements.Error
	if errors.As(err, &ee) {
		msg := in.label(ee.Source)
		if len(ee.Path) > 0 {
			if msg != "" {
				msg += " "
			}
			msg += ee.Path.String()
		}
		if msg != "" {
			msg += ": "
		}
		return inputError(stderr, msg+ee.Msg)
	}
	return inputError(stderr, err.Error())
}
