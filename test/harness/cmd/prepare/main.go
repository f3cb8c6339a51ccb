// Command prepare installs and builds what ply's cluster test suites need
// before they run: etcd (Debian's etcd-server when missing and running as
// root) and the kube-apiserver binary cached in $PLY_CACHE_DIR or
// ~/.cache/ply, and it checks that a kubectl 1.32 client is available. It
// is harness.Prepare plus harness.Kubectl as a program, for hack/test.sh and
// CI to run once before `go test ./...` so that the build does not count
// against a test timeout:
//
//	go run ./test/harness/cmd/prepare
//
// It exits 0 when everything is in place and 1 with a message otherwise.
package main

import (
	"fmt"
	"os"
	"time"

	"github.com/plyproject/ply/test/harness"
)

func main() {
	start := time.Now()
	if err := harness.Prepare(); err != nil {
		fmt.Fprintln(os.Stderr, "prepare:", err)
		os.Exit(1)
	}
	bin, err := harness.APIServerBinary()
	if err != nil {
		fmt.Fprintln(os.Stderr, "prepare:", err)
		os.Exit(1)
	}
	kubectl, err := harness.Kubectl()
	if err != nil {
		fmt.Fprintln(os.Stderr, "prepare:", err)
		os.Exit(1)
	}
	fmt.Printf("prepare: kube-apiserver %s at %s; kubectl %s; done in %s\n",
		harness.KubernetesVersion, bin, kubectl, time.Since(start).Round(time.Millisecond))
}
