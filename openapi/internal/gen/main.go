// Command gen writes openapi/default/swagger.json, the default schema ply
// embeds: the published OpenAPI v2 document of Kubernetes
// reduce.KubernetesVersion, found in the Go module cache and reduced by
// package reduce. It runs through `go generate ./openapi/` and writes the
// same bytes every time.
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
	out := flag.String("out", filepath.Join("default", "swagger.json"), "file to write the reduced document to")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	src, err := reduce.Locate(ctx, reduce.KubernetesVersion)
	if err != nil {
		return err
	}
	doc, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	reduced, err := reduce.Reduce(doc)
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	// Write beside the target and rename, so a failed run never leaves a
	// truncated file for the openapi package to embed.
	tmp, err := os.CreateTemp(filepath.Dir(out), ".swagger-*.json")
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
