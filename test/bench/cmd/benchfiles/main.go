// Command benchfiles writes one input of the three-way benchmarks
// (test/internal/benchcase) as files, for timing whole commands on it:
// recorded.json, local.json and live.json (compact JSON, what Make builds)
// and patch.json, the strategic merge patch kubectl would send for them
// (computed by strategicpatch, the test-only oracle), in the directory -dir.
//
//	go run ./test/bench/cmd/benchfiles -dir /tmp/ply-start -env 10 -change one
//
// The files are byte-for-byte reproducible: the same flags write the same
// bytes. hack/startup.sh uses them to time ply merge and ply patch.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/plyproject/ply/test/internal/benchcase"
	"github.com/plyproject/ply/test/oracle"
)

func main() {
	dir := flag.String("dir", "", "the directory to write the files to (created if missing; required)")
	env := flag.Int("env", 10, "the number of env entries of the Deployment")
	change := flag.String("change", "one", `the local edit: "one" (the image) or "all" (every env value)`)
	flag.Parse()
	if *dir == "" || *env <= 0 || (*change != "one" && *change != "all") || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: benchfiles -dir DIR [-env N] [-change one|all]")
		os.Exit(2)
	}
	if err := write(*dir, benchcase.Make(*env, *change)); err != nil {
		fmt.Fprintln(os.Stderr, "benchfiles:", err)
		os.Exit(1)
	}
}

// write writes the documents of in, and kubectl's patch for them, to dir.
func write(dir string, in benchcase.Input) error {
	models, err := oracle.Default()
	if err != nil {
		return err
	}
	o, err := models.Oracle(benchcase.TypeName)
	if err != nil {
		return err
	}
	res, err := o.Apply(in.Recorded, in.Local, in.Live, true)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, data := range map[string][]byte{
		"recorded.json": in.Recorded, "local.json": in.Local, "live.json": in.Live, "patch.json": res.Patch,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), append(data, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}
