package command

import (
	"encoding/json"
	"io"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/plyproject/ply/openapi"
)

// VersionInfo is what version prints.
type VersionInfo struct {
	// Program is the binary: "ply" or "kubectl-ply".
	Program string `json:"program"`
	// Version is the module version, "(devel)" in a build from a checkout.
	Version string `json:"version"`
	// GoVersion is the Go release the binary was built with.
	GoVersion string `json:"goVersion"`
	// EmbeddedSchema is the Kubernetes release of the embedded schema.
	EmbeddedSchema string `json:"embeddedSchema"`
}

// Version returns the version information of the binary program.
func Version(program string) VersionInfo {
	v := VersionInfo{Program: program, Version: "(devel)", GoVersion: runtime.Version(), EmbeddedSchema: openapi.DefaultKubernetesVersion}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	return v
}

func newVersionCommand(name string) *cobra.Command {
	var output string
	c := &cobra.Command{
		Use:   "version",
		Short: "Print the version of " + name + " and of its embedded schema",
		Long:  "Prints the version of " + name + ", and the Kubernetes release of the schema it embeds\n(used by the file commands; apply and diff read the server's).",
		Example: "  # the version, on two lines\n  " + name + " version\n\n" +
			"  # the version as JSON, for scripts\n  " + name + " version -o json",
		Args: NoArgs,
		RunE: RunE(func(c *cobra.Command, _ []string) int {
			v := Version(strings.ReplaceAll(name, " ", "-"))
			w := c.OutOrStdout()
			switch output {
			case "":
				io.WriteString(w, v.Program+" "+v.Version+"\nembedded schema: Kubernetes "+v.EmbeddedSchema+"\n")
			case "json":
				data, _ := json.MarshalIndent(v, "", "  ")
				w.Write(append(data, '\n'))
			default:
				return UsageError(c, "--output must be json, or not given, not "+strconv.Quote(output))
			}
			return ExitOK
		}),
	}
	c.Flags().StringVarP(&output, "output", "o", "", "output `format`: json (default: two lines of text)")
	return c
}
