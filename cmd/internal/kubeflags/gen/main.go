// Command gen writes cmd/internal/kubeflags/zz_generated.go, the table of
// kubectl's connection and print flags read from k8s.io/cli-runtime (see
// package extract):
//
//	go generate ./cmd/internal/kubeflags/
package main

import (
	"fmt"
	"os"

	"github.com/plyproject/ply/cmd/internal/kubeflags/internal/extract"
)

func main() {
	src, err := extract.Source()
	if err == nil {
		err = os.WriteFile("zz_generated.go", src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "kubeflags/gen:", err)
		os.Exit(1)
	}
}
