// Command gen writes the default schemas ply embeds: openapi/default/swagger.json,
// the published OpenAPI v2 document of Kubernetes reduce.KubernetesVersion,
// and openapi/default/v3/*.json, its published OpenAPI v3 documents of
// every group-version, all found in the Go module cache and reduced by
// package reduce. It runs through `go generate ./openapi/` and writes the
// same bytes every time; v3 files of group-versions the release no longer
// has are removed.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/plyproject/ply/openapi/internal/reduce"
)

func main() {
	out := flag.String("out", filepath.Join("default", "swagger.json"), "file to write the reduced v2 document to")
	outV3 := flag.String("out-v3", filepath.Join("default", "v3"), "folder to write the reduced v3 documents to")
	flag.Parse()
	if err := run(*out, *outV3); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out, outV3 string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	src, err := reduce.Locate(ctx, reduce.KubernetesVersion)
	if err != nil {
		return err
	}
	if err := convert(src, out, reduce.Reduce); err != nil {
		return err
	}
	srcV3 := filepath.Join(filepath.Dir(src), "v3")
	names, err := reduce.V3Files(srcV3)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(outV3, 0o755); err != nil {
		return err
	}
	keep := make(map[string]bool, len(names))
	for _, name := range names {
		keep[name] = true
		if err := convert(filepath.Join(srcV3, name), filepath.Join(outV3, name), reduce.ReduceV3); err != nil {
			return err
		}
	}
	stale, err := filepath.Glob(filepath.Join(outV3, "*.json"))
	if err != nil {
		return err
	}
	for _, f := range stale {
		if !keep[filepath.Base(f)] {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	return nil
}

// convert reduces the document src into the file out.
func convert(src, out string, reduceDoc func([]byte) ([]byte, error)) error {
	doc, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	reduced, err := reduceDoc(doc)
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	// Write beside the target and rename, so a failed run never leaves a
	// truncated file for the openapi package to embed.
	tmp, err := os.CreateTemp(filepath.Dir(out), ".reduced-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(reduced); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), out)
}
