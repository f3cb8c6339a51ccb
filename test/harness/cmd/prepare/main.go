// Command prepare installs and builds what ply's cluster test suites need
// before they run: etcd (Debian's etcd-server when missing and running as
// root) and the kube-apiserver binary cached in $PLY_CACHE_DIR or
// ~/.cache/ply, and it checks that a kubectl 1.32 client is available. It
// is harness.Prepare plus harness.Kubectl as a program, for hack/test.sh and
// CI to run once before `go test ./...` so that the build does not count
// against a test timeout:
//
//	go run ./test/harness/cmd/prepare        # the stock kube-apiserver
//	go run ./test/harness/cmd/prepare -ply   # and the one built on ply
//
// With -ply, or PLY_TEST_APISERVER=ply, it also builds the kube-apiserver
// whose strategic merge patches run on ply (harness.PlyAPIServer), cached
// under the hash of ply's sources that build reads.
//
// It exits 0 when everything is in place and 1 with a message otherwise.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/plyproject/ply/test/harness"
)

func main() {
	withPly := flag.Bool("ply", false, "also build the kube-apiserver whose strategic merge patches run on ply")
	flag.Parse()
	start := time.Now()
	kinds := []harness.APIServer{harness.StockAPIServer}
	fromEnv, err := harness.APIServerFromEnv()
	if err != nil {
		fail(err)
	}
	if *withPly || fromEnv == harness.PlyAPIServer {
		kinds = append(kinds, harness.PlyAPIServer)
	}
	for _, kind := range kinds {
		bin, err := harness.PrepareAPIServer(kind)
		if err != nil {
			fail(err)
		}
		fmt.Printf("prepare: kube-apiserver %s (%s) at %s\n", harness.KubernetesVersion, kind, bin)
	}
	kubectl, err := harness.Kubectl()
	if err != nil {
		fail(err)
	}
	fmt.Printf("prepare: kubectl %s; done in %s\n", kubectl, time.Since(start).Round(time.Millisecond))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "prepare:", err)
	os.Exit(1)
}
